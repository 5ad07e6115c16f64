package llms

import (
	"context"
	"fmt"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/internal/bound"
	"github.com/resilientgo/resilient/internal/streamguard"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/middleware"
)

// Defaults, as documented on each option. The attempt timeout of a
// non-streaming call is the pipeline's ([middleware.Timeout], given with
// [Middleware]; default [middleware.DefaultTimeout]).
const (
	DefaultFirstChunkTimeout = streamguard.DefaultFirstChunk
	DefaultStreamIdleTimeout = streamguard.DefaultIdle
)

// An Option configures a [Model] or an [Embedder]. Options about chat
// (fallbacks, compaction, streams, response checks) say so: given to
// [NewEmbedder], they make it report an error.
// Options follow the rule of every option of the library, stated on
// [github.com/resilientgo/resilient.Option].
type Option func(*config)

type config struct {
	name               string
	mw                 []middleware.Option
	fallbacks          []lcllms.Model
	fallbackOnOverflow bool
	compactor          Compactor
	streamTimeout      time.Duration
	firstChunk         time.Duration
	idle               time.Duration
	onRestart          func(ctx context.Context, partial string) error
	checks             []ResponseCheck
	tokenLimiter       limit.Limiter
	shared             *Model   // ShareLimits: draw on this model's breaker and limiters
	chatOnly           []string // options given that apply to models only
	errs               []error
}

func defaultConfig() config {
	return config{
		compactor:  DropOldest(),
		firstChunk: DefaultFirstChunkTimeout,
		idle:       DefaultStreamIdleTimeout,
	}
}

func (c *config) errorf(format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf("llms: "+format, args...))
}

// configure applies opts to the defaults.
func configure(opts []Option) config {
	cfg := defaultConfig()
	for _, o := range opts {
		if o == nil {
			cfg.errorf("nil option")
			continue
		}
		o(&cfg)
	}
	return cfg
}

// chatOnly marks o as an option of models only: [NewEmbedder] reports it.
func chatOnly(name string, o Option) Option {
	return func(c *config) {
		c.chatOnly = append(c.chatOnly, name)
		o(c)
	}
}

// Name names the model or embedder in errors and logs, e.g.
// "openai/gpt-4o". Default: the provider package of the wrapped client and
// the model it is configured with, when its struct reveals it
// ("openai/gpt-4o"; an embedder "openai/text-embedding-3-small", or
// "openai/embeddings").
func Name(name string) Option { return func(c *config) { c.name = name } }

// Middleware passes options to the model's [middleware.Pipeline]:
// attempts, backoff, Retry-After cap, breaker, classifier... Default: the
// middleware defaults, as package middleware documents them.
func Middleware(opts ...middleware.Option) Option {
	return func(c *config) { c.mw = append(c.mw, opts...) }
}

// Fallbacks sets models to try, in order, when this one gives up for a
// reason another model can fix: transient failures, overload or rate limits
// that outlasted the retries, an open circuit, throttled retries, a
// Retry-After over the cap, a client-side rate limit, a model that does not
// exist, a failure of the account or deployment (a key refused, a quota or
// credits used up: taxonomy.Class.AccountFailure); with
// [FallbackOnOverflow], a context overflow.
// Never when the caller canceled. Each fallback is wrapped with the same
// options as the primary and has its own circuit breaker. Models only (the
// vectors of another embedding model do not compare with the first's).
// Default: none.
func Fallbacks(models ...lcllms.Model) Option {
	return chatOnly("Fallbacks", func(c *config) {
		for i, m := range models {
			if m == nil {
				c.errorf("Fallbacks: model %d is nil", i)
				continue
			}
			c.fallbacks = append(c.fallbacks, m)
		}
	})
}

// FallbackOnOverflow also falls back when the request overflows the
// context window even after compaction: list a larger-context model among
// the fallbacks. Models only. Default: off.
func FallbackOnOverflow() Option {
	return chatOnly("FallbackOnOverflow", func(c *config) { c.fallbackOnOverflow = true })
}

// Compaction sets how a request that overflowed the context window is
// shrunk before its one retry. Models only (an embedder splits a batch
// that is too large instead). Default: [DropOldest].
func Compaction(cp Compactor) Option {
	return chatOnly("Compaction", func(c *config) {
		if cp == nil {
			c.errorf("Compaction(nil): use NoCompaction to disable compaction")
			return
		}
		c.compactor = cp
	})
}

// NoCompaction turns compaction off: a context overflow fails at once.
// Models only. Default: compaction on.
func NoCompaction() Option { return chatOnly("NoCompaction", func(c *config) { c.compactor = nil }) }

// StreamTimeout bounds each streaming attempt as a whole. Streams are
// guarded by [FirstChunkTimeout] and [StreamIdleTimeout] instead, so that a
// long but lively generation is not cut. It must be positive. Models
// only. Default: none.
func StreamTimeout(d time.Duration) Option {
	return chatOnly("StreamTimeout", timeoutOption("StreamTimeout", d, func(c *config) *time.Duration { return &c.streamTimeout }))
}

// FirstChunkTimeout ends a streaming attempt whose first chunk has not
// arrived in time, as a transient failure. It must be positive;
// middleware.Forever means none. Default: 2 minutes
// ([DefaultFirstChunkTimeout]; reasoning models may think for a while
// before their first token).
// Models only.
func FirstChunkTimeout(d time.Duration) Option {
	return chatOnly("FirstChunkTimeout", timeoutOption("FirstChunkTimeout", d, func(c *config) *time.Duration { return &c.firstChunk }))
}

