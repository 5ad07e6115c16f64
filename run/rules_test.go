package run_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/resilientgo/resilient/run"
)

// TestZeroAllowsNone: a limit of 0 allows nothing, as RetryBudget(0)
// allows no retry; the largest value is no limit.
func TestZeroAllowsNone(t *testing.T) {
	r := newRun(t, run.RequestLimit(0), run.ToolCallLimit(0))
	if err := r.StartRequest(0); !errors.Is(err, run.ErrUsageLimit) {
		t.Errorf("RequestLimit(0): StartRequest = %v, want a refusal", err)
	}
	if err := r.StartToolCall(); !errors.Is(err, run.ErrUsageLimit) {
		t.Errorf("ToolCallLimit(0): StartToolCall = %v, want a refusal", err)
	}
	if err := newRun(t, run.TokenBudget(0)).StartRequest(0); !errors.Is(err, run.ErrUsageLimit) {
		t.Errorf("TokenBudget(0): StartRequest = %v, want a refusal", err)
	}
	if newRun(t, run.RetryBudget(0)).TryRetry() {
		t.Error("RetryBudget(0): a retry was granted")
	}
	unlimited := newRun(t, run.RetryBudget(math.MaxInt))
	for range 1000 {
		if !unlimited.TryRetry() {
			t.Fatal("RetryBudget(math.MaxInt) refused a retry")
		}
	}
}

// TestInvalidRunOptions: a negative limit and a nil option are refused
// with an error naming them.
func TestInvalidRunOptions(t *testing.T) {
	for _, c := range []struct {
		opt  run.Option
		want string
	}{
		{run.RetryBudget(-1), "run: RetryBudget(-1): must not be negative"},
		{run.TokenBudget(-1), "run: TokenBudget(-1): must not be negative"},
		{run.RequestLimit(-5), "run: RequestLimit(-5): must not be negative"},
		{run.ToolCallLimit(-1), "run: ToolCallLimit(-1): must not be negative"},
		{nil, "run: nil option"},
	} {
		err := newRun(t, c.opt).Err()
		if !errors.Is(err, run.ErrInvalid) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want an invalid run saying %q", err, c.want)
		}
	}
	if err := newRun(t, run.RetryBudget(0), run.RequestLimit(0)).Err(); err != nil {
		t.Errorf("valid options: Err() = %v", err)
	}
}

// TestANilContextHasNoRun: From, and the UsageFrom built on it, answer a
// nil context as one without a run, instead of panicking.
func TestANilContextHasNoRun(t *testing.T) {
	var ctx context.Context // a nil context, as a caller may pass
	if r := run.From(ctx); r != nil || r.Usage() != (run.Usage{}) || r.Err() != nil {
		t.Errorf("From(nil) = %v, want no run", r)
	}
}
