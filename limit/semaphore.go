package limit

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/failsafe-go/failsafe-go/bulkhead"
)

// A Semaphore bounds how many attempts of a target are in flight at once:
// a bulkhead. The pipeline takes a slot before each attempt (after the rate
// limiter, before the circuit breaker) and gives it back when the attempt's
// function returns, panics included. An attempt abandoned at its timeout
// keeps its slot until its function returns, because its request may still
// be in flight: hung calls fill their own compartment, not the process.
//
// [Bulkhead] is the semaphore of one process; package resilientredis
// shares one among the replicas of a service. Implementations must be safe
// for concurrent use.
type Semaphore interface {
	// Acquire takes a slot, waiting up to maxWait (0: not at all) for one
	// to free up, and returns the function that gives it back, which the
	// caller calls exactly once. It returns an error matching
	// [ErrConcurrency] when no slot freed up in time, and ctx's error when
	// ctx ended first.
	Acquire(ctx context.Context, maxWait time.Duration) (release func(), err error)
}

// ErrConcurrency is matched by [errors.Is] on the error of a [Semaphore]
// that had no slot in time (a *[ConcurrencyError]), and on the final error
// of a call stopped by it ([observe.ReasonConcurrency]).
var ErrConcurrency = errors.New("limit: concurrency limit reached")

// ConcurrencyError is the error of a [Semaphore] that had no free slot
// within the wait allowed. It matches [ErrConcurrency].
type ConcurrencyError struct {
	// Limit is the number of slots.
	Limit int
	// Waited is how long the caller waited for one.
	Waited time.Duration
	// Shared names the semaphore when it is shared by several processes
	// (package resilientredis); empty for a [Bulkhead].
	Shared string
}

// Error says that all the slots were in use for the time waited.
func (e *ConcurrencyError) Error() string {
	where := ""
	if e.Shared != "" {
		where = " of " + e.Shared
	}
	return fmt.Sprintf("limit: concurrency limit reached: all %d slots%s in use for %v", e.Limit, where, e.Waited)
}

// Is matches [ErrConcurrency].
func (e *ConcurrencyError) Is(target error) bool { return target == ErrConcurrency }

// Bulkhead is a [Semaphore] for one process, on failsafe-go's bulkhead: at
// most n slots taken at once; waiters are served as slots free up. Safe for
// concurrent use.
type Bulkhead struct {
	bh    bulkhead.Bulkhead[any]
	n     int
	inUse atomic.Int32
}

var _ Semaphore = (*Bulkhead)(nil)

// NewBulkhead returns a bulkhead of n slots.
func NewBulkhead(n int) (*Bulkhead, error) {
	if n < 1 {
		return nil, fmt.Errorf("limit: NewBulkhead(%d): need at least 1 slot", n)
	}
	return &Bulkhead{bh: bulkhead.New[any](uint(n)), n: n}, nil
}

// Acquire implements [Semaphore]. The release it returns is safe to call
// more than once; only the first call gives the slot back.
func (b *Bulkhead) Acquire(ctx context.Context, maxWait time.Duration) (func(), error) {
	err := b.bh.AcquirePermitWithMaxWait(ctx, max(maxWait, 0))
	switch {
	case errors.Is(err, bulkhead.ErrFull):
		return nil, &ConcurrencyError{Limit: b.n, Waited: maxWait}
	case err != nil:
		return nil, err
	}
	b.inUse.Add(1)
	var once sync.Once
	return func() {
		once.Do(func() {
			b.inUse.Add(-1)
			b.bh.ReleasePermit()
		})
	}, nil
}

// Size returns the number of slots.
func (b *Bulkhead) Size() int { return b.n }

// InUse returns the number of slots taken now.
func (b *Bulkhead) InUse() int { return int(b.inUse.Load()) }
