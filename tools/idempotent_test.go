package tools_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"

	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

func charges(_ context.Context, n int, input string) (string, error) {
	return fmt.Sprintf("charged %s: txn-%d", input, n), nil
}

func TestIdempotentRepeatReturnsTheStoredResult(t *testing.T) {
	var logs observetest.LogBuffer
	charge := newCounted("charge", charges)
	w := mustWrap(t, charge, tools.Idempotent(nil), tools.Logger(logs.Logger()))
	first, err1 := w.Call(t.Context(), `{"order":"4471","amount":2499}`)
	second, err2 := w.Call(t.Context(), `{"amount":2499,"order":"4471"}`)
	if first != `charged {"order":"4471","amount":2499}: txn-1` || second != "already done: "+first || err1 != nil || err2 != nil {
		t.Errorf("got (%q, %v) then (%q, %v)", first, err1, second, err2)
	}
	if charge.calls() != 1 {
		t.Errorf("executions: got %d, want 1", charge.calls())
	}
	want := `level=INFO msg="already done" tool=charge idempotency_key=` + tools.DefaultKey("charge", `{"order":"4471","amount":2499}`)
	if !strings.Contains(logs.String(), want) {
		t.Errorf("logs:\n%s\nwant %s", logs.String(), want)
	}
}

func TestIdempotentConcurrentCallersExecuteOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		charge := newCounted("charge", func(ctx context.Context, n int, input string) (string, error) {
			<-release
			return charges(ctx, n, input)
		})
		w := mustWrap(t, charge, tools.Idempotent(nil))
		results := make([]string, 100)
		var wg sync.WaitGroup
		for i := range results {
			wg.Go(func() {
				var err error
				if results[i], err = w.Call(t.Context(), "order 4471"); err != nil {
					t.Errorf("caller %d: %v", i, err)
				}
			})
		}
		synctest.Wait() // one caller runs the tool, 99 wait for it
		close(release)
		wg.Wait()
		if charge.calls() != 1 {
			t.Errorf("executions: got %d, want 1", charge.calls())
		}
		for i, got := range results {
			if got != "charged order 4471: txn-1" {
				t.Errorf("caller %d: got %q, want the one result", i, got)
			}
		}
	})
}

func TestIdempotentFailureReleasesTheKey(t *testing.T) {
	tests := []struct {
		name      string
		first     func() (string, error)
		wantFirst string
	}{
		{"internal failure", func() (string, error) { return "", errors.New("gateway down") },
			"Error: charge failed internally (*errors.errorString)"},
		{"panic", func() (string, error) { panic("nil map") }, "Error: charge failed internally (panic)"},
		{"tool error", func() (string, error) { return "", taxonomy.NewToolError("card declined") }, "card declined"},
		{"fatal", func() (string, error) { return "", taxonomy.NewFatalToolError(errors.New("auth")) }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			charge := newCounted("charge", func(ctx context.Context, n int, input string) (string, error) {
				if n == 1 {
					return tt.first()
				}
				return charges(ctx, n, input)
			})
			w := mustWrap(t, charge, tools.Idempotent(nil))
			first, _ := w.Call(t.Context(), "order 4471")
			second, err := w.Call(t.Context(), "order 4471")
			if first != tt.wantFirst || second != "charged order 4471: txn-2" || err != nil {
				t.Errorf("got %q then (%q, %v), want %q then the charge", first, second, err, tt.wantFirst)
			}
		})
	}
}

func TestIdempotentCrashedHolderLeaseExpires(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := tools.NewMemoryStore()
		key := tools.DefaultKey("charge", "order 4471")
		if _, claimed, err := store.Claim(t.Context(), key, "a process that crashed", time.Minute); !claimed || err != nil {
			t.Fatalf("claim: got (%v, %v)", claimed, err)
		}
		charge := newCounted("charge", charges)
		w := mustWrap(t, charge, tools.Idempotent(store), tools.Lease(time.Minute))
		start := time.Now()
		got, err := w.Call(t.Context(), "order 4471")
		if got != "charged order 4471: txn-1" || err != nil || charge.calls() != 1 {
			t.Errorf("got (%q, %v) after %d executions, want one charge", got, err, charge.calls())
		}
		// The waiter polls every 500ms at most, so it runs within that of the lease's end.
		if waited := time.Since(start); waited < time.Minute || waited > time.Minute+500*time.Millisecond {
			t.Errorf("ran after %v, want just after the 1m lease", waited)
		}
	})
}

