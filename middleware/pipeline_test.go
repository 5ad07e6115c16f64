package middleware_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/run"

	"github.com/failsafe-go/failsafe-go/bulkhead"
	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	"github.com/failsafe-go/failsafe-go/retrypolicy"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/taxonomy"
)

// Real texts from langchaingo v0.1.14's clients, as they reach the wrapper.
var (
	err500      = providerErr("API returned unexpected status code: 500")
	err429      = providerErr("API returned unexpected status code: 429: Rate limit reached")
	err529      = providerErr("anthropic: failed to create message: API returned unexpected status code: 529: Overloaded")
	err401      = providerErr("API returned unexpected status code: 401: Incorrect API key provided: sk-test.")
	errOverflow = providerErr("anthropic: failed to create message: API returned unexpected status code: 400: prompt is too long: 210000 tokens > 200000 maximum")
	errUnknown  = providerErr("something nobody has seen before")
	errNotImpl  = providerErr("not implemented")
	errCanceled = providerErr("request cancelled")
)

func TestCallsPerKind(t *testing.T) {
	tests := []struct {
		name       string
		err        error
		wantCalls  int
		wantReason observe.Reason
	}{
		{"transient", err500, 3, observe.ReasonExhausted},
		{"unknown", errUnknown, 2, observe.ReasonExhausted},
		{"rate_limited", err429, 5, observe.ReasonExhausted},
		{"overloaded", err529, 3, observe.ReasonExhausted},
		{"context_overflow", errOverflow, 1, observe.ReasonContextOverflow},
		{"permanent", err401, 1, observe.ReasonPermanent},
		{"programming", errNotImpl, 1, observe.ReasonPermanent},
		{"canceled", errCanceled, 1, observe.ReasonCanceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := newScript(fails(tt.err))
				p := mustPipeline(t)
				_, err := p.Do(t.Context(), s.fn)
				if got := s.count(); got != tt.wantCalls {
					t.Errorf("calls: got %d, want %d", got, tt.wantCalls)
				}
				if got := asError(t, err).Reason; got != tt.wantReason {
					t.Errorf("reason: got %v, want %v", got, tt.wantReason)
				}
			})
		})
	}
}

func TestKindAttemptsOverrides(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newScript(fails(err429))
		p := mustPipeline(t, middleware.KindAttempts(taxonomy.RateLimited, 7), middleware.MaxAttempts(2))
		_, _ = p.Do(t.Context(), s.fn)
		if got := s.count(); got != 7 {
			t.Errorf("rate limited calls: got %d, want 7", got)
		}
		s = newScript(fails(err500))
		_, _ = p.Do(t.Context(), s.fn)
		if got := s.count(); got != 2 {
			t.Errorf("transient calls: got %d, want 2", got)
		}
	})
}

func TestRecoversAndReturnsResult(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newScript(fails(err529), fails(err500), succeeds("ok"))
		p := mustPipeline(t)
		got, err := p.Do(t.Context(), s.fn)
		if err != nil || got != "ok" {
			t.Fatalf("got (%q, %v), want (ok, nil)", got, err)
		}
		if s.count() != 3 {
			t.Errorf("calls: got %d, want 3", s.count())
		}
		if prev := s.seen[2].Previous; prev.Number != 2 || prev.Class.Kind != taxonomy.Transient {
			t.Errorf("third attempt's Previous: got %+v, want attempt 2, transient", prev)
		}
	})
}

func TestBackoffCeilingsWithoutJitter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newScript(fails(err500))
		p := mustPipeline(t, middleware.NoJitter(), middleware.MaxAttempts(7), middleware.NoBreaker())
		_, _ = p.Do(t.Context(), s.fn)
		want := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second}
		if got := s.gaps(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("waits: got %v, want %v", got, want)
		}
	})
}

func TestFullJitterRange(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustPipeline(t, middleware.MaxAttempts(4), middleware.NoBreaker())
		ceilings := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second}
		var sums [3]time.Duration
		var maxes [3]time.Duration
		const runs = 300
		for range runs {
			s := newScript(fails(err500))
			_, _ = p.Do(t.Context(), s.fn)
			for i, g := range s.gaps() {
				if g < 0 || g >= ceilings[i] {
					t.Fatalf("wait %d: got %v, want within [0, %v)", i+1, g, ceilings[i])
				}
				sums[i] += g
				maxes[i] = max(maxes[i], g)
			}
		}
		for i, c := range ceilings {
			mean := sums[i] / runs
			// Uniform on [0, c): the mean is c/2 and the max nears c. With 300
			// draws these bounds fail with probability below 1e-9.
			if mean < c*35/100 || mean > c*65/100 {
				t.Errorf("wait %d: mean %v, want near %v", i+1, mean, c/2)
			}
			if maxes[i] < c*9/10 {
				t.Errorf("wait %d: max %v, want near %v", i+1, maxes[i], c)
			}
		}
	})
}

