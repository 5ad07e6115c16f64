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
