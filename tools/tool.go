package tools

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"

	"github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/taxonomy"
)

// Attribute keys of the tool events, stable for dashboards and alerts. The
// pipeline's own events (retries, breaker changes) use the keys of package
// middleware, with the tool's name as their target.
//
// The events, by message:
//
//	"tool error"              DEBUG tool, err        the model is told and may correct itself
//	"tool failed internally"  ERROR tool, type, err  the model reads only the tool's name and type
//	"tool stopped the run"    WARN  tool, reason, err
//	"already done"            INFO  tool, idempotency_key
//	"lease lost"              WARN  tool, idempotency_key
//	"idempotency store failed" ERROR tool, idempotency_key, err
const (
	KeyTool           = "tool"            // the tool's name
	KeyType           = "type"            // the Go type of an internal failure, "panic" for a panic
	KeyReason         = "reason"          // why a run stopped: "fatal", "circuit open", "stuck"
	KeyIdempotencyKey = "idempotency_key" // the key of an idempotent call
	KeyError          = middleware.KeyError
)

// Sentinels matched by [errors.Is] in the cause of the
// [taxonomy.FatalToolError] that a wrapped tool returns when it stops a run
// by itself.
var (
	// ErrCircuitOpen: the tool's circuit breaker is open. It is the
	// sentinel models use too, middleware.ErrCircuitOpen.
	ErrCircuitOpen = middleware.ErrCircuitOpen
	// ErrStuck: the model called the tool with the same input more often
	// than the run's repeat limit allows.
	ErrStuck = errors.New("tools: stuck")
)

// Tool is a langchaingo tool wrapped for an agent: it has the wrapped tool's
// name and description, and Call maps every outcome at the dispatch
// boundary (see the package documentation): a [taxonomy.ToolError] becomes
// the observation, a [taxonomy.FatalToolError] ends the run, anything else
// becomes "Error: <tool> failed internally (<Type>)".
//
// A Tool is safe for concurrent use when the wrapped tool is. Build it once
// and share it: its circuit breaker is per Tool.
type Tool struct {
	inner  tools.Tool
	name   string
	cfg    config
	logger *slog.Logger
	pipe   *middleware.Pipeline[reply]
	err    error // set by Invalid
}

var _ tools.Tool = (*Tool)(nil)

// reply is what one call of the wrapped tool produced, as the pipeline sees
// it: a ToolError or FatalToolError is the tool's answer, not a failure of
// the tool, so it travels as a result. The pipeline never retries it and
// the breaker counts it as healthy.
type reply struct {
	out string
	err error // a *taxonomy.ToolError or *taxonomy.FatalToolError in its chain
}

// Wrap returns t wrapped with opts. It fails on a nil tool and on invalid
// options, naming each problem.
func Wrap(t tools.Tool, opts ...Option) (*Tool, error) {
	if t == nil {
		return nil, errors.New("tools: Wrap(nil)")
	}
	cfg := build(opts)
	name := t.Name()
	logger := redactingLogger(cfg.logger, cfg.redact)
	pipe, err := middleware.New[reply](name, cfg.pipelineOptions(logger)...)
	if err := errors.Join(append(cfg.errs, err)...); err != nil {
		return nil, fmt.Errorf("tools: %s: %w", name, err)
	}
	return &Tool{inner: t, name: name, cfg: cfg, logger: logger, pipe: pipe}, nil
}

// Invalid returns a Tool that reports err: every call ends the run with a
// [taxonomy.FatalToolError] whose cause is err, and [Tool.Err] returns err.
// It lets a constructor that must not fail (resilient.Tool) defer the
// problem of a nil tool or invalid options to the first call, where the run
// stops with a named reason. t may be nil.
func Invalid(t tools.Tool, err error) *Tool {
	name := "invalid tool"
	if t != nil {
		name = t.Name()
	}
	return &Tool{inner: t, name: name, logger: redactingLogger(nil, Redact), err: err}
}

// Err returns the problem of a Tool made by [Invalid], nil otherwise.
func (t *Tool) Err() error { return t.err }

// Name returns the wrapped tool's name.
func (t *Tool) Name() string { return t.name }

// Description returns the wrapped tool's description, "" for an [Invalid]
// tool without one.
func (t *Tool) Description() string {
	if t.inner == nil {
		return ""
	}
	return t.inner.Description()
}

// Unwrap returns the wrapped tool.
func (t *Tool) Unwrap() tools.Tool { return t.inner }

// Idempotent reports whether the tool was wrapped with [Idempotent], so that
// every call carries its key ([KeyFrom]).
func (t *Tool) Idempotent() bool { return t.cfg.idempotent }

// Breaker returns the tool's circuit breaker, nil when disabled.
func (t *Tool) Breaker() *middleware.Breaker {
	if t.pipe == nil {
		return nil
	}
	return t.pipe.Breaker()
}

