package resilientredis_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient/internal/oncetest"
	"github.com/resilientgo/resilient/resilientredis"
	"github.com/resilientgo/resilient/tools"
	"github.com/resilientgo/resilient/tools/storetest"
)

func newStore(t *testing.T, addr, prefix string, opts ...resilientredis.Option) *resilientredis.Store {
	t.Helper()
	return storeOn(t, newClient(t, addr), append([]resilientredis.Option{slow, resilientredis.Prefix(prefix)}, opts...)...)
}

// storeOn returns a Store on c. When the test ends, it closes c and waits
// for the claims the Store is abandoning in the background, which closing
// the client ends.
func storeOn(t *testing.T, c redis.UniversalClient, opts ...resilientredis.Option) *resilientredis.Store {
	t.Helper()
	s, err := resilientredis.NewStore(c, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = c.Close()
		resilientredis.WaitAbandons(s)
	})
	return s
}

// idempotent wraps tool with the idempotency of s and opts.
func idempotent(t *testing.T, tool lctools.Tool, s tools.Store, opts ...tools.Option) *tools.Tool {
	t.Helper()
	w, err := tools.New(tool, append([]tools.Option{tools.Idempotent(s)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestStoreContract runs the contract documented on tools.Store, on
// Redis's clock: leases and times to live are multiples of 100 ms (PX is
// exact to the millisecond); storetest.Run runs the steps again with a
// longer unit when a busy machine made them late.
func TestStoreContract(t *testing.T) {
	t.Parallel()
	addr := redisAddr(t)
	storetest.Run(t, func(t *testing.T) tools.Store { return newStore(t, addr, testPrefix(t, addr)) }, 100*time.Millisecond)
}

// charger is a mutating tool that counts its executions.
type charger struct {
	executions atomic.Int32
	delay      time.Duration
}

func (c *charger) tool() lctools.Tool {
	return tools.Func("charge", "Charges a card once for an order.", func(ctx context.Context, input string) (string, error) {
		n := c.executions.Add(1)
		time.Sleep(c.delay)
		return fmt.Sprintf("charged txn-%d", n), nil
	})
}

// TestIdempotentToolAcrossStores: two wrappers of one tool, each with its
// own client and Store on one Redis (two replicas in one process), called
// at once with the same input: one execution, both get its result.
func TestIdempotentToolAcrossStores(t *testing.T) {
	t.Parallel()
	addr := redisAddr(t)
	prefix := testPrefix(t, addr)
	c := &charger{delay: 200 * time.Millisecond}
	var replicas []*tools.Tool
	for range 2 {
		w, err := tools.New(c.tool(), tools.Idempotent(newStore(t, addr, prefix)))
		if err != nil {
			t.Fatal(err)
		}
		replicas = append(replicas, w)
	}
	outs := make([]string, 2)
	var wg sync.WaitGroup
	for i, w := range replicas {
		wg.Go(func() {
			out, err := w.Call(context.Background(), `{"order":"4471","amount":2499}`)
			if err != nil {
				t.Error(err)
			}
			outs[i] = out
		})
	}
	wg.Wait()
	if got := c.executions.Load(); got != 1 {
		t.Errorf("executions: got %d, want 1", got)
	}
	for i, out := range outs {
		if out != "charged txn-1" {
			t.Errorf("replica %d: got %q, want %q", i, out, "charged txn-1")
		}
	}
	// A repeat later, with the keys reordered, reads the stored result.
	out, _ := replicas[1].Call(context.Background(), `{"amount":2499,"order":"4471"}`)
	if want := "already done: charged txn-1"; out != want || c.executions.Load() != 1 {
		t.Errorf("repeat: got %q after %d executions, want %q after 1", out, c.executions.Load(), want)
	}
}

// TestStoreDown: without Redis, Claim fails at once with an
// UnavailableError and a log line, and the wrapped tool does not run: the
// call is an internal failure.
func TestStoreDown(t *testing.T) {
	t.Parallel()
	logger, msgs := newRecorder()
	s := storeOn(t, downClient(t), resilientredis.Logger(logger))
	_, _, err := s.Claim(context.Background(), "k", "a", time.Minute)
	var unavailable *resilientredis.UnavailableError
	if !errors.Is(err, resilientredis.ErrUnavailable) || !errors.As(err, &unavailable) || unavailable.Op != "claim" {
		t.Errorf("Claim: got %v, want an UnavailableError for claim", err)
	}
	if err != nil && !strings.Contains(err.Error(), "resilientredis: claim resilient:idempotency:k: redis unavailable: ") {
		t.Errorf("Claim: got %q", err)
	}

	c := &charger{}
	w, err := tools.New(c.tool(), tools.Idempotent(s))
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		out, err := w.Call(context.Background(), `{"order":"4471"}`)
		if want := "Error: charge failed internally (*resilientredis.UnavailableError)"; out != want || err != nil {
			t.Errorf("Call: got (%q, %v), want (%q, nil)", out, err, want)
		}
	}
	if got := c.executions.Load(); got != 0 {
		t.Errorf("executions: got %d, want 0", got)
	}
	if got := count(msgs(), "redis unavailable"); got != 1 {
		t.Errorf(`"redis unavailable" lines: got %d, want 1 (then one a minute): %q`, got, msgs())
	}
}

// TestStoreCompleteOutlastsAnOutage: a result that lands while Redis is
// briefly unreachable is stored once it is back, not lost.
func TestStoreCompleteOutlastsAnOutage(t *testing.T) {
	t.Parallel()
	addr := redisAddr(t)
	prefix := testPrefix(t, addr)
	p := newProxy(t, addr)
	logger, msgs := newRecorder()
	s := newStore(t, p.addr, prefix, resilientredis.Logger(logger), resilientredis.Timeout(200*time.Millisecond))
	ctx := context.Background()
	if _, ok, err := s.Claim(ctx, "k", "a", time.Minute); !ok || err != nil {
		t.Fatalf("Claim: got %v, %v", ok, err)
	}
	p.down()
	done := make(chan error)
	go func() {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		done <- s.Complete(ctx, "k", "a", "charged", time.Minute)
	}()
	time.Sleep(300 * time.Millisecond)
	p.up(t)
	if err := <-done; err != nil {
		t.Fatalf("Complete: got %v, want nil", err)
	}
	direct := newStore(t, addr, prefix)
	r, ok, err := direct.Get(ctx, "k")
	if want := (tools.Record{Owner: "a", Done: true, Result: "charged"}); r != want || !ok || err != nil {
		t.Errorf("Get: got %+v, %v, %v, want %+v", r, ok, err, want)
	}
	if got := msgs(); count(got, "redis unavailable") != 1 || count(got, "redis reachable again") != 1 {
		t.Errorf("log: got %q, want one unavailable and one reachable again", got)
	}
}

func TestNewStoreInvalid(t *testing.T) {
	t.Parallel()
	_, err := resilientredis.NewStore(nil, resilientredis.MaxWait(time.Second), resilientredis.Timeout(0))
	want := "resilientredis: MaxWait applies to the limiter only\nresilientredis: Timeout(0s): must be positive\nresilientredis: NewStore(nil client)"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
}

// TestCallerGivesUpAsItsAttemptStarts: the race of package tools' test of
// that name, on Redis: 2,000 inputs, each first called by a caller that
// gives up as its attempt starts, then by one that waits; every input is
// charged exactly once.
func TestCallerGivesUpAsItsAttemptStarts(t *testing.T) {
	t.Parallel()
	addr := redisAddr(t)
	s := newStore(t, addr, testPrefix(t, addr))
	if twice, never := oncetest.GiveUpRace(t, s, 2000, 8); twice != 0 || never != 0 {
		t.Errorf("of 2000 inputs, %d were charged twice and %d never, want 0 and 0", twice, never)
	}
}
