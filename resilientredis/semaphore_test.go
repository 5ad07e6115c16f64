package resilientredis_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/resilientredis"
)

// newSemaphore returns a semaphore on c, closed when the test ends, after
// which c is closed and the slots the semaphore gives back in the
// background are waited for (closing the client ends them).
func newSemaphore(t *testing.T, c redis.UniversalClient, key string, n int, opts ...resilientredis.Option) *resilientredis.Semaphore {
	t.Helper()
	s, err := resilientredis.NewSemaphore(c, key, n, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = s.Close()
		_ = c.Close()
		resilientredis.WaitGivenBack(s)
	})
	return s
}

// newSemaphores returns count semaphores of n slots sharing one key, each
// with a client of its own (count replicas), closed when the test ends,
// and the key of their sorted set.
func newSemaphores(t *testing.T, count, n int, opts ...resilientredis.Option) ([]*resilientredis.Semaphore, string) {
	t.Helper()
	addr := redisAddr(t)
	prefix := testPrefix(t, addr)
	opts = append([]resilientredis.Option{slow, resilientredis.Prefix(prefix)}, opts...)
	var ss []*resilientredis.Semaphore
	for range count {
		ss = append(ss, newSemaphore(t, newClient(t, addr), "provider", n, opts...))
	}
	return ss, prefix + "provider"
}

func acquire(t *testing.T, s *resilientredis.Semaphore, maxWait time.Duration) func() {
	t.Helper()
	release, err := s.Acquire(context.Background(), maxWait)
	if err != nil {
		t.Fatalf("Acquire: %v", err)
	}
	return release
}

// refused checks that s has no slot free at once.
func refused(t *testing.T, s *resilientredis.Semaphore, key string, n int) {
	t.Helper()
	release, err := s.Acquire(context.Background(), 0)
	var ce *limit.ConcurrencyError
	if !errors.As(err, &ce) || !errors.Is(err, limit.ErrConcurrency) || ce.Limit != n || ce.Shared != key {
		t.Errorf("Acquire with every slot taken: got %v, want a *ConcurrencyError of %d slots of %s", err, n, key)
	}
	if release != nil {
		release()
	}
}

// holders returns how many slots of the semaphore at key are held: the
// members of its sorted set scored by the end of a lease, not the tokens
// barred (scored below zero).
func holders(t *testing.T, key string) int64 {
	t.Helper()
	return newClient(t, redisAddr(t)).ZCount(context.Background(), key, "(0", "+inf").Val()
}

func TestNewSemaphoreInvalid(t *testing.T) {
	t.Parallel()
	c := redis.NewClient(&redis.Options{Addr: closedAddr(t)})
	defer c.Close()
	for _, tc := range []struct {
		key  string
		n    int
		opts []resilientredis.Option
		want string
	}{
		{"k", 0, nil, `resilientredis: NewSemaphore("k", 0): need 1 to 10000 slots`},
		{"k", -1, nil, `resilientredis: NewSemaphore("k", -1): need 1 to 10000 slots`},
		{"k", resilientredis.MaxSlots + 1, nil, `resilientredis: NewSemaphore("k", 10001): need 1 to 10000 slots`},
		{"", 1, nil, "resilientredis: NewSemaphore: empty key"},
		{strings.Repeat("k", resilientredis.MaxKeyLen+1), 1, nil, "resilientredis: NewSemaphore: a key of 257 bytes, more than 256"},
		{"k", 1, []resilientredis.Option{resilientredis.Lease(2 * time.Second)},
			"resilientredis: Lease(2s): must be from three times the Timeout (3s) to 1h0m0s: a renewal every lease/3 that runs out of time must leave room for one more"},
		{"k", 1, []resilientredis.Option{resilientredis.Lease(2 * time.Hour)},
			"resilientredis: Lease(2h0m0s): must be from three times the Timeout (3s) to 1h0m0s: a renewal every lease/3 that runs out of time must leave room for one more"},
		{"k", 1, []resilientredis.Option{resilientredis.Lease(0)}, "resilientredis: Lease(0s): must be positive"},
		{"k", 1, []resilientredis.Option{resilientredis.Tokens(5)}, "resilientredis: Tokens applies to the limiter only"},
		{"k", 1, []resilientredis.Option{resilientredis.MaxWait(time.Second)}, "resilientredis: MaxWait applies to the limiter only"},
		{"k", 1, []resilientredis.Option{nil}, "resilientredis: nil option"},
	} {
		s, err := resilientredis.NewSemaphore(c, tc.key, tc.n, tc.opts...)
		if s != nil || err == nil || err.Error() != tc.want {
			t.Errorf("NewSemaphore(%.10q, %d): got %v, %v, want %q", tc.key, tc.n, s, err, tc.want)
		}
	}
	if _, err := resilientredis.NewSemaphore(nil, "k", 1); err == nil || err.Error() != "resilientredis: NewSemaphore(nil client)" {
		t.Errorf("nil client: got %v", err)
	}
	if _, err := resilientredis.NewStore(c, resilientredis.Lease(time.Minute)); err == nil || err.Error() != "resilientredis: Lease applies to the semaphore only" {
		t.Errorf("Lease given to a store: got %v", err)
	}
	if _, err := resilientredis.NewStore(c, resilientredis.FailClosed()); err == nil || err.Error() != "resilientredis: FailClosed applies to the limiter and semaphore only" {
		t.Errorf("FailClosed given to a store: got %v", err)
	}
}

