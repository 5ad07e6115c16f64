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

// ModelRow is one labelled error of the token model's corpus.
type ModelRow struct {
	Err  error
	Kind Kind
}

// ModelConfig is the token model's training settings (trainConfig).
type ModelConfig struct {
	MaxFeatures, MinRows, MinTokens  int
	Alpha, Threshold, FallbackWeight float64
	Uniform                          bool
}

// TokenModel is a trained token model, for the tests of its training and
// of its figures on batches it was not trained on.
type TokenModel struct{ m *tokenModel }

// TrainTokenModel trains a token model on rows.
func TrainTokenModel(rows []ModelRow, cfg ModelConfig) TokenModel {
	rs := make([]modelRow, len(rows))
	for i, r := range rows {
		rs[i] = modelRow{r.Err, r.Kind}
	}
	return TokenModel{trainTokenModel(rs, trainConfig{
		maxFeatures: cfg.MaxFeatures, minRows: cfg.MinRows, alpha: cfg.Alpha,
		uniform: cfg.Uniform, threshold: cfg.Threshold, minTokens: cfg.MinTokens,
		fallbackWeight: cfg.FallbackWeight,
	})}
}

// Classify is Classify with m as the last resort.
func (m TokenModel) Classify(err error) Class { return classify(err, m.m) }

// Encode writes m as tokmodel.txt holds it, with header as its comment.
func (m TokenModel) Encode(header string) string { return m.m.encode(header) }

// Tokens is the number of tokens m knows.
func (m TokenModel) Tokens() int { return len(m.m.index) }

// Fallback is m's answer alone, as if no rule had spoken (ok false: it
// abstains).
func (m TokenModel) Fallback(err error) (Class, bool) {
	text, ev, ok := modelInput(err)
	if !ok {
		return Class{}, false
	}
	return m.m.classify(text, &ev)
}

// RulesOnly is Classify without the token model.
func RulesOnly(err error) Class { return classify(err, nil) }

// ShippedTokenModel is the text of the shipped model, tokmodel.txt.
func ShippedTokenModel() string { return tokenModelText }

// ModelTokens is the token model's tokens of a text with no evidence.
func ModelTokens(text string) []string {
	var toks []string
	eachModelToken(text, &Evidence{}, func(tok []byte) { toks = append(toks, string(tok)) })
	return toks
}

// ShippedModel is the model Classify uses.
func ShippedModel() TokenModel { return TokenModel{shipped()} }

// The parsers of HeaderEvidence, for their tests.
var (
	ParseShouldRetry      = parseShouldRetry
	ParseRetryAfterMillis = parseRetryAfterMillis
)
