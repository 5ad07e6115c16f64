package middleware

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"time"

	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/pool"
	"github.com/resilientgo/resilient/run"
	"github.com/resilientgo/resilient/taxonomy"
)

// decision is what decide made of a failed attempt. It travels through
// failsafe-go as the attempt's error, so that the retry policy's AbortIf and
// DelayFunc read the decision instead of making their own.
type decision struct {
	err     error // the attempt's error
	retry   bool
	wait    time.Duration
	source  taxonomy.WaitSource // where wait came from, when retry
	reason  observe.Reason      // why the call stops, when !retry
	detail  string
	inner   *Error // an inner layer's final error, passed through
	refused bool   // the call stops because something refused it (a Refusal event)
	// pastLimit is set on a retry past the kind's attempt limit, paid from
	// the run's unspent budget (see PastLimitAttempts).
	pastLimit bool
	// callerDeadline is set when the call stops because the caller's
	// deadline would pass before the next attempt (see pastDeadline).
	callerDeadline bool
}

func (d *decision) Error() string { return d.err.Error() }
func (d *decision) Unwrap() error { return d.err }

// retries reports whether d says to retry. No decision at all (the error
// of a policy added with Policies) is no retry.
func (d *decision) retries() bool {
	if d == nil {
		return false
	}
	return d.retry
}

func decisionOf(err error) *decision {
	var d *decision
	if errors.As(err, &d) {
		return d
	}
	return nil
}

// isFinal reports whether a hedged attempt's failure should end the hedge
// (and cancel its siblings): only failures that no retry would fix.
func isFinal(err error) bool {
	d := decisionOf(err)
	return d != nil && !d.retry && d.reason != observe.ReasonBudgetSpent && d.reason != observe.ReasonCircuitOpen
}

var errHedgeRefused = errors.New("middleware: hedge refused: the run's retry budget is spent")

// decide turns the class of attempt number n into a decision. It always
// terminates: every retry is bounded by a per-kind attempt limit. m is the
// member of a pool the attempt went to, nil for a plain pipeline or an
// attempt no member took.
func (c *call[R]) decide(n int, class taxonomy.Class, err error, m *pool.Member) *decision {
	cfg := &c.p.cfg
	var nr *unretryableError
	var inner *Error
	var refused *run.UsageLimitError
	if errors.As(err, &refused) {
		return &decision{reason: observe.ReasonUsageLimit, detail: refused.Limit, refused: true}
	}
	if class.Kind == taxonomy.Canceled {
		return &decision{reason: observe.ReasonCanceled}
	}
	if errors.As(err, &inner) {
		// No multiplication across layers: an inner layer of this library
		// already retried this to exhaustion or judged it final. A pool
		// goes on to a member not tried yet, as fallbacks would.
		if d := c.nextMember(n, class, inner.Reason, m); d != nil {
			return d
		}
		return &decision{reason: inner.Reason, detail: inner.Detail, inner: inner}
	}
	if errors.As(err, &nr) {
		return &decision{reason: observe.ReasonUnretryable, detail: nr.detail}
	}
	if c.expired() {
		// The call's MaxDuration or Deadline passed (the caller's own
		// context is not done: that would be Canceled, above).
		// A Deadline given is the caller's (errors.Is(err,
		// context.DeadlineExceeded) holds), a MaxDuration is not.
		return &decision{reason: observe.ReasonDeadline, detail: c.expiry(),
			callerDeadline: !c.given.IsZero() && !time.Now().Before(c.given)}
	}
	if class.Kind == taxonomy.Permanent || class.Kind == taxonomy.Programming {
		if m != nil && accountFailure(class) {
			return c.decideSwitch(n, m)
		}
		return &decision{reason: observe.ReasonPermanent}
	}

	limit := cfg.attemptsFor(class.Kind)
	overflow := class.Kind == taxonomy.ContextOverflow
	if overflow {
		// Overflows are repaired, not retried: count only them, so that an
		// overflow after a transient failure still gets its compaction.
		n = c.countKind(taxonomy.ContextOverflow) + 1 // this attempt is not recorded yet
	}
	if n >= limit {
		if overflow {
			return &decision{reason: observe.ReasonContextOverflow}
		}
		if d := c.pastLimit(n, limit, class); d != nil {
			return d
		}
		return &decision{reason: observe.ReasonExhausted}
	}
	if c.p.pool != nil {
		return c.decideRoute(n, class, m)
	}
	if !overflow && class.RetryAfter > cfg.retryAfterCap {
		if c.p.breaker != nil {
			c.p.breaker.HoldOpen(min(class.RetryAfter, cfg.maxHold))
		}
		return &decision{reason: observe.ReasonRetryAfterOverCap,
			detail: fmt.Sprintf("provider asked for %v, cap is %v", class.RetryAfter, cfg.retryAfterCap)}
	}
	wait, source := c.wait(n, class)

	if d := c.pastDeadline(wait); d != nil {
		return d
	}
	if b := c.p.breaker; b != nil && !cfg.noThrottle && !overflow && !b.AllowsRetry() {
		return &decision{reason: observe.ReasonThrottled, detail: "most recent attempts of " + b.Name() + " failed", refused: true}
	}
	return c.retryAfter(wait, source)
}

