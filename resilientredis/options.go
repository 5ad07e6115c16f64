package resilientredis

import (
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/resilientgo/resilient/internal/redact"
	"github.com/resilientgo/resilient/observe"
)

// Defaults, as documented on each option.
const (
	DefaultTimeout      = time.Second
	DefaultPollInterval = time.Second
	DefaultLease        = 15 * time.Second

	DefaultStorePrefix     = "resilient:idempotency:"
	DefaultLimiterPrefix   = "resilient:limiter:"
	DefaultBreakerPrefix   = "resilient:breaker:"
	DefaultSemaphorePrefix = "resilient:semaphore:"
)

// An Option configures a [Store], a [Limiter], a [SharedBreaker] or a
// [Semaphore]. Options
// that make sense for only one of them say so; given to another, they make
// its constructor return an error.
// Options follow the rule of every option of the library, stated on
// [github.com/resilientgo/resilient.Option].
type Option func(*config)

// feature is what the options are being collected for.
type feature uint8

const (
	forStore feature = 1 << iota
	forLimiter
	forBreaker
	forSemaphore
)

func (f feature) String() string {
	switch f {
	case forStore:
		return "store"
	case forLimiter:
		return "limiter"
	case forSemaphore:
		return "semaphore"
	}
	return "breaker"
}

type config struct {
	feature    feature
	prefix     string             // Default: DefaultStorePrefix, DefaultLimiterPrefix, DefaultBreakerPrefix, DefaultSemaphorePrefix
	logger     *slog.Logger       // Default: discard (Logger)
	timeout    time.Duration      // Default: 1 s (DefaultTimeout)
	tokens     int                // Default: 0, no token limit
	maxWait    time.Duration      // Default: the limiter's period (-1 until set)
	failClosed bool               // Default: false, fail open
	poll       time.Duration      // Default: 1 s (DefaultPollInterval)
	lease      time.Duration      // Default: 15 s (DefaultLease)
	replicas   int                // Default: 0, no WAIT (WaitReplicas)
	replicaTTL time.Duration      // Default: 0, no WAIT (WaitReplicas)
	observers  []observe.Observer // Default: none (Observe)
	// transitions receive the events of Redis becoming unavailable and
	// reachable again: the observers, and Log(logger) when Logger is set.
	transitions observe.Observers
	errs        []error
}

func (c *config) errorf(format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf("resilientredis: "+format, args...))
}

// only reports whether the option name applies to the feature being
// configured, recording an error when it does not.
func (c *config) only(f feature, name string) bool {
	if c.feature&f != 0 {
		return true
	}
	var names []string
	for g := forStore; g <= forSemaphore; g <<= 1 {
		if f&g != 0 {
			names = append(names, g.String())
		}
	}
	c.errorf("%s applies to the %s only", name, strings.Join(names, " and "))
	return false
}

// build applies opts for feature f.
func build(f feature, opts []Option) (config, error) {
	c := config{feature: f, timeout: DefaultTimeout, maxWait: -1, poll: DefaultPollInterval, lease: DefaultLease}
	switch f {
	case forStore:
		c.prefix = DefaultStorePrefix
	case forLimiter:
		c.prefix = DefaultLimiterPrefix
	case forBreaker:
		c.prefix = DefaultBreakerPrefix
	case forSemaphore:
		c.prefix = DefaultSemaphorePrefix
	}
	for _, o := range opts {
		if o == nil {
			c.errorf("nil option")
			continue
		}
		o(&c)
	}
	c.transitions = c.observers
	if c.logger == nil {
		c.logger = slog.New(slog.DiscardHandler)
	} else {
		if !redact.Redacting(c.logger.Handler()) {
			c.logger = redact.Logger(c.logger, nil)
		}
		// The Logger writes the lines of the transitions: a log observer
		// among the observers would write each a second time.
		c.transitions = append(slices.DeleteFunc(slices.Clone(c.observers), logsLibraryLines), observe.Log(c.logger))
	}
	return c, errors.Join(c.errs...)
}

// logsLibraryLines reports whether o is the observer of observe.Log.
func logsLibraryLines(o observe.Observer) bool {
	_, ok := o.(interface{ LogsLibraryLines() })
	return ok
}

