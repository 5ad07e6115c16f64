package resilienttemporal

import (
	"context"
	"errors"
	"fmt"

	"go.temporal.io/sdk/workflow"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/run"
	"github.com/resilientgo/resilient/taxonomy"
)

// ErrNoWorkflow is the error of a model or tool call made with a context
// that [NewRun] did not make: outside a workflow, the calls have no
// workflow to schedule their activities in.
var ErrNoWorkflow = taxonomy.WithClass(errors.New("resilienttemporal: the context carries no workflow; make it with resilienttemporal.NewRun"),
	taxonomy.Class{Kind: taxonomy.Programming, Rule: "no workflow"})

// A RunOption sets a limit of a run made by [NewRun]. RunOptions follow
// the rule of every option of the library, stated on
// [github.com/resilientgo/resilient.Option]: a later one overrides an
// earlier one, 0 allows none, a negative number is refused, math.MaxInt is
// no limit.
type RunOption func(*limits)

// noLimit is a limit of the run that was not set.
const noLimit = -1

// limits are a run's limits, as resilient.NewRun has them: noLimit for
// tokens, requests and tool calls without one, math.MaxInt for retries and
// repeats without one.
type limits struct {
	Tokens, Requests, ToolCalls int
	Retries                     int
	Repeats                     int
	err                         error // invalid options
}

func defaultLimits() limits {
	return limits{Tokens: noLimit, Requests: noLimit, ToolCalls: noLimit,
		Retries: run.DefaultRetryBudget, Repeats: run.DefaultRepeatLimit}
}

// TokenBudget limits the run to n tokens, input and output together, as the
// providers report them, as resilient.TokenBudget does in one process. 0
// allows none; it must not be negative. Default: no limit.
func TokenBudget(n int) RunOption {
	return limitOption("TokenBudget", n, 0, func(l *limits) *int { return &l.Tokens })
}

// RequestLimit limits the run to n requests to models, failed ones and
// retries included, those of every activity attempt. 0 allows none; it
// must not be negative. Default: no limit.
func RequestLimit(n int) RunOption {
	return limitOption("RequestLimit", n, 0, func(l *limits) *int { return &l.Requests })
}

// ToolCallLimit limits the run to n tool calls; the call over the limit ends
// the run as a taxonomy.FatalToolError does. An activity attempt run again
// after a crash is the same call. 0 allows none; it must not be negative.
// Default: no limit.
func ToolCallLimit(n int) RunOption {
	return limitOption("ToolCallLimit", n, 0, func(l *limits) *int { return &l.ToolCalls })
}

// RetryBudget caps the in-process retries of every model and tool call of
// the run together, across activity attempts. 0 allows none, math.MaxInt
// is no limit; it must not be negative. Default: 10 (run.DefaultRetryBudget).
func RetryBudget(n int) RunOption {
	return limitOption("RetryBudget", n, 0, func(l *limits) *int { return &l.Retries })
}

// RepeatLimit stops the run as stuck (tools.ErrStuck) when one tool is
// called with the same input (the same JSON value) more than n times. It
// must be at least 1; math.MaxInt turns the check off. Default: 3
// (run.DefaultRepeatLimit).
func RepeatLimit(n int) RunOption {
	return limitOption("RepeatLimit", n, 1, func(l *limits) *int { return &l.Repeats })
}

// limitOption sets the limit field picks to n, or records that the option
// called name was given less than least.
func limitOption(name string, n, least int, field func(*limits) *int) RunOption {
	return func(l *limits) {
		if n < least {
			what := "must not be negative"
			if least > 0 {
				what = fmt.Sprintf("must be at least %d", least)
			}
			l.fail(fmt.Errorf("resilienttemporal: %s(%d): %s (math.MaxInt for no limit)", name, n, what))
			return
		}
		*field(l) = n
	}
}

func (l *limits) fail(err error) { l.err = errors.Join(l.err, err) }

// invalid returns the error of every call of a run whose options were
// invalid, nil when they were valid: a programming failure, matching
// resilient.ErrInvalidRun, sent to no activity.
func (l *limits) invalid() error {
	if l.err == nil {
		return nil
	}
	return taxonomy.WithClass(fmt.Errorf("%w: %w", run.ErrInvalid, l.err),
		taxonomy.Class{Kind: taxonomy.Programming, Rule: "invalid run options"})
}

