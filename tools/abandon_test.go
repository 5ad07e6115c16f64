package tools_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/tools"
)

// stubborn is a charge that ignores its context: it takes d, then succeeds,
// or fails when fail says so for its n-th call.
func stubborn(d time.Duration, fail func(n int) bool) *counted {
	return newCounted("charge", func(ctx context.Context, n int, input string) (string, error) {
		time.Sleep(d)
		if fail != nil && fail(n) {
			return "", errors.New("gateway reset")
		}
		return charges(ctx, n, input)
	})
}

// A mutating tool that outlives its timeout: the caller gets an internal
// timeout failure at the timeout, and the call keeps its claim until the
// tool really ends, so that a repeat meanwhile waits for it instead of
// charging again, and gets its result.
func TestAbandonedCallKeepsItsClaim(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := tools.NewMemoryStore()
		defer store.Close()
		charge := stubborn(10*time.Second, nil)
		w := mustWrap(t, charge, tools.Idempotent(store), tools.Timeout(time.Second))
		start := time.Now()
		first, err := w.Call(t.Context(), "order 4471")
		if first != "Error: charge timed out" || err != nil || time.Since(start) != time.Second {
			t.Fatalf("first call: got (%q, %v) after %v, want the timeout after 1s", first, err, time.Since(start))
		}
		rec, held, _ := store.Get(t.Context(), tools.DefaultKey("charge", "order 4471"))
		if !held || rec.Done {
			t.Fatalf("record after the timeout: got %+v (held %v), want the claim in flight", rec, held)
		}
		second, err := w.Call(t.Context(), "order 4471") // the model tries again
		if second != "charged order 4471: txn-1" || err != nil || charge.calls() != 1 {
			t.Errorf("repeat while it runs: got (%q, %v) after %d charges, want the first call's result and 1 charge", second, err, charge.calls())
		}
		if waited := time.Since(start); waited < 10*time.Second || waited > 10*time.Second+500*time.Millisecond {
			t.Errorf("the repeat returned after %v, want just after the 10s charge", waited)
		}
		if third, _ := w.Call(t.Context(), "order 4471"); third != "already done: charged order 4471: txn-1" || charge.calls() != 1 {
			t.Errorf("repeat after it ended: got %q after %d charges", third, charge.calls())
		}
	})
}

// An abandoned call that fails in the end releases its claim, so that the
// repeat waiting for it runs the tool itself.
func TestAbandonedCallThatFailsReleasesItsClaim(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		charge := stubborn(10*time.Second, func(n int) bool { return n == 1 })
		w := mustWrap(t, charge, tools.Idempotent(nil), tools.Timeout(time.Minute))
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		if _, err := w.Call(ctx, "order 4471"); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("first call: got %v, want the caller's deadline", err)
		}
		start := time.Now()
		got, err := w.Call(t.Context(), "order 4471")
		if got != "charged order 4471: txn-2" || err != nil || charge.calls() != 2 {
			t.Errorf("repeat: got (%q, %v) after %d charges, want its own charge", got, err, charge.calls())
		}
		if took := time.Since(start); took < 19*time.Second || took > 19*time.Second+500*time.Millisecond {
			t.Errorf("the repeat took %v, want the 9s left of the first, then its own 10s", took)
		}
	})
}

// An abandoned call that succeeds after its caller gave up stores its
// result: nobody waited, and a later repeat is answered "already done".
func TestAbandonedSuccessIsStored(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		charge := stubborn(2*time.Second, nil)
		w := mustWrap(t, charge, tools.Idempotent(nil))
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(time.Second, cancel)
		if _, err := w.Call(ctx, "order 4471"); !errors.Is(err, context.Canceled) {
			t.Fatalf("first call: got %v, want canceled", err)
		}
		time.Sleep(time.Hour)
		got, err := w.Call(t.Context(), "order 4471")
		if got != "already done: charged order 4471: txn-1" || err != nil || charge.calls() != 1 {
			t.Errorf("repeat: got (%q, %v) after %d charges, want the stored charge", got, err, charge.calls())
		}
	})
}

// A holder that outlives its lease keeps its key: the claim is renewed while
// the tool runs, so a later caller cannot take it over, and the late result
// is stored.
func TestIdempotentClaimOutlivesItsLease(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var logs observetest.LogBuffer
		store := tools.NewMemoryStore()
		defer store.Close()
		key := tools.DefaultKey("charge", "order 4471")
		charge := stubborn(3*time.Second, nil)
		w := mustWrap(t, charge, tools.Idempotent(store), tools.Lease(time.Second), tools.Timeout(middleware.Forever), tools.Logger(logs.Logger()))
		got, _ := w.Call(t.Context(), "order 4471")
		if got != "Error: charge timed out" {
			t.Errorf("the first holder at its lease's end: got %q", got)
		}
		time.Sleep(time.Second) // two leases after the start: the tool still runs
		if rec, claimed, _ := store.Claim(t.Context(), key, "a later caller", time.Minute); claimed || rec.Owner == "a later caller" {
			t.Fatalf("a later caller took over the key of a running tool: %+v", rec)
		}
		time.Sleep(2 * time.Second) // the first holder's charge returns
		rec, _, _ := store.Get(t.Context(), key)
		if !rec.Done || rec.Result != "charged order 4471: txn-1" || charge.calls() != 1 {
			t.Errorf("record: got %+v after %d charges, want the late charge stored", rec, charge.calls())
		}
		if strings.Contains(logs.String(), "lease lost") {
			t.Errorf("logs:\n%s", logs.String())
		}
	})
}