// pastLimit decides about attempt n, which reached its kind's attempt
// limit: a retry paid from the run's unspent budget when the call may take
// one (see [PastLimitAttempts]), nil when it stops.
func (c *call[R]) pastLimit(n, limit int, class taxonomy.Class) *decision {
	cfg := &c.p.cfg
	b := c.p.breaker
	switch {
	case c.run == nil || b == nil || limit < 2 || n >= limit+cfg.pastLimit:
		return nil
	case class.Kind != taxonomy.Transient && class.Kind != taxonomy.Overloaded && class.Kind != taxonomy.RateLimited:
		return nil
	case class.RetryAfter > cfg.retryAfterCap || !b.Closed() || !b.AllowsRetry():
		// The throttle is read whatever NoThrottle says: it is what keeps
		// these attempts out of an outage.
		return nil
	}
	wait, source := c.wait(n, class)
	if c.pastDeadline(wait) != nil || !c.run.TryRetryPastLimit() {
		return nil
	}
	return &decision{retry: true, wait: wait, source: source, pastLimit: true}
}

// pastDeadline stops the call when a wait would pass its deadline (its
// MaxDuration or the caller's, and says which); nil when it would not.
func (c *call[R]) pastDeadline(wait time.Duration) *decision {
	deadline, ok := c.deadline()
	if !ok || !time.Now().Add(wait).After(deadline) {
		return nil
	}
	d := &decision{reason: observe.ReasonDeadline}
	if caller, ok := c.caller.Deadline(); ok && !caller.After(deadline) || !c.given.IsZero() && !c.given.After(deadline) {
		// The caller's deadline, of its context or given with Deadline.
		d.callerDeadline = true
		d.detail = fmt.Sprintf("the next wait of %v would pass the caller's deadline", wait.Round(time.Millisecond))
	} else {
		d.detail = fmt.Sprintf("the next wait of %v would pass the max duration %v", wait.Round(time.Millisecond), c.p.cfg.maxDuration)
	}
	return d
}

// retryAfter schedules a retry after wait, if the run's budget pays for it.
func (c *call[R]) retryAfter(wait time.Duration, source taxonomy.WaitSource) *decision {
	if !c.run.TryRetry() {
		return &decision{reason: observe.ReasonBudgetSpent, refused: true}
	}
	return &decision{retry: true, wait: wait, source: source}
}

// wait returns how long to wait before retrying after attempt n failed with
// class, and where that wait comes from.
func (c *call[R]) wait(n int, class taxonomy.Class) (time.Duration, taxonomy.WaitSource) {
	if class.Kind == taxonomy.ContextOverflow {
		return 0, taxonomy.WaitBackoff // the function repairs the request; waiting would not help
	}
	if class.RetryAfter > 0 || class.WaitSource != taxonomy.WaitBackoff {
		// Exactly, 0 included ("Retry-After: 0" means now): retrying early is
		// how accounts get throttled harder. A negative wait, which only a
		// caller's classifier can give, is no wait.
		wait := c.p.afterHint(max(class.RetryAfter, 0))
		if class.WaitSource == taxonomy.WaitBackoff {
			return wait, taxonomy.WaitRetryAfter // a classifier of the caller's that names no source
		}
		return wait, class.WaitSource
	}
	return c.p.backoff(n), taxonomy.WaitBackoff
}

