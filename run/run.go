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
	mu          sync.Mutex
	budget      int // read through maxRetries
	budgetSet   bool
	refusals    int
	usage       Usage
	limits      usageLimits
	locals      map[any]any
	repeatLimit int   // 0 until RepeatLimit: DefaultRepeatLimit
	err         error // invalid options, returned by Err
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
	// PastLimit counts those of Retries that went past their call's
	// per-kind attempt limit, paid from the budget the run had left
	// (see [Run.TryRetryPastLimit]).
	PastLimit int
	// Waited adds up the time spent waiting before retries.
	Waited time.Duration
}

// Tokens returns the input and output tokens together. Like every count of
// a run, it saturates at the largest int instead of wrapping around.
func (u Usage) Tokens() int { return sat.Add(u.InputTokens, u.OutputTokens) }

// usageLimits holds the run's limits; a limit applies only when its has
// flag is set, so that the zero Run has none.
type usageLimits struct {
	tokens, requests, toolCalls          int
	hasTokens, hasRequests, hasToolCalls bool
}

// TokenBudget limits the run to n tokens, input and output together, as the
// providers report them. A request is refused once the budget is spent, or
// when its estimated input alone would exceed what remains (see
// [Run.StartRequest]). n = 0 allows none: every request is refused. It
// must not be negative. Default: no limit.
func TokenBudget(n int) Option {
	return limitOption("TokenBudget", n, func(l *usageLimits) { l.tokens, l.hasTokens = n, true })
}

// RequestLimit limits the run to n requests to models, failed ones and
// retries included. n = 0 allows none. It must not be negative. Default:
// no limit.
func RequestLimit(n int) Option {
	return limitOption("RequestLimit", n, func(l *usageLimits) { l.requests, l.hasRequests = n, true })
}

// ToolCallLimit limits the run to n tool calls. n = 0 allows none. It must
// not be negative. Default: no limit.
func ToolCallLimit(n int) Option {
	return limitOption("ToolCallLimit", n, func(l *usageLimits) { l.toolCalls, l.hasToolCalls = n, true })
}

// limitOption sets a limit of the run with set, or records that the
// option called name was given a negative n.
func limitOption(name string, n int, set func(*usageLimits)) Option {
	return func(r *Run) {
		if n < 0 {
			r.fail(fmt.Errorf("run: %s(%d): must not be negative (math.MaxInt for no limit)", name, n))
			return
		}
		set(&r.limits)
	}
}

// RepeatLimit sets how many times one tool may be called with the same
// input in the run before the tool's wrapper (package tools) stops the run
// as stuck (tools.ErrStuck). It must be at least 1 (with 0, the first call
// would be stuck); math.MaxInt turns the check off. Default: 3
// ([DefaultRepeatLimit]).
func RepeatLimit(n int) Option {
	return func(r *Run) {
		if n < 1 {
			r.fail(fmt.Errorf("run: RepeatLimit(%d): must be at least 1 (math.MaxInt for no check)", n))
			return
		}
		r.repeatLimit = n
	}
}

// DefaultRepeatLimit is how many times one tool may be called with the
// same input in a run without [RepeatLimit].
const DefaultRepeatLimit = 3

// RepeatLimit returns the run's repeat limit (see the option
// [RepeatLimit]); a nil Run has the default.
func (r *Run) RepeatLimit() int {
	if r == nil || r.repeatLimit == 0 {
		return DefaultRepeatLimit
	}
	return r.repeatLimit
}

func (r *Run) fail(err error) { r.err = errors.Join(r.err, err) }

// ErrInvalid is matched by [errors.Is] on the error of a run given invalid
// options (see [Run.Err]).
var ErrInvalid = errors.New("run: invalid options")

// Err returns the problems of the options the run was made with, nil when
// they were valid, and nil for a nil Run. Every model and tool call made
// with a run whose options were invalid fails with this error, classified
// as a programming failure, before anything is sent: the limits the caller
// asked for cannot be honoured.
func (r *Run) Err() error {
	if r == nil || r.err == nil {
		return nil
	}
	return &invalidError{err: r.err}
}

