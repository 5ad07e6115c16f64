package limit_test

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/limit"
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
		l, err := limit.NewLocalLimiter(c.n, c.period, c.maxWait)
		if ok := err == nil && l != nil; ok != c.ok {
			t.Errorf("NewLocalLimiter(%d, %v, %v): got (%v, %v), want ok %v", c.n, c.period, c.maxWait, l, err, c.ok)
		}
	}
}

// Settle charges the units used beyond the estimate: later callers wait
// for them. An estimate above the truth is not given back.
func TestLocalLimiterSettle(t *testing.T) {
	tests := []struct {
		name             string
		estimate, actual int
		wantWaitAtLeast  time.Duration
		wantWaitLessThan time.Duration
	}{
		{"as estimated", 10, 10, 90 * time.Millisecond, 110 * time.Millisecond},
		{"more than estimated", 10, 50, 490 * time.Millisecond, 510 * time.Millisecond},
		{"less than estimated", 10, 2, 90 * time.Millisecond, 110 * time.Millisecond},
		{"one unit more than estimated", 10, 11, 105 * time.Millisecond, 115 * time.Millisecond},
		{"an estimate of 0 is one unit", 0, 1, 5 * time.Millisecond, 15 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				lim, err := limit.NewLocalLimiter(100, time.Second, middleware.Forever) // one unit per 10 ms
				if err != nil {
					t.Fatal(err)
				}
				start := time.Now()
				if err := lim.Acquire(t.Context(), tt.estimate); err != nil {
					t.Fatal(err)
				}
				lim.Settle(t.Context(), tt.estimate, tt.actual)
				if err := lim.Acquire(t.Context(), 1); err != nil {
					t.Fatal(err)
				}
				if waited := time.Since(start); waited < tt.wantWaitAtLeast || waited >= tt.wantWaitLessThan {
					t.Errorf("the next unit came after %v, want [%v, %v)", waited, tt.wantWaitAtLeast, tt.wantWaitLessThan)
				}
			})
		})
	}
}

// A maxWait of 0 is no wait: a unit is taken only when one is free at
// once; Forever waits as long as the caller's context allows.
func TestLocalLimiterMaxWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		none, err := limit.NewLocalLimiter(1, time.Minute, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := none.Acquire(t.Context(), 1); err != nil {
			t.Fatalf("the first unit: %v", err)
		}
		start := time.Now()
		if err := none.Acquire(t.Context(), 1); !errors.Is(err, limit.ErrLimited) || time.Since(start) != 0 {
			t.Errorf("maxWait 0: got %v after %v, want ErrLimited at once", err, time.Since(start))
		}
		if got, want := none.String(), "1 per 1m0s, not waiting"; got != want {
			t.Errorf("String: got %q, want %q", got, want)
		}
		forever, err := limit.NewLocalLimiter(1, time.Minute, middleware.Forever)
		if err != nil {
			t.Fatal(err)
		}
		if err := forever.Acquire(t.Context(), 1); err != nil {
			t.Fatalf("the first unit: %v", err)
		}
		start = time.Now()
		if err := forever.Acquire(t.Context(), 1); err != nil || time.Since(start) != time.Minute {
			t.Errorf("Forever: got %v after %v, want the next unit after 1m", err, time.Since(start))
		}
		if got, want := forever.String(), "1 per 1m0s, waiting as long as the caller allows"; got != want {
			t.Errorf("String: got %q, want %q", got, want)
		}
	})
}
