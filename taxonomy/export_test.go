package taxonomy

import "strings"

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
