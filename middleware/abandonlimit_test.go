package middleware_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/taxonomy"
)

// hung is a protected function that ignores its context and returns only
// when release is closed, like a client stuck on a dead connection. running
// counts the calls in progress.
func hung(release <-chan struct{}, running *atomic.Int64) middleware.Func[string] {
	return func(context.Context, middleware.State) (string, error) {
		running.Add(1)
		defer running.Add(-1)
		<-release
		return "late", nil
	}
}

func TestAbandonedAttemptsAreBounded(t *testing.T) {
	for _, breaker := range []middleware.Option{middleware.NoBreaker(), middleware.CircuitBreaker(10, time.Second)} {
		synctest.Test(t, func(t *testing.T) {
			release := make(chan struct{})
			var running atomic.Int64
			p := mustPipeline(t, middleware.Timeout(time.Second), breaker)
			const calls = 1000
			for range calls {
				_, _ = p.Do(t.Context(), hung(release, &running))
				time.Sleep(time.Second) // the breaker's probes go out, too
			}
			synctest.Wait()
			if n := running.Load(); n > middleware.DefaultMaxAbandoned {
				t.Errorf("%d attempts still running after %d calls to a hung target, want at most %d", n, calls, middleware.DefaultMaxAbandoned)
			}
			close(release)
			synctest.Wait()
		})
	}
}

func TestPastMaxAbandonedCallsFailFastUntilSomeReturn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &observetest.Recorder{}
		release := make(chan struct{})
		var once sync.Once
		free := func() { once.Do(func() { close(release) }) }
		defer free()
		var running atomic.Int64
		p := mustPipeline(t, middleware.Timeout(time.Second), middleware.MaxAttempts(1), middleware.MaxAbandoned(2),
			middleware.CircuitBreaker(2, time.Minute), middleware.Observe(rec))
		var calls atomic.Int64
		fn := func(ctx context.Context, s middleware.State) (string, error) {
			calls.Add(1)
			return hung(release, &running)(ctx, s)
		}
		for range 2 {
			if _, err := p.Do(t.Context(), fn); !errors.As(err, new(*middleware.AbandonedError)) {
				t.Fatalf("got %v, want an abandoned attempt", err)
			}
		}
		if s := p.Breaker().State(); s != observe.BreakerOpen {
			t.Fatalf("breaker %v after two timeouts with CircuitBreaker(2, ...), want open", s)
		}
		time.Sleep(time.Minute) // the breaker lets a probe through

		start := time.Now()
		_, err := p.Do(t.Context(), fn)
		e := asError(t, err)
		if !errors.Is(err, middleware.ErrAbandoned) || e.Reason != observe.ReasonAbandoned || calls.Load() != 2 || time.Since(start) != 0 {
			t.Fatalf("got %v after %v with %d calls, want an immediate refusal for abandoned attempts and no third call", err, time.Since(start), calls.Load())
		}
		if c := e.Class(); c.Kind != taxonomy.Overloaded {
			t.Errorf("class %v, want overloaded", c)
		}
		refusals := observetest.Of[observe.Refusal](rec)
		if len(refusals) != 1 || refusals[0].Reason != observe.ReasonAbandoned || refusals[0].Reason.String() != "abandoned" {
			t.Errorf("refusals %+v, want one abandoned", refusals)
		}

		free() // the hung calls return
		synctest.Wait()
		if got, err := p.Do(t.Context(), newScript(succeeds("ok")).fn); err != nil || got != "ok" {
			t.Errorf("got (%q, %v) once the abandoned attempts returned, want ok: the refusal took no probe", got, err)
		}
		if s := p.Breaker().State(); s != observe.BreakerClosed {
			t.Errorf("breaker %v after the probe succeeded, want closed", s)
		}
	})
}

func TestMaxAbandonedRefusesANegativeBound(t *testing.T) {
	if _, err := middleware.New[string]("t", middleware.MaxAbandoned(-1)); err == nil {
		t.Error("MaxAbandoned(-1) accepted")
	}
}
