package tools_test

import (
	"context"
	"sync"
	"testing"

	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms"
	lctools "github.com/tmc/langchaingo/tools"
	"go.uber.org/goleak"

	"github.com/resilientgo/resilient/tools"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func mustWrap(t testing.TB, tool lctools.Tool, opts ...tools.Option) *tools.Tool {
	t.Helper()
	w, err := tools.New(tool, opts...)
	if err != nil {
		t.Fatalf("Wrap: %v", err)
	}
	return w
}

// counted is a tool that counts its calls and answers with fn.
type counted struct {
	name string
	fn   func(ctx context.Context, n int, input string) (string, error)

	mu     sync.Mutex
	inputs []string
}

func (c *counted) Name() string        { return c.name }
func (c *counted) Description() string { return "the " + c.name + " tool" }

func (c *counted) Call(ctx context.Context, input string) (string, error) {
	c.mu.Lock()
	c.inputs = append(c.inputs, input)
	n := len(c.inputs)
	c.mu.Unlock()
	return c.fn(ctx, n, input)
}

func (c *counted) calls() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.inputs)
}

func newCounted(name string, fn func(ctx context.Context, n int, input string) (string, error)) *counted {
	return &counted{name: name, fn: fn}
}

// runAgent runs langchaingo's real agents.Executor with the OpenAI functions
// agent (native tool calls) over model and ts.
func runAgent(ctx context.Context, model llms.Model, ts ...lctools.Tool) (string, error) {
	executor := agents.NewExecutor(agents.NewOpenAIFunctionsAgent(model, ts), agents.WithMaxIterations(10))
	return chains.Run(ctx, executor, "help the customer")
}

// observations returns the tool results a request carried to the model.
func observations(msgs []llms.MessageContent) []string {
	var out []string
	for _, m := range msgs {
		for _, p := range m.Parts {
			if r, ok := p.(llms.ToolCallResponse); ok {
				out = append(out, r.Content)
			}
		}
	}
	return out
}
