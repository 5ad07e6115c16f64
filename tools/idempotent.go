package tools

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	mathrand "math/rand/v2"
	"sync"
	"time"

	"github.com/resilientgo/resilient/observe"
)

const (
	// A caller waiting for an in-flight call with the same key polls the
	// store, first after about pollMin, doubling up to pollMax, with jitter
	// so that many waiters do not poll a shared store in step.
	pollMin = 10 * time.Millisecond
	pollMax = 500 * time.Millisecond
	// storeTimeout bounds Complete and Release, which run detached from the
	// caller's cancellation: what happened must be recorded even when the
	// caller has gone.
	storeTimeout = 10 * time.Second
)

// callOnce is Call for an idempotent tool, in four steps: the key is
// derived from the input; it is claimed (persisted as in flight) before the
// call; a completed key returns the stored result and an in-flight one is
// waited for; the result is stored when it lands.
func (t *Tool) callOnce(ctx context.Context, key, input string) result {
	owner := rand.Text()
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

// runClaimed runs the call whose key owner holds, bounded by the lease.
func (t *Tool) runClaimed(ctx context.Context, key, owner, input string) result {
	c := &claim{t: t, key: key, owner: owner, ctx: context.WithoutCancel(ctx), holders: 1}
	c.storing.Lock() // the timers' functions wait until both are set
	c.renewal = time.AfterFunc(t.cfg.lease/3, c.renew)
	c.lifetime = time.AfterFunc(t.cfg.maxClaim, c.expire)
	c.storing.Unlock()
	leased, cancel := context.WithTimeout(context.WithValue(ctx, keyCtx{}, key), t.cfg.lease)
	r := t.call(ctx, leased, input, c)
	cancel()
	c.leave(false, "") // the caller's hold
	return r
}

// claim settles an idempotent call's claim on its key once the tool has
// really ended. Its holders are the caller and every attempt running the
// tool, which may outlive the caller: the pipeline abandons an attempt at
// its timeout, or when the caller gives up, even if the tool ignores its
// context. The claim lives exactly as long as an execution may still
// happen: it stays in flight while any holder remains, so that a retry or
// another replica cannot run the call again meanwhile (it waits instead);
// the first success is stored by the attempt that made it, as soon as the
// tool returns, and the claim is released when the last holder leaves
// without a success (a failure, a ToolError, a panic), so that a later
// call may run. Both happen on the goroutine that ran the tool when it is
// the last to end. An attempt whose goroutine starts after the claim ended
// (its caller gave up as it started, and released the claim) does not run
// the tool.
//
// While holders remain, the claim renews its lease every third of it, so a
// tool that runs longer than the lease (or than the call that started it)
// keeps its key; a renewal that fails is tried again at the next third,
// and never gives the key up. At the claim's maximum lifetime the holders
// stop renewing and mark the record as of unknown outcome (no attempt
// starts after that); the last holder's end still stores the result or
// releases the key.
type claim struct {
	t          *Tool
	key, owner string
	ctx        context.Context // the caller's, without its cancellation

	// storing orders the store's calls: a renewal or the mark of the
	// lifetime's end never lands after the release or completion that
	// ended the claim. The timers are set under it.
	storing  sync.Mutex
	renewal  *time.Timer
	lifetime *time.Timer

	mu        sync.Mutex
	holders   int
	state     claimState
	succeeded bool   // a holder's success ended the claim
	stored    string // its output
}

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

// renew extends the lease of the owner's in-flight record, and schedules
// the next renewal while the claim is held. A renewal that finds no record
// of the owner's in flight stops: the lease was already lost (the
// completion will say so). A renewal that fails is tried again at the next
// tick: it may have landed, and if it did not, the record still stands
// until its lease ends.
func (c *claim) renew() {
	c.storing.Lock()
	defer c.storing.Unlock()
	if c.now() != claimHeld {
		return
	}
	ctx, cancel := context.WithTimeout(c.ctx, storeTimeout)
	mine, err := c.t.cfg.store.Renew(ctx, c.key, c.owner, c.t.cfg.lease)
	cancel()
	if (err == nil && !mine) || c.now() != claimHeld {
		return
	}
	c.renewal.Reset(c.t.cfg.lease / 3)
}

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
	c.renewal.Stop()
	t := c.t
	ctx, cancel := context.WithTimeout(c.ctx, storeTimeout)
	defer cancel()
	err := t.cfg.store.MarkUnknown(ctx, c.key, c.owner, t.cfg.maxClaim, t.cfg.resultTTL)
	switch {
	case errors.Is(err, ErrLeaseLost):
		t.report(c.ctx, observe.LeaseLost{Tool: t.name, Key: c.key}, nil)
	case err != nil:
		t.report(c.ctx, observe.StoreFailed{Tool: t.name, Key: c.key}, err)
	}
	t.report(c.ctx, observe.HungCall{Tool: t.name, Key: c.key, Held: t.cfg.maxClaim}, nil)
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
// with its output) or the caller (ok false).
func (c *claim) leave(ok bool, out string) {
	c.mu.Lock()
	store := ok && c.state != claimEnded
	if store {
		c.state, c.stored, c.succeeded = claimEnded, out, true
	}
	c.holders--
	release := c.holders == 0 && c.state != claimEnded
	if release {
		c.state = claimEnded
	}
	c.mu.Unlock()

	if !store && !release {
		return
	}
	c.storing.Lock()
	defer c.storing.Unlock()
	c.renewal.Stop()
	c.lifetime.Stop()
	ctx, cancel := context.WithTimeout(c.ctx, storeTimeout)
	defer cancel()
	t := c.t
	if release {
		if err := t.cfg.store.Release(ctx, c.key, c.owner); err != nil {
			t.report(c.ctx, observe.StoreFailed{Tool: t.name, Key: c.key}, err)
		}
		return
	}
	switch err := t.cfg.store.Complete(ctx, c.key, c.owner, out, t.cfg.resultTTL); {
	case errors.Is(err, ErrLeaseLost):
		// Another caller took the key over after the lease: the tool may
		// have run twice.
		t.report(c.ctx, observe.LeaseLost{Tool: t.name, Key: c.key}, nil)
	case err != nil:
		t.report(c.ctx, observe.StoreFailed{Tool: t.name, Key: c.key}, err)
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
