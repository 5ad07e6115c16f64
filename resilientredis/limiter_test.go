package resilientredis_test

import (
	"context"
	"errors"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/resilientredis"
)

// newLimiters returns n limiters sharing one limit, each with a client of
// its own: n replicas.
func newLimiters(t *testing.T, n, requests int, period time.Duration, opts ...resilientredis.Option) []*resilientredis.Limiter {
	t.Helper()
	addr := redisAddr(t)
	opts = append([]resilientredis.Option{slow, resilientredis.Prefix(testPrefix(t, addr))}, opts...)
	var ls []*resilientredis.Limiter
	for range n {
		l, err := resilientredis.NewLimiter(newClient(t, addr), "openai", requests, period, opts...)
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
	}
	return ls
}

// TestLimiterSharedByFiveClients: five clients sharing 60 per window, each
// trying 60 attempts at once, are admitted 60 in all, not 300, on every
// topology (a cluster included: the limiter's keys share one slot). The
// window is 3 s instead of a minute, to keep the test fast; the attempts
// take far less.
func TestLimiterSharedByFiveClients(t *testing.T) {
	t.Parallel()
	ls := newLimiters(t, 5, 60, 3*time.Second, resilientredis.MaxWait(0))
	var admitted, limited atomic.Int32
	var wg sync.WaitGroup
	for _, l := range ls {
		for range 60 {
			wg.Go(func() {
				switch err := l.Acquire(context.Background(), 1); {
				case err == nil:
					admitted.Add(1)
				case errors.Is(err, limit.ErrLimited):
					limited.Add(1)
				default:
					t.Error(err)
				}
			})
		}
	}
	wg.Wait()
	if a, l := admitted.Load(), limited.Load(); a != 60 || l != 240 {
		t.Errorf("admitted %d and limited %d, want 60 and 240", a, l)
	}
}

// TestLimiterWaitsForTheSlot: callers over the limit wait for the earliest
// slot instead of failing, and in any window the admissions stay under the
// limit: 25 attempts at 10 per second from three clients take two seconds.
func TestLimiterWaitsForTheSlot(t *testing.T) {
	t.Parallel()
	const n, window = 10, time.Second
	ls := newLimiters(t, 3, n, window, resilientredis.MaxWait(5*time.Second))
	var mu sync.Mutex
	var times []time.Time
	start := time.Now()
	var wg sync.WaitGroup
	for i := range 25 {
		wg.Go(func() {
			if err := ls[i%3].Acquire(context.Background(), 1); err != nil {
				t.Error(err)
			}
			mu.Lock()
			times = append(times, time.Now())
			mu.Unlock()
		})
	}
	wg.Wait()
	slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
	// All asked at start, so admission i (from 0) may not come before
	// i/n windows have passed. The slots are on Redis's clock, and a reply
	// may reach a busy test late but never early: measured from the start,
	// the bound does not depend on how late the first replies were.
	const slack = 50 * time.Millisecond
	for i, at := range times {
		if want := time.Duration(i/n) * window; at.Sub(start) < want-slack {
			t.Errorf("admission %d came %v after the start, want %v at least: more than %d admitted within %v", i, at.Sub(start), want, n, window)
		}
	}
	if took := times[len(times)-1].Sub(start); took < 2*window-slack || took > 2*window+500*time.Millisecond {
		t.Errorf("25 attempts took %v, want about %v", took, 2*window)
	}
}

