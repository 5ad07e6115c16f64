package middleware_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/taxonomy"
)

// deaf is a protected function that ignores its context, like langchaingo's
// mistral client: it answers after d, whatever happens meanwhile.
func deaf(d time.Duration, answer string, err error) middleware.Func[string] {
	return bounded(func(context.Context, middleware.State) (string, error) {
		time.Sleep(d)
		return answer, err
	})
}

func TestTimeoutBoundsAFunctionThatIgnoresItsContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &observetest.Recorder{}
		p := mustPipeline(t, middleware.Timeout(50*time.Millisecond), middleware.MaxAttempts(1), middleware.Observe(rec))
		start := time.Now()
		got, err := p.Do(t.Context(), deaf(300*time.Millisecond, "late answer", nil))
		if elapsed := time.Since(start); elapsed != 50*time.Millisecond {
			t.Errorf("Do returned after %v, want 50ms (the attempt timeout)", elapsed)
		}
		e := asError(t, err)
		if got != "" || e.Reason != observe.ReasonExhausted {
			t.Fatalf("got (%q, %v), want an exhausted failure", got, err)
		}
		if c := e.Attempts[0].Class; c.Kind != taxonomy.Transient || c.Rule != "attempt timeout" {
			t.Errorf("class %v, want transient attempt timeout", c)
		}
		if !errors.Is(err, middleware.ErrAttemptTimeout) || errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%v: want it to match ErrAttemptTimeout, not context.DeadlineExceeded (the caller's deadline did not pass)", err)
		}
		ends := observetest.Of[observe.AttemptEnd](rec)
		if len(ends) != 1 || !ends[0].Abandoned || !ends[0].Failed {
			t.Errorf("attempt ends %+v, want one abandoned failure", ends)
		}

		time.Sleep(time.Second) // the abandoned function returns meanwhile
		late := observetest.Of[observe.LateResult](rec)
		if len(late) != 1 || late[0].Late != 250*time.Millisecond || late[0].Failed || late[0].Attempt != 1 {
			t.Errorf("late results %+v, want one success 250ms late from attempt 1", late)
		}
	})
}

func TestAbandonedAttemptsAreRetried(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fn := bounded(func(ctx context.Context, s middleware.State) (string, error) {
			if s.Attempt == 1 {
				time.Sleep(time.Hour) // hung, deaf to ctx
			}
			return "second", nil
		})
		p := mustPipeline(t, middleware.Timeout(time.Second), middleware.NoJitter())
		start := time.Now()
		got, err := p.Do(t.Context(), fn)
		if err != nil || got != "second" || time.Since(start) != time.Second+500*time.Millisecond {
			t.Errorf("got (%q, %v) after %v, want second after 1.5s", got, err, time.Since(start))
		}
		time.Sleep(2 * time.Hour) // let the hung attempt end inside the bubble
	})
}

func TestCallerDeadlineBoundsAFunctionThatIgnoresItsContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
		defer cancel()
		p := mustPipeline(t, middleware.Timeout(middleware.Forever))
		start := time.Now()
		_, err := p.Do(ctx, deaf(time.Second, "too late", nil))
		if elapsed := time.Since(start); elapsed != 100*time.Millisecond {
			t.Errorf("Do returned after %v, want 100ms (the caller's deadline)", elapsed)
		}
		if e := asError(t, err); e.Reason != observe.ReasonCanceled || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("got %v, want canceled by the caller's deadline", err)
		}
		time.Sleep(time.Second)
	})
}

func TestCallerCancellationBoundsAFunctionThatIgnoresItsContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(200*time.Millisecond, cancel)
		p := mustPipeline(t, middleware.Timeout(middleware.Forever))
		start := time.Now()
		_, err := p.Do(ctx, deaf(time.Hour, "too late", nil))
		if elapsed := time.Since(start); elapsed != 200*time.Millisecond {
			t.Errorf("Do returned after %v, want 200ms (when the caller gave up)", elapsed)
		}
		if e := asError(t, err); e.Reason != observe.ReasonCanceled || !errors.Is(err, context.Canceled) {
			t.Errorf("got %v, want canceled by the caller", err)
		}
		time.Sleep(time.Hour)
	})
}

func TestMaxDurationBoundsAFunctionThatIgnoresItsContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustPipeline(t, middleware.Timeout(middleware.Forever), middleware.MaxDuration(3*time.Second))
		start := time.Now()
		_, err := p.Do(t.Context(), deaf(time.Hour, "too late", nil))
		if elapsed := time.Since(start); elapsed != 3*time.Second {
			t.Errorf("Do returned after %v, want 3s (the call's max duration)", elapsed)
		}
		if e := asError(t, err); e.Reason != observe.ReasonDeadline {
			t.Errorf("got %v, want the max duration's deadline", err)
		}
		time.Sleep(time.Hour)
	})
}

