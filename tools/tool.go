package tools

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sync/atomic"
	"time"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/internal/redact"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/run"
	"github.com/resilientgo/resilient/taxonomy"
)

// Sentinels matched by [errors.Is] in the cause of the
// [taxonomy.FatalToolError] that a wrapped tool returns when it stops a run
// by itself.
var (
	// ErrStuck: the model called the tool with the same input more often
	// than the run's repeat limit allows.
	ErrStuck = errors.New("tools: stuck")
	// ErrOutcomeUnknown: an idempotent call with the same key outlived its
	// claim's maximum lifetime ([MaxClaim]) with the tool still running,
	// so whether its action took place is unknown; the tool is not run
	// again until its record expires ([ResultTTL]) or the tool returns.
	ErrOutcomeUnknown = errors.New("tools: outcome unknown")
)

// The problems of a Tool that [New] did not build, and of a call without a
// context: every call ends the run with them, as programming failures.
var (
	errZeroTool   = errors.New("tools: zero Tool: build it with tools.New or resilient.Tool")
	errNilTool    = errors.New("tools: nil *Tool: build it with tools.New or resilient.Tool")
	errNilContext = errors.New("tools: nil context")
)

// invalidName names a tool whose name is unknown.
const invalidName = "invalid tool"

// Callable is a tool as this package calls it: langchaingo's tools.Tool
// has exactly these methods, so every langchaingo tool is one, and an
// adapter of another framework's tools (module resilienteino for Eino)
// makes its tools one. Input and output are the text the model writes and
// reads.
type Callable interface {
	// Name is the name the model calls the tool by.
	Name() string
	// Description tells the model what the tool does.
	Description() string
	// Call runs the tool with the model's input.
	Call(ctx context.Context, input string) (string, error)
}

// Tool is a [Callable] (a langchaingo tool, say) wrapped for an agent: it has the wrapped tool's
// name and description, and Call maps every outcome at the dispatch
// boundary (see the package documentation): a [taxonomy.ToolError] becomes
// the observation, a [taxonomy.FatalToolError] ends the run, anything else
// becomes "Error: <tool> failed internally (<Type>)".
//
// A Tool is safe for concurrent use when the wrapped tool is. Build it once
// and share it: its circuit breaker is per Tool.
//
// The zero Tool is not usable: its calls end the run with an error saying so.
type Tool struct {
	inner       Callable
	name        string
	description string
	cfg         config
	target      observe.Target
	obs         observe.Observers
	pipe        *middleware.Pipeline[reply]
	err         error    // the problem New reported: every call fails with it
	renewals    renewals // of an idempotent tool's claims
}

var _ Callable = (*Tool)(nil)

// reply is what one call of the wrapped tool produced, as the pipeline sees
// it: a ToolError or FatalToolError is the tool's answer, not a failure of
// the tool, so it travels as a result. The pipeline never retries it and
// the breaker counts it as healthy.
type reply struct {
	out string
	err error // a *taxonomy.ToolError or *taxonomy.FatalToolError in its chain
}

// New returns t wrapped with opts. A nil tool (typed nil included), a Name
// or Description that panics, or invalid options make it return an error
// naming each problem, together with a non-nil Tool that ends the run at
// every call with a [taxonomy.FatalToolError] whose cause is that error,
// classified as a programming failure (and reports it from [Tool.Err]): a
// caller that cannot handle the error where it builds the tool, such as
// resilient.Tool, returns that Tool, so that the problem surfaces at the
// first call instead of as a panic. New calls t's Name and Description
// once, recovering from a panic, and keeps what they return.
func New(t Callable, opts ...Option) (*Tool, error) {
	cfg := build(opts)
	name, description, problem := describe(t)
	target := observe.Target{Name: name, Operation: observe.OperationExecuteTool}
	logger := redact.Logger(cfg.logger, cfg.redact)
	pipe, err := middleware.New[reply](name, cfg.pipelineOptions(logger, target)...)
	if err == nil {
		cfg.boundClaim(pipe.Timeout())
	}
	w := &Tool{inner: t, name: name, description: description, cfg: cfg, target: target}
	errs := cfg.errs
	if problem != nil {
		errs = append(errs, problem)
	}
	if err != nil {
		errs = append(errs, err)
	}
	if len(errs) == 0 {
		w.pipe, w.obs = pipe, pipe.Observers()
		return w, nil
	}
	prefix := "tools: "
	if problem == nil {
		prefix += name + ": "
	}
	err = fmt.Errorf("%s%w", prefix, errors.Join(errs...))
	w.err = err
	if cfg.logger != nil {
		w.obs = observe.Observers{observe.Log(logger)}
	}
	return w, err
}