// run is the state of one agent run in a workflow: its limits and what it
// has used, rebuilt on replay from the results of the activities, so it
// survives a crash of the worker. Workflow code runs one coroutine at a
// time, so it needs no lock.
type runState struct {
	wctx    workflow.Context
	limits  limits
	usage   resilient.Usage
	repeats map[string]int // tools.DefaultKey of a call -> calls made
}

type runKey struct{}

// NewRun returns the context to pass to langchaingo code (agents.Executor,
// chains.Call, your own loop) inside a workflow: it carries wctx, so that
// the models of [NewModel] and the tools of [NewTool] schedule their
// activities in it, and the run's limits and usage, kept in the workflow's
// state. The context is not canceled with the workflow: the activities
// are, through wctx.
//
// It must be called in workflow code, once per run; [UsageFrom] reads the
// run's usage.
func NewRun(wctx workflow.Context, opts ...RunOption) context.Context {
	r := &runState{wctx: wctx, limits: defaultLimits(), repeats: map[string]int{}}
	for _, o := range opts {
		if o == nil {
			r.limits.fail(errors.New("resilienttemporal: nil run option"))
			continue
		}
		o(&r.limits)
	}
	return context.WithValue(context.Background(), runKey{}, r)
}

func runFrom(ctx context.Context) *runState {
	if ctx == nil {
		return nil
	}
	r, _ := ctx.Value(runKey{}).(*runState)
	return r
}

// UsageFrom returns what the run carried by ctx has used so far, every
// activity attempt included: the requests sent and tokens reported by the
// providers, the tool calls, the in-process retries and the time they
// waited. The zero Usage without a run or with a nil ctx. A request whose activity attempt
// died with its worker before a heartbeat reported it is not counted (see
// Activities, # Usage).
func UsageFrom(ctx context.Context) resilient.Usage {
	if r := runFrom(ctx); r != nil {
		return r.usage
	}
	return resilient.Usage{}
}

// add adds an activity's usage to the run's.
func (r *runState) add(u resilient.Usage) { r.usage = sum(r.usage, u) }

// sum returns the usage of a and b together.
func sum(a, b resilient.Usage) resilient.Usage {
	a.Requests += b.Requests
	a.InputTokens += b.InputTokens
	a.OutputTokens += b.OutputTokens
	a.ToolCalls += b.ToolCalls
	a.Retries += b.Retries
	a.Waited += b.Waited
	return a
}

// allowance returns what remains of the run's limits for one activity, or
// the error refusing it when a limit it needs is spent: a model call needs a
// request, a tool call a tool call.
func (r *runState) allowance(tool bool) (allowance, error) {
	l, u := r.limits, r.usage
	if err := l.invalid(); err != nil {
		return allowance{}, err
	}
	a := allowance{Retries: max(l.Retries-u.Retries, 0)}
	refuse := func(name string, limit int) (allowance, error) {
		return allowance{}, &run.UsageLimitError{Limit: name, Max: limit, Usage: u}
	}
	if tool {
		if l.ToolCalls != noLimit {
			if a.ToolCalls = l.ToolCalls - u.ToolCalls; a.ToolCalls <= 0 {
				return refuse(limitToolCalls, l.ToolCalls)
			}
		}
		return a, nil
	}
	if l.Requests != noLimit {
		if a.Requests = l.Requests - u.Requests; a.Requests <= 0 {
			return refuse(limitRequests, l.Requests)
		}
	}
	if l.Tokens != noLimit {
		if a.Tokens = l.Tokens - u.Tokens(); a.Tokens <= 0 {
			return refuse(limitTokens, l.Tokens)
		}
	}
	return a, nil
}

// The limits' names, as run.UsageLimitError has them.
const (
	limitTokens    = "token budget"
	limitRequests  = "request limit"
	limitToolCalls = "tool call limit"
)

// max returns the run's value of the limit called name.
func (r *runState) max(name string) int {
	switch name {
	case limitTokens:
		return r.limits.Tokens
	case limitRequests:
		return r.limits.Requests
	case limitToolCalls:
		return r.limits.ToolCalls
	}
	return 0
}
