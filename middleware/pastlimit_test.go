package middleware_test

import (
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/run"
)

// TestPastLimitSpendsTheRunsBudget: a call inside a run that meets three
// overloads in a row takes a fourth attempt from the run's unspent budget
// and succeeds; the attempt, its event, its log line and the run's usage
// say so.
func TestPastLimitSpendsTheRunsBudget(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := run.New(t.Context())
		rec := &observetest.Recorder{}
		var log observetest.LogBuffer
		p := mustPipeline(t, middleware.Observe(rec), middleware.Logger(log.Logger()))
		s := newScript(fails(err529), fails(err529), fails(err529), succeeds("ok"))
		if got, err := p.Do(ctx, s.fn); err != nil || got != "ok" || s.count() != 4 {
			t.Fatalf("got (%q, %v) after %d attempts, want ok after 4", got, err, s.count())
		}
		if u := run.From(ctx).Usage(); u.Retries != 3 || u.PastLimit != 1 {
			t.Errorf("usage %+v, want 3 retries, 1 of them past the limit", u)
		}
		retries := observetest.Of[observe.RetryScheduled](rec)
		if len(retries) != 3 || retries[1].PastLimit || !retries[2].PastLimit || retries[2].Attempt != 3 {
			t.Errorf("retry events %+v, want the third, after attempt 3, past the limit", retries)
		}
		if n := strings.Count(log.String(), "retrying past the attempt limit, on the run's budget"); n != 1 {
			t.Errorf("%d log lines say a retry went past the limit, want 1:\n%s", n, log.String())
		}
	})
}

// TestPastLimitIsBounded: a call that keeps failing takes
// DefaultPastLimitAttempts attempts past its limit, each marked in the
// final error, then stops as exhausted; PastLimitAttempts sets how many,
// the later option winning, and 0 allows none.
func TestPastLimitIsBounded(t *testing.T) {
	for _, c := range []struct {
		name        string
		opts        []middleware.Option
		limit, past int
	}{
		{"default", nil, middleware.DefaultMaxAttempts, middleware.DefaultPastLimitAttempts},
		{"one", []middleware.Option{middleware.PastLimitAttempts(1)}, middleware.DefaultMaxAttempts, 1},
		{"none", []middleware.Option{middleware.PastLimitAttempts(0)}, middleware.DefaultMaxAttempts, 0},
		{"later wins", []middleware.Option{middleware.PastLimitAttempts(0), middleware.PastLimitAttempts(3)}, middleware.DefaultMaxAttempts, 3},
		{"with MaxAttempts", []middleware.Option{middleware.MaxAttempts(2)}, 2, middleware.DefaultPastLimitAttempts},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx := run.New(t.Context(), run.RetryBudget(100))
				s := newScript(fails(err500))
				_, err := mustPipeline(t, c.opts...).Do(ctx, s.fn)
				e := asError(t, err)
				if s.count() != c.limit+c.past || e.Reason != observe.ReasonExhausted {
					t.Fatalf("%d attempts, stopped %v; want %d, exhausted", s.count(), e.Reason, c.limit+c.past)
				}
				for i, a := range e.Attempts {
					if a.PastLimit != (i >= c.limit) {
						t.Errorf("attempt %d marked past the limit: %v, want %v", i+1, a.PastLimit, i >= c.limit)
					}
				}
				if u := run.From(ctx).Usage(); u.PastLimit != c.past {
					t.Errorf("usage %+v, want %d past the limit", u, c.past)
				}
				if c.past > 0 && !strings.Contains(err.Error(), "(past the limit, on the run's budget)") {
					t.Errorf("the final error does not say which attempts went past the limit: %v", err)
				}
			})
		})
	}
	if _, err := middleware.New[string]("t", middleware.PastLimitAttempts(-1)); err == nil || !strings.Contains(err.Error(), "PastLimitAttempts(-1)") {
		t.Errorf("PastLimitAttempts(-1): got %v, want an error naming it", err)
	}
}

