package middleware_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/failsafe-go/failsafe-go/circuitbreaker"

	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/run"
)

// request is the Request option of a call whose requests are estimated at
// tokens each.
func request(tokens int) middleware.CallOption {
	return middleware.Request(func(context.Context, middleware.State) int { return tokens })
}

func TestEveryAttemptIsARequestFailedOnesIncluded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := run.New(t.Context())
		s := newScript(fails(err529), fails(err500), succeeds("ok"))
		if _, err := mustPipeline(t).Do(ctx, s.fn, request(1)); err != nil {
			t.Fatal(err)
		}
		if got := run.From(ctx).Usage(); got.Requests != 3 || got.Retries != 2 || got.Waited <= 0 {
			t.Errorf("usage %+v, want 3 requests, 2 retries and their waits", got)
		}
	})
}

func TestRequestLimitRefusesBeforeSendingAndNeverRetries(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := run.New(t.Context(), run.RequestLimit(2))
		rec := &observetest.Recorder{}
		p := mustPipeline(t, middleware.Observe(rec))
		s := newScript(fails(err500)) // retryable: only the limit stops it
		_, err := p.Do(ctx, s.fn, request(1))
		if s.count() != 2 {
			t.Errorf("%d requests sent, want 2", s.count())
		}
		if e := asError(t, err); e.Reason != observe.ReasonUsageLimit || !errors.Is(err, run.ErrUsageLimit) {
			t.Fatalf("got %v, want a usage limit", err)
		}
		var refused *run.UsageLimitError
		if !errors.As(err, &refused) || refused.Limit != "request limit" || refused.Max != 2 || refused.Usage.Requests != 2 {
			t.Errorf("refusal %+v, want the request limit of 2 with 2 requests used", refused)
		}
		if !strings.Contains(err.Error(), "request limit of 2 reached (used 2 requests") {
			t.Errorf("error %q does not name the limit and the usage", err)
		}
		_, err = p.Do(ctx, s.fn, request(1))
		if !errors.Is(err, run.ErrUsageLimit) || s.count() != 2 {
			t.Errorf("next call: %v after %d requests, want refused with none sent", err, s.count())
		}
		refusals := observetest.Of[observe.Refusal](rec)
		if len(refusals) != 2 || refusals[0].Reason != observe.ReasonUsageLimit {
			t.Errorf("refusal events %+v, want two usage-limit refusals", refusals)
		}
		if got := run.From(ctx).Usage().Requests; got != 2 {
			t.Errorf("usage counts %d requests, want 2", got)
		}
	})
}

func TestTokenBudget(t *testing.T) {
	tests := []struct {
		name     string
		used     int // tokens reported before the call
		estimate int
		refused  bool
		need     int
	}{
		{"fits", 60, 40, false, 0},
		{"estimate exceeds what remains", 61, 40, true, 40},
		{"spent", 100, 0, true, 0},
		{"passed", 130, 1, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := run.New(t.Context(), run.TokenBudget(100))
			r := run.From(ctx)
			r.AddTokens(tt.used, 0)
			s := newScript(succeeds("ok"))
			_, err := mustPipeline(t).Do(ctx, s.fn, request(tt.estimate))
			var refused *run.UsageLimitError
			if got := errors.As(err, &refused); got != tt.refused {
				t.Fatalf("refused: got %v (%v), want %v", got, err, tt.refused)
			}
			if tt.refused && (refused.Limit != "token budget" || refused.Need != tt.need || s.count() != 0) {
				t.Errorf("refusal %+v after %d requests, want the token budget needing %d and none sent", refused, s.count(), tt.need)
			}
		})
	}
}

// The estimate is asked for only when the run has a token budget: without
// one, estimating would be wasted work.
func TestEstimateOnlyUnderATokenBudget(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts []run.Option
		want int32
	}{
		{"no limit", nil, 0},
		{"request limit", []run.Option{run.RequestLimit(5)}, 0},
		{"token budget", []run.Option{run.TokenBudget(5)}, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var asked atomic.Int32
			opt := middleware.Request(func(context.Context, middleware.State) int { asked.Add(1); return 1 })
			ctx := run.New(t.Context(), tt.opts...)
			if _, err := mustPipeline(t).Do(ctx, newScript(succeeds("ok")).fn, opt); err != nil {
				t.Fatal(err)
			}
			if asked.Load() != tt.want {
				t.Errorf("estimated %d times, want %d", asked.Load(), tt.want)
			}
		})
	}
}

