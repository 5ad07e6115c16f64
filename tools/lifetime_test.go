package tools_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe/observetest"
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
		var logs observetest.LogBuffer
		w := mustWrap(t, charge, tools.Idempotent(store), tools.Logger(logs.Logger()))
		start := time.Now()
		if out, _ := w.Call(t.Context(), "order 4471"); out != "Error: charge timed out" {
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
		if rec, held, _ := store.Get(t.Context(), key); !held || !rec.Unknown || rec.Held != 10*time.Minute || rec.Done {
			t.Errorf("record: got %+v (held %v), want one saying the outcome is unknown after 10 min", rec, held)
		}
		hung := `level=ERROR msg="tool hung; outcome unknown" tool=charge idempotency_key=` + key + ` held=10m0s`
		stopped := `level=WARN msg="tool stopped the run" tool=charge reason=outcome_unknown err="fatal tool error in charge: ` +
			`the same call is still running after 10m0s; outcome unknown (idempotency key ` + key + `)"`
		if strings.Count(logs.String(), hung) != 1 || strings.Count(logs.String(), stopped) != 2 {
			t.Errorf("logs: want the holder's line once and the retries' twice:\n%s", logs.String())
		}

		close(unblock) // the tool returns at last
		synctest.Wait()
		if out, err := w.Call(t.Context(), "order 4471"); out != "already done: charged order 4471: txn-1" || err != nil || charge.calls() != 1 {
			t.Errorf("after the tool returned: got (%q, %v) after %d charges, want its result", out, err, charge.calls())
		}
	})
}

// TestMaxClaimOptions: MaxClaim needs Idempotent, must be positive and
// longer than the Lease plus the Timeout (a call that honours its context
// has returned by then).
func TestMaxClaimOptions(t *testing.T) {
	for _, c := range []struct {
		opts []tools.Option
		want string
	}{
		{[]tools.Option{tools.MaxClaim(time.Hour)}, "tools: charge: MaxClaim needs Idempotent"},
		{[]tools.Option{tools.Idempotent(nil), tools.MaxClaim(0)}, "tools: charge: MaxClaim(0s): must be positive"},
		{[]tools.Option{tools.Idempotent(nil), tools.Lease(time.Minute), tools.MaxClaim(90 * time.Second)},
			"tools: charge: MaxClaim(1m30s): must be longer than the Lease plus the Timeout (1m30s), or a call that honours its context is marked unknown"},
	} {
		if _, err := tools.New(newCounted("charge", charges), c.opts...); fmt.Sprint(err) != c.want {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
}

// TestClaimLifetime: a hung call's claim lasts four times the Lease plus
// the Timeout unless MaxClaim says otherwise: held until just before, of
// unknown outcome just after.
func TestClaimLifetime(t *testing.T) {
	for _, c := range []struct {
		name     string
		opts     []tools.Option
		lifetime time.Duration
	}{
		{"no timeout", []tools.Option{tools.Lease(time.Minute), tools.Timeout(middleware.Forever)}, 4 * time.Minute},
		{"a lease and a timeout", []tools.Option{tools.Lease(time.Minute), tools.Timeout(15 * time.Second)}, 5 * time.Minute},
		{"MaxClaim", []tools.Option{tools.Lease(time.Minute), tools.MaxClaim(2 * time.Minute)}, 2 * time.Minute},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				store := tools.NewMemoryStore()
				defer store.Close()
				key := tools.DefaultKey("charge", "order 4471")
				unblock := make(chan struct{})
				defer close(unblock)
				charge := newCounted("charge", func(ctx context.Context, n int, input string) (string, error) {
					<-unblock
					return charges(ctx, n, input)
				})
				w := mustWrap(t, charge, append([]tools.Option{tools.Idempotent(store)}, c.opts...)...)
				start := time.Now()
				go func() { _, _ = w.Call(t.Context(), "order 4471") }() // returns at its lease, the tool running on
				synctest.Wait()
				time.Sleep(c.lifetime - time.Second - time.Since(start))
				if rec, _, _ := store.Get(t.Context(), key); rec.Unknown || rec.Owner == "" {
					t.Errorf("a second before the lifetime: got %+v, want the claim in flight", rec)
				}
				time.Sleep(2 * time.Second)
				if rec, _, _ := store.Get(t.Context(), key); !rec.Unknown || rec.Held != c.lifetime {
					t.Errorf("a second after the lifetime: got %+v, want it of unknown outcome, held %v", rec, c.lifetime)
				}
			})
		})
	}
}

// TestRetryAfterALateSuccessReturnsIt: a tool safe to retry whose first
// attempt, abandoned at its timeout, succeeds before the retry starts: the
// retry does not run the tool again, and the call returns that success.
func TestRetryAfterALateSuccessReturnsIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		charge := stubborn(1500*time.Millisecond, nil)
		w := mustWrap(t, charge, tools.Idempotent(nil), tools.SafeToRetry(), tools.Timeout(time.Second),
			tools.Middleware(middleware.Backoff(time.Second, time.Second), middleware.NoJitter()))
		out, err := w.Call(t.Context(), "order 4471")
		if out != "charged order 4471: txn-1" || err != nil || charge.calls() != 1 {
			t.Errorf("got (%q, %v) after %d charges, want the first attempt's charge, once", out, err, charge.calls())
		}
	})
}
