package run

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/resilientgo/resilient/internal/sat"
	"github.com/resilientgo/resilient/taxonomy"
)

// Run is the scope of one agent run, carried in the context: a retry budget
// shared by every model and tool call of the run, the run's usage (requests,
// tokens, tool calls, retries, time waited) with optional limits on it, and
// per-run state that layers above the pipeline keep in it (see [Run.Local]).
// Without a Run in the context, calls have no shared budget and no limits.
//
// The zero Run is ready to use, with the default budget
// ([DefaultRetryBudget]) and no usage limit. A Run is safe for concurrent
// use; its counters are integers, its only map holds one entry per layer
// that keeps state in it.
//
// # Limits under concurrency
//
// The request and tool-call limits are exact: a request or tool call takes
// its place before it starts, so parallel calls never pass them. The token
// budget is settled after each response, with the tokens the provider
// reported: parallel model calls that all started before the budget was
// spent may each add their usage, so the budget can be passed by at most
// the usage of the calls in flight when it was reached. The call that
// crosses it returns its answer; the next is refused.
type Run struct {
	mu        sync.Mutex
	budget    int // < 0: unlimited; read through maxRetries
	budgetSet bool
	refusals  int
	usage     Usage
	limits    usageLimits
	locals    map[any]any
}

// Usage is what a run has used so far.
type Usage struct {
	// Requests counts the requests sent to models, failed ones included.
	Requests int
	// InputTokens and OutputTokens add up the tokens the providers reported
	// (a provider that reports none adds nothing).
	InputTokens, OutputTokens int
	// ToolCalls counts the tool calls started.
	ToolCalls int
	// Retries counts the retries and hedges the run's budget paid for.
	Retries int
	// Waited adds up the time spent waiting before retries.
	Waited time.Duration
}

// Tokens returns the input and output tokens together. Like every count of
// a run, it saturates at the largest int instead of wrapping around.
func (u Usage) Tokens() int { return sat.Add(u.InputTokens, u.OutputTokens) }

type usageLimits struct {
	tokens, requests, toolCalls int // 0: no limit
}

// TokenBudget limits the run to n tokens, input and output together, as the
// providers report them. A request is refused once the budget is spent, or
// when its estimated input alone would exceed what remains (see
// [Run.StartRequest]). Zero or less: no limit. Default: no limit.
func TokenBudget(n int) Option { return func(r *Run) { r.limits.tokens = max(n, 0) } }

// RequestLimit limits the run to n requests to models, failed ones and
// retries included. Zero or less: no limit. Default: no limit.
func RequestLimit(n int) Option { return func(r *Run) { r.limits.requests = max(n, 0) } }

// ToolCallLimit limits the run to n tool calls. Zero or less: no limit.
// Default: no limit.
func ToolCallLimit(n int) Option { return func(r *Run) { r.limits.toolCalls = max(n, 0) } }

// ErrUsageLimit is matched by [errors.Is] on the error of a call that a
// limit of its run refused (a *[UsageLimitError]).
var ErrUsageLimit = errors.New("run: usage limit reached")

// UsageLimitError is the error of a request or tool call that a limit of
// its run refused. It is never retried, never counted against a breaker and
// never a reason to fall back: the run must stop.
type UsageLimitError struct {
	// Limit names the limit: "token budget", "request limit" or
	// "tool call limit".
	Limit string
	// Max is the limit's value.
	Max int
	// Need is the refused request's estimated input tokens, for a token
	// budget that the request alone would exceed; 0 otherwise.
	Need int
	// Usage is the run's usage when the call was refused.
	Usage Usage
}

// Error names the limit and the usage.
func (e *UsageLimitError) Error() string {
	u := e.Usage
	used := fmt.Sprintf("%d requests, %d+%d tokens, %d tool calls", u.Requests, u.InputTokens, u.OutputTokens, u.ToolCalls)
	if e.Need > 0 {
		return fmt.Sprintf("run: %s of %d would be exceeded: the request needs about %d tokens (used %s)", e.Limit, e.Max, e.Need, used)
	}
	return fmt.Sprintf("run: %s of %d reached (used %s)", e.Limit, e.Max, used)
}

// Is matches [ErrUsageLimit].
func (e *UsageLimitError) Is(target error) bool { return target == ErrUsageLimit }

// Class makes the refusal final: canceled by the run's own limit.
func (e *UsageLimitError) Class() taxonomy.Class {
	return taxonomy.Class{Kind: taxonomy.Canceled, Rule: "usage limit"}
}

// RunOption configures a [Run].
type Option func(*Run)

// RetryBudget caps the retries (and hedges) of every call in the run
// together. A negative value means unlimited. Default: 10
// ([DefaultRetryBudget]).
func RetryBudget(n int) Option { return func(r *Run) { r.budget, r.budgetSet = n, true } }

// DefaultRetryBudget is the retry budget of a run without [RetryBudget].
const DefaultRetryBudget = 10

// NewRun returns a context carrying a new run configured by opts. Every
// wrapped model and tool called with that context (or one derived from it)
// shares the run's budget; [From] returns the run.
func New(ctx context.Context, opts ...Option) context.Context {
	r := &Run{}
	for _, o := range opts {
		if o != nil {
			o(r)
		}
	}
	return context.WithValue(ctx, runKey{}, r)
}

