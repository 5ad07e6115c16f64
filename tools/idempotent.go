package tools

import (
	"context"
	"crypto/rand"
	"errors"
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
	c.renewal = time.AfterFunc(t.cfg.lease/3, c.renew)
	leased, cancel := context.WithTimeout(context.WithValue(ctx, keyCtx{}, key), t.cfg.lease)
	r := t.call(ctx, leased, input, c)
	cancel()
	c.leave(false, "") // the caller's hold
	return r
}

// claim settles an idempotent call's claim on its key once the tool has
// really ended. Its holders are the caller and every attempt still running
// the tool, which may outlive the caller: the pipeline abandons an attempt
// at its timeout, or when the caller gives up, even if the tool ignores its
// context. The claim stays in flight while any holder remains, so that a
// retry or another replica cannot run the call again meanwhile (it waits
// instead); the first success is stored by the attempt that made it, as
// soon as the tool returns, and the claim is released when the last holder
// leaves without a success (a failure, a ToolError, a panic), so that a
// later call may run. Both happen on the goroutine that ran the tool when
// it is the last to end. While holders remain, the claim renews its lease
// every third of it, so a tool that runs longer than the lease (or than the
// call that started it) keeps its key until it really ends.
type claim struct {
	t          *Tool
	key, owner string
	ctx        context.Context // the caller's, without its cancellation
	renewal    *time.Timer

	// storing orders the store's calls: a renewal never lands after the
	// release or completion that ended the claim (it would claim the key
	// anew).
	storing sync.Mutex

	mu      sync.Mutex
	holders int
	// ended is set when the claim is settled: a success stored, or the
	// claim released by its last holder. No holder is left once it is
	// released, so it also stands for "no holders" whenever that matters.
	ended bool
}

// active reports whether the claim is still held and unsettled.
func (c *claim) active() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.ended
}

// renew claims the key again, which renews the lease of the owner's own
// in-flight record, and schedules the next renewal while the claim is
// active. A renewal that finds another owner's record stops: the lease was
// already lost (the completion will say so).
func (c *claim) renew() {
	c.storing.Lock()
	defer c.storing.Unlock()
	if !c.active() {
		return
	}
	ctx, cancel := context.WithTimeout(c.ctx, storeTimeout)
	_, mine, err := c.t.cfg.store.Claim(ctx, c.key, c.owner, c.t.cfg.lease)
	cancel()
	if (err == nil && !mine) || !c.active() {
		return
	}
	c.renewal.Reset(c.t.cfg.lease / 3) // a store error: try again at the next tick
}

// enter adds an attempt as a holder.
func (c *claim) enter() {
	c.mu.Lock()
	c.holders++
	c.mu.Unlock()
}

// leave removes a holder: an attempt that ended (ok when the tool succeeded,
// with its output) or the caller (ok false).
func (c *claim) leave(ok bool, out string) {
	c.mu.Lock()
	store := ok && !c.ended
	if store {
		c.ended = true
	}
	c.holders--
	release := c.holders == 0 && !c.ended
	if release {
		c.ended = true
	}
	c.mu.Unlock()

	if !store && !release {
		return
	}
	c.renewal.Stop()
	c.storing.Lock()
	defer c.storing.Unlock()
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

// report sends an event of the tool to its observers.
func (t *Tool) report(ctx context.Context, e observe.Event, err error) {
	if t.obs.Active() {
		t.obs.Report(ctx, e, err)
	}
}
