package tools

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	mathrand "math/rand/v2"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
)

const (
	// A caller waiting for an in-flight call with the same key polls the
	// store, first after about pollMin, doubling up to pollMax, with jitter
	// so that many waiters do not poll a shared store in step.
	pollMin = 10 * time.Millisecond
	pollMax = 500 * time.Millisecond
	// storeTimeout bounds Renew, MarkUnknown, Complete and Release, which
	// run detached from the caller's cancellation: what happened must be
	// recorded even when the caller has gone.
	storeTimeout = 10 * time.Second
)

// callOnce is Call for an idempotent tool, in four steps: the key is
// derived from the input; it is claimed (persisted as in flight) before the
// call; a completed key returns the stored result and an in-flight one is
// waited for; the result is stored when it lands.
func (t *Tool) callOnce(ctx context.Context, key, input string) result {
	owner := newOwner()
	waited := false
	for poll := pollMin; ; poll = min(2*poll, pollMax) {
		rec, claimed, err := t.cfg.store.Claim(ctx, key, owner, t.cfg.lease)
		switch {
		case err != nil && ctx.Err() != nil:
			return canceled(ctx, 0)
		case err != nil:
			// Without the store, the tool must not run.
			t.report(ctx, observe.StoreFailed{Tool: t.name, Key: key}, err)
			return t.internal(err, nil, nil)
		case claimed:
			return t.runClaimed(ctx, key, owner, input)
		case rec.Unknown:
			msg := fmt.Sprintf("the same call is still running after %v; outcome unknown (idempotency key %s)", rec.Held, key)
			return t.stop(observe.ReasonOutcomeUnknown, ErrOutcomeUnknown, msg, nil)
		case rec.Done && waited:
			// The call this one waited for: its result, as it would have
			// been had they not met.
			return result{out: rec.Result, reason: observe.ReasonReplayed}
		case rec.Done:
			t.report(ctx, observe.IdempotentReplay{Tool: t.name, Key: key}, nil)
			return result{out: "already done: " + rec.Result, reason: observe.ReasonReplayed}
		}
		waited = true
		timer := time.NewTimer(poll/2 + mathrand.N(poll/2))
		select {
		case <-ctx.Done():
			timer.Stop()
			return canceled(ctx, 0)
		case <-timer.C:
		}
	}
}

// owners makes the owners of claims: a random prefix, drawn once per
// process (128 bits: no two processes share one), and a counter, so that
// no two calls anywhere share an owner, without a draw from the system's
// random source per call.
var owners = struct {
	prefix string
	n      atomic.Uint64
}{prefix: rand.Text() + "-"}

// newOwner returns an owner no other call has.
func newOwner() string {
	var b [64]byte
	return string(strconv.AppendUint(append(b[:0], owners.prefix...), owners.n.Add(1), 36))
}

// runClaimed runs the call whose key owner holds, bounded by the lease: the
// pipeline ends its attempts' contexts by the lease's end and waits for no
// retry past it (middleware.Deadline, which costs no timer of its own).
func (t *Tool) runClaimed(ctx context.Context, key, owner, input string) result {
	now := time.Now()
	c := &claim{t: t, key: key, owner: owner, caller: ctx, holders: 1, ends: now.Add(t.cfg.maxClaim)}
	t.renewals.schedule(c, now.Add(min(t.cfg.lease/3, t.cfg.maxClaim)))
	c.opts = [...]middleware.CallOption{middleware.Deadline(now.Add(t.cfg.lease)), middleware.Returned(c.returned)}
	c.keyed = keyedContext{Context: ctx, key: key}
	r := t.call(ctx, &c.keyed, input, c, c.opts[:]...)
	c.leave(false, "") // the caller's hold
	c.settle()
	return r
}

