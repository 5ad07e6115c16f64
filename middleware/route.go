package middleware

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/failsafe-go/failsafe-go/circuitbreaker"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/taxonomy"
)

// route is the pool state of one call: the members its attempts went to,
// and the pin it follows.
type route struct {
	tried []bool // by member index; guarded by call.mu
	spent []bool // members whose own retries are spent (see nextMember); nil until one is; guarded by call.mu
	pin   *pin   // nil: the call is not sticky
}

// availability says whether a member can take the next attempt, and if
// not, why.
type availability uint8

const (
	ready      availability = iota
	open                    // its circuit is open, or an account failure took it out of rotation
	cooling                 // it cools down after a wait hint
	throttled               // its retry throttle allows no retry
	semFull                 // its concurrency limit has no free slot
	rateFull                // its rate limiter has no room
	probing                 // half-open, and another caller holds the probe
	notChecked              // a member before it was chosen
	spent                   // a resilient member that gave up on this call
)

// view is a member's availability at one moment.
type view struct {
	m     *member
	left  time.Duration // of an open circuit or a cooldown
	avail availability
	probe bool // ready, and its circuit is not closed: the next attempt is its probe
	out   bool // open after an account failure (see takeOut)
}

// why returns the account failure that keeps v's member out of rotation,
// "" when none does.
func (v view) why() string {
	if !v.out {
		return ""
	}
	return v.m.out.Load().why // never nil once set: a later failure replaces it
}

func (v view) String() string {
	switch v.avail {
	case open:
		if !v.out {
			return fmt.Sprintf("%s: circuit open (%v left)", v.m.name, v.left.Round(time.Millisecond))
		}
		return fmt.Sprintf("%s: out of rotation (%v left) after an account failure: %s", v.m.name, v.left.Round(time.Millisecond), v.why())
	case cooling:
		return fmt.Sprintf("%s: cooling down (%v left)", v.m.name, v.left.Round(time.Millisecond))
	case throttled:
		return v.m.name + ": retries throttled"
	case semFull:
		return v.m.name + ": concurrency limit full"
	case rateFull:
		return v.m.name + ": rate limit full"
	case probing:
		return v.m.name + ": probe in flight"
	case spent:
		return v.m.name + ": its own retries spent"
	}
	return v.m.name + ": ready"
}

// describeViews renders every member's availability for an error's detail.
func describeViews(vs []view) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = v.String()
	}
	return strings.Join(parts, "; ")
}

// look returns the availability of m for an attempt at now; retry is true
// when the attempt would be a retry, which the member's throttle may
// refuse.
func look(m *member, retry bool, now time.Time) view {
	probe := false
	out := m.out.Load()
	if out != nil && !now.Before(out.until) {
		out = nil // over: the next attempt finds out whether the account is back
	}
	if b := m.breaker; b != nil {
		switch b.State() {
		case observe.BreakerOpen:
			if left := b.RemainingDelay(); left > 0 {
				return view{m: m, avail: open, left: left, out: out != nil}
			}
			probe = true // the delay is over: the next caller to ask gets the probe
		case observe.BreakerHalfOpen:
			// Its one probe is in flight, here or in another pipeline that
			// shares the breaker: the attempt that half-opened it took its
			// one permit at once, and gives it back only with the result
			// that closes or reopens it. No other attempt may go, and none
			// should take anything from its limits on the way.
			return view{m: m, avail: probing}
		}
	} else if out != nil {
		return view{m: m, avail: open, left: out.until.Sub(now), out: true}
	}
	if left := m.cooldown(now); left > 0 {
		return view{m: m, avail: cooling, left: left}
	}
	if retry && m.breaker != nil && !m.noThrottle && !m.breaker.AllowsRetry() {
		return view{m: m, avail: throttled}
	}
	return view{m: m, avail: ready, probe: probe}
}

// views returns the availability of every member.
func (b *Balancer) views(retry bool) []view {
	now := time.Now()
	vs := make([]view, len(b.members))
	for i, m := range b.members {
		vs[i] = look(m, retry, now)
	}
	return vs
}

