package main

import (
	"strings"
	"testing"

	"github.com/resilientgo/resilient/observe/observetest"
)

// The README promises that this example runs offline, that every call is
// answered at little more than one request per call, and that the log names
// the deployments; keep it honest.
func TestRuns(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	var out, logs observetest.LogBuffer
	r, err := run(&out, logs.Logger())
	if err != nil {
		t.Fatal(err)
	}
	if r.answered != r.calls || float64(r.requests)/float64(r.calls) > 1.5 || r.mostInFlight > maxConcurrent {
		t.Errorf("%d of %d calls answered with %d requests, %d at most in flight at one deployment; want all, at most 1.5 per call, at most %d:\n%s",
			r.answered, r.calls, r.requests, r.mostInFlight, maxConcurrent, out.String())
	}
	for _, want := range []string{`msg="cooling down" target=westus delay=20s`, `msg=retrying target=eastus`} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the log lacks %q:\n%s", want, logs.String())
		}
	}
	// Before westus's 429 comes back each caller may have sent it one
	// request (the callers start at once), and a caller whose request there
	// succeeded may pick it once more before the caller that got the 429
	// has recorded the cooldown (CI met 5 once on a busy machine); after
	// that, none until its cooldown ends, long after the example. A cooldown
	// not kept sends it about a third of the forty calls.
	if got := r.byDeployment["westus"]; got < 1 || got > 2*callers {
		t.Errorf("the rate-limited deployment got %d requests, want 1 to %d (the calls in flight before its 429 is recorded): it was asked again during its cooldown:\n%s",
			got, 2*callers, out.String())
	}
}