func retryAfter(err error, d time.Duration) error {
	return taxonomy.WithEvidence(err, taxonomy.Evidence{Status: 429, RetryAfter: d})
}

func TestRetryAfterIsHonouredExactly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newScript(fails(retryAfter(err429, 7*time.Second)), fails(retryAfter(err429, 1500*time.Millisecond)), succeeds("ok"))
		p := mustPipeline(t)
		if _, err := p.Do(t.Context(), s.fn); err != nil {
			t.Fatal(err)
		}
		want := []time.Duration{7 * time.Second, 1500 * time.Millisecond}
		if got := s.gaps(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("waits: got %v, want %v", got, want)
		}
	})
}

func TestRetryAfterOverCapFailsFastAndHoldsBreaker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newScript(fails(retryAfter(err429, 2*time.Minute)), succeeds("ok"))
		p := mustPipeline(t)
		start := time.Now()
		_, err := p.Do(t.Context(), s.fn)
		if got := asError(t, err).Reason; got != observe.ReasonRetryAfterOverCap {
			t.Fatalf("reason: got %v, want %v", got, observe.ReasonRetryAfterOverCap)
		}
		if time.Since(start) != 0 || s.count() != 1 {
			t.Fatalf("got %d calls in %v, want 1 call at once", s.count(), time.Since(start))
		}
		// Other callers fail fast for the period the provider asked for.
		time.Sleep(119 * time.Second)
		_, err = p.Do(t.Context(), s.fn)
		if !errors.Is(err, circuitbreaker.ErrOpen) || s.count() != 1 {
			t.Fatalf("during the hold: got %v after %d calls, want circuit open and no call", err, s.count())
		}
		time.Sleep(time.Second)
		if got, err := p.Do(t.Context(), s.fn); err != nil || got != "ok" {
			t.Fatalf("after the hold: got (%q, %v), want (ok, nil)", got, err)
		}
	})
}

func TestCallerCancelDuringBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		s := newScript(fails(retryAfter(err429, 30*time.Second)))
		p := mustPipeline(t)
		go func() {
			time.Sleep(5 * time.Second)
			cancel()
		}()
		start := time.Now()
		_, err := p.Do(ctx, s.fn)
		if elapsed := time.Since(start); elapsed != 5*time.Second {
			t.Errorf("returned after %v, want 5s (the moment of the cancel)", elapsed)
		}
		if s.count() != 1 {
			t.Errorf("calls: got %d, want 1 (no attempt after the cancel)", s.count())
		}
		if got := asError(t, err).Reason; got != observe.ReasonCanceled || !errors.Is(err, context.Canceled) {
			t.Errorf("got %v (%v), want canceled matching context.Canceled", got, err)
		}
	})
}

func TestCallerCanceledWhateverTheErrorSays(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		// OpenAI's client turns a canceled context into fixed strings; here it
		// even looks like a retryable 500.
		s := newScript(step{err: err500, cancel: cancel})
		_, err := mustPipeline(t).Do(ctx, s.fn)
		e := asError(t, err)
		if e.Reason != observe.ReasonCanceled || s.count() != 1 {
			t.Errorf("got %v after %d calls, want canceled after 1", e.Reason, s.count())
		}
		if got := taxonomy.Classify(err).Kind; got != taxonomy.Canceled {
			t.Errorf("Classify(final): got %v, want canceled", got)
		}
	})
}

func TestNoAttemptAfterCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := newScript(succeeds("ok"))
	_, err := mustPipeline(t).Do(ctx, s.fn)
	if s.count() != 0 || asError(t, err).Reason != observe.ReasonCanceled {
		t.Errorf("got %v after %d calls, want canceled without a call", err, s.count())
	}
}

func TestAttemptTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newScript(step{block: true}, succeeds("ok"))
		p := mustPipeline(t, middleware.Timeout(10*time.Second), middleware.NoJitter())
		start := time.Now()
		got, err := p.Do(t.Context(), s.fn)
		if err != nil || got != "ok" {
			t.Fatalf("got (%q, %v), want (ok, nil)", got, err)
		}
		if elapsed := time.Since(start); elapsed != 10*time.Second+500*time.Millisecond {
			t.Errorf("elapsed: got %v, want 10.5s (timeout + first backoff)", elapsed)
		}
	})
}

func TestAttemptTimeoutIsTransient(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newScript(step{block: true})
		_, err := mustPipeline(t, middleware.Timeout(time.Second)).Do(t.Context(), s.fn)
		e := asError(t, err)
		if e.Reason != observe.ReasonExhausted || s.count() != 3 {
			t.Fatalf("got %v after %d calls, want exhausted after 3", e.Reason, s.count())
		}
		if got := e.Attempts[0].Class.Rule; got != "attempt timeout" {
			t.Errorf("rule: got %q, want attempt timeout", got)
		}
	})
}

func TestMaxDuration(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newScript(fails(retryAfter(err429, 20*time.Second)))
		p := mustPipeline(t, middleware.MaxDuration(30*time.Second))
		start := time.Now()
		_, err := p.Do(t.Context(), s.fn)
		e := asError(t, err)
		// The second wait of 20 s would end at 40 s, past the 30 s bound: stop
		// at once instead of sleeping into a cancellation.
		if e.Reason != observe.ReasonDeadline || s.count() != 2 || time.Since(start) != 20*time.Second {
			t.Errorf("got %v after %d calls and %v, want deadline after 2 calls and 20s", e.Reason, s.count(), time.Since(start))
		}
	})
}

func TestCallerDeadlineStopsEarly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		s := newScript(fails(retryAfter(err429, 20*time.Second)))
		start := time.Now()
		_, err := mustPipeline(t).Do(ctx, s.fn)
		if e := asError(t, err); e.Reason != observe.ReasonDeadline || time.Since(start) != 0 {
			t.Errorf("got %v after %v, want deadline at once", e.Reason, time.Since(start))
		}
	})
}

func TestBreakerOpensFailsFastAndRecovers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustPipeline(t, middleware.CircuitBreaker(2, 10*time.Second), middleware.MaxAttempts(1))
		failing := newScript(fails(err500))
		for range 2 {
			_, _ = p.Do(t.Context(), failing.fn)
		}
		if got := p.Breaker().State(); got != observe.BreakerOpen {
			t.Fatalf("state after 2 failures: got %v, want open", got)
		}
		ok := newScript(succeeds("ok"))
		_, err := p.Do(t.Context(), ok.fn)
		if !errors.Is(err, circuitbreaker.ErrOpen) || asError(t, err).Reason != observe.ReasonCircuitOpen || ok.count() != 0 {
			t.Fatalf("while open: got %v after %d calls, want circuit open, no call", err, ok.count())
		}
		if got := taxonomy.Classify(err).Kind; got != taxonomy.Overloaded {
			t.Errorf("Classify(circuit open): got %v, want overloaded", got)
		}
		time.Sleep(10 * time.Second)
		if _, err := p.Do(t.Context(), ok.fn); err != nil {
			t.Fatalf("probe: %v", err)
		}
		if got := p.Breaker().State(); got != observe.BreakerClosed {
			t.Errorf("after a good probe: got %v, want closed", got)
		}
	})
}

func TestBreakerCountsOnlyTargetFailures(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustPipeline(t, middleware.CircuitBreaker(1, time.Minute))
		for _, err := range []error{err401, errOverflow, errCanceled} {
			_, _ = p.Do(t.Context(), newScript(fails(err)).fn)
		}
		ctx, cancel := context.WithCancel(t.Context())
		_, _ = p.Do(ctx, newScript(step{err: err500, cancel: cancel}).fn)
		if got := p.Breaker().State(); got != observe.BreakerClosed {
			t.Errorf("after 400s, overflow and cancellations: got %v, want closed", got)
		}
	})
}

