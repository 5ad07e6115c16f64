package middleware_test

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
)

// TestDeadlineBoundsTheCall: a Deadline ends the attempt running at it,
// even one whose function ignores its context, and the call stops there
// with the reason deadline; the function's context carries the deadline.
func TestDeadlineBoundsTheCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		unblock := make(chan struct{})
		defer close(unblock)
		seen := make(chan time.Time, 1)
		hangs := func(ctx context.Context, _ middleware.State) (string, error) {
			d, _ := ctx.Deadline()
			seen <- d
			<-unblock // ignores its context
			return "late", nil
		}
		start := time.Now()
		deadline := start.Add(5 * time.Second)
		_, err := mustPipeline(t, middleware.Timeout(10*time.Second)).Do(t.Context(), hangs, middleware.Deadline(deadline))
		if e := asError(t, err); e.Reason != observe.ReasonDeadline || len(e.Attempts) != 1 || time.Since(start) != 5*time.Second {
			t.Errorf("got %v after %d attempts and %v, want deadline after one attempt and 5s", err, len(e.Attempts), time.Since(start))
		}
		if d := <-seen; !d.Equal(deadline) {
			t.Errorf("the attempt's context: deadline %v, want %v", d, deadline)
		}
	})
}

// TestDeadlineStopsBeforeAWaitPastIt: as with MaxDuration, a retry whose
// wait would pass the Deadline is not waited for; the soonest of several
// Deadlines counts, and a zero one sets none.
func TestDeadlineStopsBeforeAWaitPastIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newScript(fails(retryAfter(err429, 20*time.Second)))
		start := time.Now()
		_, err := mustPipeline(t).Do(t.Context(), s.fn, middleware.Deadline(start.Add(time.Hour)),
			middleware.Deadline(start.Add(30*time.Second)), middleware.Deadline(time.Time{}))
		if e := asError(t, err); e.Reason != observe.ReasonDeadline || s.count() != 2 || time.Since(start) != 20*time.Second {
			t.Errorf("got %v after %d calls and %v, want deadline after 2 calls and 20s", err, s.count(), time.Since(start))
		}
	})
}

// TestDeadlineBoundsTheGates: an attempt that waits at a gate (here a
// concurrency limit willing to wait a minute) is bounded by the Deadline
// too.
func TestDeadlineBoundsTheGates(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		slots, err := limit.NewBulkhead(1)
		if err != nil {
			t.Fatal(err)
		}
		p := mustPipeline(t, middleware.ConcurrencyLimit(slots, time.Minute))
		release := make(chan struct{})
		go func() {
			_, _ = p.Do(t.Context(), func(context.Context, middleware.State) (string, error) {
				<-release
				return "ok", nil
			})
		}()
		synctest.Wait() // the first call holds the only slot
		start := time.Now()
		s := newScript(succeeds("ok"))
		_, err = p.Do(t.Context(), s.fn, middleware.Deadline(start.Add(5*time.Second)))
		if err == nil || s.count() != 0 || time.Since(start) != 5*time.Second {
			t.Errorf("got %v after %d calls and %v, want a failure after no call and 5s", err, s.count(), time.Since(start))
		}
		close(release)
	})
}

// TestReturnedSaysWhetherTheResultWasTaken: the Returned function hears of
// each attempt once its function has returned: taken for an attempt the
// call waited for, not taken for one it had abandoned at its timeout.
func TestReturnedSaysWhetherTheResultWasTaken(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var taken []bool
		returned := middleware.Returned(func(ok bool) {
			mu.Lock()
			defer mu.Unlock()
			taken = append(taken, ok)
		})
		p := mustPipeline(t, middleware.Timeout(time.Second), middleware.NoJitter(), middleware.Backoff(5*time.Second, 5*time.Second))
		// The first attempt is abandoned at 1s and its function returns at
		// 2s, ignoring its context; the second, at 6s, answers at once.
		var calls int
		fn := func(context.Context, middleware.State) (string, error) {
			mu.Lock()
			calls++
			n := calls
			mu.Unlock()
			if n == 1 {
				time.Sleep(2 * time.Second)
				return "late", nil
			}
			return "ok", nil
		}
		got, err := p.Do(t.Context(), fn, returned)
		synctest.Wait()
		mu.Lock()
		defer mu.Unlock()
		if got != "ok" || err != nil || len(taken) != 2 || taken[0] != false || taken[1] != true {
			t.Errorf("got (%q, %v), taken %v; want ok, and [false true]: the abandoned attempt, then the one taken", got, err, taken)
		}
	})
}
