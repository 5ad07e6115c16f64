package middleware

import (
	"cmp"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/observe"
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

// Strategy says how a pool chooses among its healthy members. Every
// strategy also weighs each member by the square of its health, the share
// of its recent attempts that were answered (a moving average over the
// last dozen or so, seen in tenths; the square at least a tenth): only
// failures that count against its breaker count, not a rate limit, a
// cancellation or a request refused for its own content. Squared, because
// such a member answers only that share of the calls it gets and each
// one it fails costs a second request: a member failing half its
// requests, which rarely fails often enough in a row to open its circuit,
// gets about a quarter of the share of a healthy one; a member that
// answers again regains its share as its health does, and the probe that
// closes its circuit restores it at once. Ties go by smooth weighted round
// robin on weight times that weighing.
type Strategy uint8

// The strategies of [Balance].
const (
	// LeastInFlight chooses the member whose attempts in flight, counting
	// the new one, are fewest for its weight times its health squared; ties go
	// round robin, so that one caller alone spreads its calls too. A slow
	// member has more calls in flight and gets fewer new ones; among idle
	// members the healthiest wins, so that a member that failed gets no
	// call while a healthier one is idle, save one, its probe, when it has
	// had none for one breaker delay: without it, a member that failed
	// when traffic was light would never be seen to recover. An attempt
	// counts from the moment its member is chosen, before its gates answer:
	// callers arriving together spread over the members, and a member due
	// for its probe gets one of them. The default.
	LeastInFlight Strategy = iota
	// RoundRobin takes the members in turn, each as often as its weight
	// times its health squared (smooth weighted round robin, as nginx does it): for
	// members of known capacity.
	RoundRobin
	// LowestLatency chooses the member whose recent latency (a moving
	// average of its attempts) times its attempts in flight plus one, for
	// its weight times its health squared, is lowest. A member not measured for one breaker delay is
	// tried again first, once (one attempt of a burst that finds it due),
	// so that a member that was slow and recovered gets its traffic back.
	LowestLatency
)

var strategyNames = [...]string{"least_in_flight", "round_robin", "lowest_latency"}

// String returns the strategy's lowercase name, e.g. "round_robin".
func (s Strategy) String() string {
	if int(s) < len(strategyNames) {
		return strategyNames[s]
	}
	return "strategy(" + strconv.Itoa(int(s)) + ")"
}

// Members makes the pipeline a pool over members: each attempt goes to one
// of them, chosen among the healthy ones (circuit not open, not cooling
// down after a Retry-After, room in their rate and concurrency limits; for
// a retry, a retry throttle that allows it) by the [Balance] strategy, and
// a retry goes to another member than the attempts before it whenever one
// is healthy, at once, without a backoff: a sick member costs a call one
// request. The calls of one run stay on one member while it is healthy
// (see [Sticky] and [NoStickyRuns]).
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
// error. Default: a plain pipeline, no members.
func Members(members ...Member) Option {
	return func(c *config) {
		if len(members) == 0 {
			c.errorf("Members(): a pool needs at least one member")
			return
		}
		c.members = append(c.members[:0:0], members...)
	}
}

// UseBalancer makes the pipeline a pool over the members of b, another
// pool pipeline's (see [Pipeline.Balancer]): the two share the members'
// breakers, limits, loads and sticky choices, as a model's streaming and
// non-streaming calls do. The strategy and stickiness are b's. Default: a
// balancer of the pipeline's own when it has [Members].
func UseBalancer(b *Balancer) Option {
	return func(c *config) {
		if b == nil {
			c.errorf("UseBalancer(nil)")
			return
		}
		c.balancer = b
	}
}

// Balance sets how a pool chooses among its healthy members. Pools only.
// Default: [LeastInFlight].
func Balance(s Strategy) Option {
	return func(c *config) {
		if int(s) >= len(strategyNames) {
			c.errorf("Balance(%v): no such strategy", s)
			return
		}
		c.strategy = s
	}
}

// NoStickyRuns lets the calls of one run go to any member, each chosen
// afresh; calls made with a [Sticky] key still stay together. Pools only.
// Default: the calls of a run stay on the member that answered the last of
// them, while it is healthy, so that the provider's prompt cache keeps
// working for the conversation.
func NoStickyRuns() Option { return func(c *config) { c.noStickyRuns = true } }

// Weight sets a member's share of the traffic relative to the others: a
// member of weight 2 gets twice the calls of one of weight 1 under
// [RoundRobin], and may hold twice the attempts in flight under
// [LeastInFlight], health equal (see [Strategy]). Members only. It must be at least 1. Default: 1
// ([DefaultWeight]).
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

// Balancer chooses the member of a pool for each attempt and keeps what it
// knows of them: their breakers, limits, loads, latencies, cooldowns and
// the sticky choices of runs and keys. A pool pipeline builds one from its
// [Members]; [UseBalancer] shares it with another pipeline. It is safe for
// concurrent use.
type Balancer struct {
	members    []*member
	strategy   Strategy
	stickyRuns bool
	keys       *pins // choices of sticky keys

	mu sync.Mutex // each member's latency, health and round-robin state
}

// member is one member of a pool, with its gates and what the balancer
// knows of it.
type member struct {
	index      int
	name       string
	target     observe.Target
	weight     int
	breaker    *breaker.Breaker // nil when disabled
	noThrottle bool
	limiter    limit.Limiter
	sem        limit.Semaphore
	semWait    time.Duration
	probeEvery time.Duration // LowestLatency measures a member again after this long
	maxHold    time.Duration // how long an account failure takes it out of rotation

	inFlight  atomic.Int32           // attempts passing its gates or whose function has not returned
	waiting   atomic.Int32           // attempts waiting for its limits
	coolUntil atomic.Int64           // UnixNano; 0 = not cooling down
	out       atomic.Pointer[outage] // its last account failure; nil = none

	// Guarded by Balancer.mu.
	latency  time.Duration // moving average of recent attempts; 0 = none yet
	measured time.Time     // when latency was last sampled (or a new sample claimed)
	health   float64       // moving average of recent outcomes, 1 = all answered; see health.go
	current  float64       // smooth weighted round robin
	picked   time.Time     // when an attempt last went to it
	turns    uint64        // attempts reserved on it (see reservation)
}

// DefaultWeight is a member's weight unless [Weight] sets it.
const DefaultWeight = 1

// DefaultMaxStickyKeys bounds how many [Sticky] keys a pool remembers: past
// it, the key used least recently is forgotten, and its next call is
// balanced afresh.
const DefaultMaxStickyKeys = 10000

// newBalancer builds the balancer of a pool from cfg's members, their
// breakers reporting to obs.
func newBalancer(cfg *config, obs observe.Observers) (*Balancer, error) {
	b := &Balancer{strategy: cfg.strategy, stickyRuns: !cfg.noStickyRuns, keys: newPins(DefaultMaxStickyKeys)}
	seen := map[string]bool{}
	var errs []error
	for i, spec := range cfg.members {
		m, err := newMember(i, spec, cfg, obs)
		switch {
		case err != nil:
			errs = append(errs, err)
		case spec.Name == "":
			errs = append(errs, fmt.Errorf("middleware: member %d has no name", i))
		case seen[spec.Name]:
			errs = append(errs, fmt.Errorf("middleware: two members are named %q", spec.Name))
		}
		seen[spec.Name] = true
		b.members = append(b.members, m)
	}
	return b, errors.Join(errs...)
}

// newMember builds the member spec describes: the pool's breaker settings,
// then the member's own options, which must all be gates.
func newMember(index int, spec Member, pool *config, obs observe.Observers) (*member, error) {
	c := config{breakerThresh: pool.breakerThresh, breakerDelay: pool.breakerDelay, maxHold: pool.maxHold,
		breakerOff: pool.breakerOff, noThrottle: pool.noThrottle}
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
		return nil, err
	}
	m := &member{index: index, name: spec.Name, target: spec.Target, weight: cmp.Or(c.weight, DefaultWeight),
		noThrottle: c.noThrottle, limiter: c.limiter, sem: c.newSemaphore(), semWait: c.semWait,
		probeEvery: c.breakerDelay, maxHold: c.maxHold, health: 1}
	m.target.Name = spec.Name
	switch {
	case c.breakerOff:
	case c.breaker != nil:
		m.breaker = c.breaker
	default:
		m.breaker = breaker.New(breaker.Settings{Name: spec.Name, Failures: c.breakerThresh, Delay: c.breakerDelay, MaxHold: c.maxHold, Observers: obs})
	}
	return m, nil
}