func TestNestedLayersDoNotMultiply(t *testing.T) {
	tests := []struct {
		name      string
		err       error
		wantCalls int
	}{
		{"transient", err500, 3},
		{"rate limited", err429, 5},
		{"permanent", err401, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := newScript(fails(tt.err))
				inner, middle, outer := mustPipeline(t), mustPipeline(t), mustPipeline(t)
				_, err := outer.Do(t.Context(), bounded(func(ctx context.Context, _ middleware.State) (string, error) {
					return middle.Do(ctx, func(ctx context.Context, _ middleware.State) (string, error) {
						return inner.Do(ctx, s.fn)
					})
				}))
				if got := s.count(); got != tt.wantCalls {
					t.Errorf("calls through three layers: got %d, want %d", got, tt.wantCalls)
				}
				if got := len(asError(t, err).Attempts); got != tt.wantCalls {
					t.Errorf("the outer error lists %d attempts, want the innermost %d", got, tt.wantCalls)
				}
			})
		})
	}
}

func TestRunBudgetIsShared(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := run.New(t.Context(), run.RetryBudget(3))
		run := run.From(ctx)
		a, b := newScript(fails(err500)), newScript(fails(err429))
		_, _ = mustPipeline(t).Do(ctx, a.fn) // 4 calls, 3 retries: one past the limit
		_, err := mustPipeline(t).Do(ctx, b.fn)
		if a.count() != 4 || b.count() != 1 {
			t.Errorf("calls: got %d + %d, want 4 + 1 (budget 3 retries in all)", a.count(), b.count())
		}
		if got := asError(t, err).Reason; got != observe.ReasonBudgetSpent {
			t.Errorf("reason: got %v, want budget spent", got)
		}
		if run.Retries() != 3 || run.Refusals() != 1 {
			t.Errorf("run: got %d retries and %d refusals, want 3 and 1", run.Retries(), run.Refusals())
		}
	})
}

func TestPanicIsRecoveredAndDoesNotStickTheBreaker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustPipeline(t, middleware.CircuitBreaker(1, time.Second))
		s := newScript(step{panic: "index out of range"})
		_, err := p.Do(t.Context(), s.fn)
		var pe *middleware.PanicError
		if !errors.As(err, &pe) || s.count() != 1 || asError(t, err).Reason != observe.ReasonPermanent {
			t.Fatalf("got %v after %d calls, want a PanicError after 1", err, s.count())
		}
		if got := taxonomy.Classify(err).Kind; got != taxonomy.Programming {
			t.Errorf("Classify: got %v, want programming", got)
		}
		// Half-open, a panicking probe must release its permit: the breaker
		// reopens and, after its delay, lets the next probe through.
		time.Sleep(time.Second)
		_, _ = p.Do(t.Context(), s.fn)
		time.Sleep(time.Second)
		ok := newScript(succeeds("ok"))
		if _, err := p.Do(t.Context(), ok.fn); err != nil {
			t.Fatalf("probe after a panicking probe: %v", err)
		}
	})
}

func TestFinalErrorIsDiagnosable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newScript(fails(err529), fails(retryAfter(err429, 2*time.Second)), fails(err500))
		_, err := mustPipeline(t).Do(t.Context(), s.fn)
		text := err.Error()
		for _, want := range []string{
			"middleware: test-target failed after 3 attempts",
			"attempt 1: anthropic: failed to create message: API returned unexpected status code: 529: Overloaded [overloaded, status 529]",
			"attempt 2 after ",
			"attempt 3 after 2s: API returned unexpected status code: 500 [transient, status 500]",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("error text %q lacks %q", text, want)
			}
		}
		if !errors.Is(err, retrypolicy.ErrExceeded) || !errors.Is(err, err529) || !errors.Is(err, err500) {
			t.Errorf("errors.Is does not reach the sentinels and attempts of %v", err)
		}
		var wire *taxonomy.WireError
		if !errors.As(err, &wire) || wire.RetryAfter != 2*time.Second {
			t.Errorf("errors.As(*taxonomy.WireError): got %v, want the 429's evidence", wire)
		}
		if got := taxonomy.Classify(err); got.Kind != taxonomy.Transient || got.Status != 500 {
			t.Errorf("Classify(final): got %v, want the last attempt's class", got)
		}
	})
}

func TestNoRetry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newScript(fails(middleware.Unretryable(err500, "output already streamed")))
		_, err := mustPipeline(t).Do(t.Context(), s.fn)
		e := asError(t, err)
		if s.count() != 1 || e.Reason != observe.ReasonUnretryable || e.Detail != "output already streamed" {
			t.Errorf("got %v after %d calls, want not retryable after 1", err, s.count())
		}
		if !strings.Contains(err.Error(), "attempt 1: API returned unexpected status code: 500") {
			t.Errorf("error text hides the provider's: %v", err)
		}
	})
}

