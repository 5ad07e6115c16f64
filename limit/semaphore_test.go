package limit_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/limit"
)

// TestBulkheadError: a bulkhead with no free slot says so in an error that
// matches ErrConcurrency and gives its size and the wait; a semaphore
// shared by several processes is named in it. A slot released twice is
// given back once.
func TestBulkheadError(t *testing.T) {
	synctest.Test(t, func(t *testing.T) { // a release that blocks fails at once
		b, err := limit.NewBulkhead(1)
		if err != nil {
			t.Fatal(err)
		}
		release, err := b.Acquire(t.Context(), 0)
		if err != nil {
			t.Fatal(err)
		}
		_, err = b.Acquire(t.Context(), 0)
		var ce *limit.ConcurrencyError
		if !errors.Is(err, limit.ErrConcurrency) || !errors.As(err, &ce) || ce.Limit != 1 ||
			err.Error() != "limit: concurrency limit reached: all 1 slots in use for 0s" {
			t.Errorf("got %v, want every one of the 1 slots in use, matching ErrConcurrency", err)
		}
		if errors.Is(err, context.Canceled) {
			t.Errorf("%v matches context.Canceled", err)
		}
		shared := &limit.ConcurrencyError{Limit: 4, Waited: time.Second, Shared: "llm:slots"}
		if got := shared.Error(); got != "limit: concurrency limit reached: all 4 slots of llm:slots in use for 1s" {
			t.Errorf("got %q, want the shared semaphore named", got)
		}
		release()
		release()
		if _, err := b.Acquire(t.Context(), 0); err != nil {
			t.Fatalf("after the release: %v", err)
		}
		if _, err := b.Acquire(t.Context(), 0); err == nil {
			t.Error("a second slot after a slot released twice, want one only")
		}
	})
}
