package resilientredis

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/resilientgo/resilient/observe"
)

// slot is a slot of a Semaphore held in Redis by token: its lease is
// renewed every lease/3 until it is released.
type slot struct {
	s     *Semaphore
	token string

	mu     sync.Mutex // orders the renewals and the release: none lands after it
	done   bool       // released
	lost   bool       // the last renewal found the slot gone and none free
	unsure bool       // a renewal failed: it may still land, after the release
	timer  *time.Timer
}

// hold starts renewing the slot that token took, and returns its release.
func (s *Semaphore) hold(token string) func() {
	h := &slot{s: s, token: token}
	h.mu.Lock()
	h.timer = time.AfterFunc(s.lease/3, h.renew)
	h.mu.Unlock()
	return h.release
}

// renew extends the slot's lease, or takes a slot again when the lease was
// lost and one is free, then schedules the next renewal. A renewal that
// Redis does not answer changes nothing: the next one, a third of a lease
// later, may still land before the lease ends (Lease is at least three
// Timeouts).
func (h *slot) renew() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.done {
		return
	}
	s := h.s
	ctx := context.Background()
	res, _, err := attempt(ctx, s.health, s.timeout, func(ctx context.Context) (int64, error) {
		return renewScript.Run(ctx, s.client, []string{s.key}, s.n, s.lease.Milliseconds(), h.token).Int64()
	})
	switch {
	case err != nil: // logged by health
		h.unsure = true
	case res == 0:
		if !h.lost {
			s.logger.LogAttrs(ctx, slog.LevelWarn, "semaphore lease lost",
				slog.String(observe.KeyFeature, forSemaphore.String()), slog.String(observe.KeyRedisKey, s.key), slog.Int(keySlots, s.n))
		}
		h.lost = true
	default:
		h.lost = false
	}
	h.timer.Reset(s.lease / 3)
}

// release gives the slot back, once: it stops the renewals and removes the
// token, and nothing else, from Redis. After a renewal that failed (which
// may land later and take a slot again), it also bars the token for a
// lease. A release Redis does not take is given back in the background
// (see Semaphore.giveBack).
func (h *slot) release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.done {
		return
	}
	h.done = true
	h.timer.Stop()
	s := h.s
	var bar int64
	if h.unsure {
		bar = s.lease.Milliseconds()
	}
	_, _, err := attempt(context.Background(), s.health, s.timeout, func(ctx context.Context) (any, error) {
		return nil, giveBackScript.Run(ctx, s.client, []string{s.key}, s.n, bar, h.token).Err()
	})
	if err != nil {
		s.giveBack(h.token)
	}
	s.notify() // this process's first waiter need not wait for the announcement
}