func TestContextOverflowRetriedWhenRepaired(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newScript(fails(errOverflow), succeeds("ok"))
		p := mustPipeline(t, middleware.KindAttempts(taxonomy.ContextOverflow, 2))
		start := time.Now()
		if _, err := p.Do(t.Context(), s.fn); err != nil {
			t.Fatal(err)
		}
		if s.count() != 2 || time.Since(start) != 0 {
			t.Errorf("got %d calls in %v, want 2 at once", s.count(), time.Since(start))
		}
		if got := s.seen[1].Previous.Class.Kind; got != taxonomy.ContextOverflow {
			t.Errorf("second attempt saw previous kind %v, want context_overflow", got)
		}
	})
}

func TestConcurrentCallers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Two calls in three fail at first: the retry throttle would rightly
		// stop retries of such a target, which is not what this test is about.
		p := mustPipeline(t, middleware.CircuitBreaker(1000, time.Second), middleware.NoThrottle())
		var wg sync.WaitGroup
		for i := range 64 {
			wg.Go(func() {
				for j := range 20 {
					s := newScript(fails(err500), succeeds("ok"))
					if (i+j)%3 == 0 {
						s = newScript(succeeds("ok"))
					}
					if got, err := p.Do(t.Context(), s.fn); err != nil || got != "ok" {
						t.Errorf("got (%q, %v)", got, err)
					}
				}
			})
		}
		wg.Wait()
	})
}

func TestHedgeWinsAndCancelsTheLoser(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := run.New(t.Context(), run.RetryBudget(5))
		run := run.From(ctx)
		p := mustPipeline(t, middleware.Hedge(time.Second, 1))
		var mu sync.Mutex
		var loserErr error
		start := time.Now()
		got, err := p.DoHedged(ctx, bounded(func(ctx context.Context, s middleware.State) (string, error) {
			if s.Hedge {
				return "hedge", nil
			}
			<-ctx.Done() // the slow primary
			mu.Lock()
			loserErr = ctx.Err()
			mu.Unlock()
			return "", ctx.Err()
		}))
		if err != nil || got != "hedge" || time.Since(start) != time.Second {
			t.Fatalf("got (%q, %v) after %v, want the hedge's answer after 1s", got, err, time.Since(start))
		}
		synctest.Wait()
		mu.Lock()
		defer mu.Unlock()
		if !errors.Is(loserErr, context.Canceled) {
			t.Errorf("loser's context: got %v, want canceled", loserErr)
		}
		if run.Retries() != 1 {
			t.Errorf("budget spent by the hedge: got %d, want 1", run.Retries())
		}
	})
}

func TestInvalidOptions(t *testing.T) {
	_, err := middleware.New[string]("x", middleware.MaxAttempts(0), middleware.Backoff(time.Second, time.Millisecond),
		middleware.Classifier(nil), middleware.RetryAfterCap(-1), nil)
	if err == nil {
		t.Fatal("got nil error for invalid options")
	}
	for _, want := range []string{"MaxAttempts(0)", "Backoff(1s, 1ms)", "Classifier(nil)", "RetryAfterCap(-1ns)", "nil option"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
}

func TestNilFunctionAndContext(t *testing.T) {
	p := mustPipeline(t)
	if _, err := p.Do(context.Background(), nil); taxonomy.Classify(err).Kind != taxonomy.Programming {
		t.Errorf("nil function: got %v, want a programming error", err)
	}
	//lint:ignore SA1012 a nil context is the misuse under test
	if _, err := p.Do(nil, newScript(succeeds("ok")).fn); taxonomy.Classify(err).Kind != taxonomy.Programming { //nolint:staticcheck
		t.Errorf("nil context: got %v, want a programming error", err)
	}
}

func TestEventsAreLogged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var logs observetest.LogBuffer
		p := mustPipeline(t, middleware.Logger(logs.Logger()), middleware.CircuitBreaker(2, time.Minute), middleware.MaxAttempts(5))
		_, _ = p.Do(t.Context(), newScript(fails(retryAfter(err429, time.Second)), fails(err500), fails(err500)).fn)
		for _, want := range []string{
			`level=WARN msg=retrying target=test-target attempt=1 kind=rate_limited rule="status 429" delay=1s`,
			`level=WARN msg="circuit opened" target=test-target from=closed to=open`,
			`level=WARN msg="gave up" target=test-target reason=circuit_open attempts=4 kind=overloaded rule="circuit open"`,
		} {
			if !strings.Contains(logs.String(), want) {
				t.Errorf("logs lack %q:\n%s", want, logs.String())
			}
		}
	})
}

