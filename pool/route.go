package pool

import (
	"context"
	"sync"
	"time"

	"github.com/failsafe-go/failsafe-go/circuitbreaker"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/observe"
)

// Route is the pool's side of one call: the members its attempts went to,
// those that gave up on it, and the pin it follows. Its methods are safe
// for concurrent use by the call's attempts (hedges run side by side).
type Route struct {
	p   *Pool
	pin *pin // nil: the call is not sticky

	mu    sync.Mutex
	tried set // members an attempt of the call went to
	spent set // members that are themselves resilient and gave up on the call
}

// Route starts the route of a call made with ctx: it sticks to the member
// of ctx's [Sticky] key, else of the run in ctx (unless the pool's
// settings say NoStickyRuns).
func (p *Pool) Route(ctx context.Context) *Route {
	rt := new(Route)
	p.StartRoute(ctx, rt)
	return rt
}

// StartRoute starts rt, a zero Route that the caller keeps in a struct of
// its own (which saves the allocation of [Pool.Route]), as the route of a
// call made with ctx.
func (p *Pool) StartRoute(ctx context.Context, rt *Route) {
	rt.p, rt.pin = p, p.pinFor(ctx)
}

// Pool returns the pool the route is on.
func (rt *Route) Pool() *Pool { return rt.p }

// Tried reports whether an attempt of the call went to m.
func (rt *Route) Tried(m *Member) bool {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.tried.has(m.index)
}

// Spend records that m, a member that is itself resilient (it returned
// the final error of a pipeline of its own), gave up on the call: its own
// retries are done, and no later attempt of the call goes there.
func (rt *Route) Spend(m *Member) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.spent.add(m.index)
}

// Stick makes m, which answered the call, the member the call's run or
// key sticks to.
func (rt *Route) Stick(m *Member) {
	if rt.pin != nil {
		rt.pin.m.Store(m)
	}
}

// sets returns copies of rt's sets.
func (rt *Route) sets() (tried, spent set) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.tried.clone(), rt.spent.clone()
}

// Views returns the availability of every member for an attempt of the
// call: retry is true when it would be a retry, which a member's throttle
// may refuse; a member that gave up on the call (see [Route.Spend]) is
// [Spent].
func (rt *Route) Views(retry bool) Views {
	_, spent := rt.sets()
	now := time.Now()
	vs := make(Views, len(rt.p.members))
	for i, m := range rt.p.members {
		if vs[i] = look(m, retry, now); spent.has(i) {
			vs[i].Avail = Spent
		}
	}
	return vs
}

// TryTake chooses the member an attempt of the call goes to and passes
// its gates (its concurrency limit, its rate limiter, its breaker, in that
// order), taking only what is free at once. The member is chosen among the
// ready ones (see [Picker]) and counted in flight at once, before its
// gates answer: the callers of a burst that arrive together see it chosen,
// so that they spread over the members and a member due for its probe gets
// one attempt of the burst, not one per caller. When its gates refuse, the
// next member is chosen the same way, without it.
//
// It returns the attempt's ticket; or, when no member took the attempt,
// every member's availability, those whose gates refused it marked so,
// and among those whose limits had no room the one to wait for (nil if
// none): the one whose queue is shortest for its weight, so that waiters
// spread over the members; or the error of a gate when ctx ended.
func (rt *Route) TryTake(ctx context.Context, retry bool) (Ticket, Views, *Member, error) {
	var skip set
	var refused []View
	for {
		t, ok := rt.pick(retry, &skip)
		if !ok {
			break
		}
		m := t.m
		release, why, err := m.gates(ctx, false)
		if err == nil {
			t.release = release
			rt.mu.Lock()
			rt.tried.add(m.index)
			rt.mu.Unlock()
			return t, nil, nil, nil
		}
		t.cancel()
		if ctx.Err() != nil {
			return Ticket{}, nil, nil, err
		}
		skip.add(m.index)
		refused = append(refused, View{Member: m, Avail: why})
	}
	vs := rt.Views(retry)
	var waitOn *Member
	for _, r := range refused {
		vs[r.Member.index].Avail = r.Avail
		m := r.Member
		if r.Avail != Probing && (waitOn == nil ||
			int(m.waiting.Load())*waitOn.weight < int(waitOn.waiting.Load())*m.weight) {
			waitOn = m
		}
	}
	return Ticket{}, vs, waitOn, nil
}

// Take waits for m's gates as its limits allow (its concurrency limit's
// MaxWait, its rate limiter's own wait) and returns the attempt's ticket
// there; or the availability that refused it, and the gate's error. Use
// it for the member [Route.TryTake] says to wait for.
func (rt *Route) Take(ctx context.Context, m *Member) (Ticket, Availability, error) {
	m.waiting.Add(1)
	release, why, err := m.gates(ctx, true)
	m.waiting.Add(-1)
	if err != nil {
		return Ticket{}, why, err
	}
	p := rt.p
	p.mu.Lock()
	t := p.reserveLocked(m, nil, 0, time.Now())
	p.mu.Unlock()
	t.release = release
	rt.mu.Lock()
	rt.tried.add(m.index)
	rt.mu.Unlock()
	return t, Ready, nil
}

