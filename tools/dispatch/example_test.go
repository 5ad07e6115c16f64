package dispatch_test

import (
	"context"
	"fmt"

	"github.com/tmc/langchaingo/llms"
	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient/tools"
	"github.com/resilientgo/resilient/tools/dispatch"
)

// A Dispatcher answers a response's native tool calls with tool messages, in
// call order, to append after the assistant's turn.
func Example() {
	lookup := tools.Func("lookup", "Looks up an order by id.",
		func(_ context.Context, args string) (string, error) { return "shipped Tuesday", nil })
	d, _ := dispatch.New([]lctools.Tool{lookup})
	calls := []llms.ToolCall{
		{ID: "call_1", Type: "function", FunctionCall: &llms.FunctionCall{Name: "lookup", Arguments: `{"id":"4471"}`}},
		{ID: "call_2", Type: "function", FunctionCall: &llms.FunctionCall{Name: "refund", Arguments: `{"id":"4471"}`}},
	}
	messages := []llms.MessageContent{dispatch.AssistantMessage(calls)}
	answers, _ := d.Dispatch(context.Background(), calls)
	messages = append(messages, answers...)
	for _, m := range messages[1:] {
		r := m.Parts[0].(llms.ToolCallResponse)
		fmt.Printf("%s %s: %s\n", m.Role, r.ToolCallID, r.Content)
	}
	// Output:
	// tool call_1: shipped Tuesday
	// tool call_2: there is no tool named "refund"; the available tools are: lookup
}
