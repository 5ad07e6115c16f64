package resilient_test

// The first import declaration is the README's; the second holds what the
// test around it needs.

// readme:begin use
import (
	"context"
	"log/slog"

	"github.com/resilientgo/resilient"
	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms/openai"
	"github.com/tmc/langchaingo/tools"
)

// readme:end

import (
	"testing"

	"github.com/resilientgo/resilient/faultserver"
	rtools "github.com/resilientgo/resilient/tools"
)

// The README's first example: an agents.Executor with a wrapped model and
// tool, through a 429 and a 529.
func TestREADMEUse(t *testing.T) {
	srv := faultserver.New(
		faultserver.RateLimited("0"), // Retry-After: 0, retried at once
		faultserver.Reply("Thought: I need the order.\nAction: lookup_order\nAction Input: 4471"),
		faultserver.Overloaded(),
		faultserver.Reply("Thought: I know it now.\nFinal Answer: Order 4471 shipped Tuesday."),
	)
	defer srv.Close()
	// openai.New reads its key and base URL from the environment.
	t.Setenv("OPENAI_API_KEY", "sk-test")
	t.Setenv("OPENAI_BASE_URL", srv.OpenAIBaseURL())
	logger := slog.New(slog.NewTextHandler(t.Output(), nil))
	lookups := 0
	orderLookup := rtools.Func("lookup_order", "Looks up an order by its id.", func(_ context.Context, id string) (string, error) {
		lookups++
		return "order " + id + ": shipped Tuesday", nil
	})

	got, err := answer(t.Context(), logger, orderLookup)
	if err != nil || got != "Order 4471 shipped Tuesday." {
		t.Fatalf("got %q, %v; want the final answer", got, err)
	}
	if srv.Count() != 4 || lookups != 1 {
		t.Errorf("got %d requests and %d lookups, want 4 (two of them retries) and 1", srv.Count(), lookups)
	}
}

// readme:begin use
func answer(ctx context.Context, logger *slog.Logger, orderLookup tools.Tool) (string, error) {
	llm, err := openai.New(openai.WithHTTPClient(resilient.HTTPClient())) // records Retry-After & co.
	if err != nil {
		return "", err
	}
	model := resilient.Model(llm, resilient.Logger(logger)) // still an llms.Model
	lookup := resilient.Tool(orderLookup)                   // still a tools.Tool

	executor := agents.NewExecutor(agents.NewOneShotAgent(model, []tools.Tool{lookup}))
	ctx = resilient.NewRun(ctx) // one retry budget and repeat limit for the whole run
	return chains.Run(ctx, executor, "Where is order 4471?")
}

// readme:end
