package middleware_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
)

const year = 365 * 24 * time.Hour

// TestRemainingDelayAfterHoldOpen: the breaker stays open, and says so,
// until the hold ends, past its own delay; then a probe goes through (the
// state turns half-open only as the probe asks to pass).
func TestRemainingDelayAfterHoldOpen(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := breaker.New(breaker.Settings{Name: "b", Failures: 1, Delay: 10 * time.Second})
		b.HoldOpen(30 * time.Second)
		for _, at := range []time.Duration{0, 10 * time.Second, 29 * time.Second} {
			time.Sleep(at - (30*time.Second - b.RemainingDelay()))
			if got, want := b.RemainingDelay(), 30*time.Second-at; got != want || b.State() != observe.BreakerOpen {
				t.Errorf("after %v: %v with %v remaining, want open with %v", at, b.State(), got, want)
			}
		}
		time.Sleep(time.Second)
		if got := b.RemainingDelay(); got != 0 {
			t.Errorf("after the hold: %v remaining, want 0", got)
		}
		p := mustPipeline(t, middleware.UseBreaker(b))
		if got, err := p.Do(t.Context(), newScript(succeeds("ok")).fn); err != nil || got != "ok" || b.State() != observe.BreakerClosed {
			t.Errorf("probe: got (%q, %v) and %v, want ok and closed", got, err, b.State())
		}
	})
}

// TestWaitHintHoldIsBounded: a Retry-After of a year holds the breaker for
// MaxHold, not a year: then one probe goes through.
func TestWaitHintHoldIsBounded(t *testing.T) {
	for _, c := range []struct {
		name string
		opts []middleware.Option
		want time.Duration
	}{
		{"default", nil, breaker.DefaultMaxHold},
		{"MaxHold", []middleware.Option{middleware.MaxHold(90 * time.Second)}, 90 * time.Second},
		// A pipeline's MaxHold bounds the holds it asks of a shared breaker...
		{"MaxHold on a shared breaker", []middleware.Option{middleware.MaxHold(time.Minute),
			middleware.UseBreaker(breaker.New(breaker.Settings{Name: "shared", Failures: 1, Delay: time.Second}))}, time.Minute},
		// ...and the shared breaker's own maximum bounds them all.
		{"shared breaker", []middleware.Option{middleware.MaxHold(time.Hour),
			middleware.UseBreaker(breaker.New(breaker.Settings{Name: "shared", Failures: 1, Delay: time.Second}))}, breaker.DefaultMaxHold},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := newScript(fails(retryAfter(err429, year)), succeeds("ok"))
				p := mustPipeline(t, c.opts...)
				_, err := p.Do(t.Context(), s.fn)
				if got := asError(t, err).Reason; got != observe.ReasonRetryAfterOverCap {
					t.Fatalf("reason: got %v, want %v", got, observe.ReasonRetryAfterOverCap)
				}
				if got := p.Breaker().RemainingDelay(); got != c.want {
					t.Errorf("held open for %v, want %v", got, c.want)
				}
				time.Sleep(c.want - time.Millisecond)
				if _, err := p.Do(t.Context(), s.fn); !errors.Is(err, middleware.ErrCircuitOpen) || s.count() != 1 {
					t.Errorf("just before the hold ends: got %v after %d calls, want circuit open after 1", err, s.count())
				}
				time.Sleep(time.Millisecond)
				if got, err := p.Do(t.Context(), s.fn); err != nil || got != "ok" {
					t.Errorf("after the hold: got (%q, %v), want the probe's ok", got, err)
				}
			})
		})
	}
}

func TestMaxHoldMustBePositive(t *testing.T) {
	for _, d := range []time.Duration{0, -time.Second} {
		_, err := middleware.New[string]("x", middleware.MaxHold(d))
		if want := fmt.Sprintf("middleware: MaxHold(%v): must be positive", d); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("MaxHold(%v): got %v, want %q", d, err, want)
		}
	}
	p := mustPipeline(t, middleware.MaxHold(time.Minute))
	if got := p.Breaker().MaxHold(); got != time.Minute {
		t.Errorf("Breaker().MaxHold(): got %v, want 1m0s", got)
	}
}

// TestRetryThrottleBounds: the bucket holds at most its size however long a
// target was healthy, and no less than empty however long it was down: an
// outage after a long healthy period is throttled as soon as one that
// follows a short one, and recovery after a long outage takes as many
// successes as after a short one.
func TestRetryThrottleBounds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustPipeline(t, middleware.CircuitBreaker(1000, time.Second))
		for range 50 {
			_, _ = p.Do(t.Context(), newScript(succeeds("ok")).fn)
		}
		if attempts := attemptsPerCall(t, p, newScript(fails(err529)), 5); attempts != "[3 3 3 1 1]" {
			t.Errorf("attempts per call after a long healthy period: got %v, want [3 3 3 1 1]", attempts)
		}
	})
	// A retry needs more than half of the 20 tokens after the failure that
	// asks for it: from empty, 12 successes.
	for successes, retried := range map[int]bool{11: false, 12: true} {
		synctest.Test(t, func(t *testing.T) {
			p := mustPipeline(t, middleware.CircuitBreaker(1000, time.Second))
			for range 60 {
				_, _ = p.Do(t.Context(), newScript(fails(err529)).fn)
			}
			for range successes {
				_, _ = p.Do(t.Context(), newScript(succeeds("ok")).fn)
			}
			_, err := p.Do(t.Context(), newScript(fails(err500), succeeds("ok")).fn)
			if retried && err != nil || !retried && !errors.Is(err, middleware.ErrThrottled) {
				t.Errorf("after a long outage and %d successes: got %v, want retried: %v", successes, err, retried)
			}
		})
	}
}