// providerErr is an error carrying a provider's own message, verbatim:
// capitals and full stops included.
func providerErr(message string) error { return errors.New(message) }

func TestRateLimiterSpacesAttempts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lim, err := limit.NewLocalLimiter(2, time.Second, middleware.Forever)
		if err != nil {
			t.Fatal(err)
		}
		p := mustPipeline(t, middleware.RateLimit(lim))
		s := newScript(succeeds("ok"))
		for range 5 {
			if _, err := p.Do(t.Context(), s.fn); err != nil {
				t.Fatal(err)
			}
		}
		want := []time.Duration{500 * time.Millisecond, 500 * time.Millisecond, 500 * time.Millisecond, 500 * time.Millisecond}
		if got := s.gaps(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("gaps: got %v, want %v", got, want)
		}
	})
}

func TestRateLimiterRefusal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lim, err := limit.NewLocalLimiter(1, time.Minute, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		p := mustPipeline(t, middleware.RateLimit(lim))
		s := newScript(succeeds("ok"))
		_, _ = p.Do(t.Context(), s.fn)
		_, err = p.Do(t.Context(), s.fn)
		if e := asError(t, err); e.Reason != observe.ReasonRateLimit || !errors.Is(err, limit.ErrLimited) || s.count() != 1 {
			t.Errorf("got %v after %d calls, want rejected by the limiter after 1", err, s.count())
		}
	})
}

func TestSuccessAsTheCallerGivesUpIsKept(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s := newScript(step{result: "charged", cancel: cancel})
	got, err := mustPipeline(t).Do(ctx, s.fn)
	if err != nil || got != "charged" {
		t.Errorf("got (%q, %v), want the result the function returned", got, err)
	}
}

func TestExplicitMaxAttemptsReplacesKindDefaults(t *testing.T) {
	tests := []struct {
		name string
		opts []middleware.Option
		err  error
		want int
	}{
		{"MaxAttempts(1) stops rate limits too", []middleware.Option{middleware.MaxAttempts(1)}, err429, 1},
		{"MaxAttempts(1) stops unknown too", []middleware.Option{middleware.MaxAttempts(1)}, errUnknown, 1},
		{"MaxAttempts(4) applies to unknown", []middleware.Option{middleware.MaxAttempts(4)}, errUnknown, 4},
		{"KindAttempts survives a later MaxAttempts", []middleware.Option{middleware.KindAttempts(taxonomy.RateLimited, 6), middleware.MaxAttempts(2)}, err429, 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := newScript(fails(tt.err))
				_, _ = mustPipeline(t, append(tt.opts, middleware.NoBreaker())...).Do(t.Context(), s.fn)
				if s.count() != tt.want {
					t.Errorf("calls: got %d, want %d", s.count(), tt.want)
				}
			})
		})
	}
}

func TestOneAttemptIsSingular(t *testing.T) {
	_, err := mustPipeline(t, middleware.MaxAttempts(1)).Do(context.Background(), newScript(fails(err500)).fn)
	if !strings.Contains(err.Error(), "failed after 1 attempt:") {
		t.Errorf("got %q, want \"failed after 1 attempt:\"", err)
	}
}

func TestWaitWhileOpenWaitsForTheProbe(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustPipeline(t, middleware.CircuitBreaker(1, 10*time.Second), middleware.WaitWhileOpen(), middleware.MaxAttempts(1))
		_, _ = p.Do(t.Context(), newScript(fails(err500)).fn) // opens the circuit
		p2 := mustPipeline(t, middleware.UseBreaker(p.Breaker()), middleware.WaitWhileOpen())
		s := newScript(succeeds("ok"))
		start := time.Now()
		got, err := p2.Do(t.Context(), s.fn)
		if err != nil || got != "ok" || s.count() != 1 {
			t.Fatalf("got (%q, %v) after %d calls, want ok after 1: the probe", got, err, s.count())
		}
		if elapsed := time.Since(start); elapsed < 10*time.Second || elapsed > 11*time.Second {
			t.Errorf("waited %v, want just over the breaker's 10s", elapsed)
		}
	})
}