// countingLimiter admits everything and counts its acquisitions.
type countingLimiter struct{ n atomic.Int32 }

func (l *countingLimiter) Acquire(context.Context, int) error { l.n.Add(1); return nil }

func TestRefusalTakesNoLimiterUnit(t *testing.T) {
	ctx := run.New(t.Context(), run.RequestLimit(1))
	lim := &countingLimiter{}
	p := mustPipeline(t, middleware.RateLimit(lim))
	s := newScript(succeeds("ok"))
	for range 3 {
		_, _ = p.Do(ctx, s.fn, request(1))
	}
	if lim.n.Load() != 1 || s.count() != 1 {
		t.Errorf("%d limiter units and %d requests, want 1 and 1: refusals cost nothing", lim.n.Load(), s.count())
	}
}

// A refusal says nothing about the target: a half-open breaker keeps its
// probe for a call that is sent, and closes on its success.
func TestRefusalLeavesTheBreakerAlone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustPipeline(t, middleware.CircuitBreaker(1, time.Second))
		s := newScript(fails(err500), succeeds("ok"))
		_, _ = p.Do(t.Context(), s.fn) // opens the breaker
		time.Sleep(time.Second)        // half-open: one probe allowed
		spent := run.New(t.Context(), run.RequestLimit(1))
		_ = run.From(spent).StartRequest(0)
		for range 3 {
			if _, err := p.Do(spent, s.fn, request(1)); !errors.Is(err, run.ErrUsageLimit) {
				t.Fatalf("got %v, want a usage limit", err)
			}
		}
		if _, err := p.Do(t.Context(), s.fn, request(1)); err != nil {
			t.Fatalf("the probe of another run: %v", err)
		}
		if st := p.Breaker().State(); st != circuitbreaker.ClosedState {
			t.Errorf("after the probe the breaker is %v, want closed", st)
		}
	})
}

// An attempt the breaker refuses was never sent: it gives its place in the
// request limit back.
func TestAttemptRefusedByTheBreakerIsNotARequest(t *testing.T) {
	ctx := run.New(t.Context(), run.RequestLimit(1))
	p := mustPipeline(t, middleware.CircuitBreaker(1, time.Hour))
	p.Breaker().Open()
	s := newScript(succeeds("ok"))
	if _, err := p.Do(ctx, s.fn, request(1)); !errors.Is(err, middleware.ErrCircuitOpen) {
		t.Fatalf("got %v, want circuit open", err)
	}
	if got := run.From(ctx).Usage().Requests; got != 0 {
		t.Errorf("usage counts %d requests, want 0", got)
	}
	p.Breaker().Close()
	if _, err := p.Do(ctx, s.fn, request(1)); err != nil || s.count() != 1 {
		t.Errorf("got %v after %d requests, want the one request the limit allows", err, s.count())
	}
}

// An attempt the rate limiter refuses was never sent either.
func TestAttemptRefusedByTheLimiterIsNotARequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lim, err := limit.NewLocalLimiter(1, time.Minute, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		ctx := run.New(t.Context())
		p := mustPipeline(t, middleware.RateLimit(lim))
		s := newScript(succeeds("ok"))
		_, _ = p.Do(ctx, s.fn, request(1))
		if _, err := p.Do(ctx, s.fn, request(1)); !errors.Is(err, limit.ErrLimited) {
			t.Fatalf("got %v, want refused by the limiter", err)
		}
		if got := run.From(ctx).Usage().Requests; got != 1 {
			t.Errorf("usage counts %d requests, want the 1 sent", got)
		}
	})
}

func TestToolCallLimit(t *testing.T) {
	ctx := run.New(t.Context(), run.ToolCallLimit(2))
	r := run.From(ctx)
	for i := range 2 {
		if err := r.StartToolCall(); err != nil {
			t.Fatalf("tool call %d: %v", i+1, err)
		}
	}
	err := r.StartToolCall()
	if !errors.Is(err, run.ErrUsageLimit) || !strings.Contains(err.Error(), "tool call limit of 2 reached") {
		t.Errorf("third tool call: got %v, want the tool call limit", err)
	}
	if got := r.Usage().ToolCalls; got != 2 {
		t.Errorf("usage counts %d tool calls, want 2", got)
	}
}