// TestSemaphoreSharedSlots: two replicas share n slots: once n are taken,
// by either, neither has one; a release frees exactly one, however often it
// is called; when every slot is given back, nothing is left in Redis.
func TestSemaphoreSharedSlots(t *testing.T) {
	t.Parallel()
	const n = 3
	ss, key := newSemaphores(t, 2, n)
	a, b := ss[0], ss[1]
	r1 := acquire(t, a, 0)
	r2 := acquire(t, b, 0)
	r3 := acquire(t, a, 0)
	refused(t, a, key, n)
	refused(t, b, key, n)
	if got := holders(t, key); got != n {
		t.Errorf("holders in Redis: got %d, want %d", got, n)
	}

	r1()
	r1() // a second call gives nothing back
	if got := holders(t, key); got != n-1 {
		t.Errorf("holders after one release, called twice: got %d, want %d", got, n-1)
	}
	r4 := acquire(t, b, 0)
	refused(t, a, key, n)
	for _, r := range []func(){r2, r3, r4} {
		r()
	}
	if got := newClient(t, redisAddr(t)).Exists(context.Background(), key).Val(); got != 0 {
		t.Errorf("the key exists after every release: got %d, want 0", got)
	}
}

// TestSemaphoreReleaseWakesOtherReplica: a waiter in one replica gets the
// slot that another releases at once, through the release's announcement:
// the poll (a minute) and the lease (a minute) are far longer than the
// wait allowed.
func TestSemaphoreReleaseWakesOtherReplica(t *testing.T) {
	t.Parallel()
	ss, key := newSemaphores(t, 2, 1, resilientredis.PollInterval(time.Minute), resilientredis.Lease(time.Minute))
	a, b := ss[0], ss[1]
	release := acquire(t, a, 0)
	got := waiter(b, 20*time.Second)
	rdb := newClient(t, redisAddr(t))
	if _, ok := eventually(10*time.Second, func() bool { return rdb.PubSubNumSub(context.Background(), key).Val()[key] == 1 }); !ok {
		t.Fatal("the waiter did not subscribe")
	}
	release()
	woken(t, got)
}

// TestSemaphoreReleaseWakesLocalWaiter: in one process, a release wakes
// the first waiter without Redis's announcement (the semaphore is closed,
// so it has no subscription).
func TestSemaphoreReleaseWakesLocalWaiter(t *testing.T) {
	t.Parallel()
	ss, _ := newSemaphores(t, 1, 1, resilientredis.PollInterval(time.Minute), resilientredis.Lease(time.Minute))
	s := ss[0]
	_ = s.Close()
	release := acquire(t, s, 0)
	got := waiter(s, 20*time.Second)
	if _, ok := eventually(10*time.Second, func() bool { return resilientredis.Waiting(s) == 1 }); !ok {
		t.Fatal("the waiter did not line up")
	}
	release()
	woken(t, got)
}