// claim settles an idempotent call's claim on its key once the tool has
// really ended. Its holders are the caller and every attempt running the
// tool, which may outlive the caller: the pipeline abandons an attempt at
// its timeout, or when the caller gives up, even if the tool ignores its
// context. The claim lives exactly as long as an execution may still
// happen: it stays in flight while any holder remains, so that a retry or
// another replica cannot run the call again meanwhile (it waits instead);
// the first success is stored as soon as the tool returns, and the claim
// is released when the last holder leaves without a success (a failure, a
// ToolError, a panic), so that a later call may run. Either is done by the
// caller when the attempt's result reaches it (it is waiting, and returns
// at once), and otherwise by the attempt's goroutine once the pipeline has
// abandoned the attempt (see settle). An attempt whose goroutine starts after the claim ended
// (its caller gave up as it started, and released the claim) does not run
// the tool.
//
// While holders remain, the claim renews its lease every third of it, so a
// tool that runs longer than the lease (or than the call that started it)
// keeps its key; a renewal that fails is tried again at the next third,
// and never gives the key up. At the claim's maximum lifetime the holders
// stop renewing and mark the record as of unknown outcome (no attempt
// starts after that); the last holder's end still stores the result or
// releases the key. The tool's renewals do both (one timer for all its
// claims): the claim ticks every third of the lease, and last at the end
// of the lifetime.
type claim struct {
	t          *Tool
	key, owner string
	caller     context.Context          // the caller's context (see detached)
	opts       [2]middleware.CallOption // the pipeline's options for the call
	keyed      keyedContext             // the caller's context carrying the key, for the call

	// storing orders the store's calls: a renewal or the mark of the
	// lifetime's end never lands after the release or completion that
	// ended the claim. The claim's next tick is scheduled under it.
	storing sync.Mutex
	ends    time.Time // the end of the lifetime

	// Its place in the tool's renewals, guarded by their mutex: when it
	// ticks next (a renewal, or the end of the lifetime), whether it is
	// scheduled, its neighbours in their list.
	due        time.Time
	scheduled  bool
	prev, next *claim

	mu        sync.Mutex
	holders   int
	state     claimState
	succeeded bool       // a holder's success ended the claim
	stored    string     // its output
	pending   settlement // what the end of the claim left to do in the store, until done
}

// settlement is what the end of a claim does in the store.
type settlement uint8

const (
	settleNothing  settlement = iota
	settleComplete            // store the success
	settleRelease             // give the key up
)

// claimState is where a claim is in its life.
type claimState uint8

const (
	// claimHeld: renewed; attempts may start.
	claimHeld claimState = iota
	// claimHung: the maximum lifetime ended with holders left; no renewal,
	// no new attempt, the record says the outcome is unknown.
	claimHung
	// claimEnded: settled, a success stored or the claim released by its
	// last holder. No holder is left once it is released, so it also
	// stands for "no holders" whenever that matters.
	claimEnded
)

// now returns the claim's state.
func (c *claim) now() claimState {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state
}

// tick is the claim's turn in the tool's renewals: at the end of the
// lifetime it expires the claim, before it renews it.
func (c *claim) tick() {
	if !time.Now().Before(c.ends) {
		c.expire()
		return
	}
	c.renew()
}

// renew extends the lease of the owner's in-flight record, and schedules
// the next renewal (or the end of the lifetime, if sooner) while the claim
// is held. A renewal that finds no record of the owner's in flight stops
// renewing: the lease was already lost (the completion will say so), and
// the next tick is the end of the lifetime alone. A renewal that fails
// is tried again at the next tick: it may have landed, and if it did not,
// the record still stands until its lease ends.
func (c *claim) renew() {
	c.storing.Lock()
	defer c.storing.Unlock()
	if c.now() != claimHeld {
		return
	}
	ctx, cancel := c.storeContext()
	mine, err := c.t.cfg.store.Renew(ctx, c.key, c.owner, c.t.cfg.lease)
	cancel()
	if c.now() != claimHeld {
		return
	}
	next := c.ends
	if now := time.Now(); err != nil || mine {
		next = minTime(next, now.Add(c.t.cfg.lease/3))
	}
	c.t.renewals.schedule(c, next)
}

// minTime returns the sooner of a and b.
func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// detached returns the caller's context without its cancellation, for
// what the claim does after the caller may have gone: calls to the store,
// events.
func (c *claim) detached() context.Context { return context.WithoutCancel(c.caller) }

// storeContext returns the context of a call to the store, which runs
// detached from the caller's cancellation, bounded by storeTimeout. A
// MemoryStore's calls never wait for anything but its lock, and it reads
// no context: they get the caller's, which costs no timer.
func (c *claim) storeContext() (context.Context, context.CancelFunc) {
	if _, ok := c.t.cfg.store.(*MemoryStore); ok {
		return c.caller, nothing
	}
	return context.WithTimeout(c.detached(), storeTimeout)
}

