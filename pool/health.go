package pool

import (
	"math"
	"time"

	"github.com/resilientgo/resilient/breaker"
)

// A pool's members are weighed by their health: the share of their recent
// attempts that ended in an answer. A deployment that fails half its
// requests without ever failing often enough in a row to open its circuit
// would otherwise keep its full share of the traffic, and every call sent
// there would cost a second request half the time. Each strategy divides
// its preference for a member by the square of the member's health (see
// [Picker]): once because the member answers only that share of the calls
// it gets, once more because each one it fails costs the call a second
// request and the failed attempt's time. A member answering half its
// attempts gets about a quarter of a healthy member's calls rather than
// half, hence half the failed requests; its share comes back as its health
// does.

// healthWeight is the weight of a new outcome in a member's moving average
// of health: 1/8, so that the last dozen or so attempts dominate and one
// failure among many answers moves it little.
const healthWeight = 8

// minHealth is the least a strategy weighs a member by, for its weight:
// a member that fails every attempt (and whose circuit does not open, or
// is not there) still gets a tenth of its share, as probes, so that it is
// seen to recover and regains its traffic as it answers again.
const minHealth = 0.1

// healthSteps is how finely the strategies see health: in tenths, so that
// members within a few percent of each other (one healing from an old
// failure, say) tie, and their ties go round robin rather than always to
// the one a hair healthier.
const healthSteps = 10

// healthNow returns m's health.
func (m *Member) healthNow() float64 { return math.Float64frombits(m.health.Load()) }

// setHealth sets m's health to h, and its share: its weight times the
// square of its health (seen in tenths), at least minHealth, what the
// strategies weigh it by, and whether that is below its weight (unwell);
// Pool.mu is held.
func (m *Member) setHealth(h float64) {
	w := &m.pool.weighs[m.index]
	if h == m.healthNow() && w.share != 0 {
		return // a healthy member's answer: nothing moves
	}
	m.health.Store(math.Float64bits(h))
	seen := math.Round(h*healthSteps) / healthSteps
	w.share = float64(m.weight) * max(seen*seen, minHealth)
	w.unwell = w.share < float64(m.weight)
}

// judge adds an attempt of m that ended with o to its health; Pool.mu is
// held. Only outcomes that say something about the member count, as for
// its breaker: not a cancellation, not a rate limit (its wait hint cools
// the member down instead); a request refused for its own content shows
// the member up, and counts as an answer.
func (m *Member) judge(o breaker.Outcome) {
	switch h := m.healthNow(); o {
	case breaker.Healthy:
		m.setHealth(h + (1-h)/healthWeight)
	case breaker.Unhealthy:
		m.setHealth(h - h/healthWeight)
	}
}

// latencyWeight is the weight of a new sample in a member's moving
// average of latency: the last few attempts dominate.
const latencyWeight = 4 // 1/4

// measure adds an attempt of m that took d and ended with o to its health
// (see judge) and latency; closed says it was the probe that closed m's
// circuit, which gives m a fresh start (full health, no debt in the round
// robin for its probe): the failures that opened the circuit are past. A
// failure that says the member is unwell counts as at least twice the
// member's average, so that a member failing fast does not look fast; one
// that says nothing of it (a rate limit, a cancellation) is not counted.
//
// The answer of a member in full health, the common case, moves only its
// latency, and takes no lock (unless the strategy keeps when each member
// was measured): the pool's lock is taken once per attempt, to choose.
func (p *Pool) measure(m *Member, d time.Duration, o breaker.Outcome, closed bool) {
	measures := p.strategy.measures()
	if closed || measures || o == breaker.Unhealthy || o == breaker.Healthy && m.health.Load() != fullHealth {
		p.mu.Lock()
		defer p.mu.Unlock()
		if m.judge(o); closed {
			m.setHealth(1) // a fresh start, as when the pool was built
			p.weighs[m.index].current = 0
		}
	}
	if o == breaker.NoEvidence {
		return
	}
	m.addLatency(d, o == breaker.Unhealthy)
	if measures {
		m.measured = time.Now()
	}
}

// fullHealth is a health of 1, as Member.health holds it.
var fullHealth = math.Float64bits(1)

// addLatency adds d, an attempt's duration, to m's moving average of
// latency; unhealthy says the attempt failed in a way that says the member
// is unwell: it counts as at least twice the average.
func (m *Member) addLatency(d time.Duration, unhealthy bool) {
	for {
		old := m.latency.Load()
		avg := time.Duration(old)
		s := d
		if unhealthy {
			s = max(s, 2*avg)
		}
		if step := (s - avg) / latencyWeight; avg == 0 || step == 0 {
			// The first sample, or one within a few nanoseconds: the average
			// reaches it, rather than stopping short forever by the
			// division's truncation, so that a member whose latency came back
			// to its peers' ties with them again.
			avg = s
		} else {
			avg += step
		}
		if m.latency.CompareAndSwap(old, int64(avg)) {
			return
		}
	}
}
