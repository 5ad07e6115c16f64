package run_test

import (
	"errors"
	"math"
	"testing"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/run"
	"github.com/resilientgo/resilient/taxonomy"
)

func newRun(t *testing.T, opts ...run.Option) *run.Run {
	return run.From(run.New(t.Context(), opts...))
}

// TestRetryBudget: a budget of n grants n retries and refuses the next,
// counting the refusals; 0 grants none; math.MaxInt is no limit, as is
// the budget of no run at all.
func TestRetryBudget(t *testing.T) {
	for _, c := range []struct {
		budget, granted, remaining int
	}{{2, 2, 0}, {0, 0, 0}, {math.MaxInt, 100, math.MaxInt - 100}} {
		r := newRun(t, run.RetryBudget(c.budget))
		granted := 0
		for range 100 {
			if r.TryRetry() {
				granted++
			}
		}
		if granted != c.granted || r.Retries() != c.granted || r.Refusals() != 100-c.granted || r.Remaining() != c.remaining {
			t.Errorf("budget %d: granted %d, retries %d, refusals %d, remaining %d; want %d granted, %d remaining",
				c.budget, granted, r.Retries(), r.Refusals(), r.Remaining(), c.granted, c.remaining)
		}
	}
	var none *run.Run
	if !none.TryRetry() || none.Usage() != (run.Usage{}) {
		t.Error("no run: want every retry granted and no usage")
	}
}

// TestRequestLimit: the limit counts requests, and refuses the one past it
// with an error naming the limit and the usage.
func TestRequestLimit(t *testing.T) {
	r := newRun(t, run.RequestLimit(2))
	for i := range 2 {
		if err := r.StartRequest(0); err != nil {
			t.Fatalf("request %d refused within the limit: %v", i+1, err)
		}
	}
	err := r.StartRequest(0)
	var ule *run.UsageLimitError
	if !errors.As(err, &ule) || ule.Limit != "request limit" || ule.Max != 2 || ule.Usage.Requests != 2 {
		t.Fatalf("got %#v, want the request limit of 2", err)
	}
	if want := "run: request limit of 2 reached (used 2 requests, 0+0 tokens, 0 tool calls)"; err.Error() != want {
		t.Errorf("text %q, want %q", err, want)
	}
	if !errors.Is(err, run.ErrUsageLimit) || errors.Is(err, middleware.ErrExhausted) {
		t.Errorf("%v: want it to match ErrUsageLimit alone", err)
	}
	if c := taxonomy.Classify(err); c.Kind != taxonomy.Canceled || c.Rule != "usage limit" {
		t.Errorf("class %+v, want canceled by the usage limit", c)
	}
	if got := r.Usage().Requests; got != 2 {
		t.Errorf("requests %d, want 2: a refused request is not sent", got)
	}
}

// TestTokenBudgetBoundaries: a request is refused once the reported tokens reach the
// budget, or when its estimate would pass what remains; up to the budget
// exactly, it goes.
func TestTokenBudgetBoundaries(t *testing.T) {
	for _, c := range []struct {
		name          string
		input, output int
		estimate      int
		need          int // 0: admitted; -1: refused as spent
	}{
		{"within", 60, 30, 10, 0},
		{"one over", 60, 30, 11, 11},
		{"spent", 60, 40, 0, -1},
		{"overspent", 70, 40, 0, -1},
		{"negative counts add nothing", -5, -5, 100, 0},
		{"output alone", 0, 95, 5, 0},
		{"input alone", 95, 0, 6, 6},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRun(t, run.TokenBudget(100))
			r.AddTokens(c.input, c.output)
			err := r.StartRequest(c.estimate)
			if c.need == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if r.Usage().Requests != 1 {
					t.Errorf("requests %d, want 1", r.Usage().Requests)
				}
				return
			}
			var ule *run.UsageLimitError
			if !errors.As(err, &ule) || ule.Limit != "token budget" || ule.Max != 100 || ule.Need != max(c.need, 0) {
				t.Fatalf("got %#v, want the token budget, needing %d", err, max(c.need, 0))
			}
			if u := r.Usage(); u.Requests != 0 || u.InputTokens != max(c.input, 0) || u.OutputTokens != max(c.output, 0) {
				t.Errorf("usage %+v", u)
			}
		})
	}
	r := newRun(t, run.TokenBudget(100))
	r.AddTokens(60, 30)
	if want := "run: token budget of 100 would be exceeded: the request needs about 11 tokens (used 0 requests, 60+30 tokens, 0 tool calls)"; r.StartRequest(11).Error() != want {
		t.Errorf("text %q, want %q", r.StartRequest(11), want)
	}
}

func TestHasTokenBudget(t *testing.T) {
	var none *run.Run
	for _, c := range []struct {
		r    *run.Run
		want bool
	}{
		{none, false},
		{newRun(t), false},
		{newRun(t, run.TokenBudget(0)), true},
		{newRun(t, run.TokenBudget(1)), true},
	} {
		if got := c.r.HasTokenBudget(); got != c.want {
			t.Errorf("HasTokenBudget() = %v, want %v", got, c.want)
		}
	}
}

// TestNoLimitsAdmitEverything: a run without limits, or with the largest,
// and a nil run admit everything.
func TestNoLimitsAdmitEverything(t *testing.T) {
	r := newRun(t, run.RequestLimit(math.MaxInt), run.ToolCallLimit(math.MaxInt), run.TokenBudget(math.MaxInt))
	var none *run.Run
	for range 50 {
		r.AddTokens(1000, 1000)
		none.AddTokens(1, 1)
		if r.StartRequest(1000) != nil || r.StartToolCall() != nil || none.StartRequest(1) != nil || none.StartToolCall() != nil {
			t.Fatal("refused without a limit")
		}
	}
	if u := r.Usage(); u.Requests != 50 || u.ToolCalls != 50 || u.Tokens() != 100000 {
		t.Errorf("usage %+v", u)
	}
}

func TestToolCallLimitRefusal(t *testing.T) {
	r := newRun(t, run.ToolCallLimit(1))
	if err := r.StartToolCall(); err != nil {
		t.Fatal(err)
	}
	err := r.StartToolCall()
	var ule *run.UsageLimitError
	if !errors.As(err, &ule) || ule.Limit != "tool call limit" || ule.Max != 1 || ule.Usage.ToolCalls != 1 {
		t.Fatalf("got %#v, want the tool call limit of 1", err)
	}
	if r.Usage().ToolCalls != 1 {
		t.Errorf("tool calls %d, want 1: a refused call is not started", r.Usage().ToolCalls)
	}
}

// TestRetryPastLimit: a retry past a call's limit is paid from the same
// budget as any retry and counted apart in Usage.PastLimit; a spent budget
// refuses it, which is no refusal of a retry (the call stops for its own
// limit); no run at all, which has no budget to spend, refuses it too.
func TestRetryPastLimit(t *testing.T) {
	r := newRun(t, run.RetryBudget(2))
	if !r.TryRetry() || !r.TryRetryPastLimit() {
		t.Fatal("a budget of 2 refused its first two retries")
	}
	if r.TryRetryPastLimit() {
		t.Error("a spent budget granted a retry past the limit")
	}
	if u := r.Usage(); u.Retries != 2 || u.PastLimit != 1 || r.Refusals() != 0 {
		t.Errorf("usage %+v, refusals %d; want 2 retries, 1 past the limit, no refusal", u, r.Refusals())
	}
	var none *run.Run
	if none.TryRetryPastLimit() {
		t.Error("no run granted a retry past the limit")
	}
}
