package middleware_test

import (
	"context"
	"math"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/failsafe-go/failsafe-go/bulkhead"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/run"
)

// hedgeRace is a protected function whose first attempt answers "primary"
// after 5s unless its context ends first, and whose hedges answer with
// hedge's result at once. It records whether the primary was canceled.
type hedgeRace struct {
	hedge    func() (string, error)
	canceled atomic.Bool
	calls    atomic.Int64
}

func (h *hedgeRace) fn(ctx context.Context, s middleware.State) (string, error) {
	crashAtRunaway(h.calls.Add(1))
	if s.Hedge {
		return h.hedge()
	}
	select {
	case <-time.After(5 * time.Second):
		return "primary", nil
	case <-ctx.Done():
		h.canceled.Store(true)
		return "", ctx.Err()
	}
}

// TestHedgeFinalFailureCancelsTheOthers: a hedge that fails in a way no
// retry would fix (here, the provider rejects the request) ends the call at
// once and cancels the attempt still running: its answer is not waited for.
func TestHedgeFinalFailureCancelsTheOthers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		race := &hedgeRace{hedge: func() (string, error) { return "", err401 }}
		p := mustPipeline(t, middleware.Hedge(time.Second, 1))
		start := time.Now()
		got, err := p.DoHedged(t.Context(), bounded(race.fn))
		if e := asError(t, err); e.Reason != observe.ReasonPermanent || got != "" || time.Since(start) != time.Second {
			t.Fatalf("got (%q, %v) after %v, want the hedge's permanent failure after 1s", got, err, time.Since(start))
		}
		// The final error lists the attempts that failed, not the one still
		// running when the call ended.
		if e := asError(t, err); len(e.Attempts) != 1 || e.Attempts[0].Number != 2 || e.Attempts[0].Err != err401 {
			t.Errorf("attempts %v, want the hedge's failure alone", e.Attempts)
		}
		synctest.Wait()
		if !race.canceled.Load() {
			t.Error("the primary attempt was not canceled")
		}
	})
}

// TestHedgeFailuresThatAnotherAttemptMayFixDoNotCancel: a hedge that fails
// with a retryable failure, that the run's budget or the circuit breaker
// refuses, or that a policy rejects, leaves the other attempt running, and
// its answer wins.
func TestHedgeFailuresThatAnotherAttemptMayFixDoNotCancel(t *testing.T) {
	tests := []struct {
		name   string
		opts   []middleware.Option
		run    []run.Option
		hedge  func() (string, error)
		reason observe.Reason // why the hedge stops
		hedges int            // hedges that reach the pipeline's attempt
	}{
		{"a retryable failure", nil, nil, func() (string, error) { return "", err500 }, 0, 1},
		{"the budget spent by the hedge itself", nil, []run.Option{run.RetryBudget(1)},
			func() (string, error) { return "", err500 }, observe.ReasonBudgetSpent, 1},
		{"the circuit opened meanwhile", nil, nil, nil, observe.ReasonCircuitOpen, 1},
		// A bulkhead of one holds the primary: the hedge's rejection is not a
		// decision of the pipeline, and the hedge never reaches its attempt.
		{"a policy's rejection", []middleware.Option{middleware.Policies(bulkhead.New[string](1))}, nil, nil, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				rec := &observetest.Recorder{}
				p := mustPipeline(t, append(tt.opts, middleware.Hedge(time.Second, 1), middleware.Observe(rec))...)
				race := &hedgeRace{hedge: func() (string, error) { return "hedge", nil }}
				if tt.hedge != nil {
					race.hedge = tt.hedge
				}
				if tt.reason == observe.ReasonCircuitOpen {
					time.AfterFunc(500*time.Millisecond, p.Breaker().Open)
				}
				ctx := run.New(t.Context(), tt.run...)
				start := time.Now()
				got, err := p.DoHedged(ctx, bounded(race.fn))
				if err != nil || got != "primary" || time.Since(start) != 5*time.Second {
					t.Fatalf("got (%q, %v) after %v, want the primary's answer after 5s", got, err, time.Since(start))
				}
				if race.canceled.Load() {
					t.Error("the primary attempt was canceled")
				}
				if n := len(observetest.Of[observe.Hedged](rec)); n != tt.hedges {
					t.Errorf("%d hedges started, want %d", n, tt.hedges)
				}
				if tt.reason == observe.ReasonBudgetSpent {
					if r := run.From(ctx); r.Retries() != 1 || r.Refusals() != 1 {
						t.Errorf("run: %d retries and %d refusals, want the hedge and the refused retry", r.Retries(), r.Refusals())
					}
				}
			})
		})
	}
}

