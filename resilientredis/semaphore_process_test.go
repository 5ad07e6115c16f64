package resilientredis_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/resilientredis"
)

// semaphoreCallsChild is one replica of a service: CALLERS goroutines each
// make CALLS model calls to the OpenAI-compatible server at URL, through
// resilient.ConcurrencyLimit on a semaphore of N slots shared through
// Redis. Once PARTIES processes are ready, it calls, then prints RESULT
// <calls that succeeded>.
func semaphoreCallsChild() error {
	prefix := os.Getenv("PREFIX")
	n, _ := strconv.Atoi(os.Getenv("N"))
	callers, _ := strconv.Atoi(os.Getenv("CALLERS"))
	calls, _ := strconv.Atoi(os.Getenv("CALLS"))
	parties, _ := strconv.Atoi(os.Getenv("PARTIES"))
	client := universal(redis.UniversalOptions{})
	defer client.Close()
	sem, err := resilientredis.NewSemaphore(client, "provider", n, resilientredis.Prefix(prefix), slow)
	if err != nil {
		return err
	}
	defer sem.Close()
	llm, err := openai.New(openai.WithBaseURL(os.Getenv("URL")+"/v1"), openai.WithToken("sk-test"), openai.WithModel("gpt-4o-mini"))
	if err != nil {
		return err
	}
	model := resilient.Model(llm, resilient.ConcurrencyLimit(sem, time.Minute))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := barrier(ctx, client, prefix+"ready", parties); err != nil {
		return err
	}
	var ok atomic.Int32
	var wg sync.WaitGroup
	for range callers {
		wg.Go(func() {
			for range calls {
				if _, err := model.Call(ctx, "hi"); err == nil {
					ok.Add(1)
				} else {
					fmt.Fprintln(os.Stderr, "call:", err)
				}
			}
		})
	}
	wg.Wait()
	fmt.Println("RESULT", ok.Load())
	return nil
}

// barrier counts this process ready at key and waits until parties are.
func barrier(ctx context.Context, client redis.UniversalClient, key string, parties int) error {
	if err := client.Incr(ctx, key).Err(); err != nil {
		return err
	}
	for {
		n, err := client.Get(ctx, key).Int()
		if err != nil || n >= parties {
			return err
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// semaphoreHoldChild takes the one slot of the semaphore at PREFIX, with a
// lease of LEASE, prints HELD, and holds it until killed.
func semaphoreHoldChild() error {
	lease, _ := time.ParseDuration(os.Getenv("LEASE"))
	client := universal(redis.UniversalOptions{})
	defer client.Close()
	sem, err := resilientredis.NewSemaphore(client, "provider", 1, resilientredis.Prefix(os.Getenv("PREFIX")),
		resilientredis.Lease(lease), resilientredis.Timeout(lease/3), resilientredis.FailClosed())
	if err != nil {
		return err
	}
	if _, err := sem.Acquire(context.Background(), 0); err != nil {
		return err
	}
	fmt.Println("HELD")
	time.Sleep(time.Hour) // killed meanwhile
	return nil
}

// TestSemaphoreAcrossProcesses: two OS processes, each with 8 callers
// making model calls through resilient.ConcurrencyLimit on one Redis
// semaphore of 3 slots: the provider (a faultserver in this process) never
// has more than 3 requests in flight from both together, and has 3 at
// times; every call succeeds.
func TestSemaphoreAcrossProcesses(t *testing.T) {
	t.Parallel()
	addr := redisAddr(t)
	prefix := testPrefix(t, addr)
	const n, callers, calls = 3, 8, 3
	srv := faultserver.New(faultserver.Reply("ok").After(40 * time.Millisecond))
	defer srv.Close()
	env := []string{"PREFIX=" + prefix, "URL=" + srv.URL, "N=" + strconv.Itoa(n), "PARTIES=2",
		"CALLERS=" + strconv.Itoa(callers), "CALLS=" + strconv.Itoa(calls)}
	a, b := startChild(t, "semaphore-calls", env...), startChild(t, "semaphore-calls", env...)
	for _, c := range []*child{a, b} {
		if got, want := c.expect(t, "RESULT ", time.Minute), strconv.Itoa(callers*calls); got != want {
			t.Errorf("calls that succeeded: got %s, want %s; the child's stderr:\n%s", got, want, c.stderr)
		}
		c.wait(t)
	}
	if got := srv.MaxInFlight(); got != n {
		t.Errorf("requests in flight at most: got %d, want %d", got, n)
	}
	if got, want := srv.Count(), 2*callers*calls; got != want {
		t.Errorf("requests: got %d, want %d", got, want)
	}
	if got := newClient(t, addr).Exists(context.Background(), prefix+"provider").Val(); got != 0 {
		t.Errorf("the semaphore's key exists after every call ended: got %d, want 0", got)
	}
}

// TestSemaphoreHolderKilled: a process killed while it holds the only slot
// keeps it until its lease ends, and then another process takes it.
func TestSemaphoreHolderKilled(t *testing.T) {
	t.Parallel()
	addr := redisAddr(t)
	prefix := testPrefix(t, addr)
	const lease = 1500 * time.Millisecond
	c := startChild(t, "semaphore-hold", "PREFIX="+prefix, "LEASE="+lease.String())
	c.expect(t, "HELD", 15*time.Second)

	sem, err := resilientredis.NewSemaphore(newClient(t, addr), "provider", 1, resilientredis.Prefix(prefix), slow)
	if err != nil {
		t.Fatal(err)
	}
	defer sem.Close()
	if _, err := sem.Acquire(context.Background(), 0); !errors.Is(err, limit.ErrConcurrency) {
		t.Fatalf("while the child holds the slot: got %v, want ErrConcurrency", err)
	}
	if err := c.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = c.cmd.Wait()
	killed := time.Now()
	if _, err := sem.Acquire(context.Background(), 0); !errors.Is(err, limit.ErrConcurrency) {
		t.Fatalf("just after the kill: got %v, want ErrConcurrency (the lease runs)", err)
	}
	release, err := sem.Acquire(context.Background(), 10*time.Second)
	waited := time.Since(killed)
	if err != nil {
		t.Fatalf("after the kill: %v", err)
	}
	release()
	if waited > lease+time.Second {
		t.Errorf("the slot was free %v after the kill, want within the lease (%v)", waited, lease)
	}
	t.Logf("the slot was free %v after the kill (lease %v)", waited.Round(time.Millisecond), lease)
}
