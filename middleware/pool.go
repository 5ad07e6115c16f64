package middleware

import (
	"errors"
	"fmt"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/pool"
)

// Member is one of the interchangeable targets of a pool (see [Members]):
// a deployment of the same model in another region, under another account,
// on another server. Each member has its own circuit breaker and retry
// throttle and, if its options say so, its own rate limiter and concurrency
// limit.
type Member struct {
	// Name names the member in errors, events and logs; it must be unique
	// in the pool.
	Name string
	// Target describes the member for observers (its provider and model);
	// its Name is set to the member's.
	Target observe.Target
	// Options guard this member alone: [Weight], [RateLimit],
	// [MaxConcurrent], [ConcurrencyLimit], [CircuitBreaker], [UseBreaker],
	// [NoBreaker], [NoThrottle], [MaxHold]. The other options apply to the
	// pool as a whole: given here, they make [New] fail. A member's breaker
	// and throttle default to the pool's settings.
	Options []Option
}

// Members makes the pipeline a pool over members: each attempt goes to one
// of them, chosen among the healthy ones (circuit not open, not cooling
// down after a Retry-After, room in their rate and concurrency limits; for
// a retry, a retry throttle that allows it) by the [Balance] strategy (a [pool.Picker]), and
// a retry goes to another member than the attempts before it whenever one
// is healthy, at once, without a backoff: a sick member costs a call one
// request. The calls of one run stay on one member while it is healthy
// (see [pool.Sticky] and [NoStickyRuns]).
//
// A member that answers with a wait hint (Retry-After, a rate-limit reset)
// within the [RetryAfterCap] cools down for that long: it gets no attempt
// until then, unless every member is cooling, when the call waits for the
// first to be ready. A longer hint holds its breaker open, as for a plain
// pipeline. When no member can take an attempt because every circuit is
// open, the call fails fast with [observe.ReasonCircuitOpen] and a detail stating
// each member's state, for the caller's fallbacks.
//
// A permanent failure of a member's account or deployment
// (taxonomy.Class.AccountFailure: a key refused, a permission missing, a
// quota or credits used up, a model or deployment not there) is no fault of
// the request: every call would fail there the same way until someone fixes
// the account, and another member may serve it. The member is taken out of
// rotation for its [MaxHold] (its circuit held open, a [observe.Suspended] event;
// then one probe), and the call goes at once to a member it has not tried:
// such a switch counts as an attempt, but neither the attempt limits nor
// the run's retry budget stop it, and a call makes fewer of them than the
// pool has members. With every member tried, another ready one takes a
// retry within the limits and the budget. When no other member is ready,
// the call fails with [observe.ReasonPermanent] and a detail stating each member's
// state ("eastus: out of rotation (5m0s left) after an account failure:
// status 401"), and so do the calls that find every member out of rotation
// so, without a request; the final error's class is an account failure,
// for the caller's fallbacks. A failure of the request itself (a bad
// request, content refused, an overflow that compaction cannot fix) stops
// the call at once, as for a plain pipeline, and so does any failure under
// [SingleAttempt].
//
// A member that is itself resilient (its function returns the final
// [*Error] of a pipeline of its own) is asked once per call: when it gives
// up for a reason another target may fix (exhausted, circuit open, over
// the cap, throttled, refused by a limit of the caller's), the call goes on
// at once to a member not tried yet, within the attempts of the failure's
// kind; else it stops with that member's diagnosis. Its own retries are
// never multiplied by the pool's.
//
// A pool has no circuit breaker of its own ([Pipeline.Breaker] is nil): one
// member down must not stop the others. [CircuitBreaker], [NoBreaker],
// [NoThrottle] and [MaxHold] given to the pool set its members' defaults;
// [RateLimit] and [MaxConcurrent] given to the pool bound it as a whole,
// before any member is chosen. Every attempt reports its member: the
// attempt's [observe.Start] carries the member's Target, [observe.AttemptEnd] and
// [observe.RetryScheduled] name it, and so does [Attempt.Target] in the final
// error; [Pipeline.Pool] reports on the members. Default: a plain pipeline,
// no members.
func Members(members ...Member) Option {
	return func(c *config) {
		if len(members) == 0 {
			c.errorf("Members(): a pool needs at least one member")
			return
		}
		c.members = append(c.members[:0:0], members...)
	}
}

