package pool

import (
	"cmp"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/observe"
)

// DefaultWeight is a member's weight unless its settings give one.
const DefaultWeight = 1

// maxStickyKeys bounds how many [Sticky] keys a pool remembers: past it,
// the key used least recently is forgotten, and its next call is balanced
// afresh. No option sets it.
const maxStickyKeys = 10000

// Settings configure a pool.
type Settings struct {
	// Members are the pool's members, in order: a tie the strategy and the
	// round robin leave goes to the first listed.
	Members []MemberSettings
	// Picker chooses among the members ready for an attempt. Default:
	// [LeastInFlight].
	Picker Picker
	// NoStickyRuns lets the calls of one run go to any member, each chosen
	// afresh; calls made with a [Sticky] key still stay together. Default:
	// the calls of a run stay on the member that answered the last of them,
	// while it is healthy, so that the provider's prompt cache keeps working
	// for the conversation.
	NoStickyRuns bool
}

// MemberSettings configure one member of a pool.
type MemberSettings struct {
	// Name names the member in errors, events and logs; it must be unique
	// in the pool.
	Name string
	// Target describes the member for observers; its Name is set to the
	// member's.
	Target observe.Target
	// Weight is the member's share of the traffic relative to the others
	// (see [Picker]). Default: 1 ([DefaultWeight]).
	Weight int
	// Breaker is the member's circuit breaker and retry throttle; nil for
	// none.
	Breaker *breaker.Breaker
	// NoThrottle lets a retry go to the member whatever its retry throttle
	// says.
	NoThrottle bool
	// Limiter spaces the member's attempts; nil for none.
	Limiter limit.Limiter
	// Semaphore bounds the member's attempts in flight, waiting at most
	// MaxWait for a slot when no other member has one free; nil for none.
	Semaphore limit.Semaphore
	MaxWait   time.Duration
	// ProbeEvery is how long a member goes without an attempt (under
	// [LeastInFlight], while its health is below full) or without a new
	// measure of its latency (under [LowestLatency]) before it gets one
	// attempt to see how it does: its breaker's delay.
	ProbeEvery time.Duration
	// MaxHold is how long an account failure takes the member out of
	// rotation (see [Member.Suspend]).
	MaxHold time.Duration
}

// Pool chooses the member of a pool for each attempt and keeps what it
// knows of them: their gates, loads, latencies, health, cooldowns and the
// sticky choices of runs and keys. It is safe for concurrent use; share one
// between the pipelines that call the same members (a model's streaming
// and non-streaming calls), so that they share that knowledge.
type Pool struct {
	members    []*Member
	picker     Picker
	strategy   strategy // picker's
	stickyRuns bool
	keys       *pins // choices of sticky keys

	mu    sync.Mutex // each member's round-robin state, and the changes of its health
	ready []int32    // the members ready for the choice being made
	// weighs holds what every choice reads and writes of each member, by
	// index, side by side: the members' places in the round robin change on
	// every choice, and kept together they take a few cache lines rather
	// than one per member (which callers on other cores would fetch).
	weighs []weigh
}

// weigh is how a choice weighs a member; Pool.mu guards it.
type weigh struct {
	share   float64 // weight times health squared, as the strategies see it (see setHealth)
	current float64 // its place in the smooth weighted round robin
	unwell  bool    // share below weight
}

// Member is one member of a pool, with its gates and what the pool knows
// of it.
type Member struct {
	pool       *Pool
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
	// latency is the moving average of its recent attempts (nanoseconds;
	// 0 = none yet); health, that of their outcomes (math.Float64bits; 1 =
	// all answered, see health.go), which changes only under Pool.mu. An
	// attempt that moves neither takes no lock (see Pool.measure).
	latency atomic.Int64
	health  atomic.Uint64

	// Guarded by Pool.mu.
	measured time.Time // when latency was last sampled (or a new sample claimed), if the picker measures
	picked   time.Time // when an attempt last went to it
	turns    uint64    // attempts reserved on it (see Ticket)
	before   struct {  // picked and measured before the last reservation, for its cancel
		picked, measured time.Time
	}
}

