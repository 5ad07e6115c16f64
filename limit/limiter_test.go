package limit_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/limit"
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
				lim, err := limit.NewLocalLimiter(100, time.Second, 0) // one unit per 10 ms
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
