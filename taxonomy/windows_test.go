package taxonomy_test

import (
	"strings"
	"testing"

	"github.com/resilientgo/resilient/taxonomy"
)

// TestWindowsMatchAsTheWholeText checks that a pattern tried only around
// its literals (on a long text) matches where it matches along the whole
// text: for every text of the tables, alone and inside a long text of
// words that hold the patterns' common literals.
func TestWindowsMatchAsTheWholeText(t *testing.T) {
	filler := strings.Repeat("the connection to the token service is in context; please retry the request now. ", 4)
	for _, tt := range classifyCases() {
		if tt.err == nil {
			continue
		}
		msg := safeText(tt.err)
		for _, text := range []string{msg, filler + msg, msg + " " + filler, filler + msg + " " + filler} {
			if got := taxonomy.WindowDisagreements(text); len(got) > 0 {
				t.Errorf("%s: in windows and along the whole text, these disagree: %v (text %.80q)", tt.name, got, text)
			}
		}
	}
}
