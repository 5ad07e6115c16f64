package resilienteino

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/resilientgo/resilient/internal/bound"
	"github.com/resilientgo/resilient/internal/streamguard"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

// A ModelOption configures [Model] (and the models of a [Handler]).
// Options follow the rule of every option of the library, stated on
// [github.com/resilientgo/resilient.Option].
type ModelOption interface {
	HandlerOption
	applyModel(*modelConfig)
}

// A ToolOption configures [Tool] and [StreamableTool] (and the tools of a
// [Handler] or a [ToolMiddleware]).
type ToolOption interface {
	HandlerOption
	applyTool(*toolConfig)
}

// A HandlerOption configures a [Handler] or a [ToolMiddleware]: every
// ModelOption and ToolOption is one (it applies to the models or the
// tools the middleware wraps), and so is [ForTool].
type HandlerOption interface {
	applyHandler(*handlerConfig)
}

// An Option configures models and tools alike: it is a [ModelOption] and a
// [ToolOption]. The names are those of package resilient's options, with
// the same meaning and defaults.
type Option struct {
	model func(*modelConfig)
	tool  func(*toolConfig)
}

func (o Option) applyModel(c *modelConfig) { o.model(c) }
func (o Option) applyTool(c *toolConfig)   { o.tool(c) }
func (o Option) applyHandler(c *handlerConfig) {
	c.model = append(c.model, o)
	c.tool = append(c.tool, o)
}

// modelOnly is an option of models only.
type modelOnly func(*modelConfig)

func (o modelOnly) applyModel(c *modelConfig)     { o(c) }
func (o modelOnly) applyHandler(c *handlerConfig) { c.model = append(c.model, o) }

// toolOnly is an option of tools only.
type toolOnly func(*toolConfig)

func (o toolOnly) applyTool(c *toolConfig)       { o(c) }
func (o toolOnly) applyHandler(c *handlerConfig) { c.tool = append(c.tool, o) }

// both returns the option that adds mw to the pipeline of models and tools.
func both(mw ...middleware.Option) Option {
	return Option{
		model: func(c *modelConfig) { c.mw = append(c.mw, mw...) },
		tool:  func(c *toolConfig) { c.tools = append(c.tools, tools.Middleware(mw...)) },
	}
}

type modelConfig struct {
	name               string
	mw                 []middleware.Option
	fallbacks          []model.BaseChatModel
	fallbackOnOverflow bool
	compactor          Compactor
	streamTimeout      time.Duration
	firstChunk         time.Duration
	idle               time.Duration
	onRestart          func(ctx context.Context, partial string) error
	checks             []Check
	errs               []error
}

func modelDefaults() modelConfig {
	return modelConfig{
		compactor:  DropOldest(),
		firstChunk: streamguard.DefaultFirstChunk,
		idle:       streamguard.DefaultIdle,
	}
}

func (c *modelConfig) errorf(format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf("resilienteino: "+format, args...))
}

type toolConfig struct {
	tools []tools.Option // in the caller's order
}

// options returns the options of package tools that c stands for.
func (c *toolConfig) options() []tools.Option { return c.tools }

// MaxAttempts sets how many calls a retryable failure may take in all, the
// first included: 3 attempts are one call and two retries. Default: 3
// (middleware.DefaultMaxAttempts), with rate limits allowed 5 and unknown
// failures 2. Given explicitly, n applies to every retryable kind
// (MaxAttempts(1) turns retries off). A tool is retried only when it is
// [SafeToRetry].
func MaxAttempts(n int) Option { return both(middleware.MaxAttempts(n)) }

// Backoff sets the full-jitter exponential backoff: the wait before retry n
// is uniform in [0, min(base*2^(n-1), max)). Default: 0.5 s to 8 s.
func Backoff(base, max time.Duration) Option { return both(middleware.Backoff(base, max)) }

// RetryAfterCap sets the longest Retry-After slept on; a longer one fails
// the call at once and holds the circuit open. Default: 60 s.
func RetryAfterCap(d time.Duration) Option { return both(middleware.RetryAfterCap(d)) }

// CircuitBreaker sets the circuit breaker: open after failures consecutive
// failures that say something about the target, for delay. Default: models
// 10 failures and 10 s, tools 5 failures and 30 s.
func CircuitBreaker(failures int, delay time.Duration) Option {
	return both(middleware.CircuitBreaker(failures, delay))
}