func TestWaitWhileOpenGivesUpWithinItsAttempts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustPipeline(t, middleware.CircuitBreaker(1, 10*time.Second), middleware.WaitWhileOpen())
		s := newScript(fails(err529))
		_, err := p.Do(t.Context(), s.fn)
		// attempt 1 fails and opens the circuit; attempt 2 is refused and waits
		// for the probe; attempt 3 is the probe, which fails: 2 requests.
		if e := asError(t, err); s.count() != 2 || e.Reason != observe.ReasonExhausted {
			t.Errorf("got %v after %d requests, want exhausted after 2", err, s.count())
		}
	})
}

func TestBreakerListeners(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := breaker.New(breaker.Settings{Name: "b", Failures: 1, Delay: 10 * time.Second})
		var seen []observe.BreakerState
		remove := b.OnStateChange(func(s observe.BreakerState) { seen = append(seen, s) })
		b.HoldOpen(30 * time.Second) // closed -> open
		b.HoldOpen(10 * time.Second) // shorter: nothing new
		b.HoldOpen(time.Minute)      // longer: news for whoever shares the state
		remove()
		b.Close()
		if fmt.Sprint(seen) != "[open open]" {
			t.Errorf("listener saw %v, want [open open]", seen)
		}
	})
}

func TestRetryThrottleDuringAnOutage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustPipeline(t, middleware.CircuitBreaker(1000, time.Second))
		down := newScript(fails(err529))
		// 20 tokens: three calls spend 3 each; the fourth fails at 10, half the
		// bucket, and may not retry; every later call makes one attempt.
		if attempts := attemptsPerCall(t, p, down, 5); attempts != "[3 3 3 1 1]" {
			t.Errorf("attempts per call during the outage: got %v, want [3 3 3 1 1]", attempts)
		}
		_, err := p.Do(t.Context(), down.fn)
		if e := asError(t, err); e.Reason != observe.ReasonThrottled {
			t.Errorf("reason: got %v, want retries throttled", e.Reason)
		}
		// Recovery refills the bucket: after enough successes, retries return.
		up := newScript(succeeds("ok"))
		for range 6 {
			_, _ = p.Do(t.Context(), up.fn)
		}
		flaky := newScript(fails(err500), succeeds("ok"))
		if got, err := p.Do(t.Context(), flaky.fn); err != nil || got != "ok" {
			t.Errorf("after recovery: got (%q, %v), want a retried success", got, err)
		}
	})
}

func TestRetryThrottleKeepsRetriesOfAFlakyTarget(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustPipeline(t)
		failed := 0
		for i := range 300 {
			// One request in three fails, in a fixed pattern.
			s := newScript(succeeds("ok"))
			if i%3 == 0 {
				s = newScript(fails(err500), succeeds("ok"))
			}
			if _, err := p.Do(t.Context(), s.fn); err != nil {
				failed++
			}
		}
		if failed != 0 {
			t.Errorf("%d calls failed, want none: a third of attempts failing must not throttle retries", failed)
		}
	})
}

func TestPanickingClassifierDoesNotCrash(t *testing.T) {
	p := mustPipeline(t, middleware.Classifier(taxonomy.ClassifierFunc(func(error) taxonomy.Class { panic("bad rule") })))
	s := newScript(fails(err500))
	_, err := p.Do(context.Background(), s.fn)
	if got := taxonomy.Classify(err); got.Kind != taxonomy.Programming || s.count() != 1 {
		t.Errorf("got %v after %d calls, want a programming error after 1", got, s.count())
	}
}

func TestRawFailsafePolicies(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// A bulkhead of one: a second concurrent call is rejected by it.
		p := mustPipeline(t, middleware.Policies(bulkhead.New[string](1)))
		release := make(chan struct{})
		done := make(chan error)
		go func() {
			_, err := p.Do(t.Context(), bounded(func(context.Context, middleware.State) (string, error) {
				<-release
				return "ok", nil
			}))
			done <- err
		}()
		synctest.Wait()
		s := newScript(succeeds("ok"))
		_, err := p.Do(t.Context(), s.fn)
		if e := asError(t, err); e.Reason != observe.ReasonRejected || !errors.Is(err, bulkhead.ErrFull) || s.count() != 0 {
			t.Errorf("got %v after %d calls, want rejected by the bulkhead without a call", err, s.count())
		}
		close(release)
		if err := <-done; err != nil {
			t.Errorf("the first call: %v", err)
		}
	})
}

