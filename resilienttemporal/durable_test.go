package resilienttemporal_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	lcllms "github.com/tmc/langchaingo/llms"
	lctools "github.com/tmc/langchaingo/tools"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/resilienttemporal"
	"github.com/resilientgo/resilient/tools"
)

// register returns a function registering workflows and acts on a worker.
func register(t *testing.T, acts *resilienttemporal.Activities, workflows ...any) func(worker.Registry) {
	return func(r worker.Registry) {
		for _, w := range workflows {
			r.RegisterWorkflow(w)
		}
		if err := acts.Register(r); err != nil {
			t.Fatal(err)
		}
	}
}

// askWorkflow makes one model call with the limits given as a request
// limit, streaming its text.
func askWorkflow(wctx workflow.Context, requests int) (agentResult, error) {
	ctx := resilienttemporal.NewRun(wctx, resilienttemporal.RequestLimit(requests))
	model := resilienttemporal.NewModel("chat", resilienttemporal.ActivityOptions(workflow.ActivityOptions{
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: 50 * time.Millisecond, MaximumAttempts: 5},
	}))
	var streamed []string
	out, err := model.Call(ctx, "Where is order 4471?", lcllms.WithStreamingFunc(func(_ context.Context, chunk []byte) error {
		streamed = append(streamed, string(chunk))
		return nil
	}))
	if err == nil {
		out += " | streamed " + strings.Join(streamed, "+")
	}
	return agentResult{Output: out, Usage: resilienttemporal.UsageFrom(ctx)}, err
}

// A Retry-After longer than the worker holds a call for becomes a durable
// timer: the activity fails at once and the server runs it again after
// exactly that wait.
func TestLongRetryAfterBecomesADurableTimer(t *testing.T) {
	srv := faultserver.New(faultserver.RateLimited("2"), faultserver.Reply("Order 4471 shipped."))
	defer srv.Close()
	acts := &resilienttemporal.Activities{Models: map[string]lcllms.Model{
		"chat": resilient.Model(openAI(t, srv), resilient.RetryAfterCap(100*time.Millisecond), resilient.CircuitBreaker(10, 500*time.Millisecond)),
	}}
	queue := newQueue(t)
	startWorker(t, queue, register(t, acts, askWorkflow))
	var got agentResult
	if err := execute(t, queue, askWorkflow, &got, math.MaxInt); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("got %d requests, want 2", len(reqs))
	}
	// The policy's own interval is 50 ms: only NextRetryDelay makes the
	// server wait the 2 s the provider asked for.
	if gap := reqs[1].Time.Sub(reqs[0].Time); gap < 2*time.Second || gap > 4*time.Second {
		t.Errorf("the retry came %v after the 429, want about 2 s", gap)
	}
	if got.Output != "Order 4471 shipped. | streamed Order 4471 shipped." || got.Usage.Requests != 2 {
		t.Errorf("got %q with %d requests counted, want the answer streamed once and 2 requests", got.Output, got.Usage.Requests)
	}
}

// The run's limits hold across activities: a request limit refuses the
// call the workflow cannot afford, with the run's usage.
func TestRunLimitsHoldAcrossActivities(t *testing.T) {
	srv := faultserver.New(faultserver.Overloaded(), faultserver.Overloaded(), faultserver.Overloaded(), faultserver.Reply("late"))
	defer srv.Close()
	acts := &resilienttemporal.Activities{Models: map[string]lcllms.Model{
		"chat": resilient.Model(openAI(t, srv), resilient.Backoff(time.Millisecond, time.Millisecond)),
	}}
	queue := newQueue(t)
	startWorker(t, queue, register(t, acts, askWorkflow))
	var got agentResult
	err := execute(t, queue, askWorkflow, &got, 2)
	// The first attempt sends 2 requests (the limit), fails exhausted
	// after its in-process attempts were cut short by the limit: the run
	// refuses the rest, and the server is not asked to retry.
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || !strings.Contains(app.Error(), "request limit of 2 reached") {
		t.Fatalf("got %v, want the refusal naming the request limit", err)
	}
	if srv.Count() != 2 {
		t.Errorf("the provider got %d requests, want 2", srv.Count())
	}
}

