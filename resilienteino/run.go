package resilienteino

import (
	"context"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/run"
)

// RunOption configures the scope of one agent run, given to [NewRun]. The
// options are package resilient's.
type RunOption = run.Option

// NewRun returns a context that carries the scope of one agent run: a retry
// budget shared by every wrapped model and tool called with it (10 retries),
// the repeat limit (a tool called 4 times with the same input stops the run
// as stuck), the run's usage and its limits. Pass it to the agent's Run,
// Generate or Stream. It is resilient.NewRun.
func NewRun(ctx context.Context, opts ...RunOption) context.Context {
	return run.New(ctx, opts...)
}

// RetryBudget caps the retries of every model and tool call of the run
// together. 0 allows none, math.MaxInt is no limit; it must not be
// negative. Default: 10.
func RetryBudget(n int) RunOption { return run.RetryBudget(n) }

// RepeatLimit stops the run as stuck when one tool is called with the same
// input more than n times. It must be at least 1; math.MaxInt turns the
// check off. Default: 3.
func RepeatLimit(n int) RunOption { return run.RepeatLimit(n) }

// TokenBudget limits the run to n tokens, input and output together, as
// the providers report them (schema.Message's ResponseMeta.Usage). 0
// allows none; it must not be negative. Default: no limit.
func TokenBudget(n int) RunOption { return run.TokenBudget(n) }

// RequestLimit limits the run to n requests to models, failed ones and
// retries included. 0 allows none; it must not be negative. Default: no
// limit.
func RequestLimit(n int) RunOption { return run.RequestLimit(n) }

// ToolCallLimit limits the run to n tool calls; the call over the limit
// ends the run as a taxonomy.FatalToolError does. 0 allows none; it must
// not be negative. Default: no limit.
func ToolCallLimit(n int) RunOption { return run.ToolCallLimit(n) }

// Usage is what a run has used so far: requests to models (failed ones
// included), the input and output tokens the providers reported, tool
// calls, retries and the time waited before retries.
type Usage = run.Usage

// UsageFrom returns the usage of the run carried by ctx so far, the zero
// Usage without a run or with a nil ctx.
func UsageFrom(ctx context.Context) Usage { return run.From(ctx).Usage() }

// Sentinels for errors.Is on the errors of wrapped models and tools; they
// are package resilient's.
var (
	// ErrExhausted: a call made every attempt its failure's kind allows.
	ErrExhausted = middleware.ErrExhausted
	// ErrCircuitOpen: a model's or a tool's circuit breaker is open, so no
	// request was sent (a tool's ends the run).
	ErrCircuitOpen = middleware.ErrCircuitOpen
	// ErrUsageLimit: a limit of the run refused a call.
	ErrUsageLimit = run.ErrUsageLimit
)
