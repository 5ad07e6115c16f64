package middleware_test

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/taxonomy"
)

func newRun(t *testing.T, opts ...middleware.RunOption) *middleware.Run {
	return middleware.RunFrom(middleware.NewRun(t.Context(), opts...))
}

// TestRetryBudget: a budget of n grants n retries and refuses the next,
// counting the refusals; 0 grants none; a negative one is unlimited, as is
// the budget of no run at all.
func TestRetryBudget(t *testing.T) {
	for _, c := range []struct {
		budget, granted, remaining int
	}{{2, 2, 0}, {0, 0, 0}, {-1, 100, -1}} {
		r := newRun(t, nil, middleware.RetryBudget(c.budget)) // a nil option is skipped
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
	var none *middleware.Run
	if !none.TryRetry() || none.Usage() != (middleware.Usage{}) {
		t.Error("no run: want every retry granted and no usage")
	}
}

// TestRequestLimit: the limit counts requests, and refuses the one past it
// with an error naming the limit and the usage.
func TestRequestLimit(t *testing.T) {
	r := newRun(t, middleware.RequestLimit(2))
	for i := range 2 {
		if err := r.StartRequest(0); err != nil {
			t.Fatalf("request %d refused within the limit: %v", i+1, err)
		}
	}
	err := r.StartRequest(0)
	var ule *middleware.UsageLimitError
	if !errors.As(err, &ule) || ule.Limit != "request limit" || ule.Max != 2 || ule.Usage.Requests != 2 {
		t.Fatalf("got %#v, want the request limit of 2", err)
	}
	if want := "middleware: request limit of 2 reached (used 2 requests, 0+0 tokens, 0 tool calls)"; err.Error() != want {
		t.Errorf("text %q, want %q", err, want)
	}
	if !errors.Is(err, middleware.ErrUsageLimit) || errors.Is(err, middleware.ErrExhausted) {
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
			r := newRun(t, middleware.TokenBudget(100))
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
			var ule *middleware.UsageLimitError
			if !errors.As(err, &ule) || ule.Limit != "token budget" || ule.Max != 100 || ule.Need != max(c.need, 0) {
				t.Fatalf("got %#v, want the token budget, needing %d", err, max(c.need, 0))
			}
			if u := r.Usage(); u.Requests != 0 || u.InputTokens != max(c.input, 0) || u.OutputTokens != max(c.output, 0) {
				t.Errorf("usage %+v", u)
			}
		})
	}
	r := newRun(t, middleware.TokenBudget(100))
	r.AddTokens(60, 30)
	if want := "middleware: token budget of 100 would be exceeded: the request needs about 11 tokens (used 0 requests, 60+30 tokens, 0 tool calls)"; r.StartRequest(11).Error() != want {
		t.Errorf("text %q, want %q", r.StartRequest(11), want)
	}
}

func TestHasTokenBudget(t *testing.T) {
	var none *middleware.Run
	for _, c := range []struct {
		r    *middleware.Run
		want bool
	}{
		{none, false},
		{newRun(t), false},
		{newRun(t, middleware.TokenBudget(0)), false},
		{newRun(t, middleware.TokenBudget(-3)), false},
		{newRun(t, middleware.TokenBudget(1)), true},
	} {
		if got := c.r.HasTokenBudget(); got != c.want {
			t.Errorf("HasTokenBudget() = %v, want %v", got, c.want)
		}
	}
}

// TestNoLimitsAdmitEverything: limits of 0 (or negative) are no limits,
// and a nil run admits everything.
func TestNoLimitsAdmitEverything(t *testing.T) {
	r := newRun(t, middleware.RequestLimit(0), middleware.ToolCallLimit(-1), middleware.TokenBudget(0))
	var none *middleware.Run
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
	r := newRun(t, middleware.ToolCallLimit(1))
	if err := r.StartToolCall(); err != nil {
		t.Fatal(err)
	}
	err := r.StartToolCall()
	var ule *middleware.UsageLimitError
	if !errors.As(err, &ule) || ule.Limit != "tool call limit" || ule.Max != 1 || ule.Usage.ToolCalls != 1 {
		t.Fatalf("got %#v, want the tool call limit of 1", err)
	}
	if r.Usage().ToolCalls != 1 {
		t.Errorf("tool calls %d, want 1: a refused call is not started", r.Usage().ToolCalls)
	}
}

// TestRunCountsRetriesAndWaits: a pipeline's retries and their waits add up
// in its run's usage; a usage limit's refusal is final.
func TestRunCountsRetriesAndWaits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := middleware.NewRun(t.Context())
		s := newScript(fails(retryAfter(err429, 2*time.Second)), fails(retryAfter(err429, 3*time.Second)), succeeds("ok"))
		if _, err := mustPipeline(t).Do(ctx, s.fn); err != nil {
			t.Fatal(err)
		}
		if u := middleware.RunFrom(ctx).Usage(); u.Retries != 2 || u.Waited != 5*time.Second {
			t.Errorf("usage %+v, want 2 retries and 5s waited", u)
		}

		refused := newScript(fails(&middleware.UsageLimitError{Limit: "request limit", Max: 1}))
		_, err := mustPipeline(t).Do(ctx, refused.fn)
		if e := asError(t, err); e.Reason != observe.ReasonUsageLimit || e.Detail != "request limit" || refused.count() != 1 {
			t.Errorf("got %v after %d calls, want the usage limit after 1", err, refused.count())
		}
	})
}