// Prefix sets the prefix of every Redis key (and pub/sub channel) that the
// Store, Limiter, SharedBreaker or Semaphore uses. Give each service, or
// each environment sharing a Redis, its own. Default: [DefaultStorePrefix],
// [DefaultLimiterPrefix], [DefaultBreakerPrefix], [DefaultSemaphorePrefix].
func Prefix(p string) Option { return func(c *config) { c.prefix = p } }

// Logger sets the logger for the events of this package, redacted as
// observe.Log redacts. A nil logger discards. Default: discard.
//
// The lines, by message, with their attribute keys (stable for dashboards
// and alerts; those of observe, and suppressed, appendonly, save, slots):
//
//	"redis unavailable"            WARN  feature, redis_key, action, err (, suppressed)
//	"redis reachable again"        INFO  feature, redis_key, down
//	"circuit opened by a replica"  INFO  target, delay
//	"circuit closed by a replica"  INFO  target
//	"circuit forced open by a replica"   INFO  target
//	"circuit forced closed by a replica" INFO  target
//	"redis without persistence"    WARN  feature, redis_key, appendonly, save
//	"semaphore lease lost"         WARN  feature, redis_key, slots
//
// "redis unavailable" is logged at the first failure and then at most once
// a minute while Redis stays unavailable, with the number of failures not
// logged since the previous line (suppressed, on those repeats only). The
// first line and "redis reachable again" are the transitions that
// [Observe] sends to observers as events, and observe.Log writes the
// same lines. "redis without persistence" is logged by
// [NewStore] when the server keeps neither an append-only file nor
// snapshots: a restart would forget every idempotency record (see "Exactly
// once" in the package documentation for the settings that prevent it).
// "semaphore lease lost" is logged by a [Semaphore] holder whose slot was
// freed while it still held it (its renewals did not reach Redis for a
// whole lease) and found no free slot to take again: until its call ends,
// the fleet holds one more than slots.
//
// Given with a log observer ([Observe] with observe.Log), the Logger
// writes the lines of Redis becoming unavailable and reachable again, and
// the log observer is not sent those two events: each line is written
// once, by the Logger, which also repeats "redis unavailable" once a
// minute while Redis stays down. Without a Logger, a log observer writes
// them (the first line only, not the repeats).
func Logger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// Observe sends the transitions of a feature's reachability of Redis to
// observers, as a observe.SharedStateUnavailable event when its round
// trips start failing (with what it does meanwhile) and a
// observe.SharedStateRestored when one succeeds again: once per
// transition, not per failed round trip. Give it the observers of the
// models and tools (resilientotel counts the events; observe.Log writes
// them as the Logger would, see [Logger] for both together). The events
// carry the feature, the key (redacted) and the action, never an error's
// text. Every feature. Default: none.
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

// Timeout bounds each round trip to Redis, on top of the caller's context,
// whatever the client's options: the caller is answered at the timeout
// even when the client ignores contexts (a go-redis client without
// ContextTimeoutEnabled waits for its ReadTimeout, 3 s by default). A round
// trip that runs out of time counts as Redis being unavailable. Its command
// may still run in Redis later; each feature makes that safe (see
// "Timeouts" in the package documentation). Default: 1 s
// ([DefaultTimeout]).
func Timeout(d time.Duration) Option {
	return duration("Timeout", forStore|forLimiter|forBreaker|forSemaphore, d, true, func(c *config) *time.Duration { return &c.timeout })
}

// Tokens adds a second limit to a [Limiter]: at most n tokens per period,
// where the cost given to [Limiter.Acquire] counts tokens (each Acquire
// still counts one request). A middleware pipeline acquires with a cost of
// 1 per attempt, so to limit tokens, call Acquire yourself before a call
// with its size (prompt tokens plus the most the model may write), on a
// limiter of its own key. Limiter only. Default: no token limit.
func Tokens(n int) Option {
	return func(c *config) {
		if !c.only(forLimiter, "Tokens") {
			return
		}
		if n < 1 {
			c.errorf("Tokens(%d): must be at least 1", n)
			return
		}
		c.tokens = n
	}
}