// Classifier replaces the failure classifier; compose with taxonomy.Chain to
// put rules of your own ahead of taxonomy.Default. Default: taxonomy.Default.
func Classifier(c taxonomy.Classifier) Option { return both(middleware.Classifier(c)) }

// RateLimit makes every attempt acquire a unit from l first, such as a
// limit.LocalLimiter or a limiter shared by replicas (package
// resilientredis). Default: none.
func RateLimit(l limit.Limiter) Option { return both(middleware.RateLimit(l)) }

// Middleware passes options to the middleware pipeline of models and tools
// directly (attempts per kind, hedging, concurrency limits...).
func Middleware(opts ...middleware.Option) Option { return both(opts...) }

// Observe installs observers: every decision reaches them as a typed event
// (see package observe); package resilientotel turns them into
// OpenTelemetry traces and metrics. Default: none.
func Observe(observers ...observe.Observer) Option {
	return both(middleware.Observe(observers...))
}

// Logger sets the slog logger for every decision; a tool's log lines are
// redacted. Default: discard.
func Logger(l *slog.Logger) Option {
	return Option{
		model: func(c *modelConfig) { c.mw = append(c.mw, middleware.Logger(l)) },
		tool:  func(c *toolConfig) { c.tools = append(c.tools, tools.Logger(l)) },
	}
}

// Timeout bounds each attempt of a non-streaming model call and each tool
// call, even when the client or the tool ignores its context (streams have
// their own timeouts: [FirstChunkTimeout], [StreamIdleTimeout]). Default:
// 2 min for models, 30 s for tools.
func Timeout(d time.Duration) Option {
	return Option{
		model: func(c *modelConfig) { c.mw = append(c.mw, middleware.Timeout(d)) },
		tool:  func(c *toolConfig) { c.tools = append(c.tools, tools.Timeout(d)) },
	}
}

// Name names the model in errors, logs and events, e.g. "primary". Default:
// the provider package of the wrapped client and the model it is
// configured with, when its struct reveals it ("openai/gpt-4o").
func Name(name string) ModelOption { return modelOnly(func(c *modelConfig) { c.name = name }) }

// Fallbacks sets models to try, in order, when the model gives up for a
// reason another model can fix: transient failures, overload or rate limits
// that outlasted the retries, an open circuit, a Retry-After over the cap, a
// model that does not exist, a failure of the account (a key refused, a
// quota used up); with [FallbackOnOverflow], a context overflow. Never when
// the caller canceled. Each is wrapped with the same options and has its
// own circuit breaker; a model bound to tools (WithTools) binds them to its
// fallbacks too, which must then be model.ToolCallingChatModel. Default:
// none.
func Fallbacks(models ...model.BaseChatModel) ModelOption {
	return modelOnly(func(c *modelConfig) {
		for i, m := range models {
			if m == nil {
				c.errorf("Fallbacks: model %d is nil", i)
				continue
			}
			c.fallbacks = append(c.fallbacks, m)
		}
	})
}

// FallbackOnOverflow also falls back when the request overflows the context
// window even after compaction: list a larger-context model among the
// fallbacks. Default: off.
func FallbackOnOverflow() ModelOption {
	return modelOnly(func(c *modelConfig) { c.fallbackOnOverflow = true })
}

// Hedge starts another attempt of a non-streaming call that has not
// answered after delay, up to maxHedges beside the first; the first success
// wins and the others' contexts are canceled. Each hedge spends a retry of
// the run's budget. Streams are never hedged. Default: off.
func Hedge(delay time.Duration, maxHedges int) ModelOption {
	return modelOnly(func(c *modelConfig) { c.mw = append(c.mw, middleware.Hedge(delay, maxHedges)) })
}

// Compaction sets how a request that overflowed the context window is
// shrunk before its one retry. Default: [DropOldest].
func Compaction(cp Compactor) ModelOption {
	return modelOnly(func(c *modelConfig) {
		if cp == nil {
			c.errorf("Compaction(nil): use NoCompaction to disable compaction")
			return
		}
		c.compactor = cp
	})
}

// NoCompaction turns compaction off: a context overflow fails at once.
// Default: compaction on.
func NoCompaction() ModelOption { return modelOnly(func(c *modelConfig) { c.compactor = nil }) }

