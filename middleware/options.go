package middleware

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/failsafe-go/failsafe-go"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/internal/bound"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/pool"
	"github.com/resilientgo/resilient/taxonomy"
)

// Defaults, as documented on each option: three attempts (five for rate
// limits, two for failures nobody understands), exponential backoff from
// 0.5 s capped at 8 s with full jitter (the wait before retry n is uniform
// in [0, min(0.5 s * 2^(n-1), 8 s))), Retry-After honoured up to a minute.
const (
	DefaultMaxAttempts = 3
	// DefaultRateLimitedAttempts and DefaultUnknownAttempts are the attempts
	// of rate_limited and unknown failures unless MaxAttempts or
	// KindAttempts says otherwise: a rate limit ends by itself, an unknown
	// failure may never.
	DefaultRateLimitedAttempts = 5
	DefaultUnknownAttempts     = 2
	DefaultBaseDelay           = 500 * time.Millisecond
	DefaultMaxDelay            = 8 * time.Second
	DefaultRetryAfterCap       = 60 * time.Second
	DefaultTimeout             = 2 * time.Minute
	// DefaultPastLimitAttempts is how many attempts past its per-kind limit
	// a call made inside a run may take, paid from the run's unspent retry
	// budget (see [PastLimitAttempts]).
	DefaultPastLimitAttempts = 2
	// DefaultMaxAbandoned is how many abandoned attempts of one pipeline
	// may still be running before it refuses new attempts (see
	// [MaxAbandoned]).
	DefaultMaxAbandoned = 256
)

// An Option configures a [Pipeline]. Options follow the rule of every
// option of the library, stated on [github.com/resilientgo/resilient.Option]:
// a later option overrides an earlier one that sets the same thing
// ([NoBreaker] then [CircuitBreaker]: a breaker; [SingleAttempt] then
// [MaxAttempts](3): three attempts); 0 allows none ([MaxAbandoned](0),
// [MaxConcurrent](n, 0): no wait) or is refused where none cannot work (an
// attempt count, a timeout, a breaker's threshold); a negative number is
// refused; [Forever] is no time bound. An invalid value makes [New] fail
// with an error naming the option.
type Option func(*config)

// Forever is the duration that never passes: a timeout of Forever is no
// timeout at all (Timeout(Forever), MaxDuration(Forever), and the timeouts
// of packages llms, tools, resilienthttp and resilienteino).
const Forever = bound.Forever

// hedging is what [Hedge] set: a pointer in config, so that "no hedging" is
// nil rather than a zero delay to compare.
type hedging struct {
	delay time.Duration
	max   int
}

type config struct {
	maxAttempts    int
	pastLimit      int            // PastLimitAttempts
	noRetries      bool           // SingleAttempt, for the kinds not in kindLater
	kindLater      [numKinds]bool // set with KindAttempts after SingleAttempt
	kindAttempts   [numKinds]int  // 0 = use maxAttempts
	kindExplicit   [numKinds]bool // set with KindAttempts
	baseDelay      time.Duration
	maxDelay       time.Duration
	noJitter       bool
	retryAfterCap  time.Duration
	attemptTimeout time.Duration
	maxDuration    time.Duration
	breaker        *breaker.Breaker
	breakerOff     bool
	breakerThresh  int
	breakerDelay   time.Duration
	maxHold        time.Duration
	classifier     taxonomy.Classifier
	logger         *slog.Logger
	observers      []observe.Observer
	target         observe.Target
	hedge          *hedging // nil: DoHedged is Do
	policies       []any    // failsafe.Policy[R], checked by New
	limiter        limit.Limiter
	concurrency    int             // MaxConcurrent: slots of a bulkhead of the pipeline's own
	semaphore      limit.Semaphore // ConcurrencyLimit: a semaphore of the caller's
	semWait        time.Duration
	maxAbandoned   int
	waitWhileOpen  bool
	noThrottle     bool
	members        []Member   // Members: the pipeline is a pool
	pool           *pool.Pool // UsePool
	picker         pool.Picker
	noStickyRuns   bool
	weight         int // Weight: a member's; 0 until given
	gates          int // options applied that a member of a pool takes
	errs           []error
}

// numKinds sizes per-kind tables: one slot per taxonomy.Kind.
const numKinds = int(taxonomy.Programming) + 1

