package tools_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/tools"
)

// renewals is a MemoryStore that counts the claims and renewals of an
// idempotent call's holder. A renewal fails with an error while fail says
// so, or is answered as if another owner held the key when stolen is set.
type renewals struct {
	*tools.MemoryStore
	fail   func(renewal int) bool
	stolen bool

	mu     sync.Mutex
	claims map[string]int
}

func newRenewals() *renewals {
	return &renewals{MemoryStore: tools.NewMemoryStore(), claims: map[string]int{}}
}

func (s *renewals) count(owner string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.claims[owner]
	s.claims[owner]++
	return n
}

func (s *renewals) Claim(ctx context.Context, key, owner string, lease time.Duration) (tools.Record, bool, error) {
	s.count(owner)
	return s.MemoryStore.Claim(ctx, key, owner, lease)
}

func (s *renewals) Renew(ctx context.Context, key, owner string, lease time.Duration) (bool, error) {
	switch n := s.count(owner); {
	case s.stolen:
		return false, nil
	case s.fail != nil && s.fail(n):
		return false, errors.New("redis: i/o timeout")
	}
	return s.MemoryStore.Renew(ctx, key, owner, lease)
}

// holderClaims returns how many claims the one holder made.
func (s *renewals) holderClaims(t *testing.T) int {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.claims) != 1 {
		t.Fatalf("claims by owner: %v, want one holder", s.claims)
	}
	for _, n := range s.claims {
		return n
	}
	return 0
}

// A renewal that finds another owner's record stops renewing: the lease was
// lost, and claiming on would only load the store.
func TestRenewalStopsOnceTheLeaseIsLost(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := newRenewals()
		store.stolen = true
		defer store.Close()
		charge := stubborn(10*time.Second, nil) // renewals due every second
		w := mustWrap(t, charge, tools.Idempotent(store), tools.Lease(3*time.Second), tools.Timeout(middleware.Forever))
		_, _ = w.Call(t.Context(), "order 4471")
		synctest.Wait()
		time.Sleep(10 * time.Second)
		if claims := store.holderClaims(t); claims != 2 {
			t.Errorf("holder's claims: %d, want the claim and the one renewal that found the key taken", claims)
		}
	})
}

// A renewal that the store fails is tried again at the next tick: one
// error does not cost the key its lease.
func TestRenewalRetriesAfterAStoreError(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := newRenewals()
		store.fail = func(renewal int) bool { return renewal == 1 }
		defer store.Close()
		key := tools.DefaultKey("charge", "order 4471")
		charge := stubborn(10*time.Second, nil)
		w := mustWrap(t, charge, tools.Idempotent(store), tools.Lease(3*time.Second), tools.Timeout(middleware.Forever))
		_, _ = w.Call(t.Context(), "order 4471")
		time.Sleep(2 * time.Second) // 5s after the start: 2s past the lease the failed renewal would have set
		if rec, claimed, _ := store.MemoryStore.Claim(t.Context(), key, "a later caller", time.Minute); claimed {
			t.Fatalf("a later caller took over the key of a running tool: %+v", rec)
		}
		time.Sleep(6 * time.Second) // the charge returns at 10s
		if rec, _, _ := store.Get(t.Context(), key); !rec.Done || charge.calls() != 1 {
			t.Errorf("record: got %+v after %d charges, want the charge stored", rec, charge.calls())
		}
	})
}

// The claims of one tool share its renewals (one timer): calls that start
// at different times and run past the lease each keep their key renewed
// until their tool returns (the callers return at the lease, the tools run
// on), whichever ends first, and a claim that ended leaves the schedule.
// The first call ends before its first renewal was due: the timer, armed
// for it, finds nothing to do then, and must still renew the others.
func TestClaimsShareTheToolsRenewals(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := tools.NewMemoryStore()
		defer store.Close()
		calls := []struct {
			input      string
			start, run time.Duration
		}{
			{"b", 0, 500 * time.Millisecond}, // its renewal was due at 1s
			{"a", 500 * time.Millisecond, 10 * time.Second},
			{"c", 4 * time.Second, 5 * time.Second},
		}
		runs := map[string]time.Duration{}
		for _, c := range calls {
			runs[c.input] = c.run
		}
		slow := tools.Func("charge", "charges", func(_ context.Context, input string) (string, error) {
			time.Sleep(runs[input])
			return "charged " + input, nil
		})
		w := mustWrap(t, slow, tools.Idempotent(store), tools.Lease(3*time.Second), tools.Timeout(middleware.Forever))
		var wg sync.WaitGroup
		for _, c := range calls {
			wg.Go(func() {
				time.Sleep(c.start)
				_, _ = w.Call(t.Context(), c.input)
			})
		}
		taken := func(input string) bool {
			t.Helper()
			rec, claimed, err := store.Claim(t.Context(), tools.DefaultKey("charge", input), "a later caller", time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			return claimed || rec.Done
		}
		time.Sleep(3800 * time.Millisecond) // past a's first lease, before c starts
		if taken("a") {
			t.Fatal("a later caller took over the key of the running call")
		}
		time.Sleep(1200 * time.Millisecond) // 5s: c runs too
		if taken("a") || taken("c") {
			t.Fatal("a later caller took over the key of a running call")
		}
		if n := tools.ScheduledClaims(w); n != 2 {
			t.Errorf("claims scheduled at 5s: %d, want a's and c's", n)
		}
		time.Sleep(4500 * time.Millisecond) // c done at 9s
		if taken("a") {
			t.Fatal("a later caller took over the key of the call still running")
		}
		wg.Wait()               // the callers returned at their lease; the tools run on
		time.Sleep(time.Second) // a done at 10.5s
		synctest.Wait()
		if n := tools.ScheduledClaims(w); n != 0 {
			t.Errorf("claims scheduled once every call ended: %d, want none", n)
		}
		for _, c := range calls {
			if rec, _, _ := store.Get(t.Context(), tools.DefaultKey("charge", c.input)); !rec.Done || rec.Result != "charged "+c.input {
				t.Errorf("%s's record: %+v, want its result stored", c.input, rec)
			}
		}
	})
}
