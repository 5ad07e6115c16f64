package taxonomy_test

import (
	"bytes"
	"os"
	"os/exec"
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
//
// Under the race detector (`go test -race ./...`), the comparison of every
// text runs in a test binary of its own built without it (it compares pure
// functions' results: the race detector makes it thirty times slower and can
// find nothing in it), while this binary matches a few long texts in windows
// from every CPU at once, under the race detector, as Classify does. Where
// the go command cannot build that binary, every text is compared here.
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
	workers := runtime.GOMAXPROCS(0)
	if raceDetector && os.Getenv(windowsChild) == "" && compareWithoutRace(t) {
		var long []check
		for _, c := range checks {
			if len(c.text) > 2*len(filler) && len(long) < 2*workers {
				long = append(long, c)
			}
		}
		checks = long
	}
	var wg sync.WaitGroup
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

// windowsChild is set in the environment of the test binary that
// compareWithoutRace runs.
const windowsChild = "RESILIENT_TAXONOMY_WINDOWS_CHILD"

// compareWithoutRace runs TestWindowsMatchAsTheWholeText in a test binary
// built without the race detector, and reports whether it ran there (its
// failure fails t). It reports false when the go command could not build or
// run it.
func compareWithoutRace(t *testing.T) bool {
	goTool, err := exec.LookPath("go") // go test puts its own first in PATH
	if err != nil {
		t.Logf("no go command (%v): every text is compared under the race detector", err)
		return false
	}
	cmd := exec.CommandContext(t.Context(), goTool, "test", "-race=false", "-count=1", "-v", "-run=^TestWindowsMatchAsTheWholeText$", ".")
	cmd.Env = append(os.Environ(), windowsChild+"=1")
	out, err := cmd.CombinedOutput()
	switch {
	case err == nil && bytes.Contains(out, []byte("--- PASS: TestWindowsMatchAsTheWholeText")):
		t.Logf("every text compared without the race detector:\n%s", out)
		return true
	case bytes.Contains(out, []byte("--- FAIL: TestWindowsMatchAsTheWholeText")):
		t.Errorf("compared without the race detector:\n%s", out)
		return true
	default:
		t.Logf("go test without the race detector did not run (%v): every text is compared under it\n%s", err, out)
		return false
	}
}
