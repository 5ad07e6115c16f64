package middleware

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
// [Balance]): once because the member answers only that share of the
// calls it gets, once more because each one it fails costs the call a
// second request and the failed attempt's time. A member answering half
// its attempts gets about a quarter of a healthy member's calls rather
// than half, hence half the failed requests; its share comes back as its
// health does.

// healthWeight is the weight of a new outcome in a member's moving average
// of health: 1/8, so that the last dozen or so attempts dominate and one
// failure among many answers moves it little.
const healthWeight = 8

// minHealth is the least a strategy weighs a member by, for its weight:
// a member that fails every attempt (and whose circuit does not open, or
// is not there) still gets a tenth of its share, as probes, so that it is
// seen to recover and regains its traffic as it answers again.
const minHealth = 0.1

// judge adds an attempt of m that ended with o to its health; b.mu is held.
// Only outcomes that say something about the member count, as for its
// breaker: not a cancellation, not a rate limit (its wait hint cools the
// member down instead); a request refused for its own content shows the
// member up, and counts as an answer.
func (m *member) judge(o breaker.Outcome) {
	switch o {
	case breaker.Healthy:
		m.health += (1 - m.health) / healthWeight
	case breaker.Unhealthy:
		m.health -= m.health / healthWeight
	}
}

// healthSteps is how finely the strategies see health: in tenths, so that
// members within a few percent of each other (one healing from an old
// failure, say) tie, and their ties go round robin rather than always to
// the one a hair healthier.
const healthSteps = 10

// share is m's weight times the square of its health (seen in tenths),
// at least minHealth: what the strategies weigh it by; b.mu is held.
func (m *member) share() float64 {
	h := math.Round(m.health*healthSteps) / healthSteps
	return float64(m.weight) * max(h*h, minHealth)
}

// neglected reports whether m, under LeastInFlight, is due for a probe at
// now: its health (seen in tenths) is below full and it has had no
// attempt for its breaker's delay; b.mu is held. Least in flight weighs the load an
// attempt would add, so an idle member of poor health loses to an idle
// healthy one: with few calls in flight it would get none, and never be
// seen to recover. One attempt per delay is its probe, as LowestLatency
// measures a member it has not measured for that long.
func (b *Balancer) neglected(m *member, now time.Time) bool {
	return b.strategy == LeastInFlight && m.share() < float64(m.weight) && now.Sub(m.picked) > m.probeEvery
}
