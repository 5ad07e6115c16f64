package taxonomy

import (
	"cmp"
	"math"
	"slices"
	"testing"
)

// Training of the token model (tokmodel.go). It lives in a test file: the
// package ships the trained weights (tokmodel.txt), not the trainer.
// TestTokenModelIsTrained (tokmodel_test.go) trains it on the labelled
// corpus and compares the result with the shipped file; -update writes it.

// modelRow is one labelled error of the corpus.
type modelRow struct {
	err  error
	kind Kind
}

// trainConfig holds the model's settings, chosen by the forward-chaining
// figures of docs/testing.md.
type trainConfig struct {
	maxFeatures int     // the most tokens the model keeps
	minRows     int     // the fewest rows a kept token appears in
	alpha       float64 // additive smoothing of the token counts
	uniform     bool    // a uniform prior instead of the kinds' shares
	threshold   float64 // the least posterior the model answers with
	minTokens   int     // the least known words it answers on, pairs aside
	// fallbackWeight is how many times a row counts that no rule decides:
	// the model answers only on such rows, and the tables hold near
	// misses there on purpose ("tool name length exceeds the maximum
	// length of 64" is no overflow).
	fallbackWeight float64
}

// modelKinds are the kinds the model tells apart: a cancellation is the
// caller's, never read from words.
var modelKinds = []Kind{Unknown, Transient, RateLimited, Overloaded, ContextOverflow, Permanent, Programming}

// modelInput is what Classify gives the token model for err: the text it
// reads and the evidence, the status written in the text included. ok is
// false for an error whose methods panic.
func modelInput(err error) (text string, ev Evidence, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	ev = gatherEvidence(err)
	text = err.Error()
	text = text[:min(len(text), maxText)]
	if ev.Status == 0 {
		var t lowered
		t.prepare(text)
		ev.Status, _ = textStatus(&t)
	}
	return modelText(text, &ev), ev, true
}

// rowTokens returns the distinct tokens of each row, sorted, the kinds'
// indexes in modelKinds and the rows' weights; rows the model cannot learn from (a nil
// error, one whose methods panic, a cancellation) are left out.
func rowTokens(rows []modelRow, fallbackWeight float64) ([][]string, []int, []float64) {
	var docs [][]string
	var labels []int
	var weights []float64
	for _, r := range rows {
		k := slices.Index(modelKinds, r.kind)
		if r.err == nil || k < 0 {
			continue
		}
		text, ev, ok := modelInput(r.err)
		if !ok {
			continue
		}
		var toks []string
		eachModelToken(text, &ev, func(tok []byte) { toks = append(toks, string(tok)) })
		slices.Sort(toks)
		docs = append(docs, slices.Compact(toks))
		labels = append(labels, k)
		w := 1.0
		if classify(r.err, nil).Rule == noRuleMatched {
			w = fallbackWeight
		}
		weights = append(weights, w)
	}
	return docs, labels, weights
}

