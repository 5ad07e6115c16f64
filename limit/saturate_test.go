package limit_test

import (
	"math"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/limit"
)

// A settlement of the largest count fills the limiter for as long as it
// can count, instead of wrapping its schedule around into the past, which
// would admit everything.
func TestSettleOfAHugeCountSaturates(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l, err := limit.NewLocalLimiter(1000, time.Minute, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		l.Settle(t.Context(), 1, math.MaxInt)
		l.Settle(t.Context(), 1, math.MaxInt)
		if l.TryAcquire(t.Context(), 1) {
			t.Error("TryAcquire admitted an attempt after settlements of MaxInt tokens")
		}
		time.Sleep(24 * time.Hour)
		if l.TryAcquire(t.Context(), 1) {
			t.Error("TryAcquire admitted an attempt a day after settlements of MaxInt tokens")
		}
		if err := l.Acquire(t.Context(), math.MaxInt); err == nil {
			t.Error("Acquire of MaxInt tokens admitted")
		}
	})
}