// TestHedgeNeedsTheBudget: a run whose budget is spent starts no hedge (a
// hedge costs a retry), and the call simply waits for its attempt; without
// a run, hedges are free.
func TestHedgeNeedsTheBudget(t *testing.T) {
	for _, c := range []struct {
		name   string
		ctx    func(context.Context) context.Context
		hedges int
		answer string
	}{
		{"budget spent", func(ctx context.Context) context.Context {
			return run.New(ctx, run.RetryBudget(0))
		}, 0, "primary"},
		{"no run", func(ctx context.Context) context.Context { return ctx }, 1, "hedge"},
		{"unlimited budget", func(ctx context.Context) context.Context {
			return run.New(ctx, run.RetryBudget(math.MaxInt))
		}, 1, "hedge"},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				rec := &observetest.Recorder{}
				p := mustPipeline(t, middleware.Hedge(time.Second, 1), middleware.Observe(rec))
				race := &hedgeRace{hedge: func() (string, error) { return "hedge", nil }}
				ctx := c.ctx(t.Context())
				got, err := p.DoHedged(ctx, bounded(race.fn))
				if err != nil || got != c.answer {
					t.Fatalf("got (%q, %v), want %q", got, err, c.answer)
				}
				if n := len(observetest.Of[observe.Hedged](rec)); n != c.hedges {
					t.Errorf("%d hedges started, want %d", n, c.hedges)
				}
				if r := run.From(ctx); r != nil && r.Refusals() != 0 {
					t.Errorf("the budget refused %d retries, want none: no hedge should have asked", r.Refusals())
				}
			})
		})
	}
}

// TestDoHedgedWithoutHedgeIsDo: without the Hedge option DoHedged makes one
// attempt at a time, like Do.
func TestDoHedgedWithoutHedgeIsDo(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &observetest.Recorder{}
		p := mustPipeline(t, middleware.Observe(rec))
		race := &hedgeRace{hedge: func() (string, error) { return "hedge", nil }}
		got, err := p.DoHedged(t.Context(), bounded(race.fn))
		if err != nil || got != "primary" || len(observetest.Of[observe.Hedged](rec)) != 0 {
			t.Errorf("got (%q, %v) with %d hedges, want the only attempt's answer", got, err, len(observetest.Of[observe.Hedged](rec)))
		}
	})
}

// TestHedgeRefusedByTheBudgetIsNotARequest: a hedge whose retry the budget
// refuses (spent by another call after the hedge was scheduled) sends
// nothing and is reported as a refusal, and the call keeps its first
// attempt.
func TestHedgeRefusedByTheBudgetIsNotARequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &observetest.Recorder{}
		p := mustPipeline(t, middleware.Hedge(time.Second, 1), middleware.Observe(rec))
		ctx := run.New(t.Context(), run.RetryBudget(1))
		run := run.From(ctx)
		var hedged atomic.Bool
		race := &hedgeRace{hedge: func() (string, error) { hedged.Store(true); return "hedge", nil }}
		time.AfterFunc(500*time.Millisecond, func() { run.TryRetry() })
		got, err := p.DoHedged(ctx, bounded(race.fn))
		if err != nil || got != "primary" || hedged.Load() {
			t.Fatalf("got (%q, %v), hedge called: %v; want the primary's answer and no hedge", got, err, hedged.Load())
		}
		refusals := observetest.Of[observe.Refusal](rec)
		if len(refusals) != 1 || refusals[0].Reason != observe.ReasonBudgetSpent || len(observetest.Of[observe.Hedged](rec)) != 0 {
			t.Errorf("refusals %+v and %d hedges, want one budget refusal and no hedge", refusals, len(observetest.Of[observe.Hedged](rec)))
		}
	})
}