// order returns the ready members of vs in the order the call should try
// them: its pinned member first unless an attempt of the call already went
// there, then the members no attempt of the call went to, then the others,
// each group in the strategy's order, save that a member due for the probe
// of its circuit, or neglected (see neglected), comes first in its group:
// its health is low after the failures that opened the circuit, and the
// probe is what restores it.
//
// The first member is reserved for the caller at once, under the same lock
// as the choice (see reserve): the callers of a burst that arrive together
// see it chosen, so that they spread over the members and a member due for
// its probe gets one attempt of the burst, not one per caller, however
// long its gates take to answer.
func (b *Balancer) order(vs []view, rt *route, tried []bool) ([]*member, *reservation) {
	var cands []*member
	probe := make([]bool, len(vs))
	for _, v := range vs {
		if v.avail == ready {
			cands = append(cands, v.m)
			probe[v.m.index] = v.probe
		}
	}
	if len(cands) == 0 {
		return nil, nil
	}
	var pinned *member
	if rt.pin != nil {
		pinned = rt.pin.m.Load()
	}
	now := time.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	group := func(m *member) int {
		switch {
		case tried[m.index]:
			return 2
		case m == pinned:
			return 0
		}
		return 1
	}
	slices.SortStableFunc(cands, func(x, y *member) int {
		if gx, gy := group(x), group(y); gx != gy {
			return gx - gy
		}
		if px, py := probe[x.index] || b.neglected(x, now), probe[y.index] || b.neglected(y, now); px != py {
			if px {
				return -1
			}
			return 1
		}
		switch b.strategy {
		case RoundRobin:
		case LowestLatency:
			if c := cmp.Compare(x.cost(now), y.cost(now)); c != 0 {
				return c
			}
		default: // LeastInFlight: (x.inFlight+1)/x.share() against y's, without division
			if c := cmp.Compare(float64(x.inFlight.Load()+1)*y.share(), float64(y.inFlight.Load()+1)*x.share()); c != 0 {
				return c
			}
		}
		// Round robin, and the tie-break of the others: each candidate
		// gains its share, then the highest goes first (smooth weighted
		// round robin, see chosen); a tie goes to the first listed.
		if c := cmp.Compare(y.current+y.share(), x.current+x.share()); c != 0 {
			return c
		}
		return x.index - y.index
	})
	return cands, b.reserveLocked(cands[0], cands, now)
}

// cost is m's cost under LowestLatency at now; b.mu is held. A member not
// measured for its probe period costs nothing, so that it is measured.
func (m *member) cost(now time.Time) float64 {
	if m.measured.IsZero() || now.Sub(m.measured) > m.probeEvery {
		return 0
	}
	return float64(m.latency) * float64(m.inFlight.Load()+1) / m.share()
}

// reservation is an attempt counted on a member before it passes the
// member's gates: in flight, its turn of the round robin taken, its probe
// or measurement claimed. It is kept when the gates let the attempt
// through, and cancelled when they refuse it.
type reservation struct {
	b                *Balancer
	m                *member
	turn             uint64    // m.turns once reserved
	picked, measured time.Time // m's before
}

// reserve reserves m for an attempt, chosen among cands.
func (b *Balancer) reserve(m *member, cands []*member) *reservation {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.reserveLocked(m, cands, time.Now())
}

// reserveLocked is reserve at now, b.mu held: m counts one more attempt in
// flight, takes its turn of the round robin (each candidate gains its
// share, m loses their sum) and, as the member an attempt last went to,
// is no longer neglected; under LowestLatency, an attempt that measures it
// again is claimed.
func (b *Balancer) reserveLocked(m *member, cands []*member, now time.Time) *reservation {
	r := &reservation{b: b, m: m, picked: m.picked, measured: m.measured}
	m.inFlight.Add(1)
	total := 0.0
	for _, c := range cands {
		c.current += c.share()
		total += c.share()
	}
	m.current -= total
	m.picked = now
	for _, c := range cands {
		// A member chosen by its load more (or less) often than its share
		// owes (or is owed) at most one round: a burst of calls that the
		// loads decided does not skew the round robin for long after it.
		c.current = min(max(c.current, -total), total)
	}
	if m.cost(now) == 0 {
		// The one attempt that measures it again (only LowestLatency reads
		// the cost; under the others the claim changes nothing).
		m.measured = now
	}
	m.turns++
	r.turn = m.turns
	return r
}

