package tools

import (
	"sync"
	"time"
)

// renewals schedules what an idempotent tool's claims do while they are
// held, each at its time: renew the lease every third of it, or expire at
// the end of the claim's lifetime (see claim.tick). One timer serves every
// claim of the tool, rather than one per call: a claim joins a list kept in
// the order of its next tick, and leaves it when it ends, neither of which
// touches the timer in the common case (a timer already armed, for a tick
// no later). The timer, when it fires, ticks the claims due and arms itself
// for the next one; it finds no claim due when the one it was armed for
// has ended, and then only arms itself again, or stops while no claim is
// held.
//
// The list holds the claims held, each once: its length is bounded by the
// calls in flight.
type renewals struct {
	mu         sync.Mutex
	head, tail *claim      // the claims scheduled, soonest first
	timer      *time.Timer // nil while no claim is scheduled and the timer has stopped
	at         time.Time   // when the timer fires, while it is armed
	armed      bool
}

// schedule makes c tick at due, c.storing held (or c not yet running): in
// the list, after the claims due no later (searched from the tail: a
// claim's next tick is nearly always the latest, as every claim of a tool
// has the same lease and lifetime), and the timer armed for it if it is
// the soonest.
func (r *renewals) schedule(c *claim, due time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c.due, c.scheduled = due, true
	after := r.tail
	for after != nil && after.due.After(due) {
		after = after.prev
	}
	c.prev = after
	if after == nil {
		c.next, r.head = r.head, c
	} else {
		c.next, after.next = after.next, c
	}
	if c.next == nil {
		r.tail = c
	} else {
		c.next.prev = c
	}
	if !r.armed || due.Before(r.at) {
		r.arm(due)
	}
}

// unschedule takes c out of the list, if it is there.
func (r *renewals) unschedule(c *claim) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.remove(c)
}

// remove takes c out of the list, if it is there; r.mu is held. The timer
// stays armed: it finds nothing due when it fires.
func (r *renewals) remove(c *claim) {
	if !c.scheduled {
		return
	}
	if c.prev == nil {
		r.head = c.next
	} else {
		c.prev.next = c.next
	}
	if c.next == nil {
		r.tail = c.prev
	} else {
		c.next.prev = c.prev
	}
	c.prev, c.next, c.scheduled = nil, nil, false
}

// arm sets the timer to fire at due; r.mu is held.
func (r *renewals) arm(due time.Time) {
	d := time.Until(due)
	if r.timer == nil {
		r.timer = time.AfterFunc(d, r.fire)
	} else {
		r.timer.Reset(d)
	}
	r.at, r.armed = due, true
}

// fire is the timer's: it takes the claims due out of the list and ticks
// them, each on a goroutine of its own but the last (a tick calls the
// store, which may be slow: one claim's renewal must not wait for
// another's), and arms the timer for the next claim, or stops while none
// is scheduled.
func (r *renewals) fire() {
	now := time.Now()
	var due []*claim
	r.mu.Lock()
	for c := r.head; c != nil && !c.due.After(now); c = r.head {
		r.remove(c)
		due = append(due, c)
	}
	if r.armed = false; r.head != nil {
		r.arm(r.head.due)
	} else {
		r.timer = nil // a new one for the next claim: it may be made in another synctest bubble
	}
	r.mu.Unlock()
	for i, c := range due {
		if i == len(due)-1 {
			c.tick()
		} else {
			go c.tick()
		}
	}
}
