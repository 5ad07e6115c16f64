package middleware_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/middleware"
)

// herdRetries makes calls concurrent calls through p, each refused first
// with a 429 asking for wait, then answered, and returns when each retry
// went out, from the start, sorted.
func herdRetries(t *testing.T, p *middleware.Pipeline[string], calls int, wait time.Duration) []time.Duration {
	t.Helper()
	start := time.Now()
	var mu sync.Mutex
	var retries []time.Duration
	var wg sync.WaitGroup
	for range calls {
		wg.Go(func() {
			_, err := p.Do(t.Context(), func(_ context.Context, s middleware.State) (string, error) {
				if s.Attempt == 1 {
					return "", retryAfter(err429, wait)
				}
				mu.Lock()
				retries = append(retries, time.Since(start))
				mu.Unlock()
				return "ok", nil
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	slices.Sort(retries)
	return retries
}

// TestHintJitterSpreadsAHerd: callers of one pipeline that receive the
// same Retry-After come back spread over a tenth of it after it, never
// before: the first to decide waits exactly, the others a little longer.
func TestHintJitterSpreadsAHerd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const wait = 2 * time.Second
		retries := herdRetries(t, mustPipeline(t), 50, wait)
		if retries[0] != wait || retries[len(retries)-1] >= wait+wait/middleware.HintJitterDivisor {
			t.Errorf("retries from %v to %v, want from %v to less than %v", retries[0], retries[len(retries)-1],
				wait, wait+wait/middleware.HintJitterDivisor)
		}
		if distinct := len(slices.Compact(retries)); distinct < 40 {
			t.Errorf("50 retries came back at %d distinct instants, want them spread", distinct)
		}
	})
}

// TestHintJitterIsBounded: the spread is at most the backoff's base delay,
// however long the wait.
func TestHintJitterIsBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const wait = 50 * time.Second
		retries := herdRetries(t, mustPipeline(t), 50, wait)
		if last := retries[len(retries)-1]; retries[0] != wait || last >= wait+middleware.DefaultBaseDelay || last < wait+middleware.DefaultBaseDelay/2 {
			t.Errorf("retries from %v to %v, want from %v to nearly %v more", retries[0], last, wait, middleware.DefaultBaseDelay)
		}
		base := 100 * time.Millisecond
		retries = herdRetries(t, mustPipeline(t, middleware.Backoff(base, time.Second)), 50, wait)
		if last := retries[len(retries)-1]; last >= wait+base {
			t.Errorf("with a base delay of %v: the last retry after %v, want less than %v", base, last, wait+base)
		}
	})
}

// TestNoJitterKeepsTheHerd: NoJitter sends every retry the instant the
// provider's wait ends.
func TestNoJitterKeepsTheHerd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const wait = 2 * time.Second
		retries := herdRetries(t, mustPipeline(t, middleware.NoJitter()), 20, wait)
		if retries[0] != wait || retries[len(retries)-1] != wait {
			t.Errorf("retries from %v to %v, want all at %v", retries[0], retries[len(retries)-1], wait)
		}
	})
}

// TestHintJitterForgetsEndedWaits: a call that gave up during its wait
// and the calls of a herd, once back, no longer count as waiting: a lone
// call after them waits exactly as asked.
func TestHintJitterForgetsEndedWaits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const wait = 2 * time.Second
		p := mustPipeline(t)
		herdRetries(t, p, 10, wait)
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(wait/2, cancel) // during the wait
		if _, err := p.Do(ctx, newScript(fails(retryAfter(err429, wait))).fn); err == nil {
			t.Fatal("a call canceled during its wait succeeded")
		}
		for range 20 {
			if retries := herdRetries(t, p, 1, wait); retries[0] != wait {
				t.Fatalf("a lone call retried after %v, want exactly %v", retries[0], wait)
			}
		}
	})
}