// done ends the attempt r reserved, once its function has returned.
func (r *reservation) done() { r.m.inFlight.Add(-1) }

// cancel gives back r, whose member's gates refused the attempt: it is not
// in flight, and its probe or measurement is due again unless another
// attempt was reserved there since. Its turn of the round robin stays
// taken: a member refusing attempts gets fewer of them, within one round.
func (r *reservation) cancel() {
	r.m.inFlight.Add(-1)
	r.b.mu.Lock()
	defer r.b.mu.Unlock()
	if r.m.turns == r.turn {
		r.m.picked, r.m.measured = r.picked, r.measured
	}
}

// latencyWeight is the weight of a new sample in a member's moving
// average of latency: the last few attempts dominate.
const latencyWeight = 4 // 1/4

// measure adds an attempt of m that took d and ended with o to its
// health (see judge) and latency; closed says it was the probe that closed
// m's circuit, which gives m a fresh start (full health, no debt in the
// round robin for its probe): the failures that opened the circuit are
// past. A failure that says the member is unwell counts as at least
// twice the member's average, so that a member failing fast does not look
// fast; one that says nothing of it (a rate limit, a cancellation) is not
// counted.
func (b *Balancer) measure(m *member, d time.Duration, o breaker.Outcome, closed bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if m.judge(o); closed {
		m.health, m.current = 1, 0 // a fresh start, as when the pool was built
	}
	switch o {
	case breaker.NoEvidence:
		return
	case breaker.Unhealthy:
		d = max(d, 2*m.latency)
	}
	if step := (d - m.latency) / latencyWeight; m.latency == 0 || step == 0 {
		// The first sample, or one within a few nanoseconds: the average
		// reaches it, rather than stopping short forever by the division's
		// truncation, so that a member whose latency came back to its peers'
		// ties with them again.
		m.latency = d
	} else {
		m.latency += step
	}
	m.measured = time.Now()
}

// gates passes m's gates for one attempt: its concurrency limit, its rate
// limiter, its breaker, in that order, so that a refusal takes nothing that
// cannot be given back (a breaker's permit must be followed by a result).
// With wait false, it takes only what is free at once. It returns the
// release of the slot taken, or why m refused (and the error, for a wait
// that ran out or a context that ended).
func (m *member) gates(ctx context.Context, wait bool) (func(), availability, error) {
	release := func() {}
	if m.sem != nil {
		maxWait := time.Duration(0)
		if wait {
			maxWait = m.semWait
		}
		r, err := m.sem.Acquire(ctx, maxWait)
		if err != nil {
			return nil, semFull, err
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
			release()
			return nil, rateFull, err
		}
	}
	if m.breaker != nil && !m.breaker.TryAcquire() {
		release()
		return nil, probing, circuitbreaker.ErrOpen
	}
	return release, ready, nil
}

