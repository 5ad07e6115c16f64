package pool

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/observe"
)

// Availability says whether a member can take the next attempt, and if
// not, why.
type Availability uint8

// The availabilities of a member.
const (
	Ready           Availability = iota
	Open                         // its circuit is open, or an account failure took it out of rotation
	Cooling                      // it cools down after a wait hint
	Throttled                    // its retry throttle allows no retry
	ConcurrencyFull              // its concurrency limit has no free slot
	RateFull                     // its rate limiter has no room
	Probing                      // half-open, and another caller holds the probe
	Spent                        // a member that is itself resilient gave up on this call (see Route.Spend)
)

// View is a member's availability at one moment.
type View struct {
	Member *Member
	Avail  Availability
	Left   time.Duration // of an open circuit or a cooldown; 0 for a circuit forced open
	Probe  bool          // ready, and its circuit is not closed: the next attempt is its probe
	Out    bool          // open after an account failure (see Member.Suspend)
	Forced bool          // open because an operator forced it open (breaker.Breaker.ForceOpen): no delay ends it

	outage *outage // that failure, when Out
}

// why returns the account failure that keeps v's member out of rotation,
// "" when none does.
func (v View) why() string {
	if !v.Out {
		return ""
	}
	return v.outage.why
}

// String says what v's member can do, for an error's detail, such as
// "eastus: cooling down (2s left)".
func (v View) String() string {
	name := v.Member.name
	switch v.Avail {
	case Open:
		if v.Forced {
			return name + ": circuit forced open by an operator"
		}
		if !v.Out {
			return fmt.Sprintf("%s: circuit open (%v left)", name, v.Left.Round(time.Millisecond))
		}
		return fmt.Sprintf("%s: out of rotation (%v left) after an account failure: %s", name, v.Left.Round(time.Millisecond), v.why())
	case Cooling:
		return fmt.Sprintf("%s: cooling down (%v left)", name, v.Left.Round(time.Millisecond))
	case Throttled:
		return name + ": retries throttled"
	case ConcurrencyFull:
		return name + ": concurrency limit full"
	case RateFull:
		return name + ": rate limit full"
	case Probing:
		return name + ": probe in flight"
	case Spent:
		return name + ": its own retries spent"
	}
	return name + ": ready"
}

// Views are the availability of every member of a pool, in order.
type Views []View

// String renders every member's availability, for an error's detail.
func (vs Views) String() string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = v.String()
	}
	return strings.Join(parts, "; ")
}

// SoonestCooldown returns the shortest cooldown among vs, 0 if none cools
// down.
func (vs Views) SoonestCooldown() time.Duration {
	var soonest time.Duration
	for _, v := range vs {
		if v.Avail == Cooling { // v.Left > 0
			soonest = min(cmp.Or(soonest, v.Left), v.Left)
		}
	}
	return soonest
}

// AllOut reports whether every member of vs is out of rotation after an
// account failure: no wait brings one back soon.
func (vs Views) AllOut() bool {
	for _, v := range vs {
		if !v.Out {
			return false
		}
	}
	return len(vs) > 0
}

// AnyReady reports whether a member of vs is ready.
func (vs Views) AnyReady() bool {
	for _, v := range vs {
		if v.Avail == Ready {
			return true
		}
	}
	return false
}

// quiet reports whether m is ready for a first attempt without reading
// the clock or taking a lock, as look would say: no account failure, no
// cooldown, a closed breaker (or none). It is inlined in the choice of a
// member; false means look must say.
func (m *Member) quiet() bool {
	return m.out.Load() == nil && m.coolUntil.Load() == 0 && (m.breaker == nil || m.breaker.Closed())
}

// retries reports whether m's retry throttle lets a retry go to it, as
// look would say of a quiet member.
func (m *Member) retries() bool {
	return m.noThrottle || m.breaker == nil || m.breaker.AllowsRetry()
}

// look returns the availability of m for an attempt at now; retry is true
// when the attempt would be a retry, which the member's throttle may
// refuse.
func look(m *Member, retry bool, now time.Time) View {
	probe := false
	out := m.out.Load()
	if out != nil && !now.Before(out.until) {
		// Over: the next attempt finds out whether the account is back; the
		// next choice finds m ready at a glance.
		m.out.CompareAndSwap(out, nil)
		out = nil
	}
	if b := m.breaker; b != nil {
		if b.Forced() == breaker.ForcedOpen {
			// Open until an operator says otherwise: no hold to report.
			return View{Member: m, Avail: Open, Forced: true, Out: out != nil, outage: out}
		}
		switch b.State() {
		case observe.BreakerOpen:
			if left := b.RemainingDelay(); left > 0 {
				return View{Member: m, Avail: Open, Left: left, Out: out != nil, outage: out}
			}
			probe = true // the delay is over: the next caller to ask gets the probe
		case observe.BreakerHalfOpen:
			// Its one probe is in flight, here or in another pipeline that
			// shares the breaker: the attempt that half-opened it took its
			// one permit at once, and gives it back only with the result
			// that closes or reopens it. No other attempt may go, and none
			// should take anything from its limits on the way.
			return View{Member: m, Avail: Probing}
		}
	} else if out != nil {
		return View{Member: m, Avail: Open, Left: out.until.Sub(now), Out: true, outage: out}
	}
	if left := m.cooldown(now); left > 0 {
		return View{Member: m, Avail: Cooling, Left: left}
	}
	if retry && m.breaker != nil && !m.noThrottle && !m.breaker.AllowsRetry() {
		return View{Member: m, Avail: Throttled}
	}
	return View{Member: m, Avail: Ready, Probe: probe}
}
