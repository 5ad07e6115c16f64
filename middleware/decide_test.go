package middleware_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/run"
	"github.com/resilientgo/resilient/taxonomy"
)

// classed is an error of the given class, as a classifier of the caller's
// could say it.
func classed(kind taxonomy.Kind, wait time.Duration, source taxonomy.WaitSource) error {
	return taxonomy.WithClass(errors.New("classed by the caller"),
		taxonomy.Class{Kind: kind, RetryAfter: wait, WaitSource: source, Rule: "caller's rule"})
}

// TestOverflowsAreCountedApart: a function that repairs its request after
// a context overflow (llms compacts the messages) gets its repair even when
// the overflow follows other failures; the limit counts overflows only.
func TestOverflowsAreCountedApart(t *testing.T) {
	for _, c := range []struct {
		name   string
		steps  []step
		calls  int
		reason observe.Reason // 0: success
	}{
		{"an overflow after a transient failure is repaired", []step{fails(err500), fails(errOverflow), succeeds("ok")}, 3, 0},
		{"after two transient failures too", []step{fails(err500), fails(err529), fails(errOverflow), succeeds("ok")}, 4, 0},
		{"a second overflow stops the call", []step{fails(errOverflow), fails(errOverflow)}, 2, observe.ReasonContextOverflow},
		{"with failures between them", []step{fails(errOverflow), fails(err500), fails(errOverflow)}, 3, observe.ReasonContextOverflow},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := newScript(c.steps...)
				p := mustPipeline(t, middleware.KindAttempts(taxonomy.ContextOverflow, 2), middleware.MaxAttempts(4))
				got, err := p.Do(t.Context(), s.fn)
				if s.count() != c.calls {
					t.Errorf("calls: got %d, want %d", s.count(), c.calls)
				}
				if c.reason == 0 {
					if err != nil || got != "ok" {
						t.Errorf("got (%q, %v), want ok", got, err)
					}
					if prev := s.seen[len(s.seen)-1].Previous.Class.Kind; prev != taxonomy.ContextOverflow {
						t.Errorf("the repaired attempt saw a previous %v, want context_overflow", prev)
					}
					return
				}
				if e := asError(t, err); e.Reason != c.reason {
					t.Errorf("reason: got %v, want %v", e.Reason, c.reason)
				}
			})
		})
	}
}

// TestWaitSources: the wait before a retry is the class's wait, exactly,
// whenever the class names one (0 included: "retry now"); a class with a
// wait but no source is a Retry-After; a context overflow is repaired at
// once whatever wait it carries; other failures wait the backoff. A
// negative wait (from a caller's classifier) is no wait, and the run's usage
// adds up what was waited.
func TestWaitSources(t *testing.T) {
	for _, c := range []struct {
		name   string
		err    error
		wait   time.Duration
		source taxonomy.WaitSource
	}{
		{"a wait without a source", classed(taxonomy.RateLimited, 2*time.Second, taxonomy.WaitBackoff), 2 * time.Second, taxonomy.WaitRetryAfter},
		{"a rate-limit reset", classed(taxonomy.RateLimited, 3*time.Second, taxonomy.WaitReset), 3 * time.Second, taxonomy.WaitReset},
		{"retry now", classed(taxonomy.RateLimited, 0, taxonomy.WaitRetryAfter), 0, taxonomy.WaitRetryAfter},
		{"a negative wait", classed(taxonomy.RateLimited, -5*time.Second, taxonomy.WaitRetryAfter), 0, taxonomy.WaitRetryAfter},
		{"Retry-After from the wire", retryAfter(err429, 4*time.Second), 4 * time.Second, taxonomy.WaitRetryAfter},
		{"no hint", err500, 500 * time.Millisecond, taxonomy.WaitBackoff},
		{"an overflow", classed(taxonomy.ContextOverflow, 2*time.Minute, taxonomy.WaitRetryAfter), 0, taxonomy.WaitBackoff},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				rec := &observetest.Recorder{}
				p := mustPipeline(t, middleware.NoJitter(), middleware.Observe(rec), middleware.KindAttempts(taxonomy.ContextOverflow, 2))
				s := newScript(fails(c.err), succeeds("ok"))
				ctx := run.New(t.Context())
				if got, err := p.Do(ctx, s.fn); err != nil || got != "ok" {
					t.Fatalf("got (%q, %v), want ok", got, err)
				}
				if gaps := s.gaps(); len(gaps) != 1 || gaps[0] != c.wait {
					t.Errorf("waited %v, want %v", gaps, c.wait)
				}
				if u := run.From(ctx).Usage(); u.Waited != c.wait || u.Retries != 1 {
					t.Errorf("usage %+v, want 1 retry and %v waited", u, c.wait)
				}
				r := observetest.Of[observe.RetryScheduled](rec)
				if len(r) != 1 || r[0].Wait != c.wait || r[0].Source != c.source || r[0].Attempt != 1 {
					t.Errorf("retries scheduled %+v, want one after attempt 1, %v from %v", r, c.wait, c.source)
				}
			})
		})
	}
}

