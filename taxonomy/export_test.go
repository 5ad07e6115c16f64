package taxonomy

import (
	"slices"
	"strconv"
	"strings"
)

// WindowDisagreements returns the patterns whose match on the lowercased
// text, tried in windows around their literals, differs from their match
// along the whole text: for TestWindowsMatchAsTheWholeText.
func WindowDisagreements(text string) []string {
	var t lowered
	t.prepare(text)
	var out []string
	for _, rs := range [][]textRule{sizeLimitRules.rules, overflowRules.rules, unloadableRules.rules, billingRules.rules, textRules} {
		for _, r := range rs {
			if r.re == nil || !r.re.windowed(&t) {
				continue
			}
			if r.re.matchWindows(&t) != r.re.re.MatchString(t.s) {
				out = append(out, r.name)
			}
		}
	}
	if i := strings.Index(t.s, "try"); i >= 0 {
		// The wait expression ran along the text from its first "try" before
		// it was tried at each "try again" and "retry".
		_, m := retryHintMatch(&t)
		if whole := guard(retryHintExpr).re.MatchString(t.s[max(i-3, 0):]); (m != nil) != whole {
			out = append(out, "retryHint")
		}
	}
	return out
}

// StartsDisagreements returns the expressions whose leftmost match, found
// by trying them anchored at the places starts finds, differs from the
// unanchored matcher's on the lowercased text or on a window around one of
// its numbers: for TestStartsFindTheLeftmostMatch. It also returns how
// many expressions were compared.
func StartsDisagreements(text string) (out []string, compared int) {
	var t lowered
	t.prepare(text)
	texts := []string{t.s}
	for _, p := range t.numbers() {
		texts = append(texts, statusWindow(t.s, p), wordWindow(t.s, p, 8, 13))
	}
	for _, g := range guards {
		if g.starts == nil {
			continue
		}
		compared++
		for _, s := range texts {
			if !g.mayMatch(s) {
				continue // every match holds the literals the text lacks
			}
			want := g.re.FindStringSubmatchIndex(s)
			got, ok := g.starts.find(s)
			matched, mok := g.starts.match(s)
			if ok && !slices.Equal(got, want) || mok && matched != (want != nil) {
				out = append(out, g.re.String()+" on "+strconv.Quote(s))
			}
		}
	}
	return out, compared
}
