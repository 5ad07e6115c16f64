package middleware

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/failsafe-go/failsafe-go/circuitbreaker"

	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/pool"
	"github.com/resilientgo/resilient/taxonomy"
)

// toMember chooses the member that attempt number of c goes to, and passes
// its gates: a ready member whose gates are free at once (see
// [pool.Route.TryTake]); else the one whose limits had no room that it
// says to wait for, waiting as they allow; else, when members only cool
// down, the end of the first cooldown, unless the attempt slept for one
// already (slept). It returns the attempt's ticket on the member, or the
// error that concludes an attempt no member took.
func (c *call[R]) toMember(ctx context.Context, number int, slept bool) (pool.Ticket, error) {
	for ; ; slept = true {
		t, vs, waitOn, err := c.rt.TryTake(ctx, number > 1)
		switch {
		case t.Member() != nil:
			return t, nil
		case err != nil: // ctx ended
			return t, c.refuseGate(number, ctx, err, taxonomy.Class{}, nil)
		}
		if waitOn != nil {
			t, why, err := c.rt.Take(ctx, waitOn)
			if err == nil {
				return t, nil
			}
			vs[waitOn.Index()].Avail = why
			c.setTarget(number, waitOn.Name())
			return t, c.refuseGate(number, ctx, err, gateClass(why), c.gateRefusal(number, why, vs))
		}
		if !slept {
			if waited, err := c.awaitCooling(ctx, number, vs); err != nil || waited {
				if err != nil {
					return t, err
				}
				continue
			}
		}
		if vs.AllOut() {
			return t, c.conclude(number, 0, errAccountsOut, accountsOutClass,
				&decision{reason: observe.ReasonPermanent, detail: "no member available: " + vs.String()})
		}
		return t, c.conclude(number, 0, errNoMember, noMemberClass, c.noMember(number, vs))
	}
}

// beforeMember waits, before attempt number of c takes anything of the
// pool's own limits, while no member is ready and some cool down (see
// awaitCooling): the wait is for a member, not for the pool, and holds
// none of the pool's slots. It reports whether it waited.
func (c *call[R]) beforeMember(ctx context.Context, number int) (bool, error) {
	vs := c.rt.Views(number > 1)
	if vs.AnyReady() {
		return false, nil
	}
	return c.awaitCooling(ctx, number, vs)
}