// Call runs the wrapped tool with input and maps the outcome for the agent:
//
//   - the tool's output, or the text of a [taxonomy.ToolError], with a nil
//     error: the model reads it;
//   - "Error: <tool> failed internally (<Type>)" with a nil error for any
//     other failure and for a panic; the full error is logged, redacted;
//   - a *[taxonomy.FatalToolError] naming the tool when the tool returned
//     one, when its circuit is open ([ErrCircuitOpen]) and when the model is
//     stuck repeating the call ([ErrStuck]): the run ends;
//   - the context's error when the caller gave up: the run ends.
//
// For an [Idempotent] tool, a repeat of a completed call returns
// "already done: <result>" without running the tool, and a call that finds
// the same call in flight waits for it and returns its result.
func (t *Tool) Call(ctx context.Context, input string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if t.err != nil {
		return "", &taxonomy.FatalToolError{Tool: t.name, Cause: t.err}
	}
	if run := middleware.RunFrom(ctx); run != nil {
		n, limit := run.Repeat(t.name + "\x00" + t.cfg.keyFunc(t.name, input))
		if limit > 0 && n > limit {
			return "", t.stop(ctx, ErrStuck, fmt.Sprintf("stuck: %s called %d times with the same input", t.name, n), nil)
		}
	}
	if t.cfg.idempotent {
		return t.callOnce(ctx, input)
	}
	out, _, err := t.call(ctx, ctx, input)
	return out, err
}

// call runs the tool through the pipeline with ctx, which is the caller's
// context or one bounded by an idempotency lease, and maps its outcome; ok
// reports whether the tool succeeded (its output is worth storing).
func (t *Tool) call(caller, ctx context.Context, input string) (out string, ok bool, err error) {
	var last atomic.Pointer[attempt]
	r, err := t.pipe.Do(ctx, func(ctx context.Context, _ middleware.State) (reply, error) {
		last.Store(nil) // stays nil if the tool panics
		out, err := t.inner.Call(ctx, input)
		last.Store(&attempt{out: out, err: err})
		if isAnswer(err) {
			return reply{err: err}, nil
		}
		return reply{out: out}, err
	})
	if a := last.Load(); err != nil && a != nil && (a.err == nil || isAnswer(a.err)) {
		// The tool answered after ctx ended, and the pipeline reported the
		// call as canceled; what the tool did is the truth (a charge made
		// just as the lease ended must be stored, not run again).
		r, err = reply{out: a.out, err: a.err}, nil
	}
	switch {
	case err == nil && r.err == nil:
		return r.out, true, nil
	case err == nil:
		out, err := t.answer(caller, r.err)
		return out, false, err
	case caller.Err() != nil:
		return "", false, caller.Err()
	}
	var final *middleware.Error
	if errors.As(err, &final) && final.Reason == middleware.ReasonCircuitOpen {
		return "", false, t.stop(caller, ErrCircuitOpen, t.name+" circuit is open; stopping instead of retrying", err)
	}
	return t.internal(caller, err, last.Load()), false, nil
}

// isAnswer reports whether err is the tool's own answer: a ToolError or a
// FatalToolError, which the wrapper maps but never retries.
func isAnswer(err error) bool {
	return err != nil && (errors.As(err, new(*taxonomy.FatalToolError)) || errors.As(err, new(*taxonomy.ToolError)))
}

// attempt is what the wrapped tool returned on its latest call.
type attempt struct {
	out string
	err error
}

// answer maps the tool's own answer: a fatal error ends the run, a ToolError
// is shown to the model.
func (t *Tool) answer(ctx context.Context, err error) (string, error) {
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
		t.logger.LogAttrs(ctx, slog.LevelWarn, "tool stopped the run",
			slog.String(KeyTool, t.name), slog.String(KeyReason, "fatal"), slog.Any(KeyError, err))
		return "", err
	}
	var te *taxonomy.ToolError
	errors.As(err, &te)
	t.logger.LogAttrs(ctx, slog.LevelDebug, "tool error",
		slog.String(KeyTool, t.name), slog.String(KeyError, te.Message))
	return te.Message, nil
}

// internal logs a failure in full and returns what the model may read of
// it: the Go type of the error the tool returned in its latest attempt (a
// nil attempt when it panicked or was not called), or "panic".
func (t *Tool) internal(ctx context.Context, err error, last *attempt) string {
	var kind string
	var final *middleware.Error
	switch {
	case last != nil && last.err != nil:
		kind = fmt.Sprintf("%T", last.err)
	case errors.As(err, new(*middleware.PanicError)):
		kind = "panic"
	case errors.As(err, &final) && final.Last() != nil:
		kind = fmt.Sprintf("%T", final.Last())
	default:
		kind = fmt.Sprintf("%T", err)
	}
	t.logger.LogAttrs(ctx, slog.LevelError, "tool failed internally",
		slog.String(KeyTool, t.name), slog.String(KeyType, kind), slog.Any(KeyError, err))
	return "Error: " + t.name + " failed internally (" + kind + ")"
}

// stop returns the fatal error of a run that the wrapper itself ends.
func (t *Tool) stop(ctx context.Context, sentinel error, msg string, cause error) error {
	err := &taxonomy.FatalToolError{Tool: t.name, Cause: &stopError{msg: msg, sentinel: sentinel, cause: cause}}
	reason := "stuck"
	if sentinel == ErrCircuitOpen {
		reason = "circuit open"
	}
	t.logger.LogAttrs(ctx, slog.LevelWarn, "tool stopped the run",
		slog.String(KeyTool, t.name), slog.String(KeyReason, reason), slog.Any(KeyError, err))
	return err
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

// Func adapts a function to langchaingo's tools.Tool, for tools too small
// to deserve a type of their own. The result is safe for concurrent use
// when fn is.
func Func(name, description string, fn func(ctx context.Context, input string) (string, error)) tools.Tool {
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