// StreamIdleTimeout ends a streaming attempt that delivered no chunk for d,
// as a transient failure: streams that hang forever are a top complaint.
// It must be positive; middleware.Forever means none. Models only.
// Default: 1 minute ([DefaultStreamIdleTimeout]).
func StreamIdleTimeout(d time.Duration) Option {
	return chatOnly("StreamIdleTimeout", timeoutOption("StreamIdleTimeout", d, func(c *config) *time.Duration { return &c.idle }))
}

// OnStreamRestart allows a streamed call that failed after delivering chunks
// to be retried (or to fall back): hook is called before the new attempt
// with the text delivered so far (its last 64 KiB when it is longer: see
// [PartialStreamError]), so that a UI can clear it. If the hook
// returns an error, the call stops with that error. Without a hook, such a
// call fails with a *[PartialStreamError] carrying the partial text: chunks
// already delivered cannot be taken back, and a second generation is not
// the same text. Models only. Default: no hook.
func OnStreamRestart(hook func(ctx context.Context, partial string) error) Option {
	return chatOnly("OnStreamRestart", func(c *config) { c.onRestart = hook })
}

// Check adds a response check of your own, run after the built-in ones
// (no choices, empty response, truncated stream, in-band error, error stop
// reason). Models only (an embedder checks its vectors itself). Default:
// none.
func Check(check ResponseCheck) Option {
	return chatOnly("Check", func(c *config) {
		if check == nil {
			c.errorf("Check(nil)")
			return
		}
		c.checks = append(c.checks, check)
	})
}

// timeoutOption sets the duration field picks to d, refusing a d that is
// not positive and keeping middleware.Forever as 0, none.
func timeoutOption(name string, d time.Duration, field func(*config) *time.Duration) Option {
	return func(c *config) {
		v, err := bound.Duration(name, d)
		if err != nil {
			c.errorf("%v", err)
			return
		}
		*field(c) = v
	}
}

// TokenLimit makes every attempt acquire from l as many units as the
// request's estimated prompt tokens (a quarter of the bytes of its text; of
// an embedder, of the batch's texts) before it is sent: a tokens-per-minute
// limit, in process (limit.LocalLimiter) or shared by replicas
// (resilientredis.NewLimiter with its Tokens option). When l is a
// limit.Settler, a model's acquisition is corrected after the response
// to the tokens the provider reported, input and output together (an
// embedder's is not: its clients report none). A refusal ends the call,
// classified rate_limited. For requests per minute, use
// middleware.RateLimit. Default: none.
func TokenLimit(l limit.Limiter) Option {
	return func(c *config) {
		if l == nil {
			c.errorf("TokenLimit(nil)")
			return
		}
		c.tokenLimiter = l
	}
}

// ShareLimits makes the model or embedder being built draw on m's circuit
// breaker, rate limiter ([middleware.RateLimit]), token limiter
// ([TokenLimit]) and concurrency limit ([middleware.MaxConcurrent],
// [middleware.ConcurrencyLimit]) in place of its own: for a chat model and
// an embedder (or two models) of one provider account or deployment, which
// draw on one quota and one cap on requests in flight. A failure of either
// then counts toward the one breaker, whose open circuit stops both, their
// requests share the limits, and their attempts take slots of the one
// semaphore (a deployment capped at 8 requests in flight gets at most 8
// from both, not 8 each). Each keeps its own wait for a slot when its own
// options set a concurrency limit, else waits as long as m's callers do.
// What m has replaces what other options set; what m lacks (no limiter,
// say) stays as they set it. m's fallbacks are not shared, and fallbacks of
// the model being built keep limits of their own. When m is a pool
// ([NewPool]), the limits shared are the pool's, those given to it as a
// whole (it has no breaker of its own); each member's own limits stay the
// member's. A pool being built cannot share another's limits. Default:
// nothing shared.
func ShareLimits(m *Model) Option {
	return func(c *config) {
		switch {
		case m == nil:
			c.errorf("ShareLimits(nil)")
		case m.err != nil:
			c.errorf("ShareLimits: the model is invalid: %v", m.err)
		default:
			c.shared = m
		}
	}
}

// sharedLimits returns the pipeline options that put the breaker, the rate
// limiter and the concurrency limit of the model given to [ShareLimits] in
// place of the target's own. They go after the caller's options, which they
// override, but for the wait for a slot when those set one.
func (c *config) sharedLimits() []middleware.Option {
	if c.shared == nil {
		return nil
	}
	var opts []middleware.Option
	if b := c.shared.Breaker(); b != nil {
		opts = append(opts, middleware.UseBreaker(b))
	}
	if l := c.shared.pipe.Limiter(); l != nil {
		opts = append(opts, middleware.RateLimit(l))
	}
	if sem, wait := c.shared.pipe.Concurrency(); sem != nil {
		if own, ok := middleware.ConcurrencyWait(c.mw...); ok {
			wait = own
		}
		opts = append(opts, middleware.ConcurrencyLimit(sem, wait))
	}
	return opts
}

// tokenLimit returns the token limiter attempts acquire from: the shared
// model's when it has one, else the target's own (nil: none).
func (c *config) tokenLimit() limit.Limiter {
	if c.shared != nil && c.shared.cfg.tokenLimiter != nil {
		return c.shared.cfg.tokenLimiter
	}
	return c.tokenLimiter
}