// describe calls t's Name and Description, reporting a nil tool or a panic
// as a problem, in which case the name is "invalid tool".
func describe(t Callable) (name, description string, problem error) {
	const invalid = invalidName
	switch v := reflect.ValueOf(t); {
	case t == nil:
		return invalid, "", errors.New("nil tool")
	case isNil(v):
		return invalid, "", fmt.Errorf("nil tool (%T)", t)
	}
	method := "Name"
	defer func() {
		if v := recover(); v != nil {
			name, description = invalid, ""
			problem = fmt.Errorf("%T.%s panicked: %s", t, method, redact.Keep(redact.Text(v), nil))
		}
	}()
	name = t.Name()
	method = "Description"
	return name, t.Description(), nil
}

func isNil(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface:
		return v.IsNil()
	}
	return false
}

// Err returns the problem [New] reported for this Tool, nil if none; for a
// nil *Tool, the error its calls end the run with.
func (t *Tool) Err() error {
	if t == nil {
		return errNilTool
	}
	return t.err
}

// Name returns the wrapped tool's name, "invalid tool" when [New] could not
// read it or t is nil.
func (t *Tool) Name() string {
	if t == nil {
		return invalidName
	}
	return t.name
}

// Description returns the wrapped tool's description, as New read it; ""
// for a nil *Tool.
func (t *Tool) Description() string {
	if t == nil {
		return ""
	}
	return t.description
}

// Unwrap returns the wrapped tool, nil for a nil *Tool.
func (t *Tool) Unwrap() Callable {
	if t == nil {
		return nil
	}
	return t.inner
}

// Idempotent reports whether the tool was wrapped with [Idempotent], so that
// every call carries its key ([KeyFrom]).
func (t *Tool) Idempotent() bool { return t != nil && t.cfg.idempotent }

// Breaker returns the tool's circuit breaker, nil when disabled or t is nil.
func (t *Tool) Breaker() *breaker.Breaker {
	if t == nil || t.pipe == nil {
		return nil
	}
	return t.pipe.Breaker()
}

// Limiter returns the tool's rate limiter (resilient.RateLimit), nil if
// none or t is nil.
func (t *Tool) Limiter() limit.Limiter {
	if t == nil || t.pipe == nil {
		return nil
	}
	return t.pipe.Limiter()
}

// Concurrency returns the tool's concurrency limit (resilient.MaxConcurrent,
// ConcurrencyLimit) and how long a call waits for a slot, nil if none or t
// is nil.
func (t *Tool) Concurrency() (limit.Semaphore, time.Duration) {
	if t == nil || t.pipe == nil {
		return nil, 0
	}
	return t.pipe.Concurrency()
}