// toMember chooses the member that attempt number of c goes to, and passes
// its gates: a ready member whose gates are free at once, in the order of
// [Balancer.order]; else the first one whose limits had no room, waiting
// for them as they allow; else, when members only cool down, the end of the
// first cooldown, unless the attempt slept for one already (slept). It
// returns the member and the release of its slots, or the error that
// concludes an attempt no member took.
func (c *call[R]) toMember(ctx context.Context, number int, slept bool) (*member, func(), error) {
	b := c.p.bal
	for ; ; slept = true {
		vs, tried := c.memberViews(number)
		cands, held := b.order(vs, c.rt, tried)
		var waitOn *member
		for i, m := range cands {
			if i > 0 {
				held = b.reserve(m, cands)
			}
			release, why, err := m.gates(ctx, false)
			if err == nil {
				return m, c.admitted(m, held, release), nil
			}
			held.cancel()
			if ctx.Err() != nil {
				return nil, nil, c.refuseGate(number, ctx, err, taxonomy.Class{}, nil)
			}
			vs[m.index].avail = why
			// Wait where the queue is shortest for the member's weight (the
			// first in order on a tie): waiters spread over the members.
			if why != probing && (waitOn == nil ||
				int(m.waiting.Load())*waitOn.weight < int(waitOn.waiting.Load())*m.weight) {
				waitOn = m
			}
		}
		if waitOn != nil {
			waitOn.waiting.Add(1)
			release, why, err := waitOn.gates(ctx, true)
			waitOn.waiting.Add(-1)
			if err == nil {
				return waitOn, c.admitted(waitOn, b.reserve(waitOn, cands), release), nil
			}
			vs[waitOn.index].avail = why
			c.setTarget(number, waitOn.name)
			return nil, nil, c.refuseGate(number, ctx, err, gateClass(why), c.gateRefusal(number, why, vs))
		}
		if !slept {
			if waited, err := c.awaitCooling(ctx, number, vs); err != nil || waited {
				if err != nil {
					return nil, nil, err
				}
				continue
			}
		}
		if accountsOut(vs) {
			return nil, nil, c.conclude(number, 0, errAccountsOut, accountsOutClass,
				&decision{reason: observe.ReasonPermanent, detail: "no member available: " + describeViews(vs)})
		}
		return nil, nil, c.conclude(number, 0, errNoMember, noMemberClass, c.noMember(number, vs))
	}
}

// memberViews returns the availability of every member for attempt number
// of c, a member whose own retries are spent for the call marked so, and
// the members the call's attempts went to.
func (c *call[R]) memberViews(number int) ([]view, []bool) {
	vs := c.p.bal.views(number > 1)
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, s := range c.rt.spent {
		if s {
			vs[i].avail = spent
		}
	}
	return vs, slices.Clone(c.rt.tried)
}

// beforeMember waits, before attempt number of c takes anything of the
// pool's own limits, while no member is ready and some cool down (see
// awaitCooling): the wait is for a member, not for the pool, and holds
// none of the pool's slots. It reports whether it waited.
func (c *call[R]) beforeMember(ctx context.Context, number int) (bool, error) {
	vs, _ := c.memberViews(number)
	for _, v := range vs {
		if v.avail == ready {
			return false, nil
		}
	}
	return c.awaitCooling(ctx, number, vs)
}

// awaitCooling waits, when members of vs cool down, for the first to be
// back, as a plain pipeline waits out a Retry-After, unless that passes the
// call's deadline: then attempt number fails at once, for the caller's
// fallbacks, rather than when its time is up. It reports whether it
// waited, or returns the error that concludes the attempt.
func (c *call[R]) awaitCooling(ctx context.Context, number int, vs []view) (bool, error) {
	soonest := soonestCooldown(vs)
	if soonest == 0 {
		return false, nil
	}
	if d := cmp.Or(c.overCapWait(soonest), c.pastDeadline(soonest)); d != nil {
		d.detail += "; no member available: " + describeViews(vs)
		return false, c.conclude(number, 0, errNoMember, noMemberClass, d)
	}
	if err := sleep(ctx, soonest); err != nil {
		return false, c.refuseGate(number, ctx, err, taxonomy.Class{}, nil)
	}
	c.waited(number, soonest)
	return true, nil
}

// errNoMember is the failure of an attempt that no member of a pool could
// take (its final error's detail says why, member by member); it matches
// circuitbreaker.ErrOpen, as the refusal of a plain pipeline's breaker does.
var errNoMember = fmt.Errorf("middleware: no member available: %w", circuitbreaker.ErrOpen)

// noMemberClass is the class of an attempt no member could take.
var noMemberClass = taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "no member available"}

// admitted records that attempt of c goes to m, reserved by held, whose
// gates it passed, and returns the release of everything the attempt holds
// there.
func (c *call[R]) admitted(m *member, held *reservation, release func()) func() {
	c.mu.Lock()
	c.rt.tried[m.index] = true
	c.mu.Unlock()
	return func() {
		held.done()
		release()
	}
}

