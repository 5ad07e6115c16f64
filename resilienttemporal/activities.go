package resilienttemporal

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"
	lctools "github.com/tmc/langchaingo/tools"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/run"
	"github.com/resilientgo/resilient/tools"
)

// Activities is the worker side: the models and tools that the workflows'
// [Model] and [Tool] call by name, and the two activities that run them.
// Give it the real, wrapped models and tools (resilient.Model,
// resilient.Pool, resilient.Tool): retries, breakers, limits, compaction
// and response checks stay in the worker, where they see every attempt,
// and their final failure, classified, decides what Temporal does next.
//
// # Exactly once
//
// Temporal runs an activity at least once: again after a failure, a lost
// reply, or a worker that died; and a model may ask for the same call
// again after a failure. A tool activity calls its tool with
// [tools.WithKeyScope] set to the workflow id and run id, so that a tool
// wrapped with resilient.Idempotent(store) runs each call (the tool and
// its input, as its KeyFunc says) once per workflow run: another attempt
// finds the stored result ("already done: <result>"), and another run's
// call is never taken for it. The store must outlive the worker
// (resilientredis.NewStore, not the memory store). An attempt that died
// while the tool ran leaves its claim in flight for the rest of its lease
// (tools.Lease, 2 min by default); then the next attempt runs the tool
// again, with the same key, which the tool should pass on to the service
// it calls ([tools.KeyFrom]), as payment APIs take an Idempotency-Key, so
// that the service too executes it once.
//
// # Usage
//
// Each attempt runs its call in a run of its own (resilient.NewRun) whose
// limits are what remains of the workflow's run, and reports its usage
// with the result, in the details of its error, and in its heartbeats,
// which the next attempt adds to its own: the requests of a failed attempt
// count. The request of an attempt whose worker died is counted by the
// next attempt only if a heartbeat carried it.
//
// Register it once per worker. An Activities is safe for concurrent use as
// its models and tools are.
type Activities struct {
	// Models are the models the workflows' [Model]s name.
	Models map[string]lcllms.Model
	// Tools are the tools the workflows' [Tool]s name, by their Name.
	Tools []lctools.Tool

	tools map[string]lctools.Tool
}

// Register checks the models and tools and registers [GenerateActivity]
// and [ToolActivity] with r (a worker.Worker).
func (a *Activities) Register(r worker.ActivityRegistry) error {
	for name, m := range a.Models {
		if m == nil {
			return fmt.Errorf("resilienttemporal: model %q is nil", name)
		}
	}
	a.tools = make(map[string]lctools.Tool, len(a.Tools))
	for i, t := range a.Tools {
		if t == nil {
			return fmt.Errorf("resilienttemporal: tool %d is nil", i)
		}
		if _, dup := a.tools[t.Name()]; dup {
			return fmt.Errorf("resilienttemporal: two tools named %q", t.Name())
		}
		a.tools[t.Name()] = t
	}
	r.RegisterActivityWithOptions(a.generate, activity.RegisterOptions{Name: GenerateActivity})
	r.RegisterActivityWithOptions(a.callTool, activity.RegisterOptions{Name: ToolActivity})
	return nil
}

// generate is the GenerateActivity.
func (a *Activities) generate(ctx context.Context, in generateInput) (generateOutput, error) {
	m, ok := a.Models[in.Model]
	if !ok {
		return generateOutput{}, notRegistered("model", in.Model)
	}
	prior := priorUsage(ctx)
	rctx, refused := attemptRun(ctx, in.Allowance, prior, false)
	if refused != nil {
		return generateOutput{}, failure(ctx, refused, prior, nil)
	}
	beat := startHeartbeat(ctx, rctx, prior)
	resp, err := m.GenerateContent(rctx, in.Messages, asCallOption(in.Options))
	used := beat.stop(err != nil)
	if err != nil {
		return generateOutput{}, failure(ctx, err, used, holdOf(m))
	}
	return generateOutput{Response: responseOf(resp), Usage: used}, nil
}

