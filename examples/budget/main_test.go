package main

import (
	"io"
	"testing"
)

// The README promises that this example runs offline and that the usage
// adds up; keep it honest.
func TestRuns(t *testing.T) {
	r, err := run(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if u, want := r.used, r.reported; u.Requests != want.Requests || u.InputTokens != want.InputTokens ||
		u.OutputTokens != want.OutputTokens || u.Tokens() < budget {
		t.Errorf("usage %+v, the server received %d requests and reported %d+%d tokens; the budget is %d",
			u, want.Requests, want.InputTokens, want.OutputTokens, budget)
	}
}