// waited records that attempt number waited d more before it started, in
// the attempt and in the run's usage.
func (c *call[R]) waited(number int, d time.Duration) {
	c.mu.Lock()
	c.attempts[number-1].Wait += d
	c.mu.Unlock()
	c.run.AddWaited(d)
}

// setTarget records the member that attempt number went to (or was
// refused by).
func (c *call[R]) setTarget(number int, name string) {
	c.mu.Lock()
	c.attempts[number-1].Target = name
	c.mu.Unlock()
}

// gateClass is the class of an attempt that a member's gate refused.
func gateClass(why availability) taxonomy.Class {
	switch why {
	case semFull:
		return concurrencyClass
	case rateFull:
		return rateLimitClass
	}
	return taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "circuit open"}
}

// gateRefusal decides about attempt n, which a member's gate refused for
// why after its wait; vs is every member's availability.
func (c *call[R]) gateRefusal(n int, why availability, vs []view) *decision {
	detail := "no member available: " + describeViews(vs)
	switch why {
	case semFull:
		return &decision{reason: observe.ReasonConcurrency, detail: detail, refused: true}
	case rateFull:
		return &decision{reason: observe.ReasonRateLimit, detail: detail, refused: true}
	}
	return c.noMember(n, vs)
}

// soonestCooldown returns the shortest cooldown among vs, 0 if none cools
// down.
func soonestCooldown(vs []view) time.Duration {
	var soonest time.Duration
	for _, v := range vs {
		if v.avail == cooling { // v.left > 0
			soonest = min(cmp.Or(soonest, v.left), v.left)
		}
	}
	return soonest
}

// noMember decides about attempt n of a call when no member can take it:
// retries throttled on every member that is up, or every circuit open. The
// latter fails fast for the caller's fallbacks, or with [WaitWhileOpen]
// waits for the first probe.
func (c *call[R]) noMember(n int, vs []view) *decision {
	detail := "no member available: " + describeViews(vs)
	var remaining time.Duration
	for _, v := range vs {
		switch v.avail {
		case throttled:
			return &decision{reason: observe.ReasonThrottled, detail: detail, refused: true}
		case open: // v.left > 0
			remaining = min(cmp.Or(remaining, v.left), v.left)
		}
	}
	return c.waitForProbe(n, remaining, &decision{reason: observe.ReasonCircuitOpen, detail: detail, refused: true})
}

// decideRoute decides where and when the retry of attempt n goes, after
// failed, a member of the pool, failed with class (a retryable kind, with
// attempts left; a wait hint has cooled failed down already, see
// coolDown). Then: another member ready now takes the retry
// at once; else failed itself, after its backoff; else the first member to
// end its cooldown, when it does; else the call stops (every member
// throttled or down).
func (c *call[R]) decideRoute(n int, class taxonomy.Class, failed *member) *decision {
	cfg := &c.p.cfg
	overCap := class.RetryAfter > cfg.retryAfterCap
	vs := c.p.bal.views(true)
	other, self := false, false
	for _, v := range vs {
		switch {
		case v.avail != ready:
		case v.m == failed:
			self = true
		default:
			other = true
		}
	}
	var wait time.Duration
	source := taxonomy.WaitNextMember
	switch {
	case class.Kind == taxonomy.ContextOverflow:
		source = taxonomy.WaitBackoff // the function repairs the request; any member will do
	case other:
	case self:
		wait, source = c.p.backoff(n), taxonomy.WaitBackoff
	case overCap && failed != nil && soonestCooldown(vs) == 0:
		return &decision{reason: observe.ReasonRetryAfterOverCap,
			detail: fmt.Sprintf("%s asked for %v, cap is %v; no other member available", failed.name, class.RetryAfter, cfg.retryAfterCap)}
	default:
		if wait = soonestCooldown(vs); wait == 0 {
			return c.noMember(n, vs)
		}
		if d := c.overCapWait(wait); d != nil {
			d.detail += "; no member available: " + describeViews(vs)
			return d
		}
		source = taxonomy.WaitRetryAfter
		if failed != nil && class.WaitSource != taxonomy.WaitBackoff {
			if v := vs[failed.index]; v.avail == cooling && v.left == wait {
				source = class.WaitSource // the member that asked is the first back
			}
		}
	}
	if d := c.pastDeadline(wait); d != nil {
		return d
	}
	return c.retryAfter(wait, source)
}

