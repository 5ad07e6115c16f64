package taxonomy_test

import (
	"testing"

	"github.com/resilientgo/resilient/taxonomy"
)

// TestStartsFindTheLeftmostMatch checks, on every text of the tables and
// the held-out batches, that an expression tried anchored at the places
// where its matches may start finds the match the unanchored matcher
// finds: the same place and the same groups.
func TestStartsFindTheLeftmostMatch(t *testing.T) {
	texts := corpusTexts()
	compared := 0
	for _, text := range texts {
		out, n := taxonomy.StartsDisagreements(text)
		compared = max(compared, n)
		for _, o := range out {
			t.Errorf("%s", o)
		}
	}
	if compared < 30 {
		t.Errorf("%d expressions say where their matches start, want at least 30", compared)
	}
	t.Logf("%d expressions compared on %d texts", compared, len(texts))
}

// corpusTexts are the texts of the tables, the held-out batches, the
// development set and the long texts, once each.
func corpusTexts() []string {
	var errs []error
	for _, tt := range classifyCases() {
		if tt.err != nil {
			errs = append(errs, tt.err)
		}
	}
	for _, rows := range [][]heldOutRow{heldOut(), thirdTuning(), thirdSealed(), fourthTuning(), fourthSealed(),
		fifthTuning(), fifthSealed(), sixthTuning(), sixthSealed(), seventhTuning(), seventhSealed(),
		eighthTuning(), eighthSealed(), ninthTuning(), ninthSealed(), tenthTuning(), tenthSealed(),
		eleventhBatch(), twelfthBatch(), thirteenthBatch(), devSet()} {
		for _, r := range rows {
			errs = append(errs, r.err)
		}
	}
	errs = append(errs, longTexts()...)
	seen := map[string]bool{}
	var texts []string
	for _, err := range errs {
		if s := safeText(err); !seen[s] {
			seen[s] = true
			texts = append(texts, s)
		}
	}
	return texts
}
