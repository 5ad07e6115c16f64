package middleware_test

import (
	"strings"
	"testing"
	"time"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/taxonomy"
)

// TestOptionBounds: each option accepts the smallest valid value and
// refuses the largest invalid one, naming itself.
func TestOptionBounds(t *testing.T) {
	for _, c := range []struct {
		opt  middleware.Option
		want string // "" when valid
	}{
		{middleware.MaxAttempts(1), ""},
		{middleware.MaxAttempts(0), "MaxAttempts(0): must be at least 1"},
		{middleware.KindAttempts(taxonomy.Programming, 1), ""},
		{middleware.KindAttempts(taxonomy.Programming, 0), "KindAttempts(programming, 0): must be at least 1"},
		{middleware.KindAttempts(taxonomy.Programming+1, 2), "no such kind"},
		{middleware.Backoff(time.Nanosecond, time.Nanosecond), ""},
		{middleware.Backoff(0, time.Second), "Backoff(0s, 1s): need 0 < base <= max"},
		{middleware.Backoff(time.Second, time.Second-1), "Backoff(1s, 999.999999ms): need 0 < base <= max"},
		{middleware.CircuitBreaker(1, time.Nanosecond), ""},
		{middleware.CircuitBreaker(0, time.Second), "CircuitBreaker(0, 1s): need failures >= 1 and a positive delay"},
		{middleware.CircuitBreaker(1, 0), "CircuitBreaker(1, 0s): need failures >= 1 and a positive delay"},
		{middleware.Hedge(time.Nanosecond, 1), ""},
		{middleware.Hedge(0, 1), "Hedge(0s, 1): need a positive delay and at least one hedge"},
		{middleware.Hedge(time.Second, 0), "Hedge(1s, 0): need a positive delay and at least one hedge"},
		{middleware.Timeout(time.Nanosecond), ""},
		{middleware.Timeout(middleware.Forever), ""},
		{middleware.Timeout(0), "Timeout(0s): must be positive (Forever for none)"},
		{middleware.Timeout(-1), "Timeout(-1ns): must be positive"},
		{middleware.MaxDuration(time.Nanosecond), ""},
		{middleware.MaxDuration(0), "MaxDuration(0s): must be positive"},
		{middleware.MaxDuration(-1), "MaxDuration(-1ns): must be positive"},
		{middleware.RetryAfterCap(1), ""},
		{middleware.RetryAfterCap(0), "RetryAfterCap(0s): must be positive"},
		{middleware.UseBreaker(nil), "UseBreaker(nil)"},
		{middleware.RateLimit(nil), "RateLimit(nil)"},
	} {
		_, err := middleware.New[string]("x", c.opt)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("refused a valid option: %v", err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
}

// TestMaxAttemptsLeavesOverflowsAlone: an explicit MaxAttempts replaces the
// per-kind defaults, but a context overflow stays at one attempt: it is
// repaired, not retried, unless the caller says it repairs.
func TestMaxAttemptsLeavesOverflowsAlone(t *testing.T) {
	s := newScript(fails(errOverflow))
	_, err := mustPipeline(t, middleware.MaxAttempts(4)).Do(t.Context(), s.fn)
	if e := asError(t, err); e.Reason != observe.ReasonContextOverflow || s.count() != 1 {
		t.Errorf("got %v after %d calls, want context overflow after 1", err, s.count())
	}
}

// TestUseBreakerAfterNoBreaker: the later option wins, both ways.
func TestUseBreakerAfterNoBreaker(t *testing.T) {
	b := breaker.New(breaker.Settings{Name: "shared", Failures: 1, Delay: time.Second})
	if got := mustPipeline(t, middleware.NoBreaker(), middleware.UseBreaker(b)).Breaker(); got != b {
		t.Errorf("NoBreaker then UseBreaker: breaker %v, want the shared one", got)
	}
	if got := mustPipeline(t, middleware.UseBreaker(b), middleware.NoBreaker()).Breaker(); got != nil {
		t.Errorf("UseBreaker then NoBreaker: breaker %v, want none", got)
	}
	if got := mustPipeline(t).Breaker(); got == nil || got == b || got.Name() != "test-target" {
		t.Errorf("default: breaker %v, want one of its own", got)
	}
}