type runKey struct{}

// RunFrom returns the run carried by ctx, nil if none.
func From(ctx context.Context) *Run {
	r, _ := ctx.Value(runKey{}).(*Run)
	return r
}

// maxRetries returns the budget; r.mu is held.
func (r *Run) maxRetries() int {
	if !r.budgetSet {
		return DefaultRetryBudget
	}
	return r.budget
}

// TryRetry takes one retry from the budget, reporting false when it is spent.
// A nil Run has an unlimited budget.
func (r *Run) TryRetry() bool {
	if r == nil {
		return true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if m := r.maxRetries(); m >= 0 && r.usage.Retries >= m {
		r.refusals = sat.Add(r.refusals, 1)
		return false
	}
	r.usage.Retries = sat.Add(r.usage.Retries, 1)
	return true
}

// Retries returns how many retries the run has spent, 0 for a nil Run.
func (r *Run) Retries() int {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.usage.Retries
}

// Usage returns what the run has used so far; the zero Usage for a nil Run.
func (r *Run) Usage() Usage {
	if r == nil {
		return Usage{}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.usage
}

// StartRequest takes a place for one request to a model whose input is
// estimated at estimate tokens, or refuses it with a *[UsageLimitError]
// when the request limit is reached, the token budget is spent, or the
// estimate exceeds what remains of it. A nil Run admits everything.
// A [middleware.Pipeline] call made with the [middleware.Request] option calls it before each
// attempt.
func (r *Run) StartRequest(estimate int) error {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	l, u := r.limits, r.usage
	if l.requests > 0 && u.Requests >= l.requests {
		return &UsageLimitError{Limit: "request limit", Max: l.requests, Usage: u}
	}
	if l.tokens > 0 && u.Tokens() >= l.tokens {
		return &UsageLimitError{Limit: "token budget", Max: l.tokens, Usage: u}
	}
	if l.tokens > 0 && estimate > l.tokens-u.Tokens() {
		return &UsageLimitError{Limit: "token budget", Max: l.tokens, Need: estimate, Usage: u}
	}
	r.usage.Requests = sat.Add(r.usage.Requests, 1)
	return nil
}

// ReturnRequest gives back the place that [Run.StartRequest] took for a
// request that was never sent (a limiter or a breaker refused it after the
// run admitted it).
func (r *Run) ReturnRequest() {
	r.mu.Lock()
	r.usage.Requests--
	r.mu.Unlock()
}

// HasTokenBudget reports whether the run limits tokens: callers estimate a
// request's tokens for [Run.StartRequest] only then. False for a nil Run.
func (r *Run) HasTokenBudget() bool {
	if r == nil {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.limits.tokens > 0
}

// AddTokens adds the tokens a provider reported for a response; a
// negative count adds nothing, and the sums saturate at the largest int
// (a response reporting 2^63-1 tokens spends any budget).
func (r *Run) AddTokens(input, output int) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.usage.InputTokens = sat.Add(r.usage.InputTokens, max(input, 0))
	r.usage.OutputTokens = sat.Add(r.usage.OutputTokens, max(output, 0))
}

// StartToolCall takes a place for one tool call, or refuses it with a
// *[UsageLimitError] when the tool call limit is reached. A nil Run admits
// everything.
func (r *Run) StartToolCall() error {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if l := r.limits.toolCalls; l > 0 && r.usage.ToolCalls >= l {
		return &UsageLimitError{Limit: "tool call limit", Max: l, Usage: r.usage}
	}
	r.usage.ToolCalls = sat.Add(r.usage.ToolCalls, 1)
	return nil
}

// AddWaited adds a wait before a retry to the run's usage. A first attempt,
// which waited nothing, takes no lock. Waits are never negative (the
// pipeline clamps them), so d == 0 is the one case to skip; a nil Run
// adds nothing.
func (r *Run) AddWaited(d time.Duration) {
	if r == nil || d == 0 {
		return
	}
	r.mu.Lock()
	r.usage.Waited = sat.Add(r.usage.Waited, d)
	r.mu.Unlock()
}

// Refusals returns how many retries the budget refused, 0 for a nil Run.
func (r *Run) Refusals() int {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.refusals
}

// Remaining returns the retries left, -1 when unlimited (a nil Run has no
// budget).
func (r *Run) Remaining() int {
	if r == nil {
		return -1 // no run, no budget: TryRetry allows every retry
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	m := r.maxRetries()
	if m < 0 {
		return -1
	}
	return m - r.usage.Retries
}

// Local returns the run's value for key, storing init() first when the run
// has none: per-run state of the layers above the pipeline, which the
// pipeline does not know (package tools keeps its repeat counter there).
// Keys follow the rules of context keys: an unexported type of the package
// that owns the value. init runs at most once per key and run, under the
// run's lock, so it must not call back into the run. The value must be safe
// for concurrent use: every call of the run shares it. A nil Run keeps
// nothing: it returns init().
func (r *Run) Local(key any, init func() any) any {
	if r == nil {
		return init() // nowhere to keep it
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if v, ok := r.locals[key]; ok {
		return v
	}
	if r.locals == nil {
		r.locals = make(map[any]any)
	}
	v := init()
	r.locals[key] = v
	return v
}