// HintJitterDivisor bounds the jitter added after a wait the provider
// asked for while other calls of the same pipeline wait on one too: a
// wait w is then followed by a further wait drawn uniformly from
// [0, min(w/HintJitterDivisor, base)), base being the backoff's base delay
// (0.5 s by default, see [Backoff]). Callers that received the same
// Retry-After, or wait for the same cooldown of a pool's member, come back
// spread over that span instead of in the same instant; none comes back
// before the wait is over, and a call whose pipeline has no other call
// waiting waits exactly as asked. [NoJitter] turns it off.
const HintJitterDivisor = 10

// afterHint returns wait, which the provider asked for, followed by its
// jitter when other calls of the pipeline wait on a hint (see
// [HintJitterDivisor]).
func (p *Pipeline[R]) afterHint(wait time.Duration) time.Duration {
	spread := min(wait/HintJitterDivisor, p.cfg.baseDelay)
	if p.cfg.noJitter || spread <= 0 || p.hinted.Load() == 0 {
		return wait
	}
	return wait + rand.N(spread)
}

// backoff returns the wait before retry n (after attempt n failed): full
// jitter, uniform in [0, min(base*2^(n-1), max)).
func (p *Pipeline[R]) backoff(n int) time.Duration {
	// The shift stops below the base's highest bit, so that base<<shift
	// cannot overflow however many attempts are allowed: a ceiling that high
	// (at least 2^62 ns, 146 years) is past any sensible max.
	shift := min(n-1, bits.LeadingZeros64(uint64(p.cfg.baseDelay))-1)
	ceiling := min(p.cfg.baseDelay<<shift, p.cfg.maxDelay) // positive: Backoff wants 0 < base <= max
	if p.cfg.noJitter {
		return ceiling
	}
	return rand.N(ceiling)
}

// countKind counts the attempts of this call that failed with kind k.
func (c *call[R]) countKind(k taxonomy.Kind) int {
	return c.countAttempts(func(class taxonomy.Class) bool { return class.Kind == k })
}

// countAttempts counts the attempts of this call that failed with a class
// that match accepts.
func (c *call[R]) countAttempts(match func(taxonomy.Class) bool) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, a := range c.attempts {
		if a.Err != nil && match(a.Class) {
			n++
		}
	}
	return n
}

// decideOpen decides about an attempt the circuit breaker refused. By
// default the call fails fast, so that a fallback can take it at once. With
// [WaitWhileOpen] it waits for the breaker's next probe instead, within the
// attempts of the overloaded kind, the run's budget and the deadline: the
// target sees only the probes, and the call succeeds if the target recovers
// in time. A refusal while half-open (another caller holds the probe) waits
// a backoff, never zero, so refused callers do not spin.
func (c *call[R]) decideOpen(n int) *decision {
	stop := &decision{reason: observe.ReasonCircuitOpen, detail: c.p.breaker.Name(), refused: true}
	return c.waitForProbe(n, c.p.breaker.RemainingDelay(), stop)
}

// waitForProbe is decideOpen for a breaker, or the first of a pool's, whose
// next probe is remaining away: stop, unless [WaitWhileOpen] says to wait.
func (c *call[R]) waitForProbe(n int, remaining time.Duration, stop *decision) *decision {
	p := c.p
	if !p.cfg.waitWhileOpen {
		return stop
	}
	limit := p.cfg.attemptsFor(taxonomy.Overloaded)
	if n >= limit || remaining > p.cfg.retryAfterCap {
		return stop
	}
	wait := remaining + p.backoff(1)/10 // a little after the probe time, jittered
	if remaining == 0 {
		wait = p.backoff(n)
	}
	if deadline, ok := c.deadline(); ok && time.Now().Add(wait).After(deadline) {
		return stop
	}
	if !c.run.TryRetry() {
		return &decision{reason: observe.ReasonBudgetSpent, refused: true}
	}
	return &decision{retry: true, wait: wait, source: taxonomy.WaitProbe}
}