// woken checks that the waiter whose error comes on got took a slot within
// 10 s, half its wait: it was woken, not at its wait's end.
func woken(t *testing.T, got <-chan error) {
	t.Helper()
	select {
	case err := <-got:
		if err != nil {
			t.Errorf("the waiter: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("the release did not wake the waiter")
	}
}

// waiter takes a slot of s on a goroutine of its own, waiting up to
// maxWait, and gives it back at once; its error comes on the channel.
func waiter(s *resilientredis.Semaphore, maxWait time.Duration) <-chan error {
	got := make(chan error, 1)
	go func() {
		r, err := s.Acquire(context.Background(), maxWait)
		if r != nil {
			r()
		}
		got <- err
	}()
	return got
}

// TestSemaphoreWaitBounded: a waiter gives up after its wait, with the
// time waited, or when its context ends; neither takes a slot.
func TestSemaphoreWaitBounded(t *testing.T) {
	t.Parallel()
	ss, key := newSemaphores(t, 2, 1, resilientredis.PollInterval(50*time.Millisecond))
	release := acquire(t, ss[0], 0)
	defer release()

	const wait = 300 * time.Millisecond
	start := time.Now()
	_, err := ss[1].Acquire(context.Background(), wait)
	took := time.Since(start)
	var ce *limit.ConcurrencyError
	if !errors.As(err, &ce) || ce.Waited < wait || took < wait || took > wait+2*time.Second {
		t.Errorf("after %v: got %v, want a *ConcurrencyError after %v", took, err, wait)
	}

	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	if _, err := ss[1].Acquire(ctx, time.Minute); !errors.Is(err, context.Canceled) {
		t.Errorf("a waiter whose context ended: got %v, want context.Canceled", err)
	}
	if got := holders(t, key); got != 1 {
		t.Errorf("holders: got %d, want 1", got)
	}
}

// TestSemaphoreWaitersServedInTurn: many waiters in two replicas all get a
// slot in turn, and no more than n hold one at a time. The poll and the
// lease (a minute) are longer than the wait allowed (20 s): each slot
// passes on through the releases' announcements alone, none is lost.
func TestSemaphoreWaitersServedInTurn(t *testing.T) {
	t.Parallel()
	const n = 2
	ss, key := newSemaphores(t, 2, n, resilientredis.PollInterval(time.Minute), resilientredis.Lease(time.Minute))
	var mu sync.Mutex
	in, most := 0, 0
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			release, err := ss[i%2].Acquire(context.Background(), 20*time.Second)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			in++
			most = max(most, in)
			mu.Unlock()
			time.Sleep(20 * time.Millisecond)
			mu.Lock()
			in--
			mu.Unlock()
			release()
		})
	}
	wg.Wait()
	if most != n {
		t.Errorf("held at once: got %d, want %d", most, n)
	}
	if got := holders(t, key); got != 0 {
		t.Errorf("holders at the end: got %d, want 0", got)
	}
}

// TestSemaphoreRenewsLease: a slot held for longer than its lease stays
// taken, since its holder renews it.
func TestSemaphoreRenewsLease(t *testing.T) {
	t.Parallel()
	const lease = 1500 * time.Millisecond
	ss, key := newSemaphores(t, 2, 1, resilientredis.Timeout(lease/3), resilientredis.Lease(lease))
	release := acquire(t, ss[0], 0)
	time.Sleep(2 * lease)
	refused(t, ss[1], key, 1)
	release()
	release2 := acquire(t, ss[1], 0)
	release2()
}

// TestSemaphoreLeaseLost: a holder whose slot is gone from Redis (as after
// its lease ran out) takes one again at its next renewal when one is free;
// when another caller took it meanwhile, it logs "semaphore lease lost",
// and its release frees nothing of the other's.
func TestSemaphoreLeaseLost(t *testing.T) {
	t.Parallel()
	const lease = 1500 * time.Millisecond
	logger, msgs := newRecorder()
	ss, key := newSemaphores(t, 2, 1, resilientredis.Timeout(lease/3), resilientredis.Lease(lease), resilientredis.Logger(logger))
	a, b := ss[0], ss[1]
	rdb := newClient(t, redisAddr(t))
	ctx := context.Background()

	release := acquire(t, a, 0)
	rdb.Del(ctx, key)
	if _, ok := eventually(2*lease, func() bool { return holders(t, key) == 1 }); !ok {
		t.Fatal("the holder did not take a free slot again")
	}
	refused(t, b, key, 1)
	release()

	release = acquire(t, a, 0)
	rdb.Del(ctx, key)
	other := acquire(t, b, 0)
	if _, ok := eventually(2*lease, func() bool { return count(msgs(), "semaphore lease lost") == 1 }); !ok {
		t.Errorf("log: got %q, want one \"semaphore lease lost\"", msgs())
	}
	release()
	refused(t, b, key, 1) // the other's slot is still taken
	if got := holders(t, key); got != 1 {
		t.Errorf("holders: got %d, want 1 (the other's)", got)
	}
	other()
}

