package main

import (
	"strings"
	"testing"
	"testing/synctest"

	"github.com/resilientgo/resilient/faultserver"
)

// On a terminal the progress line redraws itself.
func TestProgressRedrawsOnATerminal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newProvider(faultserver.NewInMemory)
		defer srv.Close()
		var out strings.Builder
		if _, err := run(t.Context(), &out, true, srv); err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(out.String(), "\rindexed "); n < 20 {
			t.Errorf("got %d redraws of the progress line, want one per batch at least", n)
		}
	})
}

// The README promises that this example indexes the corpus offline through
// the rate limit; keep it honest, in fake time so that it takes none.
func TestRuns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newProvider(faultserver.NewInMemory)
		defer srv.Close()
		var out strings.Builder
		rep, err := run(t.Context(), &out, false, srv)
		if err != nil {
			t.Fatal(err)
		}
		// Not a terminal: the progress line is written once, without \r.
		if strings.Contains(out.String(), "\r") || !strings.Contains(out.String(), "indexed 1000/1000 texts") {
			t.Errorf("got output %q, want one progress line and no carriage return", out.String())
		}
		// Every rate-limited attempt and every split costs requests; nothing else does.
		batches := (corpus + batchSize - 1) / batchSize
		if rep.Vectors != corpus || rep.Splits != 4 || rep.RateLimited == 0 || rep.Requests != batches+2*rep.Splits+rep.RateLimited {
			t.Errorf("got %+v, want %d vectors, 4 splits, some rate limits and no other request", rep, corpus)
		}
	})
}