func TestAWinningHedgeAbandonsAnAttemptThatIgnoresItsContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &observetest.Recorder{}
		fn := bounded(func(ctx context.Context, s middleware.State) (string, error) {
			if !s.Hedge {
				time.Sleep(time.Hour) // deaf to ctx
				return "primary", nil
			}
			return "hedge", nil
		})
		p := mustPipeline(t, middleware.Hedge(time.Second, 1), middleware.Observe(rec))
		start := time.Now()
		got, err := p.DoHedged(t.Context(), fn)
		if err != nil || got != "hedge" || time.Since(start) != time.Second {
			t.Fatalf("got (%q, %v) after %v, want the hedge's answer after 1s", got, err, time.Since(start))
		}
		time.Sleep(time.Hour)
		late := observetest.Of[observe.LateResult](rec)
		if len(late) != 1 || late[0].Attempt != 1 || late[0].Late != time.Hour-time.Second {
			t.Errorf("late results %+v, want the primary's, discarded 59m59s late", late)
		}
	})
}

func TestEndEndsTheAttemptAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		stalled := taxonomy.WithClass(errors.New("stream stalled"), taxonomy.Class{Kind: taxonomy.Transient, Rule: "stalled"})
		fn := bounded(func(ctx context.Context, s middleware.State) (string, error) {
			if s.Attempt == 1 {
				time.AfterFunc(time.Second, func() { s.End(stalled) })
				time.Sleep(time.Minute) // deaf to ctx
				return "late", nil
			}
			return "fresh", nil
		})
		p := mustPipeline(t, middleware.Timeout(middleware.Forever), middleware.NoJitter())
		start := time.Now()
		got, err := p.Do(t.Context(), fn)
		if err != nil || got != "fresh" || time.Since(start) != time.Second+500*time.Millisecond {
			t.Fatalf("got (%q, %v) after %v, want fresh after 1.5s", got, err, time.Since(start))
		}
		time.Sleep(time.Minute)
	})
}

// TestEndWithoutATimeoutOrACancelableContext: End ends the attempt even
// when nothing else could (no timeout, a caller context that never ends).
func TestEndWithoutATimeoutOrACancelableContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		stalled := taxonomy.WithClass(errors.New("stream stalled"), taxonomy.Class{Kind: taxonomy.Permanent, Rule: "stalled"})
		fn := bounded(func(ctx context.Context, s middleware.State) (string, error) {
			time.AfterFunc(time.Second, func() { s.End(stalled) })
			time.Sleep(time.Hour) // deaf to ctx
			return "late", nil
		})
		start := time.Now()
		_, err := mustPipeline(t, middleware.Timeout(middleware.Forever)).Do(context.Background(), fn)
		if !errors.Is(err, stalled) || time.Since(start) != time.Second {
			t.Fatalf("got %v after %v, want the stall after 1s", err, time.Since(start))
		}
		time.Sleep(time.Hour)
	})
}

// TestEndAfterTheAttemptDoesNothing: an End that comes once its attempt is
// over (the function returned, or was abandoned) touches no other attempt,
// and End(nil) is ignored.
func TestEndAfterTheAttemptDoesNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		late := errors.New("too late to end anything")
		var ends []func(error)
		fn := bounded(func(ctx context.Context, s middleware.State) (string, error) {
			ends = append(ends, s.End)
			switch s.Attempt {
			case 1:
				s.End(nil)
				return "", err500
			case 2:
				ends[0](late) // attempt 1 is over
				time.Sleep(time.Second)
				return "second", nil
			}
			return "third", nil
		})
		got, err := mustPipeline(t, middleware.NoJitter()).Do(t.Context(), fn)
		if err != nil || got != "second" {
			t.Fatalf("got (%q, %v), want the second attempt's answer", got, err)
		}
	})
}

func TestEndWithAClassifiedCause(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fatal := taxonomy.WithClass(errors.New("bad"), taxonomy.Class{Kind: taxonomy.Permanent, Rule: "told so"})
		fn := bounded(func(ctx context.Context, s middleware.State) (string, error) {
			s.End(fatal)
			<-ctx.Done()
			time.Sleep(time.Second) // returns late on purpose
			return "", ctx.Err()
		})
		_, err := mustPipeline(t).Do(t.Context(), fn)
		e := asError(t, err)
		if e.Reason != observe.ReasonPermanent || len(e.Attempts) != 1 || !errors.Is(err, fatal) {
			t.Fatalf("got %v, want the permanent cause after one attempt", err)
		}
		time.Sleep(time.Second)
	})
}

