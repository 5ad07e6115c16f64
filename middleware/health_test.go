package middleware_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/pool"
)

// flaky is the protected function of a pool of three members that answer
// after a tenth of a second: while sick, m0 fails every other attempt it
// gets with a 503 (never twice in a row, so its circuit stays closed).
// Attempts are counted per member.
type flaky struct {
	mu     sync.Mutex
	sick   bool
	failed bool // m0's last attempt failed
	counts [3]int
}

func (f *flaky) fn(ctx context.Context, st middleware.State) (string, error) {
	f.mu.Lock()
	f.counts[st.Member]++
	fail := false
	if st.Member == 0 && f.sick {
		fail = !f.failed
		f.failed = fail
	}
	f.mu.Unlock()
	select {
	case <-time.After(100 * time.Millisecond):
	case <-ctx.Done():
		return "", ctx.Err()
	}
	if fail {
		return "", unavailable
	}
	return "ok", nil
}

// take returns the attempts per member since the last take.
func (f *flaky) take() [3]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.counts
	f.counts = [3]int{}
	return out
}

// TestPoolHealthWeighsFailures: under every strategy, a member that fails
// half its attempts (not often enough in a row to open its circuit) gets
// about a quarter of a healthy member's attempts or less (its health
// squared), whether the calls come one at a time or many at once; once it
// answers again, it gets its share back.
func TestPoolHealthWeighsFailures(t *testing.T) {
	for _, s := range []pool.Picker{pool.LeastInFlight{}, pool.RoundRobin{}, pool.LowestLatency{}} {
		for _, callers := range []int{1, 12} {
			t.Run(fmt.Sprintf("%v/callers=%d", s, callers), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) { healthShares(t, s, callers) })
			})
		}
	}
}

// healthShares drives a pool of strategy s with callers concurrent callers
// through a phase where m0 is sick, then one where it has recovered.
func healthShares(t *testing.T, s pool.Picker, callers int) {
	f := &flaky{sick: true}
	p := mustPool(t, members(3, middleware.CircuitBreaker(10, time.Second)), middleware.Balance(s), middleware.NoStickyRuns())
	phase := func(calls int) [3]int {
		var wg sync.WaitGroup
		for range callers {
			wg.Go(func() {
				for range calls / callers {
					if _, err := p.Do(context.Background(), f.fn); err != nil {
						t.Errorf("call: %v", err)
						return
					}
				}
			})
		}
		wg.Wait()
		return f.take()
	}
	sick := phase(400)
	healthy := min(sick[1], sick[2])
	if float64(sick[0]) > 0.4*float64(healthy) {
		t.Errorf("while m0 fails half its attempts, attempts per member %v: want m0 under 40 %% of a healthy member's", sick)
	}
	if s == (pool.RoundRobin{}) && float64(sick[0]) < 0.15*float64(healthy) {
		t.Errorf("while m0 fails half its attempts, attempts per member %v: want m0 at about a quarter of a healthy member's in turn", sick)
	}
	if h := p.Pool().Members()[0].Health; h < 0.2 || h > 0.8 {
		t.Errorf("m0's health %.2f while it fails half its attempts, want about 0.5", h)
	}
	if st := p.Pool().Members(); st[1].Health != 1 || st[2].Health != 1 {
		t.Errorf("healthy members' health %.2f and %.2f, want 1", st[1].Health, st[2].Health)
	}

	f.mu.Lock()
	f.sick = false
	f.mu.Unlock()
	// m0 answers again, and is seen to; under LowestLatency through the
	// probes of a member slower than the others, once a second, each of
	// which brings its latency closer to theirs.
	phase(1200)
	back := phase(400)
	if lo := min(back[1], back[2]); float64(back[0]) < 0.8*float64(lo) {
		t.Errorf("after m0 recovered, attempts per member %v: want m0 at least 80 %% of the others'", back)
	}
	t.Logf("attempts per member while m0 is sick %v, after it recovered %v", sick, back)
}