// pick chooses the member for an attempt of the call among the ready ones
// not in skip, in one pass over the members, each one's state read once
// and weighed against the best so far as it is read, and reserves it (see
// reserveLocked). The order is the pinned member unless an attempt of the
// call went there, then the members no attempt went to, then the others;
// within each group a member due for its probe first, then the picker's
// order, then the round robin's.
func (rt *Route) pick(retry bool, skip *set) (Ticket, bool) {
	p := rt.p
	tried, spent := rt.sets()
	var pinned *Member
	if rt.pin != nil {
		pinned = rt.pin.m.Load()
	}
	now := time.Now()
	out := spent.union(*skip) // members the attempt may not go to
	anyOut, anyTried := !out.empty(), !tried.empty()
	p.mu.Lock()
	ready := p.ready[:len(p.members)]
	n := 0
	// The best member so far (see [Picker] for the order): its index,
	// group, whether it is due for its probe, the strategy's figure for it
	// (lower first: see strategy.weigh) and its place in the round robin.
	// Kept in scalars, and the strategy's figure computed here, so that the
	// loop, run for every member on every attempt, keeps them in registers.
	best, bestGroup, bestFirst, bestKey, bestNext := 0, uint8(0), false, 0.0, 0.0
	strategy, members := p.strategy, p.members
	weighs := p.weighs[:len(members)]
	total, most := 0.0, 0.0 // the shares gained, the largest place in the round robin
	for i, m := range members {
		if anyOut && out.has(i) {
			continue
		}
		first := false // due for its probe
		if !m.quiet() || retry && !m.retries() {
			var ok bool
			if ok, first = readyFor(m, retry, now); !ok {
				continue
			}
		}
		group := uint8(1)
		switch {
		case anyTried && tried.has(i):
			group = 2
		case m == pinned:
			group = 0
		}
		w := &weighs[i]
		w.current += w.share
		key := 0.0
		switch strategy {
		case leastInFlight:
			key = float64(m.inFlight.Load()+1) / w.share
			first = first || w.unwell && m.neglected(now)
		case lowestLatency:
			key = m.cost(now, float64(m.inFlight.Load()+1))
		}
		better := n == 0
		switch {
		case better:
		case group != bestGroup:
			better = group < bestGroup
		case first != bestFirst:
			better = first
		case key != bestKey:
			better = key < bestKey
		default:
			better = w.current > bestNext // a tie to the member listed first
		}
		if better {
			best, bestGroup, bestFirst, bestKey, bestNext = i, group, first, key, w.current
		}
		total += w.share
		if c := w.current; c > most || -c > most {
			most = max(c, -c)
		}
		ready[n] = int32(i)
		n++
	}
	if n == 0 {
		p.mu.Unlock()
		return Ticket{}, false
	}
	ready = ready[:n]
	if most <= total {
		ready = nil // no place in the round robin to bound, save the chosen one's
	}
	t := p.reserveLocked(p.members[best], ready, total, now)
	p.mu.Unlock()
	return t, true
}

// readyFor reports whether m, which is not quiet (or whose throttle a
// retry must ask), is ready for an attempt at now (see look), and whether
// that attempt is its circuit's probe. It is kept out of the choice's loop,
// whose members are nearly all quiet.
//
//go:noinline
func readyFor(m *Member, retry bool, now time.Time) (ok, probe bool) {
	v := look(m, retry, now)
	return v.Avail == Ready, v.Probe
}

// reserveLocked reserves m for an attempt at now, p.mu held: m counts one
// more attempt in flight, loses total (what the candidates of the choice
// gained) in the round robin, the places of the members in ready (the
// candidates; nil when none needs it) bounded by it, and, as the member an
// attempt last went to, is no longer neglected (see LeastInFlight); under
// LowestLatency, an attempt that measures it again is claimed.
func (p *Pool) reserveLocked(m *Member, ready []int32, total float64, now time.Time) Ticket {
	m.before.picked, m.before.measured = m.picked, m.measured
	m.inFlight.Add(1)
	w := &p.weighs[m.index]
	w.current -= total
	m.picked = now
	// A member chosen by its load more (or less) often than its share owes
	// (or is owed) at most one round: a burst of calls that the loads
	// decided does not skew the round robin for long after it.
	w.current = max(w.current, -total)
	for _, i := range ready {
		w := &p.weighs[i]
		if w.current > total {
			w.current = total
		} else if w.current < -total {
			w.current = -total
		}
	}
	if p.strategy.measures() && (m.due(now) || m.latency.Load() == 0) {
		// The one attempt that measures it again, under LowestLatency (the
		// other strategies do not read when a member was measured).
		m.measured = now
	}
	m.turns++
	return Ticket{m: m, turn: m.turns}
}

