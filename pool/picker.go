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
// The pool asks its picker once per attempt, in one pass over its members
// under its lock: each member's gates and load are read once, and a ready
// member is weighed against the best one so far as it is read, what else
// the strategy weighs (latency, the time of the last attempt) read once.
type Picker interface {
	// String returns the strategy's lowercase name, e.g. "round_robin".
	String() string
	// strategy says which of the package's strategies it is: the choice
	// weighs each member as it reads it, in the one pass over the members
	// (see [strategy.better]), without a call through the interface per
	// member.
	strategy() strategy
}

// strategy is one of the package's strategies, as the choice of a member
// applies it.
type strategy uint8

const (
	leastInFlight strategy = iota
	roundRobin
	lowestLatency
)

// measures reports whether s reads when each member's latency was last
// measured (the pool keeps it only then: it costs a reading of the clock
// per attempt).
func (s strategy) measures() bool { return s == lowestLatency }

// The choice of a member (Route.pick) weighs each ready member as it
// reads it, by its strategy's figure, the lower the sooner it is chosen:
// under LeastInFlight its attempts in flight, the new one counted, for its
// share (weight times health squared); under LowestLatency its cost (see
// Member.cost); under RoundRobin none, the round robin alone. Under
// LeastInFlight a neglected member is due for its probe (see
// Member.neglected).

// neglected reports whether m, whose health (seen in tenths) is below full,
// has had no attempt for its breaker's delay at now; Pool.mu is held.
// Least in flight weighs the load an attempt would add, so an idle member
// of poor health loses to an idle healthy one: with few calls in flight it
// would get none, and never be seen to recover. One attempt per delay is
// its probe, as LowestLatency measures a member it has not measured for
// that long.
func (m *Member) neglected(now time.Time) bool { return now.Sub(m.picked) > m.probeEvery }

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

func (LeastInFlight) strategy() strategy { return leastInFlight }

// RoundRobin takes the members in turn, each as often as its weight times
// its health squared (smooth weighted round robin, as nginx does it): for
// members of known capacity.
type RoundRobin struct{}

// String returns "round_robin".
func (RoundRobin) String() string { return "round_robin" }

func (RoundRobin) strategy() strategy { return roundRobin }

// LowestLatency chooses the member whose recent latency (a moving average
// of its attempts) times its attempts in flight plus one, for its weight
// times its health squared, is lowest. A member not measured for one
// breaker delay is tried again first, once (one attempt of a burst that
// finds it due), so that a member that was slow and recovered gets its
// traffic back.
type LowestLatency struct{}

// String returns "lowest_latency".
func (LowestLatency) String() string { return "lowest_latency" }

func (LowestLatency) strategy() strategy { return lowestLatency }

// cost is m's cost under LowestLatency at now with load attempts in
// flight, the new one counted; Pool.mu is held. A member not measured for
// its probe period costs nothing, so that it is measured.
func (m *Member) cost(now time.Time, load float64) float64 {
	if m.due(now) {
		return 0
	}
	return float64(m.latency.Load()) * load / m.pool.weighs[m.index].share
}

// due reports whether m has not been measured for its probe period at now;
// Pool.mu is held.
func (m *Member) due(now time.Time) bool {
	return m.measured.IsZero() || now.Sub(m.measured) > m.probeEvery
}
