package pool

import "time"

// Picker is a pool's strategy: how it chooses, among the members ready for
// an attempt, the one the attempt goes to. Each strategy is a type of its
// own: [LeastInFlight] (the default), [RoundRobin], [LowestLatency]. The
// interface's other methods are unexported: a strategy weighs what the pool
// keeps of its members under its lock, so the strategies are this
// package's.
//
// Every strategy weighs each member by its weight times the square of its
// health, the share of its recent attempts that were answered (a moving
// average over the last dozen or so, seen in tenths; the square at least a
// tenth): only failures that count against its breaker count, not a rate
// limit, a cancellation or a request refused for its own content. Squared,
// because such a member answers only that share of the calls it gets and
// each one it fails costs a second request: a member failing half its
// requests, which rarely fails often enough in a row to open its circuit,
// gets about a quarter of the share of a healthy one; a member that
// answers again regains its share as its health does, and the probe that
// closes its circuit restores it at once. Ties go by smooth weighted round
// robin on weight times that weighing (as nginx does it), then to the
// member listed first.
//
// Before the strategy, the pool puts first the member the call's run or
// [Sticky] key stuck to (unless an attempt of the call went there
// already), then the members no attempt of the call went to, and within
// each of these groups a member due for the probe of its circuit: its
// health is low after the failures that opened the circuit, and the probe
// is what restores it.
//
// The pool asks its picker once per attempt: it collects the ready members
// in one pass over its members, under its lock, each one's gates and load
// read once, and the picker chooses among them in one pass, reading what
// else it weighs (latency, the time of the last attempt) once.
type Picker interface {
	// String returns the strategy's lowercase name, e.g. "round_robin".
	String() string
	// pick returns the index in cands (at least one, in no particular
	// order) of the member the attempt goes to, members being the pool's;
	// Pool.mu is held.
	pick(members []*Member, cands []candidate, now time.Time) int
	// measures reports whether the strategy reads when each member's
	// latency was last measured (the pool keeps it only then: it costs a
	// reading of the clock per attempt).
	measures() bool
}

// candidate is a ready member as a choice sees it. It holds no pointer,
// so that filling the pool's slice of them costs no write barrier.
type candidate struct {
	index  int32   // of the member
	group  uint8   // 0: the pinned member, 1: not tried by the call, 2: tried
	first  bool    // due for its probe: first in its group
	unwell bool    // its health, seen in tenths, below full
	share  float64 // its weigh's
	load   float64 // attempts in flight, counting the new one
	next   float64 // its place in the round robin, its share gained
}

// before reports whether x goes before y as the pool orders them (see
// [Picker]) when the strategy does not tell them apart (order is 0) or
// says which goes first (negative: x): group, probe, strategy, round robin,
// then the member listed first.
func before(x, y *candidate, order int) bool {
	if x.group != y.group {
		return x.group < y.group
	}
	if x.first != y.first {
		return x.first
	}
	if order != 0 {
		return order < 0
	}
	if x.next != y.next {
		return x.next > y.next
	}
	return x.index < y.index
}

// compare returns -1 when a < b, 1 when a > b, else 0 (the strategies'
// figures are never NaN).
func compare(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// LeastInFlight chooses the member whose attempts in flight, counting the
// new one, are fewest for its weight times its health squared; ties go
// round robin, so that one caller alone spreads its calls too. A slow
// member has more calls in flight and gets fewer new ones; among idle
// members the healthiest wins, so that a member that failed gets no call
// while a healthier one is idle, save one, its probe, when it has had none
// for one breaker delay: without it, a member that failed when traffic was
// light would never be seen to recover. An attempt counts from the moment
// its member is chosen, before its gates answer: callers arriving together
// spread over the members, and a member due for its probe gets one of
// them. The default.
type LeastInFlight struct{}

// String returns "least_in_flight".
func (LeastInFlight) String() string { return "least_in_flight" }

func (LeastInFlight) measures() bool { return false }

func (LeastInFlight) pick(members []*Member, cands []candidate, now time.Time) int {
	best := 0
	for i := range cands {
		c := &cands[i]
		// Neglected: its health (seen in tenths) is below full and it has
		// had no attempt for its breaker's delay. Least in flight weighs
		// the load an attempt would add, so an idle member of poor health
		// loses to an idle healthy one: with few calls in flight it would
		// get none, and never be seen to recover. One attempt per delay is
		// its probe, as LowestLatency measures a member it has not measured
		// for that long.
		if c.unwell && now.Sub(members[c.index].picked) > members[c.index].probeEvery {
			c.first = true
		}
		// Its load for its share against the best's, without division.
		if b := &cands[best]; i > 0 && before(c, b, compare(c.load*b.share, b.load*c.share)) {
			best = i
		}
	}
	return best
}

// RoundRobin takes the members in turn, each as often as its weight times
// its health squared (smooth weighted round robin, as nginx does it): for
// members of known capacity.
type RoundRobin struct{}

// String returns "round_robin".
func (RoundRobin) String() string { return "round_robin" }

func (RoundRobin) measures() bool { return false }

func (RoundRobin) pick(_ []*Member, cands []candidate, _ time.Time) int {
	best := 0
	for i := 1; i < len(cands); i++ {
		if before(&cands[i], &cands[best], 0) {
			best = i
		}
	}
	return best
}

// LowestLatency chooses the member whose recent latency (a moving average
// of its attempts) times its attempts in flight plus one, for its weight
// times its health squared, is lowest. A member not measured for one
// breaker delay is tried again first, once (one attempt of a burst that
// finds it due), so that a member that was slow and recovered gets its
// traffic back.
type LowestLatency struct{}

// String returns "lowest_latency".
func (LowestLatency) String() string { return "lowest_latency" }

func (LowestLatency) measures() bool { return true }

func (LowestLatency) pick(members []*Member, cands []candidate, now time.Time) int {
	best, bestCost := 0, 0.0
	for i := range cands {
		cost := members[cands[i].index].cost(now, cands[i].load)
		if i == 0 || before(&cands[i], &cands[best], compare(cost, bestCost)) {
			best, bestCost = i, cost
		}
	}
	return best
}

// cost is m's cost under LowestLatency at now with load attempts in
// flight, the new one counted; Pool.mu is held. A member not measured for
// its probe period costs nothing, so that it is measured.
func (m *Member) cost(now time.Time, load float64) float64 {
	if m.due(now) {
		return 0
	}
	return float64(m.latency) * load / m.pool.weighs[m.index].share
}

// due reports whether m has not been measured for its probe period at now;
// Pool.mu is held.
func (m *Member) due(now time.Time) bool {
	return m.measured.IsZero() || now.Sub(m.measured) > m.probeEvery
}