// forgetful is a store whose renewals fail, as when the holder's process is
// cut off from a shared store: the lease then expires under a running tool.
type forgetful struct {
	*tools.MemoryStore
}

func (f *forgetful) Renew(context.Context, string, string, time.Duration) (bool, error) {
	return false, errors.New("redis: connection refused")
}

// When renewals fail for a whole lease, a later caller may take the key
// over; the first holder's result then loses, and the loss is logged.
func TestIdempotentLeaseLost(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var logs observetest.LogBuffer
		store := &forgetful{MemoryStore: tools.NewMemoryStore()}
		defer store.Close()
		key := tools.DefaultKey("charge", "order 4471")
		charge := stubborn(3*time.Second, nil)
		w := mustWrap(t, charge, tools.Idempotent(store), tools.Lease(time.Second), tools.Timeout(middleware.Forever), tools.Logger(logs.Logger()))
		_, _ = w.Call(t.Context(), "order 4471")
		time.Sleep(time.Second)
		if _, claimed, _ := store.Claim(t.Context(), key, "a later caller", time.Minute); !claimed {
			t.Fatal("the expired lease could not be claimed")
		}
		time.Sleep(2 * time.Second) // the first holder's charge returns
		if rec, _, _ := store.Get(t.Context(), key); rec.Owner != "a later caller" || rec.Done {
			t.Errorf("record: got %+v, want the later caller's claim, untouched", rec)
		}
		if !strings.Contains(logs.String(), `level=WARN msg="lease lost" tool=charge`) {
			t.Errorf("logs:\n%s", logs.String())
		}
	})
}

// Many callers of a call that outlives its timeout: one charge, and every
// caller that came after the first gets its result.
func TestAbandonedCallConcurrentRepeats(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		charge := stubborn(5*time.Second, nil)
		w := mustWrap(t, charge, tools.Idempotent(nil), tools.Timeout(time.Second))
		first, _ := w.Call(t.Context(), "order 4471")
		results := make([]string, 20)
		var wg sync.WaitGroup
		for i := range results {
			wg.Go(func() { results[i], _ = w.Call(t.Context(), "order 4471") })
		}
		wg.Wait()
		for i, got := range results {
			if got != "charged order 4471: txn-1" {
				t.Errorf("caller %d: got %q", i, got)
			}
		}
		if charge.calls() != 1 || first != "Error: charge timed out" {
			t.Errorf("got %q first and %d charges, want a timeout and 1 charge", first, charge.calls())
		}
	})
}

// TestLeaseBoundsTheCall: without a timeout, an idempotent call is bounded
// by its lease: the tool's context ends there, and a tool that ignores it
// is abandoned then (the call keeps its claim until the tool returns). A
// timeout shorter than the lease bounds each attempt as usual.
func TestLeaseBoundsTheCall(t *testing.T) {
	for _, c := range []struct {
		name string
		opts []tools.Option
		want time.Duration // when the tool's context ends, and the call returns
	}{
		{"no timeout", []tools.Option{tools.Lease(30 * time.Second), tools.Timeout(middleware.Forever)}, 30 * time.Second},
		{"a timeout within the lease", []tools.Option{tools.Lease(30 * time.Second), tools.Timeout(10 * time.Second)}, 10 * time.Second},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				deadlines := make(chan time.Time, 1)
				charge := newCounted("charge", func(ctx context.Context, n int, input string) (string, error) {
					d, _ := ctx.Deadline()
					deadlines <- d
					time.Sleep(time.Hour) // ignores its context
					return charges(ctx, n, input)
				})
				w := mustWrap(t, charge, append([]tools.Option{tools.Idempotent(nil)}, c.opts...)...)
				start := time.Now()
				out, err := w.Call(t.Context(), "order 4471")
				deadline := <-deadlines
				if out != "Error: charge timed out" || err != nil || time.Since(start) != c.want || !deadline.Equal(start.Add(c.want)) {
					t.Errorf("got (%q, %v) after %v, the tool's deadline %v after the start; want the timeout after %v",
						out, err, time.Since(start), deadline.Sub(start), c.want)
				}
				time.Sleep(time.Hour)
				synctest.Wait()
			})
		})
	}
}
