package middleware

import (
	"errors"
	"fmt"
	"time"

	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/taxonomy"
)

// RateLimit makes every attempt acquire one unit from l before it starts.
// Default: no limiter.
func RateLimit(l limit.Limiter) Option {
	return func(c *config) {
		c.gate()
		if l == nil {
			c.errorf("RateLimit(nil)")
			return
		}
		c.limiter = l
	}
}

// MaxConcurrent bounds the attempts of the target in flight at once to n,
// on a [limit.Bulkhead] of the pipeline's own (a model's streaming and
// non-streaming calls share one; given to a pool, it bounds the pool as a
// whole, and given in a member's options, that member; a pool's caller
// waiting for a member's cooldown to end holds no slot). A caller waits up
// to maxWait for a slot, then its call stops with [observe.ReasonConcurrency],
// without a request: a refusal is local overload, never counted against the
// target's circuit breaker, and reported as a [observe.Refusal] with
// [observe.ReasonConcurrency]. It must be n >= 1 and maxWait >= 0 (0: no wait).
// Default: no limit.
func MaxConcurrent(n int, maxWait time.Duration) Option {
	return func(c *config) {
		c.gate()
		if n < 1 || maxWait < 0 {
			c.errorf("MaxConcurrent(%d, %v): need n >= 1 and maxWait >= 0", n, maxWait)
			return
		}
		c.concurrency, c.semaphore, c.semWait = n, nil, maxWait
	}
}

// ConcurrencyLimit is [MaxConcurrent] on a semaphore of the caller's:
// shared by several targets, or by the replicas of a service (package
// resilientredis). Callers wait up to maxWait for a slot. Default: no
// limit.
func ConcurrencyLimit(s limit.Semaphore, maxWait time.Duration) Option {
	return func(c *config) {
		c.gate()
		if s == nil || maxWait < 0 {
			c.errorf("ConcurrencyLimit(%v, %v): need a semaphore and maxWait >= 0", s, maxWait)
			return
		}
		c.concurrency, c.semaphore, c.semWait = 0, s, maxWait
	}
}

// ConcurrencyWait returns how long callers wait for a slot of the
// concurrency limit that opts set ([MaxConcurrent] or [ConcurrencyLimit],
// the last one given), and whether they set one. It only reads the
// options: an adapter that puts another target's semaphore in place of the
// one opts set uses it to keep their wait (package llms, sharing a model's
// limits with an embedder).
func ConcurrencyWait(opts ...Option) (time.Duration, bool) {
	var c config
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c.semWait, c.concurrency > 0 || c.semaphore != nil
}

// newSemaphore returns the semaphore that c asks for, nil for none.
func (c *config) newSemaphore() limit.Semaphore {
	if c.semaphore != nil || c.concurrency == 0 {
		return c.semaphore
	}
	b, _ := limit.NewBulkhead(c.concurrency) // MaxConcurrent checked n
	return b
}

// Concurrency returns the concurrency limit set with [MaxConcurrent] or
// [ConcurrencyLimit], nil if none, and how long callers wait for it: an
// adapter shares it with another pipeline of the same target (package llms
// shares a model's between its streaming and non-streaming calls).
func (p *Pipeline[R]) Concurrency() (limit.Semaphore, time.Duration) { return p.sem, p.cfg.semWait }

// MaxAbandoned bounds the attempts of the pipeline that were abandoned (at
// their timeout, when their caller gave up, when a hedge won: see
// [Pipeline.Do]) and whose function has not returned yet. Each holds a
// goroutine, and whatever the function holds, until it returns: a client
// that ignores its context and never returns would otherwise leave one per
// attempt, for ever. While n are still running, a new attempt is refused
// before it starts and its call stops with [observe.ReasonAbandoned]
// ([ErrAbandoned]) at once, without a request: local overload, never
// counted against the circuit breaker, never retried (a model's fallbacks
// take it), reported as a [observe.Refusal] with
// [observe.ReasonAbandoned]. Attempts are admitted again as soon as
// abandoned ones return. n = 0 allows none: the pipeline refuses attempts
// while any abandoned one is running. It must be n >= 0. Default: 256
// ([DefaultMaxAbandoned]).
func MaxAbandoned(n int) Option {
	return nonNegative("MaxAbandoned", n, func(c *config) *int { return &c.maxAbandoned })
}

// ErrAbandoned is matched by [errors.Is] on the error of a call refused
// because too many abandoned attempts of its target are still running (see
// [MaxAbandoned]).
var ErrAbandoned = errors.New("middleware: too many abandoned attempts still running")

// abandonedClass is the class of an attempt refused by [MaxAbandoned]: the
// target's client is hung, another model may answer.
var abandonedClass = taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "abandoned attempts limit"}

// refuseAbandoned refuses attempt number when the pipeline's abandoned
// attempts still running reach [MaxAbandoned], and returns the error that
// stops the call; nil when the attempt may start.
func (c *call[R]) refuseAbandoned(number int) error {
	p := c.p
	n := p.abandoned.Load()
	if n < int64(p.cfg.maxAbandoned) {
		return nil
	}
	return c.conclude(number, 0, ErrAbandoned, abandonedClass, &decision{reason: observe.ReasonAbandoned,
		detail:  fmt.Sprintf("%d abandoned attempts still running, the limit is %d", n, p.cfg.maxAbandoned),
		refused: true})
}
