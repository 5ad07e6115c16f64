package resilient_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	lcllms "github.com/tmc/langchaingo/llms"
	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/run"
	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

// loopingAgent is a model that never stops asking for a tool, each time
// with a new input (so the repeat limit never fires), and is overloaded
// on every fourth request.
func loopingAgent() *faultserver.Server {
	return faultserver.NewInMemory(faultserver.Func(func(r *faultserver.Request) faultserver.Step {
		if r.Index%4 == 3 {
			return faultserver.Overloaded()
		}
		return faultserver.ReplyToolCalls(faultserver.ToolCall{
			ID: fmt.Sprintf("c%d", r.Index), Name: "lookup_order", Arguments: fmt.Sprintf(`{"__arg1":"%d"}`, 1000+r.Index)})
	}))
}

// sent adds up what the fault server saw and reported.
func sent(s *faultserver.Server) resilient.Usage {
	var u resilient.Usage
	for _, r := range s.Requests() {
		u.Requests++
		u.InputTokens += r.InputTokens
		u.OutputTokens += r.OutputTokens
	}
	return u
}

// An agent stuck in a loop under langchaingo's real Executor stops at each
// limit of its run, with an error that names the limit, and the run's usage
// is what the provider reported.
func TestLimitsStopAnAgentInALoop(t *testing.T) {
	tests := []struct {
		name  string
		limit resilient.RunOption
		text  string
		check func(t *testing.T, u resilient.Usage)
	}{
		{"token budget", resilient.TokenBudget(2000), "token budget of 2000", func(t *testing.T, u resilient.Usage) {
			if u.Tokens() < 2000 {
				t.Errorf("stopped at %d tokens, before the budget of 2000", u.Tokens())
			}
		}},
		{"request limit", resilient.RequestLimit(9), "request limit of 9 reached", func(t *testing.T, u resilient.Usage) {
			if u.Requests != 9 {
				t.Errorf("%d requests, want 9", u.Requests)
			}
		}},
		{"tool call limit", resilient.ToolCallLimit(5), "tool call limit of 5 reached", func(t *testing.T, u resilient.Usage) {
			if u.ToolCalls != 5 {
				t.Errorf("%d tool calls, want 5", u.ToolCalls)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := loopingAgent()
				defer s.Close()
				var calls atomic.Int32
				lookup := tools.Func("lookup_order", "Looks up an order by id.", func(context.Context, string) (string, error) {
					calls.Add(1)
					return "no such order; try another id", nil
				})
				ctx := resilient.NewRun(t.Context(), tt.limit, resilient.RetryBudget(math.MaxInt))
				executor := agents.NewExecutor(agents.NewOpenAIFunctionsAgent(resilient.Model(openaiAgainst(t, s)),
					[]lctools.Tool{resilient.Tool(lookup)}), agents.WithMaxIterations(1000))
				_, err := chains.Run(ctx, executor, "Where is my order?")
				if !errors.Is(err, resilient.ErrUsageLimit) || !strings.Contains(err.Error(), tt.text) {
					t.Fatalf("the run ended with %v, want %q", err, tt.text)
				}
				got, want := resilient.UsageFrom(ctx), sent(s)
				if got.Requests != want.Requests || got.InputTokens != want.InputTokens || got.OutputTokens != want.OutputTokens {
					t.Errorf("UsageFrom: %d requests, %d+%d tokens; the server saw %d requests and reported %d+%d tokens",
						got.Requests, got.InputTokens, got.OutputTokens, want.Requests, want.InputTokens, want.OutputTokens)
				}
				if got.ToolCalls != int(calls.Load()) || got.Retries == 0 || got.Waited == 0 {
					t.Errorf("UsageFrom %+v: want the %d tool calls made and the retries of the overloaded requests", got, calls.Load())
				}
				tt.check(t, got)
			})
		})
	}
}

