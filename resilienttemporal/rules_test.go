package resilienttemporal

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/run"
	"github.com/resilientgo/resilient/taxonomy"
)

// TestRunOptionsFollowTheRule: a run's limits follow the rule of every
// option: 0 allows none, a negative number (and 0 for the repeat limit) is
// refused with an error naming the option and sends nothing, math.MaxInt
// is no limit, and a later option overrides an earlier one.
func TestRunOptionsFollowTheRule(t *testing.T) {
	refused := func(ctx context.Context, tool bool) error {
		_, err := runFrom(ctx).allowance(tool)
		return err
	}
	for _, c := range []struct {
		name string
		opts []RunOption
		tool bool
	}{
		{"RequestLimit(0)", []RunOption{RequestLimit(0)}, false},
		{"TokenBudget(0)", []RunOption{TokenBudget(0)}, false},
		{"ToolCallLimit(0)", []RunOption{ToolCallLimit(0)}, true},
		{"a later limit overrides", []RunOption{RequestLimit(5), RequestLimit(0)}, false},
	} {
		var limit *run.UsageLimitError
		if err := refused(NewRun(nil, c.opts...), c.tool); !errors.As(err, &limit) {
			t.Errorf("%s: got %v, want the call refused by the limit", c.name, err)
		}
	}
	for _, c := range []struct {
		opt  RunOption
		want string
	}{
		{RequestLimit(-1), "RequestLimit(-1): must not be negative"},
		{TokenBudget(-1), "TokenBudget(-1): must not be negative"},
		{ToolCallLimit(-1), "ToolCallLimit(-1): must not be negative"},
		{RetryBudget(-1), "RetryBudget(-1): must not be negative"},
		{RepeatLimit(0), "RepeatLimit(0): must be at least 1"},
		{nil, "nil run option"},
	} {
		ctx := NewRun(nil, c.opt)
		err := refused(ctx, false)
		if !errors.Is(err, run.ErrInvalid) || taxonomy.Classify(err).Kind != taxonomy.Programming || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want a programming error saying %q", err, c.want)
		}
		// A tool call fails before the workflow schedules anything (the
		// run has no workflow context here: scheduling would panic).
		_, err = NewTool("lookup", "").Call(ctx, "in")
		var fatal *taxonomy.FatalToolError
		if !errors.As(err, &fatal) || !errors.Is(err, run.ErrInvalid) {
			t.Errorf("tool call with %q: got %v, want a FatalToolError for the invalid run", c.want, err)
		}
	}
	a, err := runFrom(NewRun(nil, RequestLimit(math.MaxInt), TokenBudget(math.MaxInt), RetryBudget(math.MaxInt))).allowance(false)
	if err != nil || a.Requests != math.MaxInt || a.Retries != math.MaxInt {
		t.Errorf("math.MaxInt limits: got %+v, %v, want everything allowed", a, err)
	}
	if a, err := runFrom(NewRun(nil)).allowance(false); err != nil || a.Requests != 0 || a.Tokens != 0 || a.Retries != run.DefaultRetryBudget {
		t.Errorf("no options: got %+v, %v, want no limits but the default retry budget", a, err)
	}
}

// TestUsageFromANilContext: UsageFrom(nil) is the zero Usage, not a panic.
func TestUsageFromANilContext(t *testing.T) {
	var ctx context.Context
	if u := UsageFrom(ctx); u != (resilient.Usage{}) {
		t.Errorf("UsageFrom(nil) = %+v, want the zero Usage", u)
	}
}