// Ticket is an attempt's place on a member: counted in flight there, its
// gates passed. The attempt's outcome goes to [Ticket.Record], and
// [Ticket.Done] gives the place back when the attempt's function returns.
// The zero Ticket is no place: its methods do nothing.
type Ticket struct {
	m       *Member
	release func() // of its slot in m's concurrency limit; nil if none
	turn    uint64 // m.turns once reserved
}

// Member returns the member the attempt goes to, nil for the zero Ticket.
func (t *Ticket) Member() *Member { return t.m }

// Done ends the attempt on its member once its function has returned: it
// is no longer in flight, and its slot in the member's concurrency limit
// is free.
func (t *Ticket) Done() {
	if t.m == nil {
		return
	}
	t.m.inFlight.Add(-1)
	if t.release != nil {
		t.release()
	}
}

// cancel gives back t, whose member's gates refused the attempt: it is not
// in flight, and its probe or measurement is due again unless another
// attempt was reserved there since. Its turn of the round robin stays
// taken: a member refusing attempts gets fewer of them, within one round.
func (t *Ticket) cancel() {
	m := t.m
	m.inFlight.Add(-1)
	m.pool.mu.Lock()
	defer m.pool.mu.Unlock()
	if m.turns == t.turn {
		m.picked, m.measured = m.before.picked, m.before.measured
	}
}

// Record reports the attempt's outcome, o, after it took elapsed: to the
// member's breaker, which releases its permit, and to what the pool knows
// of the member (health, latency; the probe that closes its circuit gives
// it a fresh start).
func (t *Ticket) Record(o breaker.Outcome, elapsed time.Duration) {
	m := t.m
	if m == nil {
		return
	}
	closed := false
	if b := m.breaker; b != nil {
		probe := o == breaker.Healthy && !b.Closed() && b.State() == observe.BreakerHalfOpen
		b.Record(o)
		closed = probe && b.State() == observe.BreakerClosed
	}
	m.pool.measure(m, elapsed, o, closed)
}

// gates passes m's gates for one attempt: its concurrency limit, its rate
// limiter, its breaker, in that order, so that a refusal takes nothing that
// cannot be given back (a breaker's permit must be followed by a result).
// With wait false, it takes only what is free at once. It returns the
// release of the slot taken (nil if none), or why m refused (and the
// error, for a wait that ran out or a context that ended).
func (m *Member) gates(ctx context.Context, wait bool) (func(), Availability, error) {
	var release func()
	if m.sem != nil {
		maxWait := time.Duration(0)
		if wait {
			maxWait = m.semWait
		}
		r, err := m.sem.Acquire(ctx, maxWait)
		if err != nil {
			return nil, ConcurrencyFull, err
		}
		release = r
	}
	if m.limiter != nil {
		var err error
		if tl, ok := m.limiter.(limit.TryLimiter); ok && !wait {
			if !tl.TryAcquire(ctx, 1) {
				err = limit.ErrLimited
			}
		} else {
			err = m.limiter.Acquire(ctx, 1)
		}
		if err != nil {
			if release != nil {
				release()
			}
			return nil, RateFull, err
		}
	}
	if m.breaker != nil && !m.breaker.TryAcquire() {
		if release != nil {
			release()
		}
		return nil, Probing, circuitbreaker.ErrOpen
	}
	return release, Ready, nil
}

// set is a set of members by index, without allocating for the first 64.
type set struct {
	lo uint64
	hi []uint64 // members 64 and up
}

func (s *set) has(i int) bool {
	if i < 64 {
		return s.lo&(1<<i) != 0
	}
	i -= 64
	return i/64 < len(s.hi) && s.hi[i/64]&(1<<(i%64)) != 0
}

func (s *set) add(i int) {
	if i < 64 {
		s.lo |= 1 << i
		return
	}
	i -= 64
	for len(s.hi) <= i/64 {
		s.hi = append(s.hi, 0)
	}
	s.hi[i/64] |= 1 << (i % 64)
}

// empty reports whether s has no member.
func (s *set) empty() bool { return s.lo == 0 && s.hi == nil }

// union returns the members in s or in t.
func (s set) union(t set) set {
	u := set{lo: s.lo | t.lo}
	if s.hi != nil || t.hi != nil {
		for i := range max(len(s.hi), len(t.hi)) {
			w := uint64(0)
			if i < len(s.hi) {
				w = s.hi[i]
			}
			if i < len(t.hi) {
				w |= t.hi[i]
			}
			u.hi = append(u.hi, w)
		}
	}
	return u
}

// clone returns a copy of s that shares nothing with it.
func (s set) clone() set {
	if s.hi != nil {
		s.hi = append([]uint64(nil), s.hi...)
	}
	return s
}