func TestIdempotentWaiterIsBoundedByItsContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := tools.NewMemoryStore()
		_, _, _ = store.Claim(t.Context(), tools.DefaultKey("charge", "order 4471"), "another caller", time.Hour)
		charge := newCounted("charge", charges)
		ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
		defer cancel()
		start := time.Now()
		got, err := mustWrap(t, charge, tools.Idempotent(store)).Call(ctx, "order 4471")
		if got != "" || !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != 3*time.Second || charge.calls() != 0 {
			t.Errorf("got (%q, %v) after %v and %d executions, want the deadline after 3s and none", got, err, time.Since(start), charge.calls())
		}
	})
}

func TestIdempotentLeaseBoundsTheCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := tools.NewMemoryStore()
		slow := newCounted("charge", blocksUntilDone)
		w := mustWrap(t, slow, tools.Idempotent(store), tools.Lease(10*time.Second), tools.Timeout(middleware.Forever))
		start := time.Now()
		got, err := w.Call(t.Context(), "order 4471")
		if got != "Error: charge timed out" || err != nil || time.Since(start) != 10*time.Second {
			t.Errorf("got (%q, %v) after %v, want an internal failure at the lease's end", got, err, time.Since(start))
		}
		// The tool, ended by the same deadline as the call, releases the
		// claim from its own goroutine as it returns.
		synctest.Wait()
		if _, found, _ := store.Get(t.Context(), tools.DefaultKey("charge", "order 4471")); found {
			t.Errorf("the key is still held after the call failed")
		}
	})
}

func TestIdempotentKeyReachesTheTool(t *testing.T) {
	var seen string
	charge := newCounted("charge", func(ctx context.Context, _ int, _ string) (string, error) {
		seen, _ = tools.KeyFrom(ctx)
		return "ok", nil
	})
	byOrder := func(name, input string) string { return name + "/" + strings.Fields(input)[1] }
	_, _ = mustWrap(t, charge, tools.Idempotent(nil), tools.KeyFunc(byOrder)).Call(t.Context(), "order 4471 now")
	if seen != "charge/4471" {
		t.Errorf("KeyFrom: got %q, want charge/4471", seen)
	}
}

type brokenStore struct{ tools.Store }

func (brokenStore) Claim(context.Context, string, string, time.Duration) (tools.Record, bool, error) {
	return tools.Record{}, false, errors.New("redis: connection refused")
}

func TestIdempotentStoreFailureDoesNotRunTheTool(t *testing.T) {
	charge := newCounted("charge", charges)
	got, err := mustWrap(t, charge, tools.Idempotent(brokenStore{})).Call(t.Context(), "order 4471")
	if got != "Error: charge failed internally (*errors.errorString)" || err != nil || charge.calls() != 0 {
		t.Errorf("got (%q, %v) after %d executions, want an internal failure and none", got, err, charge.calls())
	}
}

// faultyStore is a MemoryStore whose Complete or Release fails with an
// error of its own.
type faultyStore struct {
	*tools.MemoryStore
	complete, release error
}

func (s faultyStore) Complete(ctx context.Context, key, owner, result string, ttl time.Duration) error {
	if s.complete != nil {
		return s.complete
	}
	return s.MemoryStore.Complete(ctx, key, owner, result, ttl)
}

func (s faultyStore) Release(ctx context.Context, key, owner string) error {
	if s.release != nil {
		return s.release
	}
	return s.MemoryStore.Release(ctx, key, owner)
}