// nothing is the cancel function of a context without one.
func nothing() {}

// expire ends the claim's lifetime: while holders remain, it stops the
// renewals and marks the record as of unknown outcome.
func (c *claim) expire() {
	c.storing.Lock()
	defer c.storing.Unlock()
	c.mu.Lock()
	held := c.state == claimHeld
	if held {
		c.state = claimHung
	}
	c.mu.Unlock()
	if !held {
		return
	}
	t := c.t
	ctx, cancel := c.storeContext()
	defer cancel()
	err := t.cfg.store.MarkUnknown(ctx, c.key, c.owner, t.cfg.maxClaim, t.cfg.resultTTL)
	switch {
	case errors.Is(err, ErrLeaseLost):
		t.report(c.detached(), observe.LeaseLost{Tool: t.name, Key: c.key}, nil)
	case err != nil:
		t.report(c.detached(), observe.StoreFailed{Tool: t.name, Key: c.key}, err)
	}
	t.report(c.detached(), observe.HungCall{Tool: t.name, Key: c.key, Held: t.cfg.maxClaim}, nil)
}

// enter adds an attempt as a holder, and reports whether it may run the
// tool: not once the claim ended or hung. When the claim ended with a
// success, enter returns its output and true as well.
func (c *claim) enter() (run bool, stored string, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state != claimHeld {
		return false, c.stored, c.succeeded
	}
	c.holders++
	return true, "", false
}

// leave removes a holder: an attempt that ended (ok when the tool succeeded,
// with its output) or the caller (ok false). The first success ends the
// claim, and so does the last holder's leaving; what that leaves to do in
// the store is done by settle.
func (c *claim) leave(ok bool, out string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ok && c.state != claimEnded {
		c.state, c.stored, c.succeeded, c.pending = claimEnded, out, true, settleComplete
	}
	c.holders--
	if c.holders == 0 && c.state != claimEnded {
		c.state, c.pending = claimEnded, settleRelease
	}
}

// returned is the pipeline's news of an attempt whose tool returned (see
// middleware.Returned): a result the caller took is settled by the caller,
// which returns at once; an abandoned attempt settles its own, now, on its
// goroutine, recovering from a store that panics as the tool's call did.
func (c *claim) returned(taken bool) {
	if taken {
		return
	}
	defer func() {
		if v := recover(); v != nil {
			c.t.report(c.detached(), observe.StoreFailed{Tool: c.t.name, Key: c.key}, &middleware.PanicError{Value: v, Stack: debug.Stack()})
		}
	}()
	c.settle()
}

// settle stores the claim's success or releases its key, if its end left
// that to do and no one has done it yet.
func (c *claim) settle() {
	c.mu.Lock()
	todo, out := c.pending, c.stored
	c.pending = settleNothing
	c.mu.Unlock()
	if todo == settleNothing {
		return
	}
	c.storing.Lock()
	defer c.storing.Unlock()
	c.t.renewals.unschedule(c)
	ctx, cancel := c.storeContext()
	defer cancel()
	t := c.t
	if todo == settleRelease {
		if err := t.cfg.store.Release(ctx, c.key, c.owner); err != nil {
			t.report(c.detached(), observe.StoreFailed{Tool: t.name, Key: c.key}, err)
		}
		return
	}
	switch err := t.cfg.store.Complete(ctx, c.key, c.owner, out, t.cfg.resultTTL); {
	case errors.Is(err, ErrLeaseLost):
		// Another caller took the key over after the lease: the tool may
		// have run twice.
		t.report(c.detached(), observe.LeaseLost{Tool: t.name, Key: c.key}, nil)
	case err != nil:
		t.report(c.detached(), observe.StoreFailed{Tool: t.name, Key: c.key}, err)
	}
}

// errClaimEnded is the failure of an attempt that started after its call's
// claim ended: it does not run the tool.
var errClaimEnded = errors.New("tools: the call's claim on its key ended before the attempt started")

// report sends an event of the tool to its observers.
func (t *Tool) report(ctx context.Context, e observe.Event, err error) {
	if t.obs.Active() {
		t.obs.Report(ctx, e, err)
	}
}
