package llms

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/middleware"
)

// Defaults, as documented on each option. The attempt timeout's default is
// the pipeline's, [middleware.DefaultTimeout].
const (
	DefaultFirstChunkTimeout = 2 * time.Minute
	DefaultStreamIdleTimeout = time.Minute
)

// An Option configures a [Model]. Options are applied in order; a later one
// overrides an earlier one.
type Option func(*config)

type config struct {
	name               string
	mw                 []middleware.Option
	logger             *slog.Logger
	fallbacks          []lcllms.Model
	fallbackOnOverflow bool
	compactor          Compactor
	attemptTimeout     time.Duration
	streamTimeout      time.Duration
	firstChunk         time.Duration
	idle               time.Duration
	onRestart          func(ctx context.Context, partial string) error
	checks             []ResponseCheck
	tokenLimiter       middleware.Limiter
	errs               []error
}

func defaultConfig() config {
	return config{
		compactor:      DropOldest(),
		attemptTimeout: middleware.DefaultTimeout,
		firstChunk:     DefaultFirstChunkTimeout,
		idle:           DefaultStreamIdleTimeout,
	}
}

func (c *config) errorf(format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf("llms: "+format, args...))
}

// Name names the model in errors and logs, e.g. "openai/gpt-4o".
// Default: the provider package of the wrapped model ("openai").
func Name(name string) Option { return func(c *config) { c.name = name } }

// Middleware passes options to the model's [middleware.Pipeline]:
// attempts, backoff, Retry-After cap, breaker, classifier... Default: the
// middleware defaults (3 attempts, 0.5 s to 8 s full jitter, Retry-After cap
// 60 s, a breaker that opens after 10 failures for 10 s).
func Middleware(opts ...middleware.Option) Option {
	return func(c *config) { c.mw = append(c.mw, opts...) }
}

// Logger sets the logger for every event of the model, its pipeline and
// its fallbacks. Nil discards. Default: discard.
func Logger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// Fallbacks sets models to try, in order, when this one gives up for a
// reason another model can fix: transient failures, overload or rate limits
// that outlasted the retries, an open circuit, throttled retries, a
// Retry-After over the cap, a client-side rate limit, a model that does not
// exist; with [FallbackOnOverflow], a context overflow.
// Never when the caller canceled. Each fallback is wrapped with the same
// options as the primary and has its own circuit breaker. Default: none.
func Fallbacks(models ...lcllms.Model) Option {
	return func(c *config) {
		for i, m := range models {
			if m == nil {
				c.errorf("Fallbacks: model %d is nil", i)
				continue
			}
			c.fallbacks = append(c.fallbacks, m)
		}
	}
}

// FallbackOnOverflow also falls back when the request overflows the
// context window even after compaction: list a larger-context model among
// the fallbacks. Default: off.
func FallbackOnOverflow() Option { return func(c *config) { c.fallbackOnOverflow = true } }

// Compaction sets how a request that overflowed the context window is
// shrunk before its one retry. Default: [DropOldest].
func Compaction(cp Compactor) Option {
	return func(c *config) {
		if cp == nil {
			c.errorf("Compaction(nil): use NoCompaction to disable compaction")
			return
		}
		c.compactor = cp
	}
}

// NoCompaction turns compaction off: a context overflow fails at once.
// Default: compaction on.
func NoCompaction() Option { return func(c *config) { c.compactor = nil } }

// Timeout bounds each non-streaming attempt: the attempt returns when it
// passes, as a transient failure, even if the provider client ignores its
// context. 0 disables it. Default: 2 minutes ([middleware.DefaultTimeout];
// raise it for long non-streaming generations).
func Timeout(d time.Duration) Option {
	return timeoutOption("Timeout", d, func(c *config) *time.Duration { return &c.attemptTimeout })
}

// StreamTimeout bounds each streaming attempt as a whole. Streams are
// guarded by [FirstChunkTimeout] and [StreamIdleTimeout] instead, so that a
// long but lively generation is not cut. 0 disables it. Default: 0.
func StreamTimeout(d time.Duration) Option {
	return timeoutOption("StreamTimeout", d, func(c *config) *time.Duration { return &c.streamTimeout })
}

// FirstChunkTimeout ends a streaming attempt whose first chunk has not
// arrived in time, as a transient failure. 0 disables it. Default: 2 minutes
// (reasoning models may think for a while before their first token).
func FirstChunkTimeout(d time.Duration) Option {
	return timeoutOption("FirstChunkTimeout", d, func(c *config) *time.Duration { return &c.firstChunk })
}

// StreamIdleTimeout ends a streaming attempt that delivered no chunk for d,
// as a transient failure: streams that hang forever are a top complaint.
// 0 disables it. Default: 1 minute.
func StreamIdleTimeout(d time.Duration) Option {
	return timeoutOption("StreamIdleTimeout", d, func(c *config) *time.Duration { return &c.idle })
}

// OnStreamRestart allows a streamed call that failed after delivering chunks
// to be retried (or to fall back): hook is called before the new attempt
// with the text delivered so far (its last 64 KiB when it is longer: see
// [PartialStreamError]), so that a UI can clear it. If the hook
// returns an error, the call stops with that error. Without a hook, such a
// call fails with a *[PartialStreamError] carrying the partial text: chunks
// already delivered cannot be taken back, and a second generation is not
// the same text. Default: no hook.
func OnStreamRestart(hook func(ctx context.Context, partial string) error) Option {
	return func(c *config) { c.onRestart = hook }
}

// Check adds a response check of your own, run after the built-in ones
// (no choices, empty response, truncated stream, in-band error, error stop
// reason). Default: none.
func Check(check ResponseCheck) Option {
	return func(c *config) {
		if check == nil {
			c.errorf("Check(nil)")
			return
		}
		c.checks = append(c.checks, check)
	}
}

// Hedge enables hedging for non-streaming calls: if an attempt has not
// answered after delay, another starts, up to maxHedges beside the first;
// the first success wins and the others' contexts are canceled. Each hedge
// spends one retry from the run's budget. Hedging multiplies token cost for
// the calls it fires on: use a delay near your p95 latency and maxHedges 1.
// Streaming calls are never hedged. Default: off.
func Hedge(delay time.Duration, maxHedges int) Option {
	return Middleware(middleware.Hedge(delay, maxHedges))
}

// Fail makes [New] report err, as if an option had been invalid: for
// constructors that check options of their own before they call New
// (resilient.Model) and want the model New returns to report their error.
func Fail(err error) Option {
	return func(c *config) {
		if err != nil {
			c.errs = append(c.errs, err)
		}
	}
}

// timeoutOption sets the duration field picks, refusing a negative d.
func timeoutOption(name string, d time.Duration, field func(*config) *time.Duration) Option {
	return func(c *config) {
		if d < 0 {
			c.errorf("%s(%v): must not be negative", name, d)
			return
		}
		*field(c) = d
	}
}

// TokenLimit makes every attempt acquire from l as many units as the
// request's estimated prompt tokens (a quarter of its characters) before it
// is sent: a tokens-per-minute limit, in process (middleware.LocalLimiter)
// or shared by replicas (resilientredis.NewLimiter with its Tokens option).
// A refusal ends the call, classified rate_limited. For requests per minute,
// use middleware.RateLimit. Default: none.
func TokenLimit(l middleware.Limiter) Option {
	return func(c *config) {
		if l == nil {
			c.errorf("TokenLimit(nil)")
			return
		}
		c.tokenLimiter = l
	}
}
