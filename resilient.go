package resilient

import (
	"context"
	"net/http"

	lcllms "github.com/tmc/langchaingo/llms"

	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient/internal/wire"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/run"
	"github.com/resilientgo/resilient/tools"
)

// Model makes m resilient and returns it, still an [lcllms.Model]: it drops
// into chains, agents.Executor and any code that takes a model. With no
// option it has the recommended defaults: 3 attempts with full-jitter backoff
// from 0.5 s to 8 s, Retry-After honoured up to 60 s, a circuit breaker, a
// 2-minute attempt timeout, stream idle timeouts, response checks and
// compaction on context overflow.
//
// Model never fails: a nil model or an invalid option value makes every
// call of the result return the problem, as a programming error, and
// [llms.Model.Err] reports it. Use [llms.New] to get the error at once.
func Model(m lcllms.Model, opts ...ModelOption) *llms.Model {
	wrapped, _ := llms.New(m, flatten(opts, ModelOption.model)...) // on error, a model that reports it
	return wrapped
}

// Tool wraps t for an agent and returns it, still a [lctools.Tool] with the
// same name and description: at the dispatch boundary a taxonomy.ToolError
// becomes the observation, its credentials redacted (the model may correct
// its call), a taxonomy.FatalToolError ends the run (the model never sees
// it), and any other error or panic becomes "Error: <tool> failed
// internally (<Type>)" ("Error: <tool> timed out" for a timeout) with
// nothing else leaking; the full error is logged, secrets redacted.
// With no option: a 30 s timeout per call, no retry (mark read-only tools
// [SafeToRetry]), a circuit breaker per tool.
//
// Tool never fails, nor panics: a nil tool (typed nil included), a Name or
// Description that panics, or an invalid option makes every call end the
// run with a taxonomy.FatalToolError naming the problem, and
// [tools.Tool.Err] reports it. Use [tools.New] to get the error at once.
func Tool(t lctools.Tool, opts ...ToolOption) *tools.Tool {
	wrapped, _ := tools.New(t, flatten(opts, ToolOption.tool)...) // on error, a tool that reports it
	return wrapped
}

// HTTPClient returns an *http.Client that records each attempt's wire
// evidence (status, Retry-After, the provider's error code, stream end
// markers): install it in the provider client, e.g.
// openai.New(openai.WithHTTPClient(resilient.HTTPClient())).
//
// It sets no overall timeout: the wrapped model's attempt timeout bounds
// each attempt. Its transport is an llms.Transport over
// http.DefaultTransport (llms.NewTransport over another).
func HTTPClient() *http.Client { return wire.HTTPClient() }

// Sentinels for [errors.Is] on the errors of wrapped models and tools.
var (
	// ErrPermanent: a call failed in a way that fails the same on every
	// attempt (a 401, an invalid key, a 400, a model not found, a quota
	// used up), so it stopped after one.
	ErrPermanent = middleware.ErrPermanent
	// ErrExhausted: a call made every attempt its failure's kind allows.
	ErrExhausted = middleware.ErrExhausted
	// ErrCircuitOpen: a model's or a tool's circuit breaker is open, so no
	// request was sent (a tool's ends the run); for a pool, every member's.
	ErrCircuitOpen = middleware.ErrCircuitOpen
	// ErrConcurrency: the concurrency limit had no free slot within the
	// wait allowed (see [MaxConcurrent]), so no request was sent.
	ErrConcurrency = limit.ErrConcurrency
	// ErrUsageLimit: a limit of the run ([TokenBudget], [RequestLimit],
	// [ToolCallLimit]) refused a call, so nothing was sent and the run
	// stops; errors.As finds the *run.UsageLimitError that names the
	// limit and the usage.
	ErrUsageLimit = run.ErrUsageLimit
	// ErrAttemptTimeout: an attempt of the call ran out of its own time
	// ([Timeout]). The final error matches context.DeadlineExceeded only
	// when the caller's deadline is why the call stopped.
	ErrAttemptTimeout = middleware.ErrAttemptTimeout
	// ErrInvalidRun: the call was made with a run given invalid options
	// (see [NewRun]), so nothing was sent.
	ErrInvalidRun = run.ErrInvalid
	// ErrStuck: a tool was called with the same input more often than the
	// run's [RepeatLimit] allows, so the run stops (the model never sees
	// it).
	ErrStuck = tools.ErrStuck
)

// Forever is the duration that never passes: Timeout(Forever) is no
// timeout (see the rule of every option on [Option]).
const Forever = middleware.Forever

// RunOption configures the scope of one agent run, given to [NewRun].
type RunOption = run.Option

// RetryBudget caps the retries of every model and tool call of the run
// together. 0 allows none, math.MaxInt is no limit; it must not be
// negative. Default: 10 ([run.DefaultRetryBudget]).
func RetryBudget(n int) RunOption { return run.RetryBudget(n) }

// RepeatLimit stops the run as stuck when one tool is called with the same
// input more than n times. It must be at least 1; math.MaxInt turns the
// check off. Default: 3 ([run.DefaultRepeatLimit]).
func RepeatLimit(n int) RunOption { return run.RepeatLimit(n) }

// TokenBudget limits the run to n tokens, input and output together, as
// the providers report them. A model request is refused once the budget is
// spent, or when its input alone, estimated as a quarter of the bytes of
// its text, would pass what remains; the call that crosses the budget
// returns its answer and the next is refused. 0 allows none; it must not
// be negative. Default: no limit.
func TokenBudget(n int) RunOption { return run.TokenBudget(n) }

// RequestLimit limits the run to n requests to models and embedders,
// failed ones and retries included. 0 allows none; it must not be
// negative. Default: no limit.
func RequestLimit(n int) RunOption { return run.RequestLimit(n) }

// ToolCallLimit limits the run to n tool calls; the call over the limit
// ends the run as a taxonomy.FatalToolError does. 0 allows none; it must
// not be negative. Default: no limit.
func ToolCallLimit(n int) RunOption { return run.ToolCallLimit(n) }

// NewRun returns a context that carries the scope of one agent run: a retry
// budget shared by every wrapped model and tool called with it, the repeat
// limit, the run's usage and its limits. Pass it to agents.Executor.Call
// (or your own loop).
//
// A limit refuses a call before anything is sent, with an error that
// matches [ErrUsageLimit] and names the limit and the usage: it is never
// retried, never counted against a circuit breaker and never a reason to
// fall back, so the run stops. The request and tool call limits hold
// exactly under parallel calls; the token budget is settled after each
// response, so parallel model calls may pass it by the usage of the calls
// in flight when it was reached.
//
// Invalid options (a negative limit, a nil option) make every model and
// tool call made with the run fail at once with a programming error naming
// them ([ErrInvalidRun]), before anything is sent; RunFrom(ctx).Err()
// reports them.
func NewRun(ctx context.Context, opts ...RunOption) context.Context {
	return run.New(ctx, opts...)
}

// RunFrom returns the run carried by ctx, nil if none (or if ctx is nil):
// its Retries and Refusals tell how much of the budget was spent.
func RunFrom(ctx context.Context) *run.Run {
	if ctx == nil {
		return nil
	}
	return run.From(ctx)
}

// Usage is what a run has used so far: requests to models (failed ones
// included), the input and output tokens the providers reported, tool
// calls, retries and the time waited before retries.
type Usage = run.Usage

// UsageFrom returns the usage of the run carried by ctx so far, the zero
// Usage without a run or with a nil ctx.
func UsageFrom(ctx context.Context) Usage { return RunFrom(ctx).Usage() }