// TestPastLimitNeedsEverything: no attempt past the limit without a run,
// with a spent budget, without a breaker, for a kind whose limit is one
// attempt, for unknown failures, or once the breaker opened.
func TestPastLimitNeedsEverything(t *testing.T) {
	limit := middleware.DefaultMaxAttempts
	for _, c := range []struct {
		name  string
		run   bool
		opts  []middleware.Option
		err   error
		steps int
	}{
		{"no run", false, nil, err500, limit},
		{"no breaker", true, []middleware.Option{middleware.NoBreaker()}, err500, limit},
		{"single attempt", true, []middleware.Option{middleware.SingleAttempt()}, err500, 1},
		{"unknown", true, nil, errors.New("something odd"), middleware.DefaultUnknownAttempts},
		{"breaker opened", true, []middleware.Option{middleware.CircuitBreaker(limit, time.Minute)}, err500, limit},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx := t.Context()
				if c.run {
					ctx = run.New(ctx, run.RetryBudget(100))
				}
				s := newScript(fails(c.err))
				_, err := mustPipeline(t, c.opts...).Do(ctx, s.fn)
				if s.count() != c.steps || !errors.Is(err, middleware.ErrExhausted) && !errors.Is(err, middleware.ErrPermanent) {
					t.Errorf("%d attempts, %v; want %d", s.count(), err, c.steps)
				}
			})
		})
	}
	synctest.Test(t, func(t *testing.T) {
		ctx := run.New(t.Context(), run.RetryBudget(limit-1))
		s := newScript(fails(err529))
		_, err := mustPipeline(t).Do(ctx, s.fn)
		if s.count() != limit || !errors.Is(err, middleware.ErrExhausted) {
			t.Errorf("a spent budget: %d attempts, %v; want %d, exhausted", s.count(), err, limit)
		}
	})
}

// TestPastLimitStopsWhenTheThrottleDoes: an attempt past the limit needs
// the retry throttle to allow retries after the failure that asks for it,
// whatever NoThrottle says: from a bucket of 20 tokens, retries are allowed
// while more than 10 are left, so a call starting at 14 tokens takes one
// attempt past its limit (11 left after its third failure) and a call
// starting at 13 none (10 left).
func TestPastLimitStopsWhenTheThrottleDoes(t *testing.T) {
	for failedBefore, want := range map[int]int{6: 4, 7: 3} {
		for _, noThrottle := range []bool{false, true} {
			synctest.Test(t, func(t *testing.T) {
				b := breaker.New(breaker.Settings{Failures: 1000})
				for range failedBefore {
					if !b.TryAcquire() {
						t.Fatal("breaker refused")
					}
					b.Record(breaker.Unhealthy)
				}
				opts := []middleware.Option{middleware.UseBreaker(b)}
				if noThrottle {
					opts = append(opts, middleware.NoThrottle())
				}
				ctx := run.New(t.Context(), run.RetryBudget(100))
				s := newScript(fails(err529))
				_, _ = mustPipeline(t, opts...).Do(ctx, s.fn)
				if s.count() != want {
					t.Errorf("%d failures before, NoThrottle %v: %d attempts, want %d", failedBefore, noThrottle, s.count(), want)
				}
			})
		}
	}
}

// TestPastLimitAddsNoRequestInAnOutage: sequential calls of one run into a
// target that fails every request send as many requests with attempts past
// the limit as without: the breaker opens on the same tenth failure.
func TestPastLimitAddsNoRequestInAnOutage(t *testing.T) {
	requests := func(opts ...middleware.Option) int {
		var n int
		synctest.Test(t, func(t *testing.T) {
			ctx := run.New(t.Context(), run.RetryBudget(1000))
			p := mustPipeline(t, opts...)
			s := newScript(fails(err529))
			for range 20 {
				_, _ = p.Do(ctx, s.fn)
			}
			n = s.count()
		})
		return n
	}
	with, without := requests(), requests(middleware.PastLimitAttempts(0))
	if with != without || with != breaker.DefaultFailures {
		t.Errorf("requests in an outage: %d with attempts past the limit, %d without; want %d each", with, without, breaker.DefaultFailures)
	}
}
