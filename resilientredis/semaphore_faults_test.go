package resilientredis_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/resilientredis"
)

// semaphoreOn returns a semaphore of n slots on a client of srv, closed
// when the test ends.
func semaphoreOn(t *testing.T, srv *server, n int, opts ...resilientredis.Option) *resilientredis.Semaphore {
	t.Helper()
	s, err := resilientredis.NewSemaphore(srv.client(), "provider", n, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// TestSemaphoreRedisStalls: while Redis stalls (DEBUG SLEEP), an Acquire
// answers at its Timeout, not at the stall's end: failing open, with a
// slot of this process; with FailClosed, with ErrUnavailable. The acquire
// that timed out runs when Redis wakes and takes a slot nobody holds: the
// fleet has one slot fewer until its lease ends, never one more.
func TestSemaphoreRedisStalls(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	const timeout, lease = 200 * time.Millisecond, time.Second
	open := semaphoreOn(t, srv, 1, resilientredis.Timeout(timeout), resilientredis.Lease(lease))
	closed := semaphoreOn(t, srv, 1, resilientredis.Timeout(timeout), resilientredis.Lease(lease), resilientredis.FailClosed())
	acquire(t, open, 0)() // loads the scripts
	ctx := context.Background()

	resumed := srv.pause(2 * time.Second)
	start := time.Now()
	release, err := open.Acquire(ctx, 0)
	if err != nil {
		t.Errorf("fail open while Redis stalls: got %v, want a slot of this process", err)
	} else {
		release()
	}
	if _, err := closed.Acquire(ctx, 0); !errors.Is(err, resilientredis.ErrUnavailable) {
		t.Errorf("fail closed while Redis stalls: got %v, want ErrUnavailable", err)
	}
	if d := time.Since(start); d > 5*timeout {
		t.Errorf("two acquires took %v while Redis stalled, want about two Timeouts (%v)", d, timeout)
	}
	resumed()

	key := resilientredis.DefaultSemaphorePrefix + "provider"
	if got := srv.do("ZCARD", key); got != int64(1) {
		t.Errorf("after Redis woke: got %v holders, want 1 (an acquire that timed out)", got)
	}
	if _, ok := eventually(lease+2*time.Second, func() bool { return srv.do("ZCARD", key) == int64(0) }); !ok {
		t.Error("the slot of the acquire that timed out was not freed by its lease")
	}
}

// TestSemaphoreResubscribes: when Redis drops the subscription's
// connection (CLIENT KILL), go-redis subscribes again, and a waiter is
// still woken by a release in another replica, not by its poll (a
// minute).
func TestSemaphoreResubscribes(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	opts := []resilientredis.Option{resilientredis.PollInterval(time.Minute), resilientredis.Lease(time.Minute)}
	a, b := semaphoreOn(t, srv, 1, opts...), semaphoreOn(t, srv, 1, opts...)
	channel := resilientredis.DefaultSemaphorePrefix + "provider"
	subscribers := func() int64 { return srv.do("PUBSUB", "NUMSUB", channel).([]any)[1].(int64) }

	release := acquire(t, a, 0)
	got := waiter(b, 20*time.Second)
	if _, ok := eventually(10*time.Second, func() bool { return subscribers() == 1 }); !ok {
		t.Fatal("the waiter did not subscribe")
	}
	if killed := srv.do("CLIENT", "KILL", "TYPE", "pubsub"); killed != int64(1) {
		t.Fatalf("CLIENT KILL: killed %v connections, want 1", killed)
	}
	if _, ok := eventually(10*time.Second, func() bool { return subscribers() == 1 }); !ok {
		t.Fatal("the subscription did not come back")
	}
	release()
	woken(t, got)
}

// TestSemaphoreAfterRestart: a Redis restarted without persistence forgets
// the slots taken; each holder takes its slot again at its next renewal,
// so the count heals within a third of a lease.
func TestSemaphoreAfterRestart(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	const lease = 1500 * time.Millisecond
	opts := []resilientredis.Option{resilientredis.Timeout(lease / 3), resilientredis.Lease(lease)}
	a, b := semaphoreOn(t, srv, 1, opts...), semaphoreOn(t, srv, 1, opts...)
	release := acquire(t, a, 0)
	defer release()
	srv.restart()
	key := resilientredis.DefaultSemaphorePrefix + "provider"
	if _, ok := eventually(3*lease, func() bool { return srv.do("ZCARD", key) == int64(1) }); !ok {
		t.Fatal("the holder did not take its slot again after the restart")
	}
	if _, err := b.Acquire(context.Background(), 0); !errors.Is(err, limit.ErrConcurrency) {
		t.Errorf("another replica after the holder renewed: got %v, want ErrConcurrency", err)
	}
}
