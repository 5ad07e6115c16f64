package limit

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/failsafe-go/failsafe-go/ratelimiter"

	"github.com/resilientgo/resilient/internal/bound"
)

// A Limiter admits attempts at a bounded rate, so that callers stay under a
// provider's limit instead of discovering it through 429s. The pipeline asks
// it before each attempt, before the circuit breaker. Implementations must
// be safe for concurrent use; package resilientredis shares one limit among
// the replicas of a service.
type Limiter interface {
	// Acquire blocks until an attempt of the given cost (1 for a request, or
	// an estimate of tokens) may start. It returns ctx's error when ctx ends
	// first, and another error when the attempt cannot be admitted (the wait
	// would be too long, or a shared limiter is unreachable and fails closed).
	Acquire(ctx context.Context, cost int) error
}

// A Settler is a [Limiter] that can be told what an attempt really cost
// once it is known: a tokens-per-minute limiter acquires an estimate before
// the request and settles with the tokens the provider reported after it
// (package llms settles a model's token limiter so). Settle must not wait
// for capacity: it charges what was used at once, and later acquisitions
// wait for it; a limiter shared through a store may make one round trip,
// bounded.
type Settler interface {
	Limiter
	// Settle corrects an acquisition of estimated units to actual units.
	Settle(ctx context.Context, estimated, actual int)
}

// A TryLimiter is a [Limiter] that can also admit an attempt only if it
// need not wait: a pool asks its members' limiters so before it chooses
// one, so that it does not wait on one member while another has room. A
// member's limiter that is not a TryLimiter is asked with Acquire, and may
// make the pool wait on that member.
type TryLimiter interface {
	Limiter
	// TryAcquire admits an attempt of the given cost at once, or reports
	// false without waiting and without taking anything.
	TryAcquire(ctx context.Context, cost int) bool
}

// ErrLimited is returned by a [Limiter] that will not admit an attempt in
// time. A call refused by its limiter stops with [observe.ReasonRejected].
var ErrLimited = errors.New("limit: rate limit would be exceeded")

// LocalLimiter is a [Limiter] for one process, on failsafe-go's smooth rate
// limiter: n units per period, evenly spaced. A caller waits for its turn up
// to maxWait, after which Acquire returns [ErrLimited]. Safe for concurrent
// use.
type LocalLimiter struct {
	rl       ratelimiter.RateLimiter[any]
	n        int
	period   time.Duration
	maxWait  time.Duration
	interval time.Duration // between two units
}

// horizon is how far ahead a [LocalLimiter] schedules units at most (2^62
// ns, 146 years): a huge cost or settlement fills it up to there and no
// further, instead of overflowing the schedule into the past, which would
// admit everything.
const horizon = time.Duration(1 << 62)

// NewLocalLimiter returns a limiter admitting n units per period; callers
// wait at most maxWait for their turn: 0 is no wait (a unit is taken only
// when one is free at once), [github.com/resilientgo/resilient.Forever] as
// long as their context allows, as every option of the library counts.
func NewLocalLimiter(n int, period, maxWait time.Duration) (*LocalLimiter, error) {
	if n < 1 || period <= 0 || maxWait < 0 {
		return nil, fmt.Errorf("limit: NewLocalLimiter(%d, %v, %v): need n >= 1, a positive period, maxWait >= 0 (Forever for no limit)", n, period, maxWait)
	}
	return &LocalLimiter{rl: ratelimiter.NewSmooth[any](uint(n), period), n: n, period: period, maxWait: maxWait, interval: max(period/time.Duration(n), 1)}, nil
}

// permits returns the permits that units take: at most as many as fit
// before the schedule reaches the horizon, so that a count saturates there,
// but at least one (a saturated limiter still makes a unit wait).
func (l *LocalLimiter) permits(units int) uint {
	if units <= 0 {
		return 0
	}
	ahead := l.rl.ReservePermits(0) // how far the schedule runs ahead already
	return uint(max(1, min(units, int(max(horizon-ahead, 0)/l.interval))))
}

// String describes the limit, as "10 per 1s, waiting up to 5s" ("not
// waiting" for a maxWait of 0, "waiting as long as the caller allows" for
// Forever).
func (l *LocalLimiter) String() string {
	wait := "waiting up to " + l.maxWait.String()
	switch l.maxWait {
	case 0:
		wait = "not waiting"
	case bound.Forever:
		wait = "waiting as long as the caller allows"
	}
	return fmt.Sprintf("%d per %v, %s", l.n, l.period, wait)
}

// Settle implements [Settler]: units used beyond the estimate are reserved
// at once (later callers wait for them), up to 146 years ahead whatever
// the count; an estimate above the truth is not given back, as the smooth
// limiter cannot return permits.
func (l *LocalLimiter) Settle(_ context.Context, estimated, actual int) {
	l.rl.ReservePermits(l.permits(actual - max(estimated, 1)))
}

// TryAcquire implements [TryLimiter].
func (l *LocalLimiter) TryAcquire(_ context.Context, cost int) bool {
	return l.rl.TryAcquirePermits(l.permits(max(cost, 1)))
}

// Acquire implements [Limiter].
func (l *LocalLimiter) Acquire(ctx context.Context, cost int) error {
	permits := l.permits(max(cost, 1))
	var err error
	if l.maxWait == bound.Forever {
		err = l.rl.AcquirePermits(ctx, permits)
	} else {
		err = l.rl.AcquirePermitsWithMaxWait(ctx, permits, l.maxWait)
	}
	if errors.Is(err, ratelimiter.ErrExceeded) {
		return ErrLimited
	}
	return err
}
