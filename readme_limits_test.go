package resilient_test

import (
	"errors"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient"
)

// The README's "Run limits": an agent that never stops asking for a tool
// is stopped by the first limit it reaches (here the tool call limit),
// and the run's usage says what it cost.
func TestREADMERunLimits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := loopingAgent()
		defer s.Close()
		agent := agents.NewOpenAIFunctionsAgent(resilient.Model(openaiAgainst(t, s)), []lctools.Tool{resilient.Tool(lookupOrder)})
		ctx := t.Context()
		var stopped string
		var usage resilient.Usage

		// readme:begin limits
		executor := agents.NewExecutor(agent, agents.WithMaxIterations(100)) // the default, 5 steps, ends a run first
		ctx = resilient.NewRun(ctx, resilient.TokenBudget(50_000), resilient.RequestLimit(40), resilient.ToolCallLimit(25))
		_, err := chains.Run(ctx, executor, "Where is order 4471?")
		if errors.Is(err, resilient.ErrUsageLimit) { // the error names the limit and the usage
			stopped = err.Error()
			usage = resilient.UsageFrom(ctx) // Requests, InputTokens, OutputTokens, ToolCalls, Retries, Waited
		}
		// readme:end

		if !strings.Contains(stopped, "tool call limit of 25 reached") {
			t.Fatalf("the run ended with %v, want the tool call limit", err)
		}
		if usage.ToolCalls != 25 || usage.Requests != s.Count() {
			t.Errorf("usage %+v: want 25 tool calls and the %d requests the server saw", usage, s.Count())
		}
	})
}