// overCapWait stops a call that would wait longer than the Retry-After
// cap for the first member to end its cooldown: a member without a
// breaker cools down for the whole of a hint over the cap (bounded by
// MaxHold), and the call must not wait it out where a plain pipeline
// would stop. It returns nil when wait is within the cap.
func (c *call[R]) overCapWait(wait time.Duration) *decision {
	if limit := c.p.cfg.retryAfterCap; wait > limit {
		return &decision{reason: observe.ReasonRetryAfterOverCap,
			detail: fmt.Sprintf("the first member back ends its cooldown in %v, cap is %v", wait.Round(time.Millisecond), limit)}
	}
	return nil
}

// nextMember decides about attempt n of a pool's call, which failed with
// the final error of an inner pipeline (a member that is itself resilient)
// that stopped for reason: a retry at once when reason is one another
// target may fix (the member is failing, holding off or over a limit of
// the caller's, or failed for its account: see takeOut) and a member no
// attempt of the call went to is ready, within the attempts of class's
// kind; nil otherwise, and for a plain pipeline.
// The member that failed, m, is not asked again by the call: its own
// retries are done.
func (c *call[R]) nextMember(n int, class taxonomy.Class, reason observe.Reason, m *member) *decision {
	if m == nil { // a plain pipeline's attempt, or one no member took
		return nil
	}
	c.mu.Lock()
	if c.rt.spent == nil {
		c.rt.spent = make([]bool, len(c.rt.tried))
	}
	c.rt.spent[m.index] = true
	tried := slices.Clone(c.rt.tried)
	c.mu.Unlock()
	if n >= c.p.cfg.attemptsFor(class.Kind) {
		return nil
	}
	switch reason {
	case observe.ReasonExhausted, observe.ReasonCircuitOpen, observe.ReasonRetryAfterOverCap, observe.ReasonThrottled, observe.ReasonRejected, observe.ReasonConcurrency, observe.ReasonRateLimit:
		// Another member may answer: this one is failing, holding off, or
		// over a limit of the caller's.
	case observe.ReasonPermanent:
		if !accountFailure(class) {
			return nil
		}
		// Another member's account may serve the request (see takeOut).
	default:
		return nil
	}
	for _, v := range c.p.bal.views(true) {
		if v.avail == ready && !tried[v.m.index] {
			if d := c.pastDeadline(0); d != nil {
				return d
			}
			return c.retryAfter(0, taxonomy.WaitNextMember)
		}
	}
	return nil
}

// coolDown makes m, whose attempt failed with class, cool down for the
// wait its answer asked for, whether or not the call retries, so that no
// call asks it again before; a hint over the cap holds its circuit open
// instead (bounded by its MaxHold), as a plain pipeline does. An account
// failure takes m out of rotation instead (see takeOut).
func (c *call[R]) coolDown(m *member, class taxonomy.Class) {
	if accountFailure(class) {
		c.takeOut(m, class)
		return
	}
	if class.Kind == taxonomy.ContextOverflow || class.Kind == taxonomy.Canceled || class.RetryAfter <= 0 {
		return
	}
	d, overCap := class.RetryAfter, class.RetryAfter > c.p.cfg.retryAfterCap
	if overCap && m.breaker != nil {
		m.breaker.HoldOpen(min(d, c.p.cfg.maxHold))
		return
	}
	d = min(d, c.p.cfg.maxHold)
	if m.coolFor(d) && c.p.obs.Active() {
		c.p.obs.Observe(c.caller, observe.Cooldown{Target: m.name, Wait: d})
	}
}