func TestAnAnswerAsTheTimeoutPassesStands(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// The function returns in the very instant its attempt times out;
		// whichever the pipeline sees first, the outcome is one of the two
		// legal ones and nothing is lost or doubled.
		for range 20 {
			got, err := mustPipeline(t, middleware.Timeout(time.Second), middleware.MaxAttempts(1)).
				Do(t.Context(), deaf(time.Second, "just in time", nil))
			if err == nil && got != "just in time" || err != nil && got != "" {
				t.Fatalf("got (%q, %v)", got, err)
			}
		}
		time.Sleep(time.Second)
	})
}

func TestObserverSeesTheCallAndEveryAttempt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &observetest.Recorder{}
		var seen []observe.Start
		fn := bounded(func(ctx context.Context, s middleware.State) (string, error) {
			st, _ := observetest.StartFrom(ctx)
			seen = append(seen, st)
			if s.Attempt == 1 {
				return "", retryAfter(err429, 7*time.Second)
			}
			return "ok", nil
		})
		p := mustPipeline(t, middleware.Observe(rec), middleware.Describe(observe.Target{Operation: "chat", Provider: "openai", Model: "gpt-4o"}))
		if _, err := p.Do(t.Context(), fn); err != nil {
			t.Fatal(err)
		}
		want := observe.Target{Name: "test-target", Operation: "chat", Provider: "openai", Model: "gpt-4o"}
		starts := rec.Starts()
		if len(starts) != 3 || starts[0] != (observe.Start{Target: want}) ||
			starts[1] != (observe.Start{Target: want, Attempt: 1}) || starts[2] != (observe.Start{Target: want, Attempt: 2}) {
			t.Errorf("starts %+v, want the call then attempts 1 and 2 of %+v", starts, want)
		}
		if len(seen) != 2 || seen[0].Attempt != 1 || seen[1].Attempt != 2 {
			t.Errorf("the function saw contexts of %+v, want those of attempts 1 and 2", seen)
		}
		retries := observetest.Of[observe.RetryScheduled](rec)
		if len(retries) != 1 || retries[0].Wait != 7*time.Second || retries[0].Source != taxonomy.WaitRetryAfter ||
			retries[0].Class.Kind != taxonomy.RateLimited {
			t.Errorf("retries %+v, want one after the 7s Retry-After", retries)
		}
		ends := observetest.Of[observe.CallEnd](rec)
		if len(ends) != 1 || ends[0].Reason != 0 || ends[0].Attempts != 2 || ends[0].Duration != 7*time.Second {
			t.Errorf("call ends %+v, want one success after 2 attempts and 7s", ends)
		}
		if r := observetest.Of[observe.Recovered](rec); len(r) != 1 || r[0].Attempts != 2 {
			t.Errorf("recovered %+v", r)
		}
	})
}

func TestObserverSeesRefusalsAndTheEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &observetest.Recorder{}
		p := mustPipeline(t, middleware.Observe(rec), middleware.CircuitBreaker(1, time.Minute), middleware.MaxAttempts(1))
		_, _ = p.Do(t.Context(), newScript(fails(err500)).fn)
		_, err := p.Do(t.Context(), newScript(succeeds("never")).fn)
		if !errors.Is(err, middleware.ErrCircuitOpen) {
			t.Fatalf("got %v, want circuit open", err)
		}
		refusals := observetest.Of[observe.Refusal](rec)
		if len(refusals) != 1 || refusals[0].Reason != observe.ReasonCircuitOpen {
			t.Errorf("refusals %+v, want one circuit_open", refusals)
		}
		changes := observetest.Of[observe.BreakerChange](rec)
		if len(changes) != 1 || changes[0].To != observe.BreakerOpen {
			t.Errorf("breaker changes %+v, want it opened once", changes)
		}
		ends := observetest.Of[observe.CallEnd](rec)
		if len(ends) != 2 || ends[1].Reason != observe.ReasonCircuitOpen {
			t.Errorf("call ends %+v, want the second failed with circuit open", ends)
		}
	})
}

type panickingObserver struct{}

func (panickingObserver) Start(context.Context, observe.Start) context.Context {
	panic("observer bug")
}
func (panickingObserver) Observe(context.Context, observe.Event) { panic("observer bug") }

func TestAPanickingObserverDoesNotBreakTheCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &observetest.Recorder{}
		p := mustPipeline(t, middleware.Observe(panickingObserver{}, rec))
		got, err := p.Do(t.Context(), newScript(fails(err500), succeeds("ok")).fn)
		if err != nil || got != "ok" {
			t.Fatalf("got (%q, %v)", got, err)
		}
		if len(observetest.Of[observe.CallEnd](rec)) != 1 {
			t.Errorf("the observer after the panicking one missed the end")
		}
	})
}

func TestNilObserverIsAnOptionError(t *testing.T) {
	if _, err := middleware.New[string]("t", middleware.Observe(nil)); err == nil {
		t.Fatal("Observe(nil) accepted")
	}
}