// callTool is the ToolActivity.
func (a *Activities) callTool(ctx context.Context, in toolInput) (toolOutput, error) {
	t, ok := a.tools[in.Tool]
	if !ok {
		return toolOutput{}, notRegistered("tool", in.Tool)
	}
	// Every attempt is the same tool call: the earlier attempts' tool calls
	// are not counted again, their retries are.
	prior := priorUsage(ctx)
	prior.ToolCalls = 0
	rctx, _ := attemptRun(ctx, in.Allowance, prior, true)
	wf := activity.GetInfo(ctx).WorkflowExecution
	beat := startHeartbeat(ctx, rctx, prior)
	out, err := t.Call(tools.WithKeyScope(rctx, wf.ID+"/"+wf.RunID+"/"), in.Input)
	used := beat.stop(err != nil)
	if err != nil {
		return toolOutput{}, failure(ctx, err, used, nil)
	}
	return toolOutput{Output: out, Usage: used}, nil
}

func notRegistered(what, name string) error {
	return temporal.NewApplicationErrorWithOptions(
		fmt.Sprintf("resilienttemporal: no %s named %q is registered on this worker", what, name),
		TypeNotRegistered, temporal.ApplicationErrorOptions{NonRetryable: true})
}

// priorUsage returns the usage of the activity's earlier attempts, as their
// last heartbeat reported it.
func priorUsage(ctx context.Context) resilient.Usage {
	var u resilient.Usage
	if activity.HasHeartbeatDetails(ctx) {
		_ = activity.GetHeartbeatDetails(ctx, &u) // unreadable: start from zero
	}
	return u
}

// attemptRun returns the context of one attempt's call: a run whose limits
// are what the workflow's run allows the activity, less what its earlier
// attempts used, and no repeat limit (the workflow counts repeats). A
// model call whose allowance the earlier attempts spent is refused.
func attemptRun(ctx context.Context, a allowance, prior resilient.Usage, tool bool) (context.Context, error) {
	opts := []resilient.RunOption{resilient.RepeatLimit(math.MaxInt)} // no repeat check
	retries := math.MaxInt                                            // no limit
	if a.Retries >= 0 {
		retries = max(a.Retries-prior.Retries, 0)
	}
	opts = append(opts, resilient.RetryBudget(retries))
	if tool {
		if a.ToolCalls > 0 {
			opts = append(opts, resilient.ToolCallLimit(a.ToolCalls))
		}
		return resilient.NewRun(ctx, opts...), nil
	}
	if a.Requests > 0 {
		left := a.Requests - prior.Requests
		if left <= 0 {
			return nil, &run.UsageLimitError{Limit: limitRequests, Usage: prior}
		}
		opts = append(opts, resilient.RequestLimit(left))
	}
	if a.Tokens > 0 {
		left := a.Tokens - prior.Tokens()
		if left <= 0 {
			return nil, &run.UsageLimitError{Limit: limitTokens, Usage: prior}
		}
		opts = append(opts, resilient.TokenBudget(left))
	}
	return resilient.NewRun(ctx, opts...), nil
}

// holdOf returns how to read m's breaker's remaining hold, nil when m has
// no breaker to ask.
func holdOf(m lcllms.Model) func() time.Duration {
	b, ok := m.(interface{ Breaker() *breaker.Breaker })
	if !ok {
		return nil
	}
	return func() time.Duration {
		if br := b.Breaker(); br != nil {
			return br.RemainingDelay()
		}
		return 0
	}
}

// heartbeat reports an attempt's usage to the server while its call runs,
// so that the server sees the worker alive and the next attempt, if any,
// knows what this one used.
type heartbeat struct {
	ctx, rctx context.Context
	prior     resilient.Usage
	done      chan struct{}
	wg        sync.WaitGroup
}

// startHeartbeat starts heartbeating every third of the activity's
// heartbeat timeout; none without one.
func startHeartbeat(ctx, rctx context.Context, prior resilient.Usage) *heartbeat {
	h := &heartbeat{ctx: ctx, rctx: rctx, prior: prior, done: make(chan struct{})}
	every := activity.GetInfo(ctx).HeartbeatTimeout / 3
	if every <= 0 {
		return h
	}
	h.wg.Go(func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-h.done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				activity.RecordHeartbeat(ctx, h.used())
			}
		}
	})
	return h
}

// used returns the usage of every attempt so far, this one's included.
func (h *heartbeat) used() resilient.Usage { return sum(h.prior, resilient.UsageFrom(h.rctx)) }

// stop stops the heartbeats and returns the usage of every attempt so far.
// A failed attempt records it as its last heartbeat, which the SDK sends
// before it reports the failure, for the next attempt to read.
func (h *heartbeat) stop(failed bool) resilient.Usage {
	close(h.done)
	h.wg.Wait()
	u := h.used()
	if failed && h.ctx.Err() == nil {
		activity.RecordHeartbeat(h.ctx, u)
	}
	return u
}