// invalidError is a run's invalid options: a programming failure.
type invalidError struct{ err error }

func (e *invalidError) Error() string        { return e.err.Error() }
func (e *invalidError) Unwrap() error        { return e.err }
func (e *invalidError) Is(target error) bool { return target == ErrInvalid }
func (e *invalidError) Class() taxonomy.Class {
	return taxonomy.Class{Kind: taxonomy.Programming, Rule: "invalid run options"}
}

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
// Options follow the rule of every option of the library, stated on
// [github.com/resilientgo/resilient.Option].
type Option func(*Run)

// RetryBudget caps the retries (and hedges) of every call in the run
// together. n = 0 allows none; math.MaxInt is no limit. It must not be
// negative. Default: 10 ([DefaultRetryBudget]).
func RetryBudget(n int) Option {
	return func(r *Run) {
		if n < 0 {
			r.fail(fmt.Errorf("run: RetryBudget(%d): must not be negative (math.MaxInt for no limit)", n))
			return
		}
		r.budget, r.budgetSet = n, true
	}
}

// DefaultRetryBudget is the retry budget of a run without [RetryBudget].
const DefaultRetryBudget = 10

// NewRun returns a context carrying a new run configured by opts. Every
// wrapped model and tool called with that context (or one derived from it)
// shares the run's budget; [From] returns the run.
func New(ctx context.Context, opts ...Option) context.Context {
	r := &Run{}
	for _, o := range opts {
		if o == nil {
			r.fail(errors.New("run: nil option"))
			continue
		}
		o(r)
	}
	return context.WithValue(ctx, runKey{}, r)
}

type runKey struct{}

// From returns the run carried by ctx, nil if none (or if ctx is nil).
func From(ctx context.Context) *Run {
	if ctx == nil {
		return nil
	}
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
	return r.takeRetry(false)
}

// TryRetryPastLimit takes one retry from the budget for a call that has
// reached its per-kind attempt limit, as [Run.TryRetry] does, and counts it
// in [Usage].PastLimit as well. A spent budget refuses it without counting
// a refusal (see [Run.Refusals]): the call stops for its own limit. A nil
// Run, which has no budget to spend, refuses: only a run's unspent budget
// pays for attempts past the limit.
func (r *Run) TryRetryPastLimit() bool {
	if r == nil {
		return false
	}
	return r.takeRetry(true)
}

// takeRetry takes one retry from the budget, counting it past a call's
// limit when pastLimit is set; when the budget is spent, it counts a
// refusal of a retry within the limit.
func (r *Run) takeRetry(pastLimit bool) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.usage.Retries >= r.maxRetries() {
		if !pastLimit {
			r.refusals = sat.Add(r.refusals, 1)
		}
		return false
	}
	r.usage.Retries = sat.Add(r.usage.Retries, 1)
	if pastLimit {
		r.usage.PastLimit = sat.Add(r.usage.PastLimit, 1)
	}
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
	if l.hasRequests && u.Requests >= l.requests {
		return &UsageLimitError{Limit: "request limit", Max: l.requests, Usage: u}
	}
	if l.hasTokens && u.Tokens() >= l.tokens {
		return &UsageLimitError{Limit: "token budget", Max: l.tokens, Usage: u}
	}
	if l.hasTokens && estimate > l.tokens-u.Tokens() {
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
	return r.limits.hasTokens
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
	if l := r.limits; l.hasToolCalls && r.usage.ToolCalls >= l.toolCalls {
		return &UsageLimitError{Limit: "tool call limit", Max: l.toolCalls, Usage: r.usage}
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

// Remaining returns the retries left (math.MaxInt less those spent with
// RetryBudget(math.MaxInt)), -1 for a nil Run, which has no budget.
func (r *Run) Remaining() int {
	if r == nil {
		return -1 // no run, no budget: TryRetry allows every retry
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.maxRetries() - r.usage.Retries
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
