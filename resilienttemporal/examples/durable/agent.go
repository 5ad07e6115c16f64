package main

// This file is what a langchaingo user writes to make an agent durable: the
// workflow (the unchanged agents.Executor, with the workflow's stand-ins for
// the model and the tools) and the worker (the real model and tools, wrapped
// by package resilient as in any program). main.go is the demo around it.

import (
	"context"
	"net/http"
	"time"

	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"
	lctools "github.com/tmc/langchaingo/tools"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/resilienttemporal"
	"github.com/resilientgo/resilient/tools"
)

// Result is what the workflow returns: the agent's answer and the run's
// usage, which survives crashes with the workflow.
type Result struct {
	Answer string
	Usage  resilient.Usage
}

// The tools the model reads about; the workflow and the worker share them.
var toolInfo = []struct{ name, description string }{
	{"lookup_order", `Looks an order up. Input: the order id.`},
	{"charge_card", `Charges the card on file for an order. Input: the order id.`},
}

// PayOrder is the workflow: an agents.Executor as it would run in any
// program, given resilienttemporal's model and tools and the context of
// resilienttemporal.NewRun. Each model call and each tool call runs as an
// activity; a completed one is in the workflow's history and never runs
// again, whatever happens to the worker.
func PayOrder(wctx workflow.Context, task string) (Result, error) {
	ctx := resilienttemporal.NewRun(wctx, resilienttemporal.TokenBudget(50_000))
	// Short timeouts for the demo: a dead worker is noticed within 2 s.
	opts := resilienttemporal.ActivityOptions(workflow.ActivityOptions{HeartbeatTimeout: 2 * time.Second})
	model := resilienttemporal.NewModel("chat", opts)
	var ts []lctools.Tool
	for _, t := range toolInfo {
		ts = append(ts, resilienttemporal.NewTool(t.name, t.description, opts))
	}
	executor := agents.NewExecutor(agents.NewOpenAIFunctionsAgent(model, ts))
	answer, err := chains.Run(ctx, executor, task)
	return Result{Answer: answer, Usage: resilienttemporal.UsageFrom(ctx)}, err
}

// runWorker is the worker: the real model and tools, registered under the
// names the workflow uses. It runs until the process ends.
func runWorker(hostPort, namespace, providerURL string, services *services) error {
	c, err := client.Dial(client.Options{HostPort: hostPort, Namespace: namespace, Logger: quietLogger()})
	if err != nil {
		return err
	}
	defer c.Close()
	llm, err := openai.New(openai.WithBaseURL(providerURL), openai.WithToken("sk-demo"), openai.WithModel("gpt-4o-mini"),
		openai.WithHTTPClient(resilient.HTTPClient()))
	if err != nil {
		return err
	}
	// The charge is idempotent: its key, scoped by the workflow run, reaches
	// the payment service too. A real deployment keeps the records in a
	// store that outlives the worker: resilientredis.NewStore.
	store := tools.NewMemoryStore()
	acts := &resilienttemporal.Activities{
		Models: map[string]llms.Model{"chat": resilient.Model(llm)},
		Tools: []lctools.Tool{
			resilient.Tool(tools.Func(toolInfo[0].name, toolInfo[0].description, services.lookup)),
			resilient.Tool(tools.Func(toolInfo[1].name, toolInfo[1].description, services.charge), resilient.Idempotent(store)),
		},
	}
	w := worker.New(c, taskQueue, worker.Options{StickyScheduleToStartTimeout: time.Second})
	w.RegisterWorkflow(PayOrder)
	if err := acts.Register(w); err != nil {
		return err
	}
	return w.Run(worker.InterruptCh())
}

// services are the tools' back ends as the worker reaches them: over HTTP,
// the payment API taking an Idempotency-Key.
type services struct{ url string }

func (s *services) lookup(ctx context.Context, order string) (string, error) {
	return s.post(ctx, "/lookup", order, "")
}

func (s *services) charge(ctx context.Context, order string) (string, error) {
	key, _ := tools.KeyFrom(ctx)
	return s.post(ctx, "/charge", order, key)
}

func (s *services) post(ctx context.Context, path, body, key string) (string, error) {
	return postText(ctx, http.DefaultClient, s.url+path, body, key)
}