// TestRetryAfterCapIsInclusive: a Retry-After equal to the cap is waited;
// one nanosecond more fails the call at once, with or without a breaker to
// hold open.
func TestRetryAfterCapIsInclusive(t *testing.T) {
	for _, c := range []struct {
		name  string
		wait  time.Duration
		opts  []middleware.Option
		calls int
	}{
		{"at the cap", 10 * time.Second, nil, 2},
		{"over the cap", 10*time.Second + 1, nil, 1},
		{"over the cap, no breaker", 10*time.Second + 1, []middleware.Option{middleware.NoBreaker()}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := newScript(fails(retryAfter(err429, c.wait)), succeeds("ok"))
				p := mustPipeline(t, append(c.opts, middleware.RetryAfterCap(10*time.Second))...)
				start := time.Now()
				_, err := p.Do(t.Context(), s.fn)
				if s.count() != c.calls {
					t.Fatalf("got %d calls (%v), want %d", s.count(), err, c.calls)
				}
				if c.calls == 1 && (!errors.Is(err, middleware.ErrRetryAfterOverCap) || time.Since(start) != 0) {
					t.Errorf("got %v after %v, want retry-after over the cap at once", err, time.Since(start))
				}
			})
		})
	}
}

// TestBackoffDoesNotOverflow: however many attempts are allowed, the
// backoff's ceiling stays at its max; a shift of a large base used to
// overflow into a negative wait, that is no wait at all.
func TestBackoffDoesNotOverflow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newScript(fails(err500))
		p := mustPipeline(t, middleware.NoJitter(), middleware.Backoff(5*time.Second, time.Minute),
			middleware.MaxAttempts(70), middleware.NoBreaker())
		_, _ = p.Do(t.Context(), s.fn)
		gaps := s.gaps()
		if len(gaps) != 69 {
			t.Fatalf("got %d waits, want 69", len(gaps))
		}
		want := []time.Duration{5 * time.Second, 10 * time.Second, 20 * time.Second, 40 * time.Second}
		for i, g := range gaps {
			w := time.Minute
			if i < len(want) {
				w = want[i]
			}
			if g != w {
				t.Errorf("wait %d: got %v, want %v", i+1, g, w)
			}
		}
	})
}

// TestNoThrottleKeepsRetriesDuringAnOutage: with NoThrottle, every call of
// an outage makes all its attempts.
func TestNoThrottleKeepsRetriesDuringAnOutage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustPipeline(t, middleware.CircuitBreaker(1000, time.Second), middleware.NoThrottle())
		if attempts := attemptsPerCall(t, p, newScript(fails(err529)), 6); attempts != "[3 3 3 3 3 3]" {
			t.Errorf("attempts per call: got %v, want [3 3 3 3 3 3]", attempts)
		}
	})
}

// TestOverflowIsRepairedWhileRetriesAreThrottled: the throttle holds back
// retries that would load a failing target; the repair of an overflowed
// request is not one.
func TestOverflowIsRepairedWhileRetriesAreThrottled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustPipeline(t, middleware.CircuitBreaker(1000, time.Second), middleware.KindAttempts(taxonomy.ContextOverflow, 2))
		for range 6 {
			_, _ = p.Do(t.Context(), newScript(fails(err529)).fn)
		}
		if _, err := p.Do(t.Context(), newScript(fails(err500), succeeds("ok")).fn); !errors.Is(err, middleware.ErrThrottled) {
			t.Fatalf("got %v, want retries throttled", err)
		}
		s := newScript(fails(errOverflow), succeeds("ok"))
		if got, err := p.Do(t.Context(), s.fn); err != nil || got != "ok" || s.count() != 2 {
			t.Errorf("got (%q, %v) after %d calls, want the repaired request's ok after 2", got, err, s.count())
		}
	})
}

// TestMaxDurationPassingDuringAnAttempt: an attempt still running when the
// call's MaxDuration passes ends the call with ReasonDeadline.
func TestMaxDurationPassingDuringAnAttempt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newScript(step{block: true})
		start := time.Now()
		_, err := mustPipeline(t, middleware.MaxDuration(3*time.Second)).Do(t.Context(), s.fn)
		e := asError(t, err)
		if e.Reason != observe.ReasonDeadline || s.count() != 1 || time.Since(start) != 3*time.Second {
			t.Fatalf("got %v after %d calls and %v, want deadline after 1 call and 3s", err, s.count(), time.Since(start))
		}
		if e.Detail != "max duration 3s" || e.Attempts[0].Class.Rule != "max duration exceeded" {
			t.Errorf("detail %q, rule %q", e.Detail, e.Attempts[0].Class.Rule)
		}
	})
}

// openBreaker returns a pipeline with WaitWhileOpen on a breaker of its own
// (one failure opens it for 10s), and the breaker.
func openBreaker(t *testing.T, opts ...middleware.Option) (*middleware.Pipeline[string], *breaker.Breaker) {
	b := breaker.New(breaker.Settings{Name: "shared", Failures: 1, Delay: 10 * time.Second})
	p := mustPipeline(t, append([]middleware.Option{middleware.UseBreaker(b), middleware.WaitWhileOpen(), middleware.NoJitter()}, opts...)...)
	return p, b
}