func defaultConfig() config {
	c := config{
		maxAttempts:    DefaultMaxAttempts,
		pastLimit:      DefaultPastLimitAttempts,
		baseDelay:      DefaultBaseDelay,
		maxDelay:       DefaultMaxDelay,
		retryAfterCap:  DefaultRetryAfterCap,
		attemptTimeout: DefaultTimeout,
		breakerThresh:  breaker.DefaultFailures,
		breakerDelay:   breaker.DefaultDelay,
		maxHold:        breaker.DefaultMaxHold,
		classifier:     taxonomy.Default,
		maxAbandoned:   DefaultMaxAbandoned,
	}
	c.kindAttempts[taxonomy.RateLimited] = DefaultRateLimitedAttempts
	c.kindAttempts[taxonomy.Unknown] = DefaultUnknownAttempts
	// A context overflow is never retried blindly; a caller that compacts the
	// request raises this to 2 (see llms).
	c.kindAttempts[taxonomy.ContextOverflow] = 1
	return c
}

func (c *config) errorf(format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf("middleware: "+format, args...))
}

// MaxAttempts sets how many calls a failure of a retryable kind may take in
// all, the first included: 3 attempts are 1 call and 2 retries. Given
// explicitly, it applies to every retryable kind, replacing the per-kind
// defaults but not limits set with [KindAttempts]; MaxAttempts(1) turns
// retries off. Default: 3 attempts ([DefaultMaxAttempts]), with rate limits
// allowed 5 ([DefaultRateLimitedAttempts]) and unknown failures 2
// ([DefaultUnknownAttempts]). It must be at least 1.
func MaxAttempts(n int) Option {
	return func(c *config) {
		if n < 1 {
			c.errorf("MaxAttempts(%d): must be at least 1", n)
			return
		}
		c.maxAttempts, c.noRetries = n, false // it overrides an earlier SingleAttempt
		// An explicit count replaces the per-kind defaults (not limits set
		// with KindAttempts): MaxAttempts(1) means no retry at all.
		for k, explicit := range c.kindExplicit {
			if !explicit && taxonomy.Kind(k) != taxonomy.ContextOverflow {
				c.kindAttempts[k] = 0
			}
		}
	}
}

// SingleAttempt makes every call a single attempt, whatever MaxAttempts
// and KindAttempts said before it: for targets whose repetition is unsafe
// (package tools gives it last, after the caller's options, for tools not
// marked safe to retry). A later MaxAttempts overrides it, and a later
// KindAttempts for its kind. Default: retries on.
func SingleAttempt() Option {
	return func(c *config) { c.noRetries, c.kindLater = true, [numKinds]bool{} }
}

// attemptsFor returns how many attempts in all a call may make when its
// latest failure is of kind k.
func (c *config) attemptsFor(k taxonomy.Kind) int {
	if c.noRetries && (int(k) >= len(c.kindLater) || !c.kindLater[k]) {
		return 1
	}
	if n := c.kindAttempts[k]; n != 0 {
		return n
	}
	return c.maxAttempts
}

// KindAttempts sets how many attempts in all a call may take when its latest
// failure is of kind k. The count includes the first attempt and attempts
// that failed for other kinds. Defaults: rate_limited 5
// ([DefaultRateLimitedAttempts]), unknown 2 ([DefaultUnknownAttempts]),
// context_overflow a single attempt (never retried unless the caller
// repairs the request between attempts, as llms does by compacting); other
// retryable kinds use [MaxAttempts]. For context_overflow the count is of overflows only, since
// each retry follows a repair. Permanent, canceled and programming failures
// are never retried, whatever this says.
func KindAttempts(k taxonomy.Kind, n int) Option {
	return func(c *config) {
		if int(k) >= len(c.kindAttempts) {
			c.errorf("KindAttempts(%v): no such kind", k)
		} else if n < 1 {
			c.errorf("KindAttempts(%v, %d): must be at least 1", k, n)
		} else {
			c.kindAttempts[k], c.kindExplicit[k] = n, true
			c.kindLater[k] = c.noRetries // it overrides an earlier SingleAttempt for k
		}
	}
}

// PastLimitAttempts sets how many attempts past its per-kind limit (see
// [MaxAttempts], [KindAttempts]) a call made inside a run ([run.New]) may
// take when its latest failure is transient, overloaded or rate limited:
// a run whose retry budget has room left spends it on the call that needs
// it instead of failing the run. Each such attempt is a retry paid from
// the run's budget ([run.Run.TryRetryPastLimit], counted in
// [run.Usage].PastLimit), and is taken only while the target's circuit
// breaker is closed and its retry throttle allows retries, so a sustained
// outage gets no more requests than without it: the breaker opens and the
// throttle empties on the same failures. Not for a call without a run, a
// pipeline without a breaker ([NoBreaker]), a pool (whose retries go to
// other members), a kind whose limit is a single attempt ([SingleAttempt],
// MaxAttempts(1)), unknown failures or context overflows. Such an attempt
// is marked in the final error ([Attempt].PastLimit) and in its
// [observe.RetryScheduled] event. n = 0 allows none. It must not be
// negative. Default: 2 ([DefaultPastLimitAttempts]).
func PastLimitAttempts(n int) Option {
	return nonNegative("PastLimitAttempts", n, func(c *config) *int { return &c.pastLimit })
}

