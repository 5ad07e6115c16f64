package middleware_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/middleware"
)

func TestNewLocalLimiterBounds(t *testing.T) {
	for _, c := range []struct {
		n       int
		period  time.Duration
		maxWait time.Duration
		ok      bool
	}{
		{1, time.Nanosecond, 0, true},
		{0, time.Second, 0, false},
		{1, 0, 0, false},
		{1, time.Second, -1, false},
	} {
		l, err := middleware.NewLocalLimiter(c.n, c.period, c.maxWait)
		if ok := err == nil && l != nil; ok != c.ok {
			t.Errorf("NewLocalLimiter(%d, %v, %v): got (%v, %v), want ok %v", c.n, c.period, c.maxWait, l, err, c.ok)
		}
	}
}

// TestSettleReservesTheUnitsUsedBeyondTheEstimate: a request that used more
// than it acquired makes later callers wait for the difference; one that
// used less gives nothing back and takes nothing more.
func TestSettleReservesTheUnitsUsedBeyondTheEstimate(t *testing.T) {
	for _, c := range []struct {
		estimated, actual int
		next              time.Duration // when the next unit is admitted
	}{
		{1, 3, 3 * time.Second},
		{0, 1, time.Second},     // an estimate of 0 acquired 1 unit
		{5, 3, 5 * time.Second}, // acquired 5, nothing given back
		{1, 1, time.Second},
	} {
		synctest.Test(t, func(t *testing.T) {
			l, err := middleware.NewLocalLimiter(1, time.Second, 0)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			if err := l.Acquire(t.Context(), c.estimated); err != nil {
				t.Fatal(err)
			}
			l.Settle(t.Context(), c.estimated, c.actual)
			if err := l.Acquire(t.Context(), 1); err != nil {
				t.Fatal(err)
			}
			if got := time.Since(start); got != c.next {
				t.Errorf("estimated %d, used %d: the next unit came after %v, want %v", c.estimated, c.actual, got, c.next)
			}
		})
	}
}

// TestCallerGivingUpWhileLimited: a caller whose context ends while it
// waits for the limiter is canceled, not rejected, and sends nothing.
func TestCallerGivingUpWhileLimited(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l, err := middleware.NewLocalLimiter(1, time.Minute, 0)
		if err != nil {
			t.Fatal(err)
		}
		p := mustPipeline(t, middleware.RateLimit(l))
		s := newScript(succeeds("ok"))
		if _, err := p.Do(t.Context(), s.fn); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		_, err = p.Do(ctx, s.fn)
		if e := asError(t, err); e.Reason != middleware.ReasonCanceled || !errors.Is(err, context.DeadlineExceeded) || s.count() != 1 {
			t.Errorf("got %v after %d calls, want canceled by the caller's deadline after 1", err, s.count())
		}
	})
}