// TestLimiterRefusals: a wait over MaxWait, or past the caller's deadline,
// is refused at once without taking a slot; a caller that gives up while
// waiting gives its slot back.
func TestLimiterRefusals(t *testing.T) {
	t.Parallel()
	ls := newLimiters(t, 1, 1, 2*time.Second, resilientredis.MaxWait(5*time.Second))
	l := ls[0]
	ctx := context.Background()
	if err := l.Acquire(ctx, 1); err != nil {
		t.Fatal(err)
	}

	// The next slot is two seconds away, past the deadline: refused at once,
	// not waited for. (Half a second leaves the round trip room on a busy
	// machine.)
	short, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	start := time.Now()
	err := l.Acquire(short, 1)
	cancel()
	if !errors.Is(err, limit.ErrLimited) || time.Since(start) >= 500*time.Millisecond {
		t.Errorf("past the deadline: got %v after %v, want ErrLimited at once", err, time.Since(start))
	}

	gaveUp, cancel := context.WithCancel(ctx)
	time.AfterFunc(50*time.Millisecond, cancel)
	if err := l.Acquire(gaveUp, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("gave up: got %v, want context.Canceled", err)
	}

	// Neither took the second slot: it comes one window after the first,
	// less than 2 s from now, where a slot kept would put it one window
	// later, near 4 s. (3 s leaves a loaded machine room.)
	start = time.Now()
	if err := l.Acquire(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(start); waited > 3*time.Second {
		t.Errorf("the next slot came after %v, want within the window: a slot was kept", waited)
	}

	strict := newLimiters(t, 1, 1, time.Minute, resilientredis.MaxWait(0))[0]
	_ = strict.Acquire(ctx, 1)
	if err := strict.Acquire(ctx, 1); !errors.Is(err, limit.ErrLimited) {
		t.Errorf("MaxWait(0): got %v, want ErrLimited", err)
	}
}

// TestLimiterTokens: with Tokens, the cost counts against a token limit as
// well as one request against the request limit.
func TestLimiterTokens(t *testing.T) {
	t.Parallel()
	l := newLimiters(t, 1, 1000, time.Minute, resilientredis.Tokens(100), resilientredis.MaxWait(0))[0]
	ctx := context.Background()
	steps := []struct {
		cost int
		want error
	}{
		{60, nil},
		{40, nil},
		{1, limit.ErrLimited},   // 100 tokens spent
		{101, limit.ErrLimited}, // never fits
	}
	for _, st := range steps {
		if err := l.Acquire(ctx, st.cost); !errors.Is(err, st.want) {
			t.Errorf("Acquire(%d): got %v, want %v", st.cost, err, st.want)
		}
	}

	requests := newLimiters(t, 1, 2, time.Minute, resilientredis.Tokens(1000), resilientredis.MaxWait(0))[0]
	_ = requests.Acquire(ctx, 1)
	_ = requests.Acquire(ctx, 1)
	if err := requests.Acquire(ctx, 1); !errors.Is(err, limit.ErrLimited) {
		t.Errorf("third request under a limit of 2: got %v, want ErrLimited", err)
	}
}

// TestLimiterInPipeline: the limiter is a limit.Limiter; a pipeline's
// attempts acquire from it and a refusal stops the call as rejected.
func TestLimiterInPipeline(t *testing.T) {
	t.Parallel()
	l := newLimiters(t, 1, 1, time.Minute, resilientredis.MaxWait(0))[0]
	p, err := middleware.New[string]("provider", middleware.RateLimit(l))
	if err != nil {
		t.Fatal(err)
	}
	call := func() error {
		_, err := p.Do(context.Background(), func(context.Context, middleware.State) (string, error) { return "ok", nil })
		return err
	}
	if err := call(); err != nil {
		t.Errorf("first call: %v", err)
	}
	var final *middleware.Error
	if err := call(); !errors.As(err, &final) || final.Reason != observe.ReasonRateLimit || !errors.Is(err, limit.ErrLimited) {
		t.Errorf("second call: got %v, want rejected by the limiter", err)
	}
}

// TestLimiterDown: without Redis the limiter admits and logs (fail open),
// or refuses with ErrUnavailable (FailClosed).
func TestLimiterDown(t *testing.T) {
	t.Parallel()
	logger, msgs := newRecorder()
	open, err := resilientredis.NewLimiter(downClient(t), "openai", 1, time.Minute, resilientredis.Logger(logger))
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := open.Acquire(context.Background(), 1); err != nil {
			t.Errorf("fail open: got %v, want nil", err)
		}
	}
	if got := count(msgs(), "redis unavailable"); got != 1 {
		t.Errorf(`"redis unavailable" lines: got %d, want 1: %q`, got, msgs())
	}

	// A Redis that does not answer at all (a partition): the first caller
	// waits for the timeout, the next ones do not wait.
	hanging := redis.NewClient(&redis.Options{Addr: "192.0.2.1:6379", MaxRetries: -1, DialerRetries: 1, DialTimeout: 100 * time.Millisecond,
		Dialer: func(ctx context.Context, _, _ string) (net.Conn, error) { <-ctx.Done(); return nil, ctx.Err() }})
	defer hanging.Close()
	slow, err := resilientredis.NewLimiter(hanging, "openai", 1, time.Minute, resilientredis.Timeout(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		start := time.Now()
		if err := slow.Acquire(context.Background(), 1); err != nil {
			t.Errorf("fail open: got %v, want nil", err)
		}
		if took := time.Since(start); (i == 0) != (took >= 100*time.Millisecond) {
			t.Errorf("call %d without an answer from Redis took %v; only the first should wait the 100 ms timeout", i, took)
		}
	}

	closed, err := resilientredis.NewLimiter(downClient(t), "openai", 1, time.Minute, resilientredis.FailClosed())
	if err != nil {
		t.Fatal(err)
	}
	if err := closed.Acquire(context.Background(), 1); !errors.Is(err, resilientredis.ErrUnavailable) {
		t.Errorf("fail closed: got %v, want ErrUnavailable", err)
	}
}

func TestNewLimiterInvalid(t *testing.T) {
	t.Parallel()
	_, err := resilientredis.NewLimiter(nil, "", 0, 0, resilientredis.PollInterval(time.Second))
	want := `resilientredis: NewLimiter(nil client)
resilientredis: NewLimiter: empty key
resilientredis: NewLimiter("", 0, 0s): need requests >= 1 (or Tokens) and a period of 1 ms at least
resilientredis: PollInterval applies to the breaker and semaphore only`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
}

// TestLimiterSettle: tokens used beyond the estimate are charged to the
// shared window, seen by every replica, as tokens and not as a request; an
// estimate above the truth is not given back.
func TestLimiterSettle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ls := newLimiters(t, 2, 3, time.Minute, resilientredis.Tokens(100), resilientredis.MaxWait(0))
	a, b := ls[0], ls[1]
	if err := a.Acquire(ctx, 10); err != nil {
		t.Fatal(err)
	}
	a.Settle(ctx, 10, 60) // 60 tokens used in all
	if err := b.Acquire(ctx, 41); !errors.Is(err, limit.ErrLimited) {
		t.Errorf("41 tokens after 60 used of 100, on another replica: got %v, want ErrLimited", err)
	}
	if err := b.Acquire(ctx, 40); err != nil {
		t.Errorf("40 tokens after 60 used of 100: %v", err)
	}
	// Two requests so far: the debit is not one, the third fits.
	if err := b.Acquire(ctx, 0); !errors.Is(err, limit.ErrLimited) {
		t.Errorf("a request with the tokens spent: got %v, want ErrLimited", err)
	}

	over := newLimiters(t, 1, 1000, time.Minute, resilientredis.Tokens(100), resilientredis.MaxWait(0))[0]
	if err := over.Acquire(ctx, 50); err != nil {
		t.Fatal(err)
	}
	over.Settle(ctx, 50, 10) // overestimated: nothing given back
	if err := over.Acquire(ctx, 51); !errors.Is(err, limit.ErrLimited) {
		t.Errorf("51 tokens after an estimate of 50: got %v, want ErrLimited", err)
	}
	if err := over.Acquire(ctx, 50); err != nil {
		t.Errorf("50 tokens after an estimate of 50: %v", err)
	}
}