// awaitCooling waits, when members of vs cool down, for the first to be
// back, as a plain pipeline waits out a Retry-After, unless that passes the
// call's deadline: then attempt number fails at once, for the caller's
// fallbacks, rather than when its time is up. It reports whether it
// waited, or returns the error that concludes the attempt.
func (c *call[R]) awaitCooling(ctx context.Context, number int, vs pool.Views) (bool, error) {
	soonest := vs.SoonestCooldown()
	if soonest == 0 {
		return false, nil
	}
	if d := cmp.Or(c.overCapWait(soonest), c.pastDeadline(soonest)); d != nil {
		d.detail += "; no member available: " + vs.String()
		return false, c.conclude(number, 0, errNoMember, noMemberClass, d)
	}
	soonest = c.p.afterHint(soonest)
	c.p.hinted.Add(1)
	err := sleep(ctx, soonest)
	c.p.hinted.Add(-1)
	if err != nil {
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
func gateClass(why pool.Availability) taxonomy.Class {
	switch why {
	case pool.ConcurrencyFull:
		return concurrencyClass
	case pool.RateFull:
		return rateLimitClass
	}
	return taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "circuit open"}
}

// gateRefusal decides about attempt n, which a member's gate refused for
// why after its wait; vs is every member's availability.
func (c *call[R]) gateRefusal(n int, why pool.Availability, vs pool.Views) *decision {
	detail := "no member available: " + vs.String()
	switch why {
	case pool.ConcurrencyFull:
		return &decision{reason: observe.ReasonConcurrency, detail: detail, refused: true}
	case pool.RateFull:
		return &decision{reason: observe.ReasonRateLimit, detail: detail, refused: true}
	}
	return c.noMember(n, vs)
}

// noMember decides about attempt n of a call when no member can take it:
// retries throttled on every member that is up, or every circuit open. The
// latter fails fast for the caller's fallbacks, or with [WaitWhileOpen]
// waits for the first probe.
func (c *call[R]) noMember(n int, vs pool.Views) *decision {
	detail := "no member available: " + vs.String()
	var remaining time.Duration
	forced := 0
	for _, v := range vs {
		switch {
		case v.Avail == pool.Throttled:
			return &decision{reason: observe.ReasonThrottled, detail: detail, refused: true}
		case v.Avail == pool.Open && v.Forced: // no delay ends it: nothing to wait for
			forced++
		case v.Avail == pool.Open: // v.Left > 0
			remaining = min(cmp.Or(remaining, v.Left), v.Left)
		}
	}
	stop := &decision{reason: observe.ReasonCircuitOpen, detail: detail, refused: true}
	if forced == len(vs) {
		return stop
	}
	return c.waitForProbe(n, remaining, stop)
}

// decideRoute decides where and when the retry of attempt n goes, after
// failed, a member of the pool, failed with class (a retryable kind, with
// attempts left; a wait hint has cooled failed down already, see
// coolDown). Then: another member ready now takes the retry
// at once; else failed itself, after its backoff; else the first member to
// end its cooldown, when it does; else the call stops (every member
// throttled or down).
func (c *call[R]) decideRoute(n int, class taxonomy.Class, failed *pool.Member) *decision {
	cfg := &c.p.cfg
	overCap := class.RetryAfter > cfg.retryAfterCap
	vs := c.rt.Views(true)
	other, self := false, false
	for _, v := range vs {
		switch {
		case v.Avail != pool.Ready:
		case v.Member == failed:
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
	case overCap && failed != nil && vs.SoonestCooldown() == 0:
		return &decision{reason: observe.ReasonRetryAfterOverCap,
			detail: fmt.Sprintf("%s asked for %v, cap is %v; no other member available", failed.Name(), class.RetryAfter, cfg.retryAfterCap)}
	default:
		if wait = vs.SoonestCooldown(); wait == 0 {
			return c.noMember(n, vs)
		}
		if d := c.overCapWait(wait); d != nil {
			d.detail += "; no member available: " + vs.String()
			return d
		}
		wait, source = c.p.afterHint(wait), taxonomy.WaitRetryAfter
		if failed != nil && class.WaitSource != taxonomy.WaitBackoff {
			if v := vs[failed.Index()]; v.Avail == pool.Cooling && v.Left == wait {
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
func (c *call[R]) nextMember(n int, class taxonomy.Class, reason observe.Reason, m *pool.Member) *decision {
	if m == nil { // a plain pipeline's attempt, or one no member took
		return nil
	}
	c.rt.Spend(m)
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
	for _, v := range c.rt.Views(true) {
		if v.Avail == pool.Ready && !c.rt.Tried(v.Member) {
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
func (c *call[R]) coolDown(m *pool.Member, class taxonomy.Class) {
	if accountFailure(class) {
		c.takeOut(m, class)
		return
	}
	if class.Kind == taxonomy.ContextOverflow || class.Kind == taxonomy.Canceled || class.RetryAfter <= 0 {
		return
	}
	d, overCap := class.RetryAfter, class.RetryAfter > c.p.cfg.retryAfterCap
	if b := m.Breaker(); overCap && b != nil {
		b.HoldOpen(min(d, c.p.cfg.maxHold))
		return
	}
	d = min(d, c.p.cfg.maxHold)
	if m.CoolFor(d) && c.p.obs.Active() {
		c.p.obs.Observe(c.caller, observe.Cooldown{Target: m.Name(), Wait: d})
	}
}

// errAccountsOut concludes an attempt that no member took because every
// member is out of rotation after an account failure.
var errAccountsOut = errors.New("middleware: every member is out of rotation after an account failure")

// accountsOutClass is the class of that attempt: an account failure, so
// that the caller's fallbacks take the call as they took the one that
// found the last member's account failing.
var accountsOutClass = taxonomy.Class{Kind: taxonomy.Permanent, Rule: "every member out after an account failure", AccountFailure: true}

// accountFailure reports whether class is a permanent failure of the
// account or deployment the attempt went to, not of the request: another
// member may serve the same request (see taxonomy.Class.AccountFailure; a
// missing model counts, for a classifier of the caller's that says only
// that).
func accountFailure(class taxonomy.Class) bool {
	return class.Kind == taxonomy.Permanent && (class.AccountFailure || class.ModelMissing)
}

// takeOut takes m, whose attempt failed for its account (a key refused, a
// quota used up, a deployment missing), out of rotation (see
// [pool.Member.Suspend]), reported as a [observe.Suspended] event, once
// however many calls in flight there fail so.
func (c *call[R]) takeOut(m *pool.Member, class taxonomy.Class) {
	why := class.Rule
	if class.Status != 0 && !strings.HasPrefix(why, "status ") {
		why += fmt.Sprintf(", status %d", class.Status)
	}
	if d, first := m.Suspend(why); first && c.p.obs.Active() {
		c.p.obs.Observe(c.caller, observe.Suspended{Target: m.Name(), For: d, Class: class})
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
func (c *call[R]) decideSwitch(n int, failed *pool.Member) *decision {
	vs := c.rt.Views(true)
	untried, other := false, false
	for _, v := range vs {
		if v.Avail == pool.Ready && v.Member != failed {
			other = true
			untried = untried || !c.rt.Tried(v.Member)
		}
	}
	cfg := &c.p.cfg
	stop := &decision{reason: observe.ReasonPermanent, detail: "no other member available: " + vs.String()}
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
