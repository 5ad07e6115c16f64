package breaker

import "sync/atomic"

// DefaultRetryThrottle is the size of a target's retry throttle bucket.
const DefaultRetryThrottle = 20

// throttle is a target's retry throttle, after gRPC's retry throttling: a
// bucket of tokens that counted failures drain and successes refill, one
// token each. Retries are allowed only while the bucket is more than half
// full, so that when most recent attempts fail (an outage), each call makes
// one attempt instead of three: the breaker then opens on first attempts,
// not on retries piling onto a dead target. The bucket is large enough that
// a provider failing one request in three keeps it full (a streak of ten
// more failures than successes is needed to empty half of it), while one
// failing most requests, whose consecutive-failure breaker may never trip,
// stops having its load tripled by retries.
//
// The bucket's bounds are kept with min and max inside the compare-and-swap
// loops, not with conditions that could skip the swap and spin.
type throttle struct {
	capacity int32
	tokens   atomic.Int32
}

func newThrottle(capacity int) *throttle {
	t := &throttle{capacity: int32(capacity)}
	t.tokens.Store(t.capacity)
	return t
}

func (t *throttle) success() {
	for {
		n := t.tokens.Load()
		if t.tokens.CompareAndSwap(n, min(n+1, t.capacity)) {
			return
		}
	}
}

func (t *throttle) failure() {
	for {
		n := t.tokens.Load()
		if t.tokens.CompareAndSwap(n, max(n-1, 0)) {
			return
		}
	}
}

func (t *throttle) allowsRetry() bool { return t.tokens.Load()*2 > t.capacity }
