package taxonomy_test

import (
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/resilientgo/resilient/taxonomy"
)

// TestWindowsMatchAsTheWholeText checks that a pattern tried only around
// its literals (on a long text) matches where it matches along the whole
// text: for every text of the tables, alone and inside a long text of
// words that hold the patterns' common literals. Each text is checked once
// (some cases share one), the texts spread over every CPU: matching every
// pattern along every whole text is most of the package's test time, ten
// times more under the race detector.
func TestWindowsMatchAsTheWholeText(t *testing.T) {
	filler := strings.Repeat("the connection to the token service is in context; please retry the request now. ", 4)
	type check struct{ name, text string }
	var checks []check
	seen := map[string]bool{}
	for _, tt := range classifyCases() {
		if tt.err == nil {
			continue
		}
		msg := safeText(tt.err)
		for _, text := range []string{msg, filler + msg, msg + " " + filler, filler + msg + " " + filler} {
			if !seen[text] {
				seen[text] = true
				checks = append(checks, check{tt.name, text})
			}
		}
	}
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(checks); i += workers {
				c := checks[i]
				if got := taxonomy.WindowDisagreements(c.text); len(got) > 0 {
					t.Errorf("%s: in windows and along the whole text, these disagree: %v (text %.80q)", c.name, got, c.text)
				}
			}
		})
	}
	wg.Wait()
}