// TestLimiterSettleIsNotARequest: debits never take a request's place.
func TestLimiterSettleIsNotARequest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := newLimiters(t, 1, 3, time.Minute, resilientredis.Tokens(1000), resilientredis.MaxWait(0))[0]
	for i := range 3 {
		if err := l.Acquire(ctx, 1); err != nil {
			t.Fatalf("request %d: %v", i+1, err)
		}
		l.Settle(ctx, 1, 20)
	}
	if err := l.Acquire(ctx, 1); !errors.Is(err, limit.ErrLimited) {
		t.Errorf("fourth request under a limit of 3: got %v, want ErrLimited", err)
	}
}

// TestLimiterSettleLeavesTheWindow: a debit leaves the window one period
// after it was charged, and its tokens are admitted again; its leaving
// leaves the count of requests right.
func TestLimiterSettleLeavesTheWindow(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := newLimiters(t, 1, 2, time.Second, resilientredis.Tokens(100), resilientredis.MaxWait(5*time.Second))[0]
	start := time.Now()
	if err := l.Acquire(ctx, 10); err != nil {
		t.Fatal(err)
	}
	l.Settle(ctx, 10, 100) // the window's tokens are spent for a second
	if err := l.Acquire(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(start); waited < 900*time.Millisecond {
		t.Errorf("a token admitted after %v, want about a second: the debit was not counted", waited)
	}
	// The window holds one request: one more fits, and then no more.
	if err := l.Acquire(ctx, 1); err != nil {
		t.Errorf("the second request of the window: %v", err)
	}
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if err := l.Acquire(short, 1); !errors.Is(err, limit.ErrLimited) {
		t.Errorf("a third request under a limit of 2: got %v, want ErrLimited", err)
	}
}

// TestLimiterSettleWithRedisDown: settling never fails a call; without
// Redis it returns at once.
func TestLimiterSettleWithRedisDown(t *testing.T) {
	t.Parallel()
	l, err := resilientredis.NewLimiter(downClient(t), "openai", 1, time.Minute, resilientredis.Tokens(100))
	if err != nil {
		t.Fatal(err)
	}
	_ = l.Acquire(context.Background(), 1) // learns that Redis is down
	start := time.Now()
	l.Settle(context.Background(), 1, 50)
	if took := time.Since(start); took > 100*time.Millisecond {
		t.Errorf("Settle with Redis down took %v, want no round trip", took)
	}
}
