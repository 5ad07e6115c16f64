package sat_test

import (
	"math"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilientgo/resilient/internal/sat"
)

func TestAddSaturates(t *testing.T) {
	for _, c := range []struct {
		a, b, want int
	}{
		{1, 2, 3},
		{math.MaxInt, 1, math.MaxInt},
		{math.MaxInt, math.MaxInt, math.MaxInt},
		{math.MaxInt - 1, 1, math.MaxInt},
		{math.MinInt, -1, math.MinInt},
		{math.MinInt, math.MaxInt, -1},
		{-5, 3, -2},
	} {
		if got := sat.Add(c.a, c.b); got != c.want {
			t.Errorf("Add(%d, %d) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	if got := sat.Add(time.Duration(math.MaxInt64), time.Hour); got != math.MaxInt64 {
		t.Errorf("Add of durations = %v, want the largest duration", got)
	}
	var n atomic.Int64
	n.Store(math.MaxInt64 - 10)
	if got := sat.AddInt64(&n, 100); got != math.MaxInt64 || n.Load() != math.MaxInt64 {
		t.Errorf("AddInt64 = %d, stored %d, want the largest int64", got, n.Load())
	}
}
