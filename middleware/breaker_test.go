package middleware_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
)

const year = 365 * 24 * time.Hour

// listen records what b's listeners are told.
func listen(b *middleware.Breaker) func() []observe.BreakerState {
	var seen []observe.BreakerState
	b.OnStateChange(func(s observe.BreakerState) { seen = append(seen, s) })
	return func() []observe.BreakerState { return seen }
}

// TestHoldOpenTellsListenersOfLongerPeriods: a hold that lengthens the open
// period is news for the listeners (package resilientredis shares it), even
// without a change of state; one that would shorten it or leaves it as it
// is changes nothing and tells nobody. Each step checks the remaining delay.
func TestHoldOpenTellsListenersOfLongerPeriods(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := middleware.NewBreaker("b", 1, 10*time.Second, nil)
		seen := listen(b)
		steps := []struct {
			name      string
			do        func()
			remaining time.Duration
			told      string
		}{
			{"a hold opens a closed breaker", func() { b.HoldOpen(30 * time.Second) }, 30 * time.Second, "[open]"},
			{"a shorter hold does not shorten it", func() { b.HoldOpen(10 * time.Second) }, 30 * time.Second, "[open]"},
			{"an equal hold is no news", func() { b.HoldOpen(30 * time.Second) }, 30 * time.Second, "[open]"},
			{"a longer hold lengthens it", func() { b.HoldOpen(31 * time.Second) }, 31 * time.Second, "[open open]"},
			{"time passes", func() { time.Sleep(11 * time.Second) }, 20 * time.Second, "[open open]"},
			{"a hold longer than what remains", func() { b.HoldOpen(25 * time.Second) }, 25 * time.Second, "[open open open]"},
			{"a hold of a year is held for the maximum", func() { b.HoldOpen(year) }, middleware.DefaultMaxHold, "[open open open open]"},
			{"another is no news", func() { b.HoldOpen(year) }, middleware.DefaultMaxHold, "[open open open open]"},
			{"Close ends the hold", b.Close, 0, "[open open open open closed]"},
			{"Open opens for the delay", b.Open, 10 * time.Second, "[open open open open closed open]"},
			{"a shorter hold leaves the delay", func() { b.HoldOpen(5 * time.Second) }, 10 * time.Second, "[open open open open closed open]"},
			{"a longer one lengthens it", func() { b.HoldOpen(12 * time.Second) }, 12 * time.Second, "[open open open open closed open open]"},
		}
		for _, st := range steps {
			st.do()
			if got := b.RemainingDelay(); got != st.remaining {
				t.Errorf("%s: remaining delay %v, want %v", st.name, got, st.remaining)
			}
			if got := fmt.Sprint(seen()); got != st.told {
				t.Errorf("%s: listeners told %s, want %s", st.name, got, st.told)
			}
		}
	})
}

// TestRemainingDelayAfterHoldOpen: the breaker stays open, and says so,
// until the hold ends, past its own delay; then a probe goes through (the
// state turns half-open only as the probe asks to pass).
func TestRemainingDelayAfterHoldOpen(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := middleware.NewBreaker("b", 1, 10*time.Second, nil)
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

// TestNewBreakerDefaults: a delay not positive and failures below 1 take
// the defaults; one failure is a valid threshold, not a default.
func TestNewBreakerDefaults(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, delay := range []time.Duration{0, -time.Second} {
			b := middleware.NewBreaker("b", 1, delay, nil)
			b.Open()
			if got := b.RemainingDelay(); got != middleware.DefaultBreakerDelay {
				t.Errorf("NewBreaker(delay %v): open for %v, want %v", delay, got, middleware.DefaultBreakerDelay)
			}
			if got := b.MaxHold(); got != middleware.DefaultMaxHold {
				t.Errorf("NewBreaker: MaxHold %v, want %v", got, middleware.DefaultMaxHold)
			}
		}
		for _, c := range []struct{ failures, opensAfter int }{{0, middleware.DefaultBreakerFailures}, {-1, middleware.DefaultBreakerFailures}, {1, 1}, {2, 2}} {
			b := middleware.NewBreaker("b", c.failures, time.Second, nil)
			p := mustPipeline(t, middleware.UseBreaker(b), middleware.SingleAttempt(), middleware.NoThrottle())
			n := 0
			for b.State() == observe.BreakerClosed && n < 100 {
				_, _ = p.Do(t.Context(), newScript(fails(err500)).fn)
				n++
			}
			if n != c.opensAfter {
				t.Errorf("NewBreaker(failures %d): opened after %d failures, want %d", c.failures, n, c.opensAfter)
			}
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
		{"default", nil, middleware.DefaultMaxHold},
		{"MaxHold", []middleware.Option{middleware.MaxHold(90 * time.Second)}, 90 * time.Second},
		// A pipeline's MaxHold bounds the holds it asks of a shared breaker...
		{"MaxHold on a shared breaker", []middleware.Option{middleware.MaxHold(time.Minute),
			middleware.UseBreaker(middleware.NewBreaker("shared", 1, time.Second, nil))}, time.Minute},
		// ...and the shared breaker's own maximum bounds them all.
		{"shared breaker", []middleware.Option{middleware.MaxHold(time.Hour),
			middleware.UseBreaker(middleware.NewBreaker("shared", 1, time.Second, nil))}, middleware.DefaultMaxHold},
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

// TestHoldOpenOfABreakerOpenedByFailures: a breaker opened by failures,
// not by a hold, is already open: a longer hold is news for the listeners,
// not a change of state.
func TestHoldOpenOfABreakerOpenedByFailures(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &observetest.Recorder{}
		b := middleware.NewBreaker("b", 1, 10*time.Second, nil, rec)
		seen := listen(b)
		p := mustPipeline(t, middleware.UseBreaker(b), middleware.SingleAttempt())
		_, _ = p.Do(t.Context(), newScript(fails(err500)).fn)
		b.HoldOpen(20 * time.Second)
		if got := fmt.Sprint(seen()); got != "[open open]" {
			t.Errorf("listeners told %s, want [open open]", got)
		}
		if got := b.RemainingDelay(); got != 20*time.Second {
			t.Errorf("remaining delay %v, want 20s", got)
		}
		// Observers hear of changes of state only; nil observers are skipped.
		changes := observetest.Of[observe.BreakerChange](rec)
		if want := (observe.BreakerChange{Target: "b", From: observe.BreakerClosed, To: observe.BreakerOpen}); len(changes) != 1 || changes[0] != want {
			t.Errorf("breaker changes %+v, want %+v", changes, want)
		}
	})
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