// Call runs the wrapped tool with input and maps the outcome for the agent:
//
//   - the tool's output, or the text of a [taxonomy.ToolError] with its
//     credentials redacted (see [Redactor]), with a nil error: the model
//     reads it;
//   - "Error: <tool> failed internally (<Type>)" with a nil error for any
//     other failure and a panic, "Error: <tool> timed out" for a call that
//     ran out of time; the full error is logged, redacted;
//   - a *[taxonomy.FatalToolError] naming the tool when the tool returned
//     one, when its circuit is open (middleware.ErrCircuitOpen), when the model is
//     stuck repeating the call ([ErrStuck]), when the run's tool call
//     limit is reached (run.ErrUsageLimit) and when the same idempotent
//     call hung past its claim's lifetime ([ErrOutcomeUnknown]): the run
//     ends;
//   - the context's error when the caller gave up: the run ends;
//   - a *[taxonomy.FatalToolError] classified as a programming failure for
//     a nil *Tool, a Tool that New did not build, or a nil context.
//
// For an [Idempotent] tool, a repeat of a completed call returns
// "already done: <result>" without running the tool, and a call that finds
// the same call in flight waits for it and returns its result.
func (t *Tool) Call(ctx context.Context, input string) (string, error) {
	switch {
	case t == nil:
		return "", misuse(invalidName, errNilTool)
	case ctx == nil:
		return "", misuse(t.name, errNilContext)
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	var start time.Time
	if t.obs.Active() {
		start = time.Now()
		ctx = t.obs.StartCall(ctx, t.target)
	}
	r := t.run(ctx, input)
	if t.obs.Active() {
		t.obs.Report(ctx, observe.CallEnd{Target: t.target, Attempts: r.attempts,
			Duration: time.Since(start), Reason: r.reason, Class: r.class, Type: r.typ}, r.logged)
	}
	return r.out, r.err
}

// result is how one call ended: what Call returns, and what its CallEnd
// event says.
type result struct {
	out string
	err error

	attempts int
	reason   observe.Reason // zero: answered
	class    taxonomy.Class
	typ      string // of an internal failure
	logged   error  // the error the log line shows
}

func (t *Tool) run(ctx context.Context, input string) result {
	problem := t.err
	if problem == nil && t.pipe == nil {
		problem = errZeroTool
	}
	if problem != nil {
		err := misuse(t.name, problem)
		return result{err: err, reason: observe.ReasonFatal, logged: err}
	}
	var key string // the idempotency key, computed once for both its uses
	if t.cfg.idempotent || t.cfg.customKey {
		key = t.cfg.keyFunc(t.name, input)
		if scope, _ := ctx.Value(keyScopeCtx{}).(string); scope != "" {
			key = scope + key
		}
	}
	if run := run.From(ctx); run != nil {
		if err := run.Err(); err != nil {
			err := misuse(t.name, err) // the limits asked for cannot be honoured
			return result{err: err, reason: observe.ReasonFatal, logged: err}
		}
		if limit := run.RepeatLimit(); limit < math.MaxInt {
			if n := repeatsOf(run).add(repeatHash(t.name, key, input)); n > limit {
				msg := fmt.Sprintf("stuck: %s called %d times with the same input", t.name, n)
				return t.stop(observe.ReasonStuck, ErrStuck, msg, nil)
			}
		}
		if err := run.StartToolCall(); err != nil {
			// Over the run's tool call limit: the run ends, as with a
			// FatalToolError; the model is not told.
			fatal := &taxonomy.FatalToolError{Tool: t.name, Cause: err}
			return result{err: fatal, reason: observe.ReasonUsageLimit, logged: fatal}
		}
	}
	if t.cfg.idempotent {
		return t.callOnce(ctx, key, input)
	}
	return t.call(ctx, ctx, input, nil)
}

// call runs the tool through the pipeline with ctx (the caller's context,
// or one carrying an idempotency key) and opts, and maps its outcome. With
// a claim, each attempt leaves the claim when the tool returns, even after
// the pipeline abandoned it (see claim).
func (t *Tool) call(caller, ctx context.Context, input string, c *claim, opts ...middleware.CallOption) result {
	var attempts atomic.Int32
	var last atomic.Pointer[attempt]
	r, err := t.pipe.Do(ctx, func(ctx context.Context, _ middleware.State) (reply, error) {
		attempts.Add(1)
		last.Store(nil) // stays nil if the tool panics
		returned := false
		var out string
		var err error
		if c != nil {
			switch run, stored, ok := c.enter(); {
			case ok:
				// An earlier attempt, abandoned, succeeded after all.
				return reply{out: stored}, nil
			case !run:
				return reply{}, middleware.Unretryable(errClaimEnded, "the claim ended before the attempt started")
			}
			defer func() { c.leave(returned && err == nil, out) }()
		}
		out, err = t.inner.Call(ctx, input)
		returned = true
		last.Store(&attempt{out: out, err: err, timedOut: errors.Is(ctx.Err(), context.DeadlineExceeded)})
		if isAnswer(err) {
			return reply{err: err}, nil
		}
		return reply{out: out}, err
	}, opts...)
	n := int(attempts.Load())
	switch {
	case err == nil && r.err == nil:
		return result{out: r.out, attempts: n}
	case err == nil:
		res := t.answer(r.err)
		res.attempts = n
		return res
	case caller.Err() != nil:
		return canceled(caller, n)
	}
	var final *middleware.Error
	if errors.As(err, &final) && final.Reason == observe.ReasonCircuitOpen {
		res := t.stop(observe.ReasonCircuitOpen, middleware.ErrCircuitOpen, t.name+" circuit is open; stopping instead of retrying", err)
		res.attempts, res.reason, res.class = n, final.Reason, final.Class()
		return res
	}
	res := t.internal(err, final, last.Load())
	res.attempts = n
	return res
}

// misuse returns the error that ends a run whose tool call could not be
// made: a FatalToolError naming the tool, whose cause is problem classified
// as a programming failure.
func misuse(tool string, problem error) error {
	return &taxonomy.FatalToolError{Tool: tool, Cause: programming(problem)}
}

// programming returns problem classified as a programming failure.
func programming(problem error) error {
	return taxonomy.WithClass(problem, taxonomy.Class{Kind: taxonomy.Programming, Rule: "invalid tool"})
}

// canceled is the result of a call whose caller gave up.
func canceled(ctx context.Context, attempts int) result {
	return result{err: ctx.Err(), attempts: attempts, reason: observe.ReasonCanceled,
		class: taxonomy.Class{Kind: taxonomy.Canceled, Rule: "caller gave up"}}
}

// isAnswer reports whether err is the tool's own answer: a ToolError or a
// FatalToolError, which the wrapper maps but never retries.
func isAnswer(err error) bool {
	return err != nil && (errors.As(err, new(*taxonomy.FatalToolError)) || errors.As(err, new(*taxonomy.ToolError)))
}

// attempt is what the wrapped tool returned on its latest call.
type attempt struct {
	out      string
	err      error
	timedOut bool // the attempt's time had run out when the tool returned
}

// answer maps the tool's own answer: a fatal error ends the run, a ToolError
// is shown to the model, redacted: its author wrote it for the model, but
// what it quotes (a server's error, a request) may hold a credential.
func (t *Tool) answer(err error) result {
	var fatal *taxonomy.FatalToolError
	if errors.As(err, &fatal) {
		switch {
		case fatal.Tool != "":
		case err == error(fatal):
			named := *fatal // the author's value is not ours to change
			named.Tool = t.name
			err = &named
		default:
			err = &taxonomy.FatalToolError{Tool: t.name, Cause: err}
		}
		return result{err: err, reason: observe.ReasonFatal, logged: err}
	}
	var te *taxonomy.ToolError
	errors.As(err, &te)
	return result{out: redact.Keep(te.Message, t.cfg.redact), reason: observe.ReasonToolError, logged: te}
}

// internal maps a failure of the tool: the model reads the tool's name and
// the Go type of the error it returned in its latest attempt ("panic" for a
// panic), or that it timed out when that attempt ran out of time (whether
// the tool returned then or was abandoned) or the tool's error says its
// own deadline passed (a store that timed out before the tool ran is a
// failure like any other); the full error is logged, and
// the event carries the type (for an abandoned attempt, the type of the
// context's error, as for a tool that returned it).
func (t *Tool) internal(err error, final *middleware.Error, last *attempt) result {
	shown := err
	if final != nil && final.Last() != nil {
		shown = final.Last()
	}
	var abandoned *middleware.AbandonedError
	var kind string
	timedOut := false // the tool's own time ran out, not a dependency's (a store's)
	switch {
	case errors.As(shown, &abandoned) && abandoned.Cause != nil:
		kind = fmt.Sprintf("%T", abandoned.Cause)
		timedOut = errors.Is(abandoned.Cause, context.DeadlineExceeded)
	case errors.As(err, new(*middleware.PanicError)):
		kind = "panic"
	case last != nil && last.err != nil:
		kind = fmt.Sprintf("%T", last.err)
		timedOut = last.timedOut || errors.Is(last.err, context.DeadlineExceeded)
	default:
		kind = fmt.Sprintf("%T", shown)
	}
	res := result{out: "Error: " + t.name + " failed internally (" + kind + ")", reason: observe.ReasonInternal,
		typ: kind, logged: err, class: taxonomy.Classify(err)}
	if errors.Is(shown, context.DeadlineExceeded) {
		res.reason = observe.ReasonTimeout
	}
	if timedOut {
		res.out = "Error: " + t.name + " timed out"
	}
	return res
}

// stop returns the result of a run that the wrapper itself ends.
func (t *Tool) stop(reason observe.Reason, sentinel error, msg string, cause error) result {
	err := &taxonomy.FatalToolError{Tool: t.name, Cause: &stopError{msg: msg, sentinel: sentinel, cause: cause}}
	return result{err: err, reason: reason, logged: err}
}

// stopError is the cause of a run stopped by the wrapper: it reads as msg,
// matches its sentinel and unwraps to the pipeline's error, if any.
type stopError struct {
	msg      string
	sentinel error
	cause    error
}

func (e *stopError) Error() string        { return e.msg }
func (e *stopError) Is(target error) bool { return target == e.sentinel }
func (e *stopError) Unwrap() error        { return e.cause }

// Func adapts a function to a [Callable], which is also a langchaingo
// tools.Tool, for tools too small to deserve a type of their own. The
// result is safe for concurrent use when fn is.
func Func(name, description string, fn func(ctx context.Context, input string) (string, error)) Callable {
	return &funcTool{name: name, description: description, fn: fn}
}

type funcTool struct {
	name, description string
	fn                func(context.Context, string) (string, error)
}

func (f *funcTool) Name() string        { return f.name }
func (f *funcTool) Description() string { return f.description }
func (f *funcTool) Call(ctx context.Context, input string) (string, error) {
	return f.fn(ctx, input)
}