// StreamTimeout bounds each streaming attempt as a whole. It must be
// positive. Default: none (streams are bounded by [FirstChunkTimeout] and
// [StreamIdleTimeout] instead, so that a long, lively stream is not cut).
func StreamTimeout(d time.Duration) ModelOption {
	return durationOption("StreamTimeout", d, func(c *modelConfig) *time.Duration { return &c.streamTimeout })
}

// FirstChunkTimeout ends a streaming attempt whose first chunk has not
// arrived in time, as a transient failure. It must be positive;
// middleware.Forever means none. Default: 2 min
// (llms.DefaultFirstChunkTimeout, as for langchaingo models).
func FirstChunkTimeout(d time.Duration) ModelOption {
	return durationOption("FirstChunkTimeout", d, func(c *modelConfig) *time.Duration { return &c.firstChunk })
}

// StreamIdleTimeout ends a streaming attempt that delivered no chunk for d,
// as a transient failure. It must be positive; middleware.Forever means
// none. Default: 1 min (llms.DefaultStreamIdleTimeout, as for langchaingo
// models).
func StreamIdleTimeout(d time.Duration) ModelOption {
	return durationOption("StreamIdleTimeout", d, func(c *modelConfig) *time.Duration { return &c.idle })
}

func durationOption(name string, d time.Duration, field func(*modelConfig) *time.Duration) ModelOption {
	return modelOnly(func(c *modelConfig) {
		v, err := bound.Duration(name, d)
		if err != nil {
			c.errorf("%v", err)
			return
		}
		*field(c) = v
	})
}

// OnStreamRestart allows a stream that failed after delivering chunks to be
// retried (or to fall back): hook is called before the new attempt with the
// text delivered so far (its last 64 KiB when longer), so that a UI can
// clear it; the chunks of the new attempt follow on the same reader. If the
// hook returns an error, the call stops with it. Without a hook, such a
// stream ends with a *[PartialStreamError] from Recv: chunks already
// delivered cannot be taken back. Default: no hook.
func OnStreamRestart(hook func(ctx context.Context, partial string) error) ModelOption {
	return modelOnly(func(c *modelConfig) { c.onRestart = hook })
}

// A Check inspects a reply the model returned without error (for a stream,
// its chunks concatenated). A non-nil error turns the attempt into a
// failure, classified like any other (wrap it with taxonomy.WithClass to
// choose its kind). Checks must be safe for concurrent use.
type Check func(*schema.Message) error

// Checks adds response checks of your own, run after the built-in ones (no
// reply, empty reply, cut stream, in-band error, error finish reason).
// Default: none.
func Checks(checks ...Check) ModelOption {
	return modelOnly(func(c *modelConfig) {
		for _, check := range checks {
			if check == nil {
				c.errorf("Checks: nil check")
				continue
			}
			c.checks = append(c.checks, check)
		}
	})
}

// SafeToRetry lets a tool's transient internal failures be retried: for
// read-only and idempotent tools only. Default: off.
func SafeToRetry() ToolOption {
	return toolOnly(func(c *toolConfig) { c.tools = append(c.tools, tools.SafeToRetry()) })
}

// Idempotent makes a mutating tool execute once per input: a repeat returns
// the stored result and says so. A nil store keeps records in the tool's
// own memory; share a store (resilientredis.NewStore) across replicas. The
// tool finds the call's key with [KeyFrom]. Default: off.
func Idempotent(store tools.Store) ToolOption {
	return toolOnly(func(c *toolConfig) { c.tools = append(c.tools, tools.Idempotent(store)) })
}

// ToolOptions passes finer options to package tools (Lease, ResultTTL,
// KeyFunc, Redactor...).
func ToolOptions(opts ...tools.Option) ToolOption {
	return toolOnly(func(c *toolConfig) { c.tools = append(c.tools, opts...) })
}

// KeyFrom returns the idempotency key of the call in ctx, for an
// [Idempotent] tool to pass on to the service it calls (as a Stripe
// Idempotency-Key, say).
func KeyFrom(ctx context.Context) (string, bool) { return tools.KeyFrom(ctx) }

// errNilOption is the problem of a nil option.
var errNilOption = errors.New("resilienteino: nil option")
