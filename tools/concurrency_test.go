package tools_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
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
			tools.Middleware(middleware.CircuitBreaker(1, time.Minute)))
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
		refused := "Error: search failed internally (*limit.ConcurrencyError)"
		if most.Load() != 2 || outs["found"] != 4 || outs[refused] != 6 {
			t.Errorf("%d at most at once, outputs %v; want 2, 4 found (two rounds within the wait), 6 refused", most.Load(), outs)
		}
		if w.Breaker().State() != observe.BreakerClosed {
			t.Error("the refusals opened the tool's breaker")
		}
		if r := observetest.Of[observe.Refusal](&rec); len(r) != 6 || r[0].Reason != observe.ReasonConcurrency {
			t.Errorf("refusals %+v, want 6 for the concurrency limit", r)
		}
	})
}

// TestToolBulkheadUnder200Callers: 200 callers at once of a tool that asks
// a model (through langchaingo's real OpenAI client) and is limited to 8
// calls at once: the fault server never answers more than 8 at once,
// callers wait at most the wait allowed, a refusal is a refusal event and
// never counted by the tool's breaker, and no goroutine is left behind
// (the synctest bubble, and goleak after the package's tests).
func TestToolBulkheadUnder200Callers(t *testing.T) {
	const (
		callers = 200
		n       = 8
		work    = time.Second
		maxWait = 10*time.Second + work/2
	)
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.Reply("summary").After(work))
		defer s.Close()
		llm, err := s.OpenAI()
		if err != nil {
			t.Fatal(err)
		}
		summarise := newCounted("summarise", func(ctx context.Context, _ int, input string) (string, error) {
			return lcllms.GenerateFromSinglePrompt(ctx, llm, "Summarise: "+input)
		})
		var rec observetest.Recorder
		w := mustWrap(t, summarise, tools.Middleware(middleware.MaxConcurrent(n, maxWait), middleware.Observe(&rec)),
			tools.Middleware(middleware.CircuitBreaker(1, time.Minute)))
		var (
			wg              sync.WaitGroup
			mu              sync.Mutex
			outs            = map[string]int{}
			longest, refuse time.Duration
		)
		refused := "Error: summarise failed internally (*limit.ConcurrencyError)"
		for i := range callers {
			wg.Go(func() {
				start := time.Now()
				out, err := w.Call(context.Background(), fmt.Sprint("doc ", i))
				took := time.Since(start)
				if err != nil {
					t.Errorf("got %v, want no error: the run goes on", err)
				}
				mu.Lock()
				defer mu.Unlock()
				outs[out]++
				if out == refused {
					refuse = max(refuse, took)
				} else {
					longest = max(longest, took)
				}
			})
		}
		wg.Wait()
		if most := s.MaxInFlight(); most != n {
			t.Errorf("the server answered %d at most at once, want %d", most, n)
		}
		// In batches of n, one per second: those that started within the wait.
		if want := n * 11; outs["summary"] != want || outs[refused] != callers-want || s.Count() != want {
			t.Errorf("outputs %v after %d requests, want %d summaries, one request each, the rest refused", outs, s.Count(), want)
		}
		if refuse != maxWait || longest > maxWait+work {
			t.Errorf("the longest refused call took %v, the longest answered %v; want %v and at most %v", refuse, longest, maxWait, maxWait+work)
		}
		if w.Breaker().State() != observe.BreakerClosed {
			t.Error("the refusals opened the tool's breaker")
		}
		if r := observetest.Of[observe.Refusal](&rec); len(r) != outs[refused] || r[0].Reason != observe.ReasonConcurrency {
			t.Errorf("%d refusal events, want %d for the concurrency limit", len(r), outs[refused])
		}
	})
}
