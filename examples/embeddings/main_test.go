package main

import (
	"io"
	"testing"
	"testing/synctest"

	"github.com/resilientgo/resilient/faultserver"
)

// The README promises that this example indexes the corpus offline through
// the rate limit; keep it honest, in fake time so that it takes none.
func TestRuns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newProvider(faultserver.NewInMemory)
		defer srv.Close()
		rep, err := run(t.Context(), io.Discard, srv)
		if err != nil {
			t.Fatal(err)
		}
		// Every rate-limited attempt and every split costs requests; nothing else does.
		batches := (corpus + batchSize - 1) / batchSize
		if rep.Vectors != corpus || rep.Splits != 4 || rep.RateLimited == 0 || rep.Requests != batches+2*rep.Splits+rep.RateLimited {
			t.Errorf("got %+v, want %d vectors, 4 splits, some rate limits and no other request", rep, corpus)
		}
	})
}