// TestWaitWhileOpenCountsRefusalsAsAttempts: refused attempts count
// toward the overloaded kind's limit: a call refused at its last attempt
// stops there, having sent only the probe in between.
func TestWaitWhileOpenCountsRefusalsAsAttempts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, b := openBreaker(t)
		b.HoldOpen(30 * time.Second)
		s := newScript(fails(err529))
		start := time.Now()
		_, err := p.Do(t.Context(), s.fn)
		// Attempt 1 is refused and waits for the probe time (30s, and a tenth
		// of the first backoff); attempt 2 is the probe, which fails and
		// reopens the circuit; attempt 3, after the backoff of 1s, is refused:
		// the third attempt of three.
		e := asError(t, err)
		if e.Reason != observe.ReasonCircuitOpen || s.count() != 1 || len(e.Attempts) != 3 {
			t.Fatalf("got %v after %d requests, want circuit open after 3 attempts, 1 of them a request", err, s.count())
		}
		if want := 31*time.Second + 50*time.Millisecond; time.Since(start) != want {
			t.Errorf("stopped after %v, want %v", time.Since(start), want)
		}
	})
}

// TestWaitWhileOpenUpToTheCap: a call waits for a probe due within the
// RetryAfterCap, the cap included; a longer one fails it at once.
func TestWaitWhileOpenUpToTheCap(t *testing.T) {
	for _, c := range []struct {
		name string
		hold time.Duration
		ok   bool
	}{
		{"at the cap", 30 * time.Second, true},
		{"over the cap", 30*time.Second + 1, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				p, b := openBreaker(t, middleware.RetryAfterCap(30*time.Second))
				b.HoldOpen(c.hold)
				s := newScript(succeeds("ok"))
				start := time.Now()
				got, err := p.Do(t.Context(), s.fn)
				if c.ok {
					if err != nil || got != "ok" || time.Since(start) != c.hold+50*time.Millisecond {
						t.Errorf("got (%q, %v) after %v, want ok just after the hold", got, err, time.Since(start))
					}
					return
				}
				if !errors.Is(err, middleware.ErrCircuitOpen) || s.count() != 0 || time.Since(start) != 0 {
					t.Errorf("got %v after %d requests and %v, want circuit open at once", err, s.count(), time.Since(start))
				}
			})
		})
	}
}

// TestWaitWhileHalfOpenWaitsABackoff: while another caller's probe is in
// flight the breaker refuses with nothing left of its delay; a refused
// caller then waits a backoff, not a tenth of one, so as not to spin.
func TestWaitWhileHalfOpenWaitsABackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &observetest.Recorder{}
		p, b := openBreaker(t, middleware.Observe(rec))
		b.Open()
		time.Sleep(10 * time.Second)
		release := make(chan struct{})
		probe := make(chan error)
		go func() {
			_, err := p.Do(context.WithoutCancel(t.Context()), bounded(func(context.Context, middleware.State) (string, error) {
				<-release
				return "probe", nil
			}))
			probe <- err
		}()
		synctest.Wait() // the probe is in flight
		_, err := p.Do(t.Context(), newScript(succeeds("never")).fn)
		close(release)
		if perr := <-probe; perr != nil {
			t.Fatalf("probe: %v", perr)
		}
		if !errors.Is(err, middleware.ErrCircuitOpen) {
			t.Fatalf("got %v, want circuit open", err)
		}
		var waits []string
		for _, r := range observetest.Of[observe.RetryScheduled](rec) {
			waits = append(waits, fmt.Sprintf("%v %v", r.Wait, r.Source))
		}
		if want := fmt.Sprint([]string{"500ms " + taxonomy.WaitProbe.String(), "1s " + taxonomy.WaitProbe.String()}); fmt.Sprint(waits) != want {
			t.Errorf("waits %v, want %v", waits, want)
		}
	})
}

// TestWaitWhileOpenWithinTheDeadlineAndBudget: a probe due after the
// call's deadline, or a run without retries left, fails the call at once.
func TestWaitWhileOpenWithinTheDeadlineAndBudget(t *testing.T) {
	for _, c := range []struct {
		name   string
		opts   []middleware.Option
		run    []run.Option
		reason observe.Reason
	}{
		{"deadline", []middleware.Option{middleware.MaxDuration(5 * time.Second)}, nil, observe.ReasonCircuitOpen},
		{"budget", nil, []run.Option{run.RetryBudget(0)}, observe.ReasonBudgetSpent},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				p, b := openBreaker(t, c.opts...)
				b.Open()
				start := time.Now()
				_, err := p.Do(run.New(t.Context(), c.run...), newScript(succeeds("never")).fn)
				if e := asError(t, err); e.Reason != c.reason || time.Since(start) != 0 {
					t.Errorf("got %v after %v, want %v at once", err, time.Since(start), c.reason)
				}
			})
		})
	}
}