// TestSemaphoreRedisDown: while Redis is unreachable the semaphore fails
// open to n slots in this process, and logs it once; with FailClosed it
// refuses with ErrUnavailable.
func TestSemaphoreRedisDown(t *testing.T) {
	t.Parallel()
	logger, msgs := newRecorder()
	s := newSemaphore(t, downClient(t), "provider", 2, resilientredis.Logger(logger))
	r1 := acquire(t, s, 0)
	r2 := acquire(t, s, time.Second)
	if _, err := s.Acquire(context.Background(), 0); !errors.Is(err, limit.ErrConcurrency) {
		t.Errorf("a third while Redis is down: got %v, want ErrConcurrency (n slots in this process)", err)
	}
	r1()
	r1()
	r3 := acquire(t, s, 0)
	r2()
	r3()
	if got := msgs(); count(got, "redis unavailable") != 1 {
		t.Errorf("log: got %q, want one \"redis unavailable\"", got)
	}

	closed := newSemaphore(t, downClient(t), "provider", 2, resilientredis.FailClosed())
	if r, err := closed.Acquire(context.Background(), time.Second); r != nil || !errors.Is(err, resilientredis.ErrUnavailable) {
		t.Errorf("fail closed: got %v, want ErrUnavailable", err)
	}
}

// TestSemaphoreLimitsModelAcrossReplicas: two replicas of a service, each
// with its own model and 12 callers, through resilient.ConcurrencyLimit on
// a shared semaphore of 3 slots: the provider (a faultserver) never has
// more than 3 requests in flight, and has 3 at times.
func TestSemaphoreLimitsModelAcrossReplicas(t *testing.T) {
	t.Parallel()
	const n = 3
	ss, _ := newSemaphores(t, 2, n)
	srv := faultserver.New(faultserver.Reply("ok").After(30 * time.Millisecond))
	defer srv.Close()
	var wg sync.WaitGroup
	for _, s := range ss {
		llm, err := srv.OpenAI()
		if err != nil {
			t.Fatal(err)
		}
		model := resilient.Model(llm, resilient.ConcurrencyLimit(s, time.Minute))
		for range 12 {
			wg.Go(func() {
				for range 2 {
					if _, err := model.Call(context.Background(), "hi"); err != nil {
						t.Error(err)
					}
				}
			})
		}
	}
	wg.Wait()
	if got := srv.MaxInFlight(); got != n {
		t.Errorf("requests in flight at most: got %d, want %d", got, n)
	}
	if got := srv.Count(); got != 48 {
		t.Errorf("requests: got %d, want 48", got)
	}
}

// TestSemaphoreForgedLease: a holder written by something else with a
// lease ending in a thousand years does not make a waiter's wait overflow:
// the waiter waits out its wait, and asks Redis again meanwhile.
func TestSemaphoreForgedLease(t *testing.T) {
	t.Parallel()
	ss, key := newSemaphores(t, 1, 1, resilientredis.PollInterval(100*time.Millisecond))
	rdb := newClient(t, redisAddr(t))
	if err := rdb.ZAdd(context.Background(), key, redis.Z{Score: 3e13, Member: "forged"}).Err(); err != nil {
		t.Fatal(err)
	}
	const wait = 500 * time.Millisecond
	start := time.Now()
	_, err := ss[0].Acquire(context.Background(), wait)
	if took := time.Since(start); !errors.Is(err, limit.ErrConcurrency) || took < wait {
		t.Errorf("after %v: got %v, want ErrConcurrency after the wait (%v)", took, err, wait)
	}
}

