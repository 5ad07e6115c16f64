package tools

import (
	"fmt"
	"log/slog"
	"math"
	"time"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
)

// Defaults, as documented on each option.
const (
	DefaultTimeout   = 30 * time.Second                    // each call of the tool: Timeout
	DefaultLease     = 2 * time.Minute                     // an idempotent call's hold on its key: Lease
	DefaultResultTTL = 24 * time.Hour                      // an idempotent call's stored result: ResultTTL
	DefaultMaxClaim  = 4 * (DefaultLease + DefaultTimeout) // 10 min: an idempotent call's longest hold on its key with the default Lease and Timeout: MaxClaim

	// A tool's breaker opens sooner than a model's (each failed tool call
	// costs the run a model step): middleware.CircuitBreaker, given with
	// Middleware, sets another.
	DefaultBreakerFailures = 5
	DefaultBreakerDelay    = 30 * time.Second
)

// An Option configures a wrapped [Tool].
// Options follow the rule of every option of the library, stated on
// [github.com/resilientgo/resilient.Option].
type Option func(*config)

type config struct {
	safeToRetry bool                            // Default: false, exactly one attempt
	middleware  []middleware.Option             // Default: none (the pipeline's own defaults)
	idempotent  bool                            // Default: false
	store       Store                           // Default: a MemoryStore of the tool's own
	keyFunc     func(name, input string) string // Default: DefaultKey
	customKey   bool                            // keyFunc was given
	lease       time.Duration                   // Default: 2 min (DefaultLease)
	resultTTL   time.Duration                   // Default: 24 h (DefaultResultTTL)
	maxClaim    time.Duration                   // Default: 4 × (lease + timeout), 10 min with theirs (DefaultMaxClaim)
	logger      *slog.Logger                    // Default: discard
	redact      func(string) string             // Default: Redact
	errs        []error
}

func defaultConfig() config {
	// lease and resultTTL stay 0 until given, so that build can tell
	// whether they were given without Idempotent.
	return config{keyFunc: DefaultKey, redact: Redact}
}

func (c *config) errorf(format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf(format, args...))
}

// Timeout bounds each call of the wrapped tool (each attempt, when retried)
// with its own child context. A call that runs out of time is an internal
// failure. It must be positive; middleware.Forever means no bound but
// the caller's context. It is middleware.Timeout in its place among the
// options given to [Middleware]: the later of the two wins. Default: 30 s
// ([DefaultTimeout]).
func Timeout(d time.Duration) Option { return Middleware(middleware.Timeout(d)) }

// SafeToRetry marks the tool as safe to call again after an internal
// failure: read-only tools, and tools that are idempotent by themselves.
// Only then are transient internal failures retried, as the middleware
// pipeline decides (3 attempts with full-jitter backoff by default; tune it
// with [Middleware]). ToolErrors, fatal errors and panics are never
// retried. Default: off, exactly one attempt per call, because a retried
// write is how customers get charged twice.
func SafeToRetry() Option { return func(c *config) { c.safeToRetry = true } }

// Middleware passes options to the tool's middleware pipeline, in order
// with [Timeout] (the later wins). Its retry options take
// effect only with [SafeToRetry], and its logger is replaced by the one of
// [Logger], which redacts; observers installed with middleware.Observe see
// the tool's events too. Default: the pipeline's defaults.
func Middleware(opts ...middleware.Option) Option {
	return func(c *config) { c.middleware = append(c.middleware, opts...) }
}

// Idempotent makes a mutating tool execute at most once per key (see
// [KeyFunc]): the key is claimed in store before the call, a repeat returns
// the stored result ("already done: <result>"), concurrent identical calls
// wait for the one in flight, a failed call releases the key. A nil store
// gives the tool a [MemoryStore] of its own; share one store among every
// wrapper of the same tool, and use a shared store (such as Redis) when
// several processes run the tool. Default: not idempotent.
func Idempotent(store Store) Option {
	return func(c *config) {
		if m, ok := store.(*MemoryStore); ok && m != nil && m.Err() != nil {
			c.errorf("Idempotent: %v", m.Err())
			return
		}
		c.idempotent = true
		c.store = store
	}
}

// KeyFunc sets how a call's key is derived from the tool's name and input.
// The key decides which calls are "the same" for [Idempotent] and for the
// run's repeat limit (run.RepeatLimit). Default: [DefaultKey], the name and
// the SHA-256 of the input with JSON canonicalized, for an Idempotent tool;
// a tool that is neither Idempotent nor given a KeyFunc computes no key, and
// its repeat limit counts identical inputs.
func KeyFunc(f func(name, input string) string) Option {
	return func(c *config) {
		if f == nil {
			c.errorf("KeyFunc(nil)")
			return
		}
		c.keyFunc, c.customKey = f, true
	}
}

// Lease sets how long an idempotent call's claim on its key lasts without
// renewal: the wrapper renews it every third of the lease while the tool
// runs, so a crashed holder blocks the key for at most this long, and a
// running tool keeps it (for at most [MaxClaim]). The caller's context is
// bounded by the lease too.
// It needs [Idempotent]. Default: 2 min ([DefaultLease]).
func Lease(d time.Duration) Option {
	return positive("Lease", d, func(c *config) { c.lease = d })
}