// The tool call over the limit ends the run as a FatalToolError does: the
// model is not called again.
func TestToolCallOverTheLimitEndsTheRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := loopingAgent()
		defer s.Close()
		ctx := resilient.NewRun(t.Context(), resilient.ToolCallLimit(2))
		executor := agents.NewExecutor(agents.NewOpenAIFunctionsAgent(resilient.Model(openaiAgainst(t, s)),
			[]lctools.Tool{resilient.Tool(lookupOrder)}), agents.WithMaxIterations(1000))
		_, err := chains.Run(ctx, executor, "Where is my order?")
		var fatal *taxonomy.FatalToolError
		var refused *run.UsageLimitError
		if !errors.As(err, &fatal) || fatal.Tool != "lookup_order" || !errors.As(err, &refused) || refused.Limit != "tool call limit" {
			t.Fatalf("got %v, want a FatalToolError of lookup_order caused by the tool call limit", err)
		}
		if s.Count() != 3 { // three answers asking for a tool; the third call is refused
			t.Errorf("%d model requests, want 3", s.Count())
		}
	})
}

func TestUsageFromWithoutARun(t *testing.T) {
	var nilCtx context.Context
	for _, ctx := range []context.Context{context.Background(), nilCtx} {
		if got := resilient.UsageFrom(ctx); got != (resilient.Usage{}) {
			t.Errorf("UsageFrom(%v): %+v, want the zero Usage", ctx, got)
		}
		run := resilient.RunFrom(ctx)
		if run != nil {
			t.Errorf("RunFrom(%v): %v, want nil", ctx, run)
		}
		// As the README reads a run's budget: no run, nothing spent.
		if run.Retries() != 0 || run.Refusals() != 0 || run.Remaining() != -1 {
			t.Errorf("a nil run: %d retries, %d refusals, %d remaining; want 0, 0, -1", run.Retries(), run.Refusals(), run.Remaining())
		}
	}
}

// One run shared by parallel model and tool calls never passes its request
// and tool call limits, and passes its token budget by no more than the
// requests in flight when it was reached.
func TestLimitsHoldUnderParallelCalls(t *testing.T) {
	const (
		workers   = 12
		requests  = 60
		toolCalls = 45
		budget    = 3000
	)
	run := func(t *testing.T, opts ...resilient.RunOption) (resilient.Usage, *faultserver.Server) {
		s := faultserver.New(faultserver.Func(func(r *faultserver.Request) faultserver.Step {
			if r.Index%5 == 4 {
				return faultserver.ServerError()
			}
			return faultserver.ReplyChunks("one ", "two ", "three")
		}))
		t.Cleanup(s.Close)
		model := resilient.Model(openaiAgainst(t, s), resilient.Backoff(time.Millisecond, time.Millisecond), resilient.Middleware(middleware.NoThrottle()))
		tool := resilient.Tool(tools.Func("echo", "Echoes.", func(_ context.Context, in string) (string, error) { return in, nil }))
		ctx := resilient.NewRun(t.Context(), append(opts, resilient.RetryBudget(math.MaxInt))...)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				for i := 0; ; i++ {
					_, merr := model.GenerateContent(ctx, []lcllms.MessageContent{lcllms.TextParts(lcllms.ChatMessageTypeHuman, "hello there")})
					_, terr := tool.Call(ctx, fmt.Sprintf("%d-%d", w, i))
					if merr != nil && terr != nil || i > 200 {
						return
					}
				}
			})
		}
		wg.Wait()
		return resilient.UsageFrom(ctx), s
	}
	t.Run("requests and tool calls", func(t *testing.T) {
		u, s := run(t, resilient.RequestLimit(requests), resilient.ToolCallLimit(toolCalls))
		if u.Requests != requests || s.Count() != requests || u.ToolCalls != toolCalls {
			t.Errorf("%d requests (%d received), %d tool calls; want exactly %d and %d", u.Requests, s.Count(), u.ToolCalls, requests, toolCalls)
		}
	})
	t.Run("token budget", func(t *testing.T) {
		u, s := run(t, resilient.TokenBudget(budget))
		want := sent(s)
		perRequest := 0
		for _, r := range s.Requests() {
			perRequest = max(perRequest, r.InputTokens+r.OutputTokens)
		}
		if u.Tokens() < budget || u.Tokens()-budget >= workers*perRequest {
			t.Errorf("%d tokens used of a budget of %d; at most %d requests of up to %d tokens were in flight", u.Tokens(), budget, workers, perRequest)
		}
		if u.Requests != want.Requests || u.InputTokens != want.InputTokens || u.OutputTokens != want.OutputTokens {
			t.Errorf("usage %+v, the server saw %d requests and reported %d+%d tokens", u, want.Requests, want.InputTokens, want.OutputTokens)
		}
	})
}