func TestSemaphoreWaitBound(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want time.Duration }{
		{-time.Second, 0},
		{0, 0},
		{time.Minute, time.Minute},
		{resilientredis.MaxSemaphoreWait, resilientredis.MaxSemaphoreWait},
		{1000 * time.Hour, resilientredis.MaxSemaphoreWait},
	} {
		if got := resilientredis.WaitBound(tc.in); got != tc.want {
			t.Errorf("WaitBound(%v): got %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestSemaphorePerMemberAcrossReplicas: two replicas, each with a pool of
// the same two deployments, each deployment limited to 2 requests in
// flight by a semaphore shared through Redis: neither deployment ever
// answers more than 2 at once, both are used, and every call succeeds.
func TestSemaphorePerMemberAcrossReplicas(t *testing.T) {
	t.Parallel()
	const n = 2
	addr := redisAddr(t)
	prefix := testPrefix(t, addr)
	east := faultserver.New(faultserver.Reply("ok").After(30 * time.Millisecond))
	defer east.Close()
	west := faultserver.New(faultserver.Reply("ok").After(30 * time.Millisecond))
	defer west.Close()
	member := func(srv *faultserver.Server, name string) lcllms.Model {
		sem := newSemaphore(t, newClient(t, addr), name, n, slow, resilientredis.Prefix(prefix))
		llm, err := srv.OpenAI()
		if err != nil {
			t.Fatal(err)
		}
		return resilient.Member(resilient.Named(llm, name), resilient.ConcurrencyLimit(sem, 20*time.Second))
	}
	var wg sync.WaitGroup
	for range 2 { // replicas
		pool := resilient.Pool([]lcllms.Model{member(east, "east"), member(west, "west")})
		for range 8 {
			wg.Go(func() {
				for range 2 {
					if _, err := pool.Call(context.Background(), "hi"); err != nil {
						t.Error(err)
					}
				}
			})
		}
	}
	wg.Wait()
	for _, srv := range []*faultserver.Server{east, west} {
		if got := srv.MaxInFlight(); got != n {
			t.Errorf("%s: requests in flight at most: got %d, want %d", srv.URL, got, n)
		}
	}
	if got := east.Count() + west.Count(); got != 32 {
		t.Errorf("requests: got %d, want 32", got)
	}
}

// TestSemaphoreRedisDownThroughModel: a model under a Redis semaphore
// while Redis is unreachable: failing open, its calls go through; with
// FailClosed, each fails at once as a refusal of the concurrency limit,
// matching ErrUnavailable and limit.ErrConcurrency, reported as a
// Refusal, and no request reaches the provider.
func TestSemaphoreRedisDownThroughModel(t *testing.T) {
	t.Parallel()
	srv := faultserver.New()
	defer srv.Close()
	call := func(opts ...resilientredis.Option) (*observetest.Recorder, error) {
		sem := newSemaphore(t, downClient(t), "provider", 2, opts...)
		llm, err := srv.OpenAI()
		if err != nil {
			t.Fatal(err)
		}
		rec := &observetest.Recorder{}
		model := resilient.Model(llm, resilient.ConcurrencyLimit(sem, time.Second), resilient.Observe(rec))
		_, err = model.Call(context.Background(), "hi")
		return rec, err
	}
	if _, err := call(); err != nil || srv.Count() != 1 {
		t.Errorf("fail open: got %v after %d requests, want the answer after 1", err, srv.Count())
	}
	rec, err := call(resilientredis.FailClosed())
	if !errors.Is(err, resilientredis.ErrUnavailable) || !errors.Is(err, limit.ErrConcurrency) || srv.Count() != 1 {
		t.Errorf("fail closed: got %v after %d requests in all, want ErrUnavailable and ErrConcurrency, and no new request", err, srv.Count())
	}
	if got := observetest.Of[observe.Refusal](rec); len(got) != 1 || got[0].Reason != observe.ReasonConcurrency {
		t.Errorf("fail closed: refusals %+v, want one of the concurrency limit", got)
	}
}

// TestSemaphoreInUse: InUse counts the slots the fleet holds, on Redis, in
// one round trip: those of every replica, not a lease that ended nor a
// token barred; a release counts at once; with Redis unreachable it fails.
func TestSemaphoreInUse(t *testing.T) {
	t.Parallel()
	ss, key := newSemaphores(t, 2, 3)
	ctx := context.Background()
	inUse := func(s *resilientredis.Semaphore) int {
		t.Helper()
		n, err := s.InUse(ctx)
		if err != nil {
			t.Fatalf("InUse: %v", err)
		}
		return n
	}
	if n := inUse(ss[0]); n != 0 {
		t.Errorf("InUse of an idle semaphore: %d, want 0", n)
	}
	r0 := acquire(t, ss[0], 0)
	r1 := acquire(t, ss[1], 0)
	defer r1()
	// A lease that ended and a barred token, as a crashed holder and an
	// acquisition that gave up leave them, are no slots.
	c := newClient(t, redisAddr(t))
	now := c.Time(ctx).Val().UnixMilli()
	c.ZAdd(ctx, key, redis.Z{Score: float64(now - 1000), Member: "ended"}, redis.Z{Score: float64(-(now + 60_000)), Member: "barred"})
	if a, b := inUse(ss[0]), inUse(ss[1]); a != 2 || b != 2 {
		t.Errorf("InUse with one slot held by each of two replicas: %d and %d, want 2", a, b)
	}
	r0()
	if n := inUse(ss[1]); n != 1 {
		t.Errorf("InUse after a release: %d, want 1", n)
	}

	down := newSemaphore(t, redis.NewClient(&redis.Options{Addr: closedAddr(t)}), "provider", 3)
	if n, err := down.InUse(ctx); err == nil || n != 0 {
		t.Errorf("InUse with Redis unreachable: %d, %v; want an error", n, err)
	}
}