// Backoff sets the exponential backoff: the wait before retry n is drawn
// uniformly from [0, min(base*2^(n-1), max)) ("full jitter"), unless the
// provider said how long to wait. Default: base 0.5 s ([DefaultBaseDelay]),
// max 8 s ([DefaultMaxDelay]).
func Backoff(base, max time.Duration) Option {
	return func(c *config) {
		if base <= 0 || max < base {
			c.errorf("Backoff(%v, %v): need 0 < base <= max", base, max)
			return
		}
		c.baseDelay, c.maxDelay = base, max
	}
}

// NoJitter makes the backoff wait the full ceiling instead of a uniform draw
// below it, and a wait the provider asked for end without the jitter after
// it (see [HintJitterDivisor]). It exists to demonstrate thundering herds;
// do not use it in production. Default: full jitter.
func NoJitter() Option { return func(c *config) { c.noJitter = true } }

// RetryAfterCap sets the longest Retry-After the pipeline will sleep on. A
// longer one is not slept on: the call fails at once with
// [observe.ReasonRetryAfterOverCap] and the circuit breaker is held open for the
// period the provider asked for, up to [MaxHold], so other callers fail fast
// too. Default: 60 s ([DefaultRetryAfterCap]).
func RetryAfterCap(d time.Duration) Option {
	return positive("RetryAfterCap", d, func(c *config) *time.Duration { return &c.retryAfterCap })
}

// Timeout bounds each attempt with its own child context, so a hung
// attempt becomes a transient failure and is retried. It must be positive;
// [Forever] means no attempt timeout. Default: 2 minutes
// ([DefaultTimeout]; raise it for long non-streaming generations).
func Timeout(d time.Duration) Option {
	return timeBound("Timeout", d, func(c *config) *time.Duration { return &c.attemptTimeout })
}

// MaxDuration bounds the whole call, waits included. A retry whose wait
// would pass this deadline (or the caller's own) is not attempted: the call
// fails at once with [observe.ReasonDeadline]. It must be positive;
// [Forever] is no bound beyond the caller's context. Default: none.
func MaxDuration(d time.Duration) Option {
	return timeBound("MaxDuration", d, func(c *config) *time.Duration { return &c.maxDuration })
}

// CircuitBreaker configures the pipeline's own circuit breaker: it opens
// after failures consecutive failures that say something about the target
// (not cancellations, rate limits, or requests rejected for their own
// content) and stays open for delay before letting one probe through.
// Default: 10 failures ([breaker.DefaultFailures]), 10 s
// ([breaker.DefaultDelay]): a provider failing one request in three keeps
// its circuit closed (retries handle it), a dead one is detected within a few
// calls, and a recovery is noticed within seconds.
func CircuitBreaker(failures int, delay time.Duration) Option {
	return func(c *config) {
		c.gate()
		if failures < 1 || delay <= 0 {
			c.errorf("CircuitBreaker(%d, %v): need failures >= 1 and a positive delay", failures, delay)
			return
		}
		// A breaker of the pipeline's own, whatever NoBreaker or UseBreaker
		// said before.
		c.breakerThresh, c.breakerDelay, c.breaker, c.breakerOff = failures, delay, nil, false
	}
}

// MaxHold bounds how long a wait hint over the [RetryAfterCap] holds the
// circuit breaker open (see [breaker.Breaker.HoldOpen]): a longer hint holds it for
// d, after which one probe goes through and its answer decides. It sets the
// maximum of the pipeline's own breaker; with [UseBreaker] it bounds the
// holds this pipeline asks for, and the shared breaker's own maximum
// ([breaker.DefaultMaxHold] for [New]) bounds them all. In a pool it is also
// how long an account failure takes a member out of rotation (see
// [Members]). It must be positive. Default: 5 min ([breaker.DefaultMaxHold]).
func MaxHold(d time.Duration) Option {
	return gate(positive("MaxHold", d, func(c *config) *time.Duration { return &c.maxHold }))
}

// UseBreaker shares b among several pipelines, for instance one breaker per
// provider account for several models. Default: each pipeline has its own.
func UseBreaker(b *breaker.Breaker) Option {
	return func(c *config) {
		c.gate()
		if b == nil {
			c.errorf("UseBreaker(nil)")
			return
		}
		c.breaker, c.breakerOff = b, false
	}
}

