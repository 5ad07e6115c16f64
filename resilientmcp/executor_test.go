package resilientmcp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/internal/scripted"
)

// With langchaingo's real agents.Executor: a result with isError reaches
// the model as the observation, the model corrects its input, and the run
// finishes with the answer.
func TestExecutorCorrectsAfterErrorResult(t *testing.T) {
	f := newFixture(t)
	ts := f.tools()
	model := scripted.New(
		scripted.CallTool("c1", "lookup", `{"id":"9999"}`),
		scripted.Step{Func: func(_ context.Context, msgs []llms.MessageContent, _ llms.CallOptions) (*llms.ContentResponse, error) {
			// The model reads the server's message and takes the hint.
			if read := lastToolResult(msgs); !strings.Contains(read, "order ids have 4 digits") {
				return reply("I could not find the order (I read " + read + ")"), nil
			}
			return &llms.ContentResponse{Choices: []*llms.ContentChoice{{StopReason: "tool_calls",
				ToolCalls: []llms.ToolCall{{ID: "c2", Type: "function",
					FunctionCall: &llms.FunctionCall{Name: "lookup", Arguments: `{"id":"4471"}`}}},
				FuncCall: &llms.FunctionCall{Name: "lookup", Arguments: `{"id":"4471"}`}}}}, nil
		}},
		scripted.Step{Func: func(_ context.Context, msgs []llms.MessageContent, _ llms.CallOptions) (*llms.ContentResponse, error) {
			return reply("Your order: " + lastToolResult(msgs)), nil
		}},
	)
	executor := agents.NewExecutor(agents.NewOpenAIFunctionsAgent(model, ts))
	answer, err := chains.Run(resilient.NewRun(context.Background()), executor, "Where is order 9999?")
	if err != nil {
		t.Fatal(err)
	}
	if want := "Your order: order 4471: shipped Tuesday"; answer != want {
		t.Fatalf("answer: got %q, want %q", answer, want)
	}
	if n := model.Calls(); n != 3 {
		t.Fatalf("model calls: got %d, want 3", n)
	}
	if got := f.journal.lines(); strings.Join(got, ",") != "lookup 9999,lookup 4471" {
		t.Fatalf("server calls: got %q", got)
	}
}

func reply(text string) *llms.ContentResponse {
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: text, StopReason: "stop"}}}
}

// lastToolResult returns the content of the last tool result in msgs.
func lastToolResult(msgs []llms.MessageContent) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		for _, p := range msgs[i].Parts {
			if r, ok := p.(llms.ToolCallResponse); ok {
				return r.Content
			}
		}
	}
	return ""
}