// New builds a pool. It fails, naming each problem, when a member has no
// name, two share one or a weight is negative.
func New(s Settings) (*Pool, error) {
	p := &Pool{picker: cmp.Or[Picker](s.Picker, LeastInFlight{}), stickyRuns: !s.NoStickyRuns, keys: newPins(maxStickyKeys),
		ready: make([]int32, len(s.Members)), weighs: make([]weigh, len(s.Members))}
	p.strategy = p.picker.strategy()
	if len(s.Members) == 0 {
		return nil, errors.New("pool: a pool needs at least one member")
	}
	seen := map[string]bool{}
	var errs []error
	for i, ms := range s.Members {
		switch {
		case ms.Name == "":
			errs = append(errs, fmt.Errorf("pool: member %d has no name", i))
		case seen[ms.Name]:
			errs = append(errs, fmt.Errorf("pool: two members are named %q", ms.Name))
		case ms.Weight < 0:
			errs = append(errs, fmt.Errorf("pool: member %q: weight %d is negative", ms.Name, ms.Weight))
		}
		seen[ms.Name] = true
		m := &Member{pool: p, index: i, name: ms.Name, target: ms.Target, weight: cmp.Or(ms.Weight, DefaultWeight),
			breaker: ms.Breaker, noThrottle: ms.NoThrottle, limiter: ms.Limiter, sem: ms.Semaphore, semWait: ms.MaxWait,
			probeEvery: ms.ProbeEvery, maxHold: ms.MaxHold}
		m.target.Name = ms.Name
		m.setHealth(1)
		p.members = append(p.members, m)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return p, nil
}

// Len returns the number of members.
func (p *Pool) Len() int { return len(p.members) }

// Picker returns the pool's strategy.
func (p *Pool) Picker() Picker { return p.picker }

// Name returns the member's name.
func (m *Member) Name() string { return m.name }

// Index returns the member's place among the pool's members, from 0.
func (m *Member) Index() int { return m.index }

// Target returns what the member is, as observers see it.
func (m *Member) Target() observe.Target { return m.target }

// Breaker returns the member's circuit breaker, nil when it has none.
func (m *Member) Breaker() *breaker.Breaker { return m.breaker }

// MemberState is what a pool knows of one member at a moment.
type MemberState struct {
	// Name is the member's name.
	Name string
	// Weight is its weight (see [MemberSettings]).
	Weight int
	// Breaker is its circuit breaker, nil when disabled: share it among
	// replicas (package resilientredis) or read its state.
	Breaker *breaker.Breaker
	// Limiter and Semaphore are its rate and concurrency limits (see
	// [MemberSettings]), nil when it has none: read their state.
	Limiter   limit.Limiter
	Semaphore limit.Semaphore
	// InFlight counts its attempts passing its gates or whose function has
	// not returned yet.
	InFlight int
	// Cooldown is how long it still cools down after a wait hint, 0 when
	// it is not cooling down.
	Cooldown time.Duration
	// Suspended is how long an account failure still keeps it out of
	// rotation (see [Member.Suspend]), 0 when none does; AccountFailure is
	// that failure's rule and status, such as `code "invalid_api_key",
	// status 401`.
	Suspended      time.Duration
	AccountFailure string
	// Latency is the moving average of its recent attempts, 0 before the
	// first.
	Latency time.Duration
	// Health is the moving average of the outcomes of its recent attempts,
	// from 1 (every one answered) down to 0 (every one failed in a way that
	// says the member is unwell); 1 before the first. The strategy divides
	// its preference for the member by its square (see [Picker]).
	Health float64
}

// Members returns the state of each member, in the order they were given.
func (p *Pool) Members() []MemberState {
	now := time.Now()
	out := make([]MemberState, len(p.members))
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, m := range p.members {
		out[i] = MemberState{Name: m.name, Weight: m.weight, Breaker: m.breaker, Limiter: m.limiter, Semaphore: m.sem, InFlight: int(m.inFlight.Load()),
			Cooldown: m.cooldown(now), Latency: time.Duration(m.latency.Load()), Health: m.healthNow()}
		if v := look(m, false, now); v.Out {
			out[i].Suspended, out[i].AccountFailure = v.Left, v.why()
			if v.Forced { // its forcing hides the hold; the suspension still ends
				out[i].Suspended = v.outage.until.Sub(now)
			}
		}
	}
	return out
}

// cooldown returns how long m still cools down at now. A cooldown that is
// over is cleared, so that the next choice finds m ready at a glance.
func (m *Member) cooldown(now time.Time) time.Duration {
	until := m.coolUntil.Load()
	if until == 0 {
		return 0
	}
	left := time.Unix(0, until).Sub(now)
	if left <= 0 {
		m.coolUntil.CompareAndSwap(until, 0)
		return 0
	}
	return left
}

// CoolFor makes m cool down for d from now: it gets no attempt until then,
// unless every member of its pool cools down. A shorter cooldown never
// shortens a longer one. It reports whether the cooldown grew.
func (m *Member) CoolFor(d time.Duration) bool {
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

// outage is why, and until when, an account failure keeps a member out of
// rotation.
type outage struct {
	until time.Time
	why   string // the failure's rule and status, for errors' details
}

// Suspend takes m, whose attempt failed for its account (a key refused, a
// quota used up, a deployment missing), out of rotation for its MaxHold
// (or its breaker's, if shorter): its circuit is held open that long, or,
// without a breaker, it gets no attempt that long. why is the failure's
// rule and status, for errors' details. Every account fails the same way
// until someone fixes it, so no call should spend a request there before:
// after the hold, one attempt (its circuit's probe) finds out whether it
// is back. It returns the hold, and whether m was in rotation until now
// (calls in flight there when it was taken out fail the same way: report
// it once).
func (m *Member) Suspend(why string) (time.Duration, bool) {
	d := m.maxHold
	if m.breaker != nil {
		d = min(d, m.breaker.MaxHold()) // a shared breaker may hold for less
	}
	now := time.Now()
	prev := m.out.Swap(&outage{until: now.Add(d), why: why})
	if m.breaker != nil {
		m.breaker.HoldOpen(d)
	}
	return d, prev == nil || !now.Before(prev.until)
}
