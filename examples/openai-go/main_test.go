package main

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// The package comment promises an answer after every fault, one request
// per fault and per step, and a log of the recoveries; keep it honest.
func TestRuns(t *testing.T) {
	var out, logs bytes.Buffer
	r, err := run(&out, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.answer, "Order 4471 shipped") || r.requests != 6 || r.usage.Requests != 6 || r.usage.OutputTokens == 0 {
		t.Errorf("got %q after %d requests, usage %+v; want the answer after 6 requests, counted by the run with its tokens",
			r.answer, r.requests, r.usage)
	}
	for _, want := range []string{"kind=rate_limited", "delay=300ms", "in-band error", "status 529", "status 502", "msg=recovered"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the log lacks %q:\n%s", want, logs.String())
		}
	}
}