// An idempotent call reports what happened to its record: a replay, a
// store that failed to record the end of a call (Complete or Release), a
// lease lost to another caller; and nothing else when all went well.
func TestIdempotentEvents(t *testing.T) {
	down := errors.New("redis: connection reset")
	failing := func(context.Context, int, string) (string, error) { return "", errors.New("gateway down") }
	key := tools.DefaultKey("charge", "order 4471")
	tests := []struct {
		name  string
		store faultyStore
		fn    func(context.Context, int, string) (string, error)
		want  []observe.Event
	}{
		{"success, then a replay", faultyStore{}, charges,
			[]observe.Event{observe.IdempotentReplay{Tool: "charge", Key: key}}},
		{"a failure releases its claim", faultyStore{}, failing, nil},
		{"the release fails", faultyStore{release: down}, failing,
			[]observe.Event{observe.StoreFailed{Tool: "charge", Key: key}, observe.StoreFailed{Tool: "charge", Key: key}}},
		{"the result cannot be stored", faultyStore{complete: down}, charges,
			[]observe.Event{observe.StoreFailed{Tool: "charge", Key: key}}},
		{"the lease was lost", faultyStore{complete: tools.ErrLeaseLost}, charges,
			[]observe.Event{observe.LeaseLost{Tool: "charge", Key: key}}},
	}
	for _, tt := range tests {
		// In a bubble: when the release fails, the second call waits out
		// the first one's lease (2 minutes) before it claims the key.
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var rec observetest.Recorder
				store := tt.store
				store.MemoryStore = tools.NewMemoryStore()
				defer store.Close()
				w := mustWrap(t, newCounted("charge", tt.fn), tools.Idempotent(store), tools.Middleware(middleware.Observe(&rec)))
				_, _ = w.Call(t.Context(), "order 4471")
				if tt.store.complete == nil {
					_, _ = w.Call(t.Context(), "order 4471")
				}
				var got []observe.Event
				for _, e := range rec.Events() {
					switch e.(type) {
					case observe.IdempotentReplay, observe.StoreFailed, observe.LeaseLost:
						got = append(got, e)
					}
				}
				if !reflect.DeepEqual(got, tt.want) {
					t.Errorf("events: got %+v, want %+v", got, tt.want)
				}
			})
		})
	}
}

func TestIdempotentKeyScope(t *testing.T) {
	var seen []string
	charge := newCounted("charge", func(ctx context.Context, n int, input string) (string, error) {
		k, _ := tools.KeyFrom(ctx)
		seen = append(seen, k)
		return fmt.Sprintf("txn-%d", n), nil
	})
	w := mustWrap(t, charge, tools.Idempotent(nil))
	run1 := tools.WithKeyScope(t.Context(), "wf-1/run-1/")
	first, _ := w.Call(run1, `{"order":"4471"}`)
	again, _ := w.Call(run1, `{"order":"4471"}`)                                           // the same call in the same scope
	other, _ := w.Call(tools.WithKeyScope(t.Context(), "wf-2/run-1/"), `{"order":"4471"}`) // another scope
	if first != "txn-1" || again != "already done: txn-1" || other != "txn-2" {
		t.Errorf("got %q, %q, %q; want txn-1, already done: txn-1, txn-2", first, again, other)
	}
	want := []string{"wf-1/run-1/" + tools.DefaultKey("charge", `{"order":"4471"}`), "wf-2/run-1/" + tools.DefaultKey("charge", `{"order":"4471"}`)}
	if !reflect.DeepEqual(seen, want) {
		t.Errorf("keys the tool saw: got %q, want %q", seen, want)
	}
	// A tool without a key has nothing to scope: it runs every time.
	plain := newCounted("lookup", charges)
	p := mustWrap(t, plain)
	_, _ = p.Call(run1, "order 4471")
	_, _ = p.Call(run1, "order 4471")
	if plain.calls() != 2 {
		t.Errorf("a tool without a key ran %d times, want 2", plain.calls())
	}
}
