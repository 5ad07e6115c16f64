package tools_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/internal/observetest"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/tools"
)

// TestToolConcurrencyLimit: a tool limited to n calls at once runs at most
// n; a call that finds no slot within the wait reads as an internal failure
// of the tool, which the model may try again later, and its breaker counts
// nothing.
func TestToolConcurrencyLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var now, most atomic.Int32
		slow := newCounted("search", func(context.Context, int, string) (string, error) {
			n := now.Add(1)
			defer now.Add(-1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			time.Sleep(time.Second)
			return "found", nil
		})
		var rec observetest.Recorder
		w := mustWrap(t, slow, tools.Middleware(middleware.MaxConcurrent(2, 1500*time.Millisecond), middleware.Observe(&rec)),
			tools.CircuitBreaker(1, time.Minute))
		var wg sync.WaitGroup
		var mu sync.Mutex
		outs := map[string]int{}
		for range 10 {
			wg.Go(func() {
				out, err := w.Call(context.Background(), "q")
				if err != nil {
					t.Errorf("got %v, want no error: the run goes on", err)
				}
				mu.Lock()
				outs[out]++
				mu.Unlock()
			})
		}
		wg.Wait()
		refused := "Error: search failed internally (*middleware.ConcurrencyError)"
		if most.Load() != 2 || outs["found"] != 4 || outs[refused] != 6 {
			t.Errorf("%d at most at once, outputs %v; want 2, 4 found (two rounds within the wait), 6 refused", most.Load(), outs)
		}
		if w.Breaker().State() != middleware.BreakerClosed {
			t.Error("the refusals opened the tool's breaker")
		}
		if r := observetest.Of[middleware.Refusal](&rec); len(r) != 6 || r[0].Reason != middleware.RefusedConcurrency {
			t.Errorf("refusals %+v, want 6 for the concurrency limit", r)
		}
	})
}