// trainTokenModel fits the model to rows. Its result depends on the rows
// and their order only through counts: no map is iterated where an order
// could leak into the weights, and ties between tokens are broken by the
// tokens themselves.
func trainTokenModel(rows []modelRow, cfg trainConfig) *tokenModel {
	docs, labels, weights := rowTokens(rows, cfg.fallbackWeight)
	nk := len(modelKinds)
	perKind := make([]float64, nk)
	for i, l := range labels {
		perKind[l] += weights[i]
	}
	// The rows of each kind that hold each token.
	counts := map[string][]float64{}
	holders := map[string]int{} // the rows that hold each token
	for i, doc := range docs {
		for _, tok := range doc {
			holders[tok]++
			c := counts[tok]
			if c == nil {
				c = make([]float64, nk)
				counts[tok] = c
			}
			c[labels[i]] += weights[i]
		}
	}
	type candidate struct {
		tok string
		mi  float64
	}
	var cands []candidate
	n := 0.0
	for _, x := range perKind {
		n += x
	}
	for tok, c := range counts {
		if holders[tok] < cfg.minRows {
			continue
		}
		df := 0.0
		for _, x := range c {
			df += x
		}
		cands = append(cands, candidate{tok, mutualInformation(c, perKind, df, n)})
	}
	// The tokens that tell the kinds apart most, ties broken by the token.
	slices.SortFunc(cands, func(a, b candidate) int {
		return cmp.Or(cmp.Compare(b.mi, a.mi), cmp.Compare(a.tok, b.tok))
	})
	cands = cands[:min(len(cands), cfg.maxFeatures)]
	slices.SortFunc(cands, func(a, b candidate) int { return cmp.Compare(a.tok, b.tok) })

	m := &tokenModel{
		kinds:     modelKinds,
		index:     make(map[string]int, len(cands)),
		threshold: cfg.threshold,
		minTokens: cfg.minTokens,
	}
	// The kept tokens' counts per kind, summed in the order of the tokens.
	total := make([]float64, nk)
	for _, c := range cands {
		for k, x := range counts[c.tok] {
			total[k] += x
		}
	}
	v := float64(len(cands))
	for r, c := range cands {
		m.index[c.tok] = r
		m.names = append(m.names, c.tok)
		for k, x := range counts[c.tok] {
			m.weights = append(m.weights, round3(math.Log((x+cfg.alpha)/(total[k]+cfg.alpha*v))))
		}
	}
	m.prior = make([]float64, nk)
	for k := range m.prior {
		if cfg.uniform {
			m.prior[k] = round3(-math.Log(float64(nk)))
		} else {
			m.prior[k] = round3(math.Log((perKind[k] + 1) / (n + float64(nk))))
		}
	}
	return m
}

// mutualInformation is the information a token's presence carries about
// the kind: c holds the rows of each kind that hold it, perKind the rows
// of each kind, df the rows that hold it, n all rows.
func mutualInformation(c, perKind []float64, df, n float64) float64 {
	mi := 0.0
	for k, x := range c {
		for _, cell := range [2][2]float64{{x, df}, {perKind[k] - x, n - df}} {
			joint, marginal := cell[0], cell[1]
			if joint == 0 {
				continue
			}
			mi += joint / n * math.Log(joint*n/(marginal*perKind[k]))
		}
	}
	return mi
}

// round3 rounds to the three decimals the model is written with, so that
// the model trained and the model read back answer alike.
func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// BenchmarkParseTokenModel is the one-time cost of reading the shipped
// model, paid by the first error no rule decides.
func BenchmarkParseTokenModel(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parseTokenModel(tokenModelText); err != nil {
			b.Fatal(err)
		}
	}
}

// TestParseTokenModelRejects checks that a model file that is not one says
// where, rather than loading half a model.
func TestParseTokenModelRejects(t *testing.T) {
	const head = "kinds\tunknown permanent\nthreshold\t0.9\nmin-words\t3\nprior\t-1 -1\n"
	for _, text := range []string{
		"",                          // no prior
		"kinds\tunknown nonsense\n", // a kind that is none
		"kinds\tunknown\n",          // one kind
		"threshold\t0.9 0.8\n",      // two values
		"threshold\tmuch\n",         // no number
		"prior\t-1 -1\n",            // weights before the kinds
		head + "token x\t-1\n",      // a weight missing
		head + "token x\t-1 y\n",    // a weight that is no number
		head + "token x\t-1 -1\ntoken x\t-1 -1\n", // a token twice
		head + "word x\t-1 -1\n",                  // an unknown key
		head + "token x\t1 2 3 4 5 6 7 8 9\n",     // more values than kinds can have
	} {
		if _, err := parseTokenModel(text); err == nil {
			t.Errorf("parseTokenModel(%q): no error", text)
		}
	}
	m, err := parseTokenModel(head + "token x y\t-1 -2\n")
	if err != nil || m.index["x y"] != 0 || m.names[0] != "x y" || !slices.Equal(m.weights, []float64{-1, -2}) || m.minTokens != 3 || m.threshold != 0.9 {
		t.Errorf("parseTokenModel: %+v, %v", m, err)
	}
}