// errAccountsOut concludes an attempt that no member took because every
// member is out of rotation after an account failure.
var errAccountsOut = errors.New("middleware: every member is out of rotation after an account failure")

// accountsOutClass is the class of that attempt: an account failure, so
// that the caller's fallbacks take the call as they took the one that
// found the last member's account failing.
var accountsOutClass = taxonomy.Class{Kind: taxonomy.Permanent, Rule: "every member out after an account failure", AccountFailure: true}

// accountsOut reports whether every member of vs is out of rotation after
// an account failure: no wait brings one back soon, and the call fails
// permanently, as the call that took the last one out did.
func accountsOut(vs []view) bool {
	for _, v := range vs {
		if !v.out {
			return false
		}
	}
	return len(vs) > 0
}

// accountFailure reports whether class is a permanent failure of the
// account or deployment the attempt went to, not of the request: another
// member may serve the same request (see taxonomy.Class.AccountFailure; a
// missing model counts, for a classifier of the caller's that says only
// that).
func accountFailure(class taxonomy.Class) bool {
	return class.Kind == taxonomy.Permanent && (class.AccountFailure || class.ModelMissing)
}

// outage is why, and until when, an account failure keeps a member out of
// rotation.
type outage struct {
	until time.Time
	why   string // the failure's rule and status, for errors' details
}

// takeOut takes m, whose attempt failed for its account (a key refused, a
// quota used up, a deployment missing), out of rotation for its MaxHold:
// its circuit is held open that long (a BreakerChange when it opens), or,
// without a breaker, it gets no attempt that long. Every account fails the
// same way until someone fixes it, so no call should spend a request
// there before: after the hold, one attempt (its circuit's probe) finds
// out whether it is back. It is reported as a [observe.Suspended] event, once
// however many calls in flight there fail so.
func (c *call[R]) takeOut(m *member, class taxonomy.Class) {
	d := m.maxHold
	if m.breaker != nil {
		d = min(d, m.breaker.MaxHold()) // a shared breaker may hold for less
	}
	why := class.Rule
	if class.Status != 0 && !strings.HasPrefix(why, "status ") {
		why += fmt.Sprintf(", status %d", class.Status)
	}
	now := time.Now()
	prev := m.out.Swap(&outage{until: now.Add(d), why: why})
	if m.breaker != nil {
		m.breaker.HoldOpen(d)
	}
	// Calls in flight there when it was taken out fail the same way: one
	// event per time out of rotation, as a cooldown is reported once.
	if (prev == nil || !now.Before(prev.until)) && c.p.obs.Active() {
		c.p.obs.Observe(c.caller, observe.Suspended{Target: m.name, For: d, Class: class})
	}
}

// decideSwitch decides about attempt n, which failed, a member of the
// pool, failed for its account (takeOut has taken failed out of rotation
// already). The request is not at fault, so it goes at once, without a
// backoff, to a ready member no attempt of the call went to: such a switch
// counts as an attempt, but neither the attempt limits nor the run's retry
// budget stop it, since it is no retry of the request where it failed, and
// a call makes fewer switches than the pool has members. Without such a
// member, another ready member takes a retry within the limits and the
// budget. Without one, the call fails permanently, with each member's
// state. [SingleAttempt] makes no switch.
func (c *call[R]) decideSwitch(n int, failed *member) *decision {
	vs, tried := c.memberViews(n + 1)
	untried, other := false, false
	for _, v := range vs {
		if v.avail == ready && v.m != failed {
			other = true
			untried = untried || !tried[v.m.index]
		}
	}
	cfg := &c.p.cfg
	stop := &decision{reason: observe.ReasonPermanent, detail: "no other member available: " + describeViews(vs)}
	switch {
	case cfg.noRetries || !other:
		return stop
	case untried && c.countAttempts(accountFailure)+1 < len(vs):
		return &decision{retry: true, source: taxonomy.WaitNextMember}
	case n >= cfg.attemptsFor(taxonomy.Transient):
		return stop
	}
	return c.retryAfter(0, taxonomy.WaitNextMember)
}

// sleep waits d or until ctx ends, and returns ctx's error then.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
