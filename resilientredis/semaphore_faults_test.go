package resilientredis_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/resilientredis"
)

// semaphoreOn returns a semaphore of n slots on a client of srv, closed
// when the test ends.
func semaphoreOn(t *testing.T, srv *server, n int, opts ...resilientredis.Option) *resilientredis.Semaphore {
	t.Helper()
	return newSemaphore(t, srv.client(), "provider", n, opts...)
}

// TestSemaphoreRedisStalls: while Redis stalls (DEBUG SLEEP), an Acquire
// answers at its Timeout, not at the stall's end: failing open, with a
// slot of this process; with FailClosed, with ErrUnavailable. The acquire
// that timed out runs when Redis wakes, but takes no slot: it was given
// back and barred.
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

	resilientredis.WaitGivenBack(open)
	resilientredis.WaitGivenBack(closed)
	if got := slots(srv, resilientredis.DefaultSemaphorePrefix+"provider"); got != 0 {
		t.Errorf("after Redis woke: got %v holders, want none", got)
	}
}

// slots returns how many slots of the semaphore at key are held in srv:
// the members of its sorted set scored by the end of a lease, not the
// tokens barred (scored below zero).
func slots(srv *server, key string) int64 {
	return srv.do("ZCOUNT", key, "(0", "+inf").(int64)
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
	if _, ok := eventually(3*lease, func() bool { return slots(srv, key) == 1 }); !ok {
		t.Fatal("the holder did not take its slot again after the restart")
	}
	if _, err := b.Acquire(context.Background(), 0); !errors.Is(err, limit.ErrConcurrency) {
		t.Errorf("another replica after the holder renewed: got %v, want ErrConcurrency", err)
	}
}

// TestSemaphoreStallLeavesNoGhostSlots: two replicas each try to take a
// slot of three while Redis stalls for 4 s (DEBUG SLEEP); both give up at
// their Timeout and admit on a slot of their own process (failing open).
// Their takes run in Redis when it wakes, but an acquisition that gave up
// never holds a slot afterwards: once Redis is back, all three slots are
// free, not two of them taken for a lease by nobody.
func TestSemaphoreStallLeavesNoGhostSlots(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	opts := []resilientredis.Option{resilientredis.Timeout(200 * time.Millisecond)} // the default lease, 15 s
	a, b := semaphoreOn(t, srv, 3, opts...), semaphoreOn(t, srv, 3, opts...)
	acquire(t, a, 0)() // loads the scripts
	acquire(t, b, 0)()

	resumed := srv.pause(4 * time.Second)
	for _, s := range []*resilientredis.Semaphore{a, b} {
		release, err := s.Acquire(context.Background(), 0)
		if err != nil {
			t.Fatalf("fail open while Redis stalls: got %v, want a slot of this process", err)
		}
		release()
	}
	resumed()

	key := resilientredis.DefaultSemaphorePrefix + "provider"
	resilientredis.WaitGivenBack(a)
	resilientredis.WaitGivenBack(b)
	if got := slots(srv, key); got != 0 {
		t.Fatalf("after Redis woke: %v slots held in Redis, want none: the acquisitions that gave up hold them", got)
	}
	for range 3 {
		defer acquire(t, a, 0)()
	}
	if got := slots(srv, key); got != 3 {
		t.Errorf("three acquisitions once Redis is back: got %v slots in Redis, want 3", got)
	}
}

// TestSemaphoreGiveBackBeforeTheLateTake: when the give-back of an
// acquisition that gave up lands before its take (held up on the way), the
// take takes nothing, nor does a renewal of the token; the bar is not a
// slot, and other acquisitions take every slot as usual.
func TestSemaphoreGiveBackBeforeTheLateTake(t *testing.T) {
	t.Parallel()
	ss, key := newSemaphores(t, 1, 2)
	s := ss[0]
	resilientredis.GiveBack(s, "gave-up")
	if got, err := resilientredis.Take(s, "gave-up"); got != 2 || err != nil {
		t.Errorf("the late take: got %v, %v, want 2 (barred)", got, err)
	}
	if got, err := resilientredis.Renew(s, "gave-up"); got != 0 || err != nil {
		t.Errorf("a late renewal: got %v, %v, want 0 (none)", got, err)
	}
	r1, r2 := acquire(t, s, 0), acquire(t, s, 0)
	refused(t, s, key, 2)
	r1()
	r2()
	// A token given back after it took a slot frees the slot and is barred.
	if got, err := resilientredis.Take(s, "late"); got != 1 || err != nil {
		t.Fatalf("Take: got %v, %v, want 1", got, err)
	}
	resilientredis.GiveBack(s, "late")
	if got, _ := resilientredis.Take(s, "late"); got != 2 {
		t.Errorf("a token given back: got %v, want 2 (barred)", got)
	}
	a, b := acquire(t, s, 0), acquire(t, s, 0)
	refused(t, s, key, 2)
	a()
	b()
}

// TestSemaphoreGiveBacksBounded: while Redis does not answer, the tokens
// waiting to be given back are at most MaxGiveBacks.
func TestSemaphoreGiveBacksBounded(t *testing.T) {
	t.Parallel()
	s := newSemaphore(t, downClient(t), "provider", 2)
	for i := range resilientredis.MaxGiveBacks + 100 {
		resilientredis.QueueGiveBack(s, fmt.Sprint("token-", i))
	}
	if got := resilientredis.PendingGiveBacks(s); got != resilientredis.MaxGiveBacks {
		t.Errorf("pending give-backs: got %d, want %d", got, resilientredis.MaxGiveBacks)
	}
}
