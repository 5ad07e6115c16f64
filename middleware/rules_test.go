package middleware_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/run"
	"github.com/resilientgo/resilient/taxonomy"
)

// TestTheLaterBreakerOptionWins: NoBreaker, UseBreaker and CircuitBreaker
// set the same thing; whichever comes last decides.
func TestTheLaterBreakerOptionWins(t *testing.T) {
	shared := breaker.New(breaker.Settings{Name: "shared"})
	for _, c := range []struct {
		name string
		opts []middleware.Option
		want string // "none", "shared" or "own"
	}{
		{"NoBreaker then CircuitBreaker", []middleware.Option{middleware.NoBreaker(), middleware.CircuitBreaker(3, time.Second)}, "own"},
		{"CircuitBreaker then NoBreaker", []middleware.Option{middleware.CircuitBreaker(3, time.Second), middleware.NoBreaker()}, "none"},
		{"UseBreaker then CircuitBreaker", []middleware.Option{middleware.UseBreaker(shared), middleware.CircuitBreaker(3, time.Second)}, "own"},
		{"CircuitBreaker then UseBreaker", []middleware.Option{middleware.CircuitBreaker(3, time.Second), middleware.UseBreaker(shared)}, "shared"},
	} {
		b := mustPipeline(t, c.opts...).Breaker()
		got := "own"
		switch b {
		case nil:
			got = "none"
		case shared:
			got = "shared"
		}
		if got != c.want {
			t.Errorf("%s: breaker %s, want %s", c.name, got, c.want)
		}
	}
}

// TestATimeoutOfZeroIsRefused: a time bound of 0 would allow no time at
// all; Forever is no bound.
func TestATimeoutOfZeroIsRefused(t *testing.T) {
	for _, o := range []middleware.Option{middleware.Timeout(0), middleware.MaxDuration(0), middleware.Timeout(-time.Second)} {
		if _, err := middleware.New[string]("x", o); err == nil {
			t.Errorf("%v accepted", o)
		}
	}
	// An option may be applied more than once (a model's two pipelines,
	// each target of a transport): Forever stays Forever.
	forever := middleware.Timeout(middleware.Forever)
	for range 2 {
		if _, err := middleware.New[string]("x", forever); err != nil {
			t.Fatalf("Timeout(Forever) applied again: %v", err)
		}
	}
	synctest.Test(t, func(t *testing.T) {
		got, err := mustPipeline(t, middleware.Timeout(middleware.Forever), middleware.MaxDuration(middleware.Forever)).
			Do(t.Context(), deaf(10*time.Hour, "late but whole", nil))
		if err != nil || got != "late but whole" {
			t.Errorf("Timeout(Forever): got (%q, %v), want the answer after 10h", got, err)
		}
	})
}

// TestARunWithInvalidOptionsSendsNothing: a call made with a run whose
// options were invalid fails as a programming error before any attempt.
func TestARunWithInvalidOptionsSendsNothing(t *testing.T) {
	ctx := run.New(t.Context(), run.RequestLimit(-1))
	calls := 0
	_, err := mustPipeline(t).Do(ctx, func(context.Context, middleware.State) (string, error) {
		calls++
		return "sent", nil
	})
	if !errors.Is(err, run.ErrInvalid) || taxonomy.Classify(err).Kind != taxonomy.Programming || calls != 0 {
		t.Errorf("got %v after %d calls, want the run's invalid options as a programming error, and no call", err, calls)
	}
}