// Balancer returns the balancer of a pool pipeline (see [Members]), nil for
// a plain pipeline.
func (p *Pipeline[R]) Balancer() *Balancer { return p.bal }

// MemberState is what a pool knows of one member at a moment.
type MemberState struct {
	// Name is the member's name.
	Name string
	// Weight is its weight (see [Weight]).
	Weight int
	// Breaker is its circuit breaker, nil when disabled: share it among
	// replicas (package resilientredis) or read its state.
	Breaker *breaker.Breaker
	// InFlight counts its attempts passing its gates or whose function has
	// not returned yet.
	InFlight int
	// Cooldown is how long it still cools down after a wait hint, 0 when
	// it is not cooling down.
	Cooldown time.Duration
	// Suspended is how long an account failure still keeps it out of
	// rotation (see [Members]), 0 when none does; AccountFailure is that
	// failure's rule and status, such as `code "invalid_api_key", status
	// 401`.
	Suspended      time.Duration
	AccountFailure string
	// Latency is the moving average of its recent attempts, 0 before the
	// first.
	Latency time.Duration
	// Health is the moving average of the outcomes of its recent attempts,
	// from 1 (every one answered) down to 0 (every one failed in a way that
	// says the member is unwell); 1 before the first. The strategy divides
	// its preference for the member by its square (see [Strategy]).
	Health float64
}

// Members returns the state of each member, in the order they were given.
func (b *Balancer) Members() []MemberState {
	now := time.Now()
	out := make([]MemberState, len(b.members))
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, m := range b.members {
		out[i] = MemberState{Name: m.name, Weight: m.weight, Breaker: m.breaker, InFlight: int(m.inFlight.Load()),
			Cooldown: m.cooldown(now), Latency: m.latency, Health: m.health}
		if v := look(m, false, now); v.out {
			out[i].Suspended, out[i].AccountFailure = v.left, v.why()
		}
	}
	return out
}

// Strategy returns the balancer's strategy.
func (b *Balancer) Strategy() Strategy { return b.strategy }

// cooldown returns how long m still cools down at now.
func (m *member) cooldown(now time.Time) time.Duration {
	until := m.coolUntil.Load()
	if until == 0 {
		return 0
	}
	return max(time.Unix(0, until).Sub(now), 0)
}

// coolFor makes m cool down for d from now; a shorter cooldown never
// shortens a longer one. It reports whether the cooldown grew.
func (m *member) coolFor(d time.Duration) bool {
	until := time.Now().Add(d).UnixNano()
	for {
		old := m.coolUntil.Load()
		if old >= until {
			return false
		}
		if m.coolUntil.CompareAndSwap(old, until) {
			return true
		}
	}
}