// MaxClaim sets the longest an idempotent call holds its key while its
// tool runs (from the claim, renewals included). A tool still running then
// is taken as hung: the wrapper stops renewing the claim and marks the
// key's record as of unknown outcome, kept for the [ResultTTL], and a call
// with the same key meanwhile, from this process or another sharing the
// store, ends the run at once with a FatalToolError matching
// [ErrOutcomeUnknown] ("the same call is still running after 10m0s;
// outcome unknown") instead of waiting or running the tool again: whether
// the action took place is for a person, or the service called (see
// [KeyFrom]), to tell. If the tool returns at last, its result is stored
// (or, after a failure, the key released) as usual.
//
// d must be longer than the Lease plus the Timeout: a tool that honours
// its context has returned by then, since the call's context is bounded by
// the lease and each attempt by the timeout. The default leaves a tool
// that ignores its context but still makes progress (a client with a
// timeout of its own of a few minutes) three times that long again, and a
// hung call no longer makes every retry of its input wait for its own
// deadline. It needs [Idempotent]. Default: four times the Lease plus the
// Timeout, 10 min ([DefaultMaxClaim]) with the default Lease (2 min,
// [DefaultLease]) and Timeout (30 s, [DefaultTimeout]).
func MaxClaim(d time.Duration) Option {
	return positive("MaxClaim", d, func(c *config) { c.maxClaim = d })
}

// ResultTTL sets how long the result of an idempotent call is kept for
// repeats. It needs [Idempotent]. Default: 24 h ([DefaultResultTTL]).
func ResultTTL(d time.Duration) Option {
	return positive("ResultTTL", d, func(c *config) { c.resultTTL = d })
}

// positive returns an option that applies set when d is positive and
// reports the option called name otherwise.
func positive(name string, d time.Duration, set func(*config)) Option {
	return func(c *config) {
		if d <= 0 {
			c.errorf("%s(%v): must be positive", name, d)
			return
		}
		set(c)
	}
}

// Logger sets the logger for the tool's events and its pipeline's (the
// lines and keys of observe.Log). Every text attribute and error is
// passed through the [Redactor] first. A nil logger discards.
// Default: discard.
func Logger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// Fail makes [New] report err, as if an option had been invalid: for
// constructors that check options of their own before they call New
// (resilient.Tool) and want the Tool New returns to report their error.
func Fail(err error) Option {
	return func(c *config) {
		if err != nil {
			c.errs = append(c.errs, err)
		}
	}
}

// Redactor sets the function that removes secrets from logged text and
// from the text of a [taxonomy.ToolError], which the model reads.
// Default: [Redact], which removes credentials of the common shapes. Pass
// a stricter function to remove secrets of your own shapes too (call
// Redact in it); func(s string) string { return s } logs and shows the
// model everything verbatim.
func Redactor(f func(string) string) Option {
	return func(c *config) {
		if f == nil {
			c.errorf("Redactor(nil)")
			return
		}
		c.redact = f
	}
}

// build applies opts and checks what no single option can.
func build(opts []Option) config {
	c := defaultConfig()
	for _, o := range opts {
		if o == nil {
			c.errorf("nil option")
			continue
		}
		o(&c)
	}
	if !c.idempotent && c.lease != 0 {
		c.errorf("Lease needs Idempotent")
	}
	if !c.idempotent && c.resultTTL != 0 {
		c.errorf("ResultTTL needs Idempotent")
	}
	if !c.idempotent && c.maxClaim != 0 {
		c.errorf("MaxClaim needs Idempotent")
	}
	if c.lease == 0 {
		c.lease = DefaultLease
	}
	if c.resultTTL == 0 {
		c.resultTTL = DefaultResultTTL
	}
	if c.idempotent && c.store == nil {
		c.store = NewMemoryStore()
	}
	return c
}

// boundClaim sets the longest an idempotent call holds its key, once the
// attempt timeout is known (0: none), and checks the one given.
func (c *config) boundClaim(timeout time.Duration) {
	bound := c.lease + timeout
	if bound < c.lease {
		bound = math.MaxInt64 // saturated
	}
	switch {
	case c.maxClaim == 0 && bound > math.MaxInt64/4:
		c.maxClaim = math.MaxInt64
	case c.maxClaim == 0:
		c.maxClaim = 4 * bound
	case c.maxClaim <= bound:
		c.errorf("MaxClaim(%v): must be longer than the Lease plus the Timeout (%v), or a call that honours its context is marked unknown", c.maxClaim, bound)
	}
}

// pipelineOptions returns the options of the tool's pipeline: what it
// protects, the timeout, the user's options, one attempt unless the tool is
// safe to retry, and the redacting logger last so that nothing logs around
// it.
func (c *config) pipelineOptions(logger *slog.Logger, target observe.Target) []middleware.Option {
	opts := make([]middleware.Option, 0, len(c.middleware)+10)
	opts = append(opts, middleware.Describe(target), middleware.Timeout(DefaultTimeout),
		middleware.CircuitBreaker(DefaultBreakerFailures, DefaultBreakerDelay))
	opts = append(opts, c.middleware...)
	if !c.safeToRetry {
		opts = append(opts, middleware.SingleAttempt())
	}
	if c.logger == nil {
		return opts // nothing to log to: no observer, so no event is built
	}
	return append(opts, middleware.Logger(logger))
}
