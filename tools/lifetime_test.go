package tools_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

// TestHungToolOutcomeUnknown: a mutating tool that hangs, ignoring its
// context, holds its key for the claim's maximum lifetime (10 min with the
// default Lease and Timeout), not for ever. Until then a retry waits, as
// for any call in flight; after it, the holder stops renewing, the record
// says the outcome is unknown, and a retry ends the run at once with a
// FatalToolError saying so (the model cannot settle it: a person or the
// service called must), for as long as a result would be kept. If the tool
// returns at last, its result is stored as usual.
func TestHungToolOutcomeUnknown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := tools.NewMemoryStore()
		defer store.Close()
		key := tools.DefaultKey("charge", "order 4471")
		unblock := make(chan struct{})
		charge := newCounted("charge", func(ctx context.Context, n int, input string) (string, error) {
			<-unblock
			return charges(ctx, n, input)
		})
		w := mustWrap(t, charge, tools.Idempotent(store))
		start := time.Now()
		if out, _ := w.Call(t.Context(), "order 4471"); out != "Error: charge failed internally (context.deadlineExceededError)" {
			t.Fatalf("first call: got %q, want its timeout", out)
		}
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		if _, err := w.Call(ctx, "order 4471"); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("a retry within the lifetime: got %v, want it to wait until its deadline", err)
		}
		cancel()

		time.Sleep(10*time.Minute + time.Second - time.Since(start))
		for _, after := range []time.Duration{0, 23 * time.Hour} {
			time.Sleep(after)
			asked := time.Now()
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
			out, err := w.Call(ctx, "order 4471")
			cancel()
			var fatal *taxonomy.FatalToolError
			if !errors.As(err, &fatal) || !errors.Is(err, tools.ErrOutcomeUnknown) || out != "" ||
				!strings.Contains(err.Error(), "still running after 10m0s; outcome unknown") || time.Since(asked) != 0 {
				t.Errorf("a retry %v after the lifetime: got (%q, %v) after %v, want at once a FatalToolError saying the outcome is unknown",
					after, out, err, time.Since(asked))
			}
		}
		if rec, held, _ := store.Get(t.Context(), key); !held || !rec.Unknown || rec.Done {
			t.Errorf("record: got %+v (held %v), want one saying the outcome is unknown", rec, held)
		}

		close(unblock) // the tool returns at last
		synctest.Wait()
		if out, err := w.Call(t.Context(), "order 4471"); out != "already done: charged order 4471: txn-1" || err != nil || charge.calls() != 1 {
			t.Errorf("after the tool returned: got (%q, %v) after %d charges, want its result", out, err, charge.calls())
		}
	})
}