func TestNoRunNoLimits(t *testing.T) {
	var r *run.Run
	if err := r.StartRequest(1 << 30); err != nil {
		t.Errorf("StartRequest on no run: %v", err)
	}
	if err := r.StartToolCall(); err != nil {
		t.Errorf("StartToolCall on no run: %v", err)
	}
	r.AddTokens(5, 5)
	if got := r.Usage(); got != (run.Usage{}) {
		t.Errorf("usage of no run: %+v", got)
	}
	if _, err := mustPipeline(t).Do(t.Context(), newScript(succeeds("ok")).fn, request(1<<30)); err != nil {
		t.Errorf("a call without a run: %v", err)
	}
}

// Parallel calls never pass the request and tool call limits; the token
// budget is passed by at most the usage of the requests in flight when it
// was reached.
func TestLimitsUnderConcurrency(t *testing.T) {
	const (
		workers  = 16
		perCall  = 7 // tokens each request reports
		budget   = 500
		requests = 40
		tools    = 30
	)
	t.Run("requests and tool calls", func(t *testing.T) {
		ctx := run.New(t.Context(), run.RequestLimit(requests), run.ToolCallLimit(tools))
		run := run.From(ctx)
		p := mustPipeline(t)
		var sent, toolCalls atomic.Int32
		fn := func(context.Context, middleware.State) (string, error) { sent.Add(1); return "ok", nil }
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for range 20 {
					_, _ = p.Do(ctx, fn, request(1))
					if run.StartToolCall() == nil {
						toolCalls.Add(1)
					}
				}
			})
		}
		wg.Wait()
		if u := run.Usage(); sent.Load() != requests || u.Requests != requests || toolCalls.Load() != tools || u.ToolCalls != tools {
			t.Errorf("%d requests sent and %d tool calls made, usage %+v; want exactly %d and %d", sent.Load(), toolCalls.Load(), u, requests, tools)
		}
	})
	t.Run("token budget", func(t *testing.T) {
		ctx := run.New(t.Context(), run.TokenBudget(budget))
		r := run.From(ctx)
		p := mustPipeline(t)
		// In flight: from the request's admission (its estimate is asked for
		// just before) to the report of its usage.
		var inFlight, maxInFlight atomic.Int32
		admit := middleware.Request(func(context.Context, middleware.State) int {
			n := inFlight.Add(1)
			for m := maxInFlight.Load(); n > m && !maxInFlight.CompareAndSwap(m, n); m = maxInFlight.Load() {
			}
			return 1
		})
		fn := func(ctx context.Context, _ middleware.State) (string, error) {
			run.From(ctx).AddTokens(perCall-2, 2)
			inFlight.Add(-1)
			return "ok", nil
		}
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for {
					if _, err := p.Do(ctx, fn, admit); err != nil {
						inFlight.Add(-1) // refused
						if !errors.Is(err, run.ErrUsageLimit) {
							t.Error(err)
						}
						return
					}
				}
			})
		}
		wg.Wait()
		u := r.Usage()
		over := u.Tokens() - budget
		if over < 0 || over >= int(maxInFlight.Load())*perCall || maxInFlight.Load() > workers {
			t.Errorf("%d tokens used of a budget of %d, with at most %d requests in flight of %d tokens each",
				u.Tokens(), budget, maxInFlight.Load(), perCall)
		}
		if u.Tokens() != u.Requests*perCall {
			t.Errorf("%d tokens for %d requests of %d", u.Tokens(), u.Requests, perCall)
		}
	})
}

// TestRunCountsRetriesAndWaits: a pipeline's retries and their waits add up
// in its run's usage; a usage limit's refusal is final.
func TestRunCountsRetriesAndWaits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := run.New(t.Context())
		s := newScript(fails(retryAfter(err429, 2*time.Second)), fails(retryAfter(err429, 3*time.Second)), succeeds("ok"))
		if _, err := mustPipeline(t).Do(ctx, s.fn); err != nil {
			t.Fatal(err)
		}
		if u := run.From(ctx).Usage(); u.Retries != 2 || u.Waited != 5*time.Second {
			t.Errorf("usage %+v, want 2 retries and 5s waited", u)
		}

		refused := newScript(fails(&run.UsageLimitError{Limit: "request limit", Max: 1}))
		_, err := mustPipeline(t).Do(ctx, refused.fn)
		if e := asError(t, err); e.Reason != observe.ReasonUsageLimit || e.Detail != "request limit" || refused.count() != 1 {
			t.Errorf("got %v after %d calls, want the usage limit after 1", err, refused.count())
		}
	})
}