func TestPoliciesOfTheWrongResultType(t *testing.T) {
	_, err := middleware.New[string]("x", middleware.Policies(bulkhead.New[int](1)))
	if err == nil || !strings.Contains(err.Error(), "is not a failsafe.Policy[string]") {
		t.Errorf("got %v, want a type mismatch error", err)
	}
}

// TestSingleAttemptInItsPlace: SingleAttempt overrides the attempt counts
// given before it, and is overridden by those given after it, as every
// option is.
func TestSingleAttemptInItsPlace(t *testing.T) {
	for _, c := range []struct {
		name  string
		opts  []middleware.Option
		calls [3]int // for a 429, a 500, an unknown failure
	}{
		{"after KindAttempts and MaxAttempts", []middleware.Option{middleware.KindAttempts(taxonomy.RateLimited, 6), middleware.MaxAttempts(4), middleware.SingleAttempt()}, [3]int{1, 1, 1}},
		{"before MaxAttempts", []middleware.Option{middleware.KindAttempts(taxonomy.RateLimited, 6), middleware.SingleAttempt(), middleware.MaxAttempts(4)}, [3]int{6, 4, 4}},
		{"before KindAttempts", []middleware.Option{middleware.SingleAttempt(), middleware.KindAttempts(taxonomy.RateLimited, 3)}, [3]int{3, 1, 1}},
	} {
		synctest.Test(t, func(t *testing.T) {
			p := mustPipeline(t, c.opts...)
			for i, err := range []error{err429, err500, errUnknown} {
				s := newScript(fails(err))
				_, _ = p.Do(t.Context(), s.fn)
				if s.count() != c.calls[i] {
					t.Errorf("%s: %v: got %d calls, want %d", c.name, err, s.count(), c.calls[i])
				}
			}
		})
	}
}

func TestZeroRunHasTheDefaultBudget(t *testing.T) {
	var r run.Run
	if got := r.Remaining(); got != run.DefaultRetryBudget {
		t.Fatalf("zero Run: Remaining() = %d, want %d", got, run.DefaultRetryBudget)
	}
}

func TestRunLocalIsCreatedOncePerKey(t *testing.T) {
	type key struct{}
	r := run.From(run.New(t.Context()))
	calls := 0
	init := func() any { calls++; return new(int) }
	a, b := r.Local(key{}, init), r.Local(key{}, init)
	if a != b || calls != 1 {
		t.Fatalf("Local: same key gave %p and %p after %d inits, want one value and 1 init", a, b, calls)
	}
}

func TestErrorMatchesTheSentinelOfItsReason(t *testing.T) {
	sentinels := map[observe.Reason]error{
		observe.ReasonPermanent:         middleware.ErrPermanent,
		observe.ReasonExhausted:         middleware.ErrExhausted,
		observe.ReasonCircuitOpen:       middleware.ErrCircuitOpen,
		observe.ReasonRetryAfterOverCap: middleware.ErrRetryAfterOverCap,
		observe.ReasonBudgetSpent:       middleware.ErrBudgetSpent,
		observe.ReasonDeadline:          middleware.ErrDeadline,
		observe.ReasonContextOverflow:   middleware.ErrContextOverflow,
		observe.ReasonUnretryable:       middleware.ErrUnretryable,
		observe.ReasonRejected:          middleware.ErrRejected,
		observe.ReasonThrottled:         middleware.ErrThrottled,
		observe.ReasonUsageLimit:        run.ErrUsageLimit,
		observe.ReasonConcurrency:       limit.ErrConcurrency,
		observe.ReasonRateLimit:         limit.ErrLimited,
	}
	for reason, want := range sentinels {
		err := error(&middleware.Error{Target: "m", Reason: reason})
		for other, sentinel := range sentinels {
			if got := errors.Is(err, sentinel); got != (other == reason) {
				t.Errorf("errors.Is(Error{%v}, sentinel of %v) = %v", reason, other, got)
			}
		}
		if !errors.Is(err, want) {
			t.Errorf("Error{%v} does not match its sentinel", reason)
		}
	}
	if errors.Is(&middleware.Error{Reason: observe.Reason(200)}, middleware.ErrExhausted) {
		t.Error("an out-of-range reason matched a sentinel")
	}
}