// MaxWait bounds how long [Limiter.Acquire] waits for its turn: an attempt
// whose turn is further away is refused at once with
// [limit.ErrLimited], without taking a slot. 0 refuses whenever the
// limit is reached. Limiter only. Default: the limiter's period.
func MaxWait(d time.Duration) Option {
	return duration("MaxWait", forLimiter, d, false, func(c *config) *time.Duration { return &c.maxWait })
}

// FailClosed makes a [Limiter] or a [Semaphore] refuse every attempt while
// Redis is unavailable, with an error that matches [ErrUnavailable],
// instead of admitting it (a Semaphore admits up to its n slots in each
// process then). Limiter and Semaphore only. Default: admit and log (the
// action observe.SharedFailOpen for a Limiter, SharedLocal for a
// Semaphore).
func FailClosed() Option {
	return func(c *config) {
		if c.only(forLimiter|forSemaphore, "FailClosed") {
			c.failClosed = true
		}
	}
}

// MaxReplicas bounds the replicas [WaitReplicas] may wait for.
const MaxReplicas = 16

// WaitReplicas makes a [Store] wait, after each claim and each completion
// (and each mark of a hung call's unknown outcome; renewals do not wait),
// until n replicas of the master that took it have it too (Redis's WAIT,
// on the same connection, up to timeout), so that a failover to one of
// them keeps the record. A claim that fewer replicas acknowledged in time
// is abandoned and fails as Redis being unavailable: the tool does not run.
// A completion is retried, as while Redis is unavailable, until the tools
// wrapper's store timeout (10 s) ends. It costs each of the two writes of
// an idempotent call the replication's round trip (docs/exactly-once.md
// has the figures). It narrows the window that a failover loses; it does
// not close it (see "Exactly once" in the package documentation).
//
// n is from 1 to [MaxReplicas], and no more than the replicas every master
// has (with fewer, every idempotent call fails); timeout must be shorter
// than [Timeout]. The client must be a *redis.Client (standalone, or a
// failover client of Sentinel's) or a *redis.ClusterClient. Store only.
// Default: no wait.
func WaitReplicas(n int, timeout time.Duration) Option {
	return func(c *config) {
		switch {
		case !c.only(forStore, "WaitReplicas"):
		case n < 1 || n > MaxReplicas || timeout <= 0:
			c.errorf("WaitReplicas(%d, %v): need 1 to %d replicas and a positive timeout", n, timeout, MaxReplicas)
		default:
			c.replicas, c.replicaTTL = n, timeout
		}
	}
}

// PollInterval sets how often a [SharedBreaker] reads the shared state, the
// safety net under pub/sub, and retries publishing a change that Redis did
// not take. It bounds how late a replica may learn of another's change. For
// a [Semaphore], it is the longest a process's first waiter goes without
// asking Redis for a slot when no release is announced (it waits half to
// all of it, at random). SharedBreaker and Semaphore only. Default: 1 s
// ([DefaultPollInterval]).
func PollInterval(d time.Duration) Option {
	return duration("PollInterval", forBreaker|forSemaphore, d, true, func(c *config) *time.Duration { return &c.poll })
}

// Lease sets how long a [Semaphore]'s slot stays taken without news from
// its holder: the holder renews it every third of the lease while it holds
// it, so a holder that crashed, hung without its process running, or lost
// Redis frees its slot at most one lease after its last renewal. A shorter
// lease frees a dead holder's slot sooner and costs more renewals (one
// round trip per slot held every lease/3). It must be between three times
// [Timeout] (so that a renewal that runs out of time is followed by one
// more before the lease ends) and [MaxLease]. Semaphore only. Default: 15 s
// ([DefaultLease]).
func Lease(d time.Duration) Option {
	return duration("Lease", forSemaphore, d, true, func(c *config) *time.Duration { return &c.lease })
}

// duration is an option that sets the field picked by field to d, for the
// features in f only, refusing a negative d, or 0 too when positive.
func duration(name string, f feature, d time.Duration, positive bool, field func(*config) *time.Duration) Option {
	return func(c *config) {
		switch {
		case !c.only(f, name):
		case positive && d <= 0:
			c.errorf("%s(%v): must be positive", name, d)
		case d < 0:
			c.errorf("%s(%v): must not be negative", name, d)
		default:
			*field(c) = d
		}
	}
}