// WaitWhileOpen makes a call that finds the circuit open wait for the
// breaker's next probe and try again, within its attempts (as an overloaded
// failure), the run's budget and its deadline, instead of failing at once:
// the target sees only the probes, and calls complete if it recovers in
// time. A breaker held open for longer than the RetryAfterCap still fails
// the call at once. It trades requests for patience: a lone caller sends
// the probes itself. Default: off, the call fails fast with
// [observe.ReasonCircuitOpen], which is what a fallback wants.
func WaitWhileOpen() Option { return func(c *config) { c.waitWhileOpen = true } }

// NoThrottle lets calls retry even while most recent attempts of the
// target failed (see [breaker.Breaker]). Default: retries are throttled then.
func NoThrottle() Option { return gate(func(c *config) { c.noThrottle = true }) }

// NoBreaker disables the circuit breaker and the retry throttle.
// Default: enabled.
func NoBreaker() Option { return gate(func(c *config) { c.breaker, c.breakerOff = nil, true }) }

// Classifier replaces the classifier. Compose with taxonomy.Chain to add
// rules ahead of the defaults. Default: taxonomy.Default.
func Classifier(cl taxonomy.Classifier) Option {
	return func(c *config) {
		if cl == nil {
			c.errorf("Classifier(nil)")
			return
		}
		c.classifier = cl
	}
}

// Logger sets the logger for decision events: the pipeline reports them to
// [observe.Log](l) besides the observers installed with [Observe] (see [Event
// keys]). A nil logger discards. Default: discard.
//
// [Event keys]: https://pkg.go.dev/github.com/resilientgo/resilient/middleware#hdr-Events
func Logger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// Describe says what the pipeline protects, for observers: its operation,
// provider and model (see [observe.Target]). The target's Name is the pipeline's
// name. Default: the name alone.
func Describe(t observe.Target) Option { return func(c *config) { c.target = t } }

// Hedge enables hedging for [Pipeline.DoHedged]: when an attempt has not
// finished after delay, up to maxHedges more start; the first success wins and
// the others' contexts are canceled. Each hedge spends one retry from the
// run's budget when there is one. Default: off.
func Hedge(delay time.Duration, maxHedges int) Option {
	return func(c *config) {
		if delay <= 0 || maxHedges < 1 {
			c.errorf("Hedge(%v, %d): need a positive delay and at least one hedge", delay, maxHedges)
			return
		}
		c.hedge = &hedging{delay: delay, max: maxHedges}
	}
}

// Policies adds raw failsafe-go policies (rate limiter, bulkhead, ...) for
// what the options do not cover. They run inside the retry, around each
// attempt, first listed outermost; a rejection of theirs ends the call with
// [observe.ReasonRejected]. R must be the pipeline's result type, or [New] fails.
func Policies[R any](policies ...failsafe.Policy[R]) Option {
	return func(c *config) {
		for _, p := range policies {
			c.policies = append(c.policies, p)
		}
	}
}

// gate counts an option that guards one target, which a member of a pool
// takes (see [Member]); every other option applies to a pool as a whole.
func (c *config) gate() { c.gates++ }

// gate returns o counted as an option that a member of a pool takes.
func gate(o Option) Option {
	return func(c *config) {
		c.gate()
		o(c)
	}
}

// timeBound sets the duration field picks to d, a time bound: refusing a d
// that is not positive, and keeping Forever as 0, none.
func timeBound(name string, d time.Duration, field func(*config) *time.Duration) Option {
	return func(c *config) {
		v, err := bound.Duration(name, d)
		if err != nil {
			c.errorf("%v", err)
			return
		}
		*field(c) = v
	}
}

// nonNegative sets the count field picks to n, refusing a negative n.
func nonNegative(name string, n int, field func(*config) *int) Option {
	return func(c *config) {
		if n < 0 {
			c.errorf("%s(%d): must not be negative", name, n)
			return
		}
		*field(c) = n
	}
}

// positive sets the duration field picks, refusing a d that is not positive.
func positive(name string, d time.Duration, field func(*config) *time.Duration) Option {
	return func(c *config) {
		if d <= 0 {
			c.errorf("%s(%v): must be positive", name, d)
			return
		}
		*field(c) = d
	}
}

// Observe installs observers on the pipeline, after those installed before.
// Default: none (and [Logger]'s, when set).
func Observe(observers ...observe.Observer) Option {
	return func(c *config) {
		for _, o := range observers {
			if o == nil {
				c.errorf("Observe(nil)")
				continue
			}
			c.observers = append(c.observers, o)
		}
	}
}

// Observer is [observe.Observer].
//
// Deprecated: use observe.Observer; this alias goes in the next release.
type Observer = observe.Observer
