package resilienttemporal_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	lcllms "github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"
	lctools "github.com/tmc/langchaingo/tools"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/resilienttemporal"
	"github.com/resilientgo/resilient/tools"
)

// agentResult is what the agent workflow returns.
type agentResult struct {
	Output string
	Usage  resilient.Usage
}

// agentWorkflow runs an unchanged agents.Executor in a workflow: an OpenAI
// functions agent with a charge_card tool.
func agentWorkflow(wctx workflow.Context, task string) (agentResult, error) {
	ctx := resilienttemporal.NewRun(wctx)
	model := resilienttemporal.NewModel("chat")
	charge := resilienttemporal.NewTool("charge_card", "Charges the card on file for an order.")
	executor := agents.NewExecutor(agents.NewOpenAIFunctionsAgent(model, []lctools.Tool{charge}))
	out, err := chains.Run(ctx, executor, task)
	return agentResult{Output: out, Usage: resilienttemporal.UsageFrom(ctx)}, err
}

// openAI returns langchaingo's real OpenAI client pointed at srv, through
// the transport that records the evidence of each response.
func openAI(t *testing.T, srv *faultserver.Server) lcllms.Model {
	t.Helper()
	llm, err := srv.OpenAI(openai.WithHTTPClient(&http.Client{Transport: llms.NewTransport(srv.Client().Transport)}))
	if err != nil {
		t.Fatal(err)
	}
	return llm
}

// ledger is a payment service: it records every charge it executes.
type ledger struct {
	mu      sync.Mutex
	charges []string
}

func (l *ledger) charge(_ context.Context, input string) (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.charges = append(l.charges, input)
	return "charged: " + input, nil
}

func (l *ledger) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.charges)
}

func TestAgentRunsAsAWorkflow(t *testing.T) {
	srv := faultserver.New(
		faultserver.Overloaded(), // retried in the worker
		faultserver.ReplyToolCalls(faultserver.ToolCall{ID: "call_1", Name: "charge_card", Arguments: `{"__arg1":"order 4471"}`}),
		faultserver.Reply("Order 4471 is paid."),
	)
	defer srv.Close()
	bank := &ledger{}
	acts := &resilienttemporal.Activities{
		Models: map[string]lcllms.Model{"chat": resilient.Model(openAI(t, srv), resilient.Backoff(time.Millisecond, time.Millisecond))},
		Tools:  []lctools.Tool{resilient.Tool(tools.Func("charge_card", "Charges the card.", bank.charge), resilient.Idempotent(tools.NewMemoryStore()))},
	}
	queue := newQueue(t)
	startWorker(t, queue, func(r worker.Registry) {
		r.RegisterWorkflow(agentWorkflow)
		if err := acts.Register(r); err != nil {
			t.Fatal(err)
		}
	})
	var got agentResult
	if err := execute(t, queue, agentWorkflow, &got, "Pay order 4471."); err != nil {
		t.Fatal(err)
	}
	if got.Output != "Order 4471 is paid." {
		t.Errorf("output: got %q, want %q", got.Output, "Order 4471 is paid.")
	}
	if bank.count() != 1 || srv.Count() != 3 {
		t.Errorf("got %d charges and %d requests, want 1 and 3", bank.count(), srv.Count())
	}
	if u := got.Usage; u.Requests != 3 || u.ToolCalls != 1 || u.Retries != 1 || u.Tokens() == 0 {
		t.Errorf("usage: got %+v, want 3 requests, 1 tool call, 1 retry and the tokens reported", u)
	}
}