// stuckWorkflow runs an executor whose model asks for the same lookup
// again and again.
func stuckWorkflow(wctx workflow.Context) (agentResult, error) {
	ctx := resilienttemporal.NewRun(wctx)
	lookup := resilienttemporal.NewTool("lookup_order", "Looks an order up.")
	executor := agents.NewExecutor(agents.NewOpenAIFunctionsAgent(resilienttemporal.NewModel("chat"), []lctools.Tool{lookup}),
		agents.WithMaxIterations(10))
	out, err := chains.Run(ctx, executor, "Where is order 4471?")
	return agentResult{Output: out, Usage: resilienttemporal.UsageFrom(ctx)}, err
}

// The repeat limit is counted by the workflow: the fourth identical call
// stops the run as stuck, without an activity.
func TestStuckModelStopsTheRun(t *testing.T) {
	srv := faultserver.New(faultserver.ReplyToolCalls(faultserver.ToolCall{ID: "call_1", Name: "lookup_order", Arguments: `{"__arg1":"4471"}`}))
	defer srv.Close()
	var mu sync.Mutex
	calls := 0
	lookup := tools.Func("lookup_order", "Looks an order up.", func(context.Context, string) (string, error) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		return "order 4471: in transit", nil
	})
	acts := &resilienttemporal.Activities{Models: map[string]lcllms.Model{"chat": resilient.Model(openAI(t, srv))},
		Tools: []lctools.Tool{resilient.Tool(lookup)}}
	queue := newQueue(t)
	startWorker(t, queue, register(t, acts, stuckWorkflow))
	var got agentResult
	err := execute(t, queue, stuckWorkflow, &got)
	if err == nil || !strings.Contains(err.Error(), "stuck: lookup_order called 4 times with the same input") {
		t.Fatalf("got %v, want the run stopped as stuck", err)
	}
	if calls != 3 {
		t.Errorf("the tool ran %d times, want 3", calls)
	}
}

// A completed run replays from its history without a worker's activities:
// the executor makes the same calls in the same order, and none runs again.
func TestCompletedRunReplays(t *testing.T) {
	srv := faultserver.New(
		faultserver.ReplyToolCalls(faultserver.ToolCall{ID: "call_1", Name: "charge_card", Arguments: `{"__arg1":"order 4471"}`}),
		faultserver.Reply("Order 4471 is paid."),
	)
	defer srv.Close()
	bank := &ledger{}
	acts := &resilienttemporal.Activities{
		Models: map[string]lcllms.Model{"chat": resilient.Model(openAI(t, srv))},
		Tools:  []lctools.Tool{resilient.Tool(tools.Func("charge_card", "Charges the card.", bank.charge), resilient.Idempotent(nil))},
	}
	queue := newQueue(t)
	startWorker(t, queue, register(t, acts, agentWorkflow))
	c := server.GetDefaultClient()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: queue}, agentWorkflow, "Pay order 4471.")
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	replayer := worker.NewWorkflowReplayer()
	replayer.RegisterWorkflow(agentWorkflow)
	history := c.GetWorkflowHistory(ctx, run.GetID(), run.GetRunID(), false, 0)
	var hist historypb.History
	for history.HasNext() {
		e, err := history.Next()
		if err != nil {
			t.Fatal(err)
		}
		hist.Events = append(hist.Events, e)
	}
	if err := replayer.ReplayWorkflowHistory(nil, &hist); err != nil {
		t.Errorf("replay: %v", err)
	}
	if bank.count() != 1 || srv.Count() != 2 {
		t.Errorf("after the replay: %d charges and %d requests, want 1 and 2", bank.count(), srv.Count())
	}
}