// UsePool makes the pipeline a pool over the members of p, another pool
// pipeline's (see [Pipeline.Pool]): the two share the members' breakers,
// limits, loads and sticky choices, as a model's streaming and
// non-streaming calls do. The strategy and stickiness are p's. Default: a
// pool of the pipeline's own when it has [Members].
func UsePool(p *pool.Pool) Option {
	return func(c *config) {
		if p == nil {
			c.errorf("UsePool(nil)")
			return
		}
		c.pool = p
	}
}

// Balance sets how a pool chooses among its healthy members:
// [pool.LeastInFlight], [pool.RoundRobin] or [pool.LowestLatency]. Pools
// only. Default: [pool.LeastInFlight].
func Balance(p pool.Picker) Option {
	return func(c *config) {
		if p == nil {
			c.errorf("Balance(nil)")
			return
		}
		c.picker = p
	}
}

// NoStickyRuns lets the calls of one run go to any member, each chosen
// afresh; calls made with a [pool.Sticky] key still stay together. Pools
// only. Default: the calls of a run stay on the member that answered the
// last of them, while it is healthy, so that the provider's prompt cache
// keeps working for the conversation.
func NoStickyRuns() Option { return func(c *config) { c.noStickyRuns = true } }

// Weight sets a member's share of the traffic relative to the others: a
// member of weight 2 gets twice the calls of one of weight 1 under
// [pool.RoundRobin], and may hold twice the attempts in flight under
// [pool.LeastInFlight], health equal (see [pool.Picker]). Members only. It
// must be at least 1. Default: 1 ([pool.DefaultWeight]).
func Weight(n int) Option {
	return gate(func(c *config) {
		if n < 1 {
			c.errorf("Weight(%d): must be at least 1", n)
			return
		}
		c.weight = n
	})
}

// Unpooled says that the options before it, a pool member's guards (see
// [Member]), guard a target used outside any pool: their limits and
// breaker apply to it, and the [Weight] they set, a share of a pool's
// traffic, has nothing to weigh against and is dropped. Package llms adds
// it after the guards of a member used as a model or a fallback.
func Unpooled() Option { return func(c *config) { c.weight = 0 } }

// newPool builds the pool of a pipeline from cfg's members, their
// breakers reporting to obs.
func newPool(cfg *config, obs observe.Observers) (*pool.Pool, error) {
	s := pool.Settings{Picker: cfg.picker, NoStickyRuns: cfg.noStickyRuns}
	var errs []error
	for i, spec := range cfg.members {
		ms, err := memberSettings(i, spec, cfg, obs)
		if err != nil {
			errs = append(errs, err)
		}
		s.Members = append(s.Members, ms)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	p, err := pool.New(s)
	if err != nil {
		return nil, fmt.Errorf("middleware: %w", err)
	}
	return p, nil
}

// memberSettings returns the settings of the member spec describes: the
// pool's breaker settings, then the member's own options, which must all
// be gates.
func memberSettings(index int, spec Member, p *config, obs observe.Observers) (pool.MemberSettings, error) {
	c := config{breakerThresh: p.breakerThresh, breakerDelay: p.breakerDelay, maxHold: p.maxHold,
		breakerOff: p.breakerOff, noThrottle: p.noThrottle}
	for i, o := range spec.Options {
		if o == nil {
			c.errorf("member %q: option %d is nil", spec.Name, i)
			continue
		}
		before := c.gates
		o(&c)
		if c.gates == before {
			c.errorf("member %q: option %d applies to the pool as a whole, not to one member "+
				"(a member takes Weight, RateLimit, MaxConcurrent, ConcurrencyLimit, CircuitBreaker, UseBreaker, NoBreaker, NoThrottle, MaxHold)",
				spec.Name, i)
		}
	}
	if err := errors.Join(c.errs...); err != nil {
		return pool.MemberSettings{}, err
	}
	ms := pool.MemberSettings{Name: spec.Name, Target: spec.Target, Weight: c.weight, NoThrottle: c.noThrottle,
		Limiter: c.limiter, Semaphore: c.newSemaphore(), MaxWait: c.semWait, ProbeEvery: c.breakerDelay, MaxHold: c.maxHold}
	switch {
	case c.breakerOff:
	case c.breaker != nil:
		ms.Breaker = c.breaker
	default:
		ms.Breaker = breaker.New(breaker.Settings{Name: spec.Name, Failures: c.breakerThresh, Delay: c.breakerDelay, MaxHold: c.maxHold, Observers: obs})
	}
	return ms, nil
}

// Pool returns the pool of a pool pipeline (see [Members]), nil for a
// plain pipeline.
func (p *Pipeline[R]) Pool() *pool.Pool { return p.pool }
