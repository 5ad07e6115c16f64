package resilientredis_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/resilientredis"
	"github.com/resilientgo/resilient/tools"
)

// The tests of this file put the Store, the Limiter and the SharedBreaker
// through what a real Redis does under faults: replies lost after a
// command ran, a server that stalls (DEBUG SLEEP) while clients time out,
// restarts with and without persistence.

const order = `{"order":"4471","amount":2499}`

// TestClaimWhoseReplyIsLostIsTheCallers: the connection is reset after
// Redis ran the claim and before its reply arrived; go-redis sends the
// claim again, which finds the record its first run made. That record is
// the caller's: the call runs at once, rather than waiting for itself
// until its lease ends.
func TestClaimWhoseReplyIsLostIsTheCallers(t *testing.T) {
	t.Parallel()
	addr := redisAddr(t)
	prefix := testPrefix(t, addr)
	p := newProxy(t, addr)
	s := newStore(t, p.addr, prefix) // go-redis's defaults: 3 retries
	ctx := context.Background()
	// Load the script, so that the reply lost is the claim's, not a NOSCRIPT.
	if _, ok, err := s.Claim(ctx, "warm-up", "w", time.Minute); !ok || err != nil {
		t.Fatalf("Claim: got %v, %v", ok, err)
	}

	p.loseReply()
	r, ok, err := s.Claim(ctx, "k", "a", time.Minute)
	if p.lose.Load() {
		t.Fatal("no reply was lost")
	}
	if want := (tools.Record{Owner: "a"}); r != want || !ok || err != nil {
		t.Errorf("Claim after a lost reply: got %+v, %v, %v, want %+v, true, nil", r, ok, err, want)
	}

	// The same through the tools wrapper: one execution, at once.
	c := &charger{}
	w := idempotent(t, c.tool(), s, tools.Lease(time.Minute))
	p.loseReply()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := w.Call(ctx, order)
	if out != "charged txn-1" || err != nil || c.executions.Load() != 1 {
		t.Errorf("Call after a lost reply: got (%q, %v) after %d executions, want the charge, once", out, err, c.executions.Load())
	}
}

// TestTimeoutHonouredWhateverTheClient: with a client built as the README
// shows (go-redis's defaults: the context's deadline ignored, a read
// timeout of 3 s), a Redis that stalls for two seconds costs each round
// trip its Timeout, not the stall: a Claim fails as unavailable, a Limiter
// admits (failing open), ShareBreaker returns and works alone.
func TestTimeoutHonouredWhateverTheClient(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	const timeout = 200 * time.Millisecond
	s := storeOn(t, srv.client(), resilientredis.Timeout(timeout))
	lim, err := resilientredis.NewLimiter(srv.client(), "provider", 10, time.Minute, resilientredis.Timeout(timeout))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := lim.Acquire(ctx, 1); err != nil { // loads the script
		t.Fatal(err)
	}
	b := breaker.New(breaker.Settings{Name: "provider", Failures: 5, Delay: time.Second})

	resumed := srv.pause(2 * time.Second)
	var wg sync.WaitGroup
	took := map[string]time.Duration{}
	var mu sync.Mutex
	timed := func(name string, f func()) {
		wg.Go(func() {
			start := time.Now()
			f()
			mu.Lock()
			took[name] = time.Since(start)
			mu.Unlock()
		})
	}
	timed("Claim", func() {
		if _, _, err := s.Claim(ctx, "k", "a", time.Minute); !errors.Is(err, resilientredis.ErrUnavailable) {
			t.Errorf("Claim: got %v, want an error matching ErrUnavailable", err)
		}
	})
	timed("Acquire", func() {
		if err := lim.Acquire(ctx, 1); err != nil {
			t.Errorf("Acquire: got %v, want nil (fail open)", err)
		}
	})
	var sb *resilientredis.SharedBreaker
	timed("ShareBreaker", func() {
		sb, err = resilientredis.ShareBreaker(ctx, srv.client(), b, "provider", resilientredis.Timeout(timeout))
		if err != nil {
			t.Error(err)
		}
	})
	wg.Wait()
	resumed()
	if sb != nil {
		_ = sb.Close()
	}
	for name, d := range took {
		// Well under the stall of 2 s, with room for a busy machine.
		if d > 5*timeout {
			t.Errorf("%s took %v while Redis stalled, want about the Timeout, %v", name, d, timeout)
		}
	}
}

// TestTimedOutClaimLeavesNoGhost: a Claim that timed out on the client
// runs in Redis when it wakes, making an in-flight record whose caller has
// gone. The Store abandons it, so the next identical call runs as soon as
// the abandon lands (within a second of Redis answering again), instead of
// waiting out the lease of a call that never ran.
func TestTimedOutClaimLeavesNoGhost(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	s := storeOn(t, srv.client(), resilientredis.Timeout(200*time.Millisecond))
	c := &charger{}
	w := idempotent(t, c.tool(), s, tools.Lease(time.Minute))
	// Load the script: one that is not loaded is not run late, since
	// go-redis sends it again (after NOSCRIPT) only within the deadline.
	if _, ok, err := s.Claim(context.Background(), "warm-up", "w", time.Minute); !ok || err != nil {
		t.Fatalf("Claim: got %v, %v", ok, err)
	}

	resumed := srv.pause(1500 * time.Millisecond)
	out, err := w.Call(context.Background(), order)
	if want := "Error: charge failed internally (*resilientredis.UnavailableError)"; out != want || err != nil {
		t.Errorf("Call while Redis stalls: got (%q, %v), want (%q, nil)", out, err, want)
	}
	resumed()
	// The abandon lands when Redis answers again, and the Store, which
	// treated Redis as down during the stall, tries it again within a second.
	resilientredis.WaitAbandons(s)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	out, err = w.Call(ctx, order)
	if out != "charged txn-1" || err != nil || c.executions.Load() != 1 {
		t.Errorf("next call: got (%q, %v) after %v and %d executions, want the charge, once, well within the lease (1 min)",
			out, err, time.Since(start), c.executions.Load())
	}
}

// TestAbandonBeforeTheLateClaim: when the abandon lands before the claim
// it undoes (the claim held up on the way), the late claim makes no
// record; other owners claim as usual.
func TestAbandonBeforeTheLateClaim(t *testing.T) {
	t.Parallel()
	addr := redisAddr(t)
	s := newStore(t, addr, testPrefix(t, addr))
	ctx := context.Background()
	resilientredis.Abandon(s, "k", "a", time.Minute)
	if _, ok, err := s.Claim(ctx, "k", "a", time.Minute); ok || err == nil || !strings.Contains(err.Error(), "abandoned") {
		t.Errorf("the late claim: got %v, %v, want no claim and an error saying it was abandoned", ok, err)
	}
	resilientredis.WaitAbandons(s)
	if r, ok, err := s.Get(ctx, "k"); ok || err != nil {
		t.Errorf("Get: got %+v, %v, %v, want no record", r, ok, err)
	}
	if r, ok, err := s.Claim(ctx, "k", "b", time.Minute); !ok || err != nil {
		t.Errorf("another owner: got %+v, %v, %v, want claimed", r, ok, err)
	}
	// Abandoning after the claim landed deletes it; abandoning another
	// owner's record changes nothing.
	resilientredis.Abandon(s, "k", "a", time.Minute)
	if r, _, _ := s.Get(ctx, "k"); r.Owner != "b" {
		t.Errorf("a's abandon changed b's record: %+v", r)
	}
	resilientredis.Abandon(s, "k", "b", time.Minute)
	if r, ok, err := s.Get(ctx, "k"); ok || err != nil {
		t.Errorf("after b's abandon: got %+v, %v, %v, want no record", r, ok, err)
	}
	if err := s.Complete(ctx, "k", "c", "done-c", time.Minute); err != nil {
		t.Fatal(err)
	}
	resilientredis.Abandon(s, "k", "c", time.Minute)
	if r, _, _ := s.Get(ctx, "k"); r != (tools.Record{Owner: "c", Done: true, Result: "done-c"}) {
		t.Errorf("an abandon deleted a done record: %+v", r)
	}
}

// TestNewStoreWarnsWithoutPersistence: NewStore logs once when the server
// keeps neither an append-only file nor snapshots, and says nothing when it
// keeps either, or refuses CONFIG.
func TestNewStoreWarnsWithoutPersistence(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		args  []string
		acl   bool
		warns int
	}{
		{"no persistence", nil, false, 1},
		{"append-only file", []string{"--appendonly", "yes"}, false, 0},
		{"snapshots", []string{"--save", "3600 1"}, false, 0},
		{"CONFIG refused", nil, true, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := startServer(t, c.args...)
			client := srv.client()
			if c.acl {
				srv.do("ACL", "SETUSER", "app", "on", ">secret", "~*", "&*", "+@all", "-config")
				client = srv.client()
				client.Options().Username, client.Options().Password = "app", "secret"
				if err := client.ConfigGet(context.Background(), "save").Err(); err == nil {
					t.Fatal("CONFIG GET allowed to a user without it")
				}
			}
			logger, msgs := newRecorder()
			s := storeOn(t, client, resilientredis.Logger(logger))
			if got := count(msgs(), "redis without persistence"); got != c.warns {
				t.Errorf(`"redis without persistence" lines: got %d, want %d: %q`, got, c.warns, msgs())
			}
			if _, ok, err := s.Claim(context.Background(), "k", "a", time.Minute); !ok || err != nil {
				t.Errorf("Claim: got %v, %v", ok, err)
			}
		})
	}
}

// TestRestart: a Redis that restarts without persistence forgets what ran,
// and the same payment runs again; with an append-only file written and
// fsynced before each reply, the record survives a crash (SIGKILL).
func TestRestart(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name       string
		args       []string
		executions int32
	}{
		{"no persistence", nil, 2},
		// Not everysec: while a background fsync runs, Redis replies before
		// it writes the file, so even a crash of the process alone may lose
		// the last two seconds (the result, here, and the call runs again
		// after its lease).
		{"appendfsync always", []string{"--appendonly", "yes", "--appendfsync", "always"}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := startServer(t, c.args...)
			ch := &charger{}
			w := idempotent(t, ch.tool(), storeOn(t, srv.client()))
			ctx := context.Background()
			if out, err := w.Call(ctx, order); out != "charged txn-1" || err != nil {
				t.Fatalf("Call: got (%q, %v)", out, err)
			}
			srv.restart()
			out, err := w.Call(ctx, order)
			if err != nil || ch.executions.Load() != c.executions {
				t.Errorf("after the restart: got (%q, %v) after %d executions, want %d", out, err, ch.executions.Load(), c.executions)
			}
		})
	}
}

// TestUnreachableRedisFailsFast: with RESILIENT_REDIS_ADDR naming an
// address where nothing listens, the Redis tests fail at once and say why,
// rather than hanging until the test binary's timeout.
func TestUnreachableRedisFailsFast(t *testing.T) {
	t.Parallel()
	if os.Getenv(childEnv) != "" {
		t.Skip("not in a helper process")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^(TestStoreContract|TestBreakerOpensAndClosesTogether|TestLimiterSharedByFiveClients)$", "-test.timeout=60s")
	cmd.Env = append(os.Environ(), addrEnv+"="+closedAddr(t))
	start := time.Now()
	out, err := cmd.CombinedOutput()
	took := time.Since(start)
	if err == nil || !strings.Contains(string(out), "but no Redis answers there") || took > 20*time.Second {
		t.Errorf("got %v after %v, want a failure within seconds saying no Redis answers; output:\n%s", err, took, out)
	}
}

// TestRenewalDuringAStallKeepsTheRecord: Redis stalls (DEBUG SLEEP, 1.5 s)
// while an idempotent call runs, and the renewal of its claim runs out of
// time. The record stays: a renewal that fails leaves it to its lease (it
// expires only if the holder is really gone). Another replica calling with
// the same input once Redis is back waits for the running call and gets
// its result: one charge.
func TestRenewalDuringAStallKeepsTheRecord(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	prefix := resilientredis.Prefix("stall:")
	a := storeOn(t, srv.client(), prefix, resilientredis.Timeout(200*time.Millisecond))
	b := &claimCounter{Store: storeOn(t, srv.client(), prefix, slow)}
	var executions atomic.Int32
	finish := make(chan struct{})
	charge := tools.Func("charge", "Charges a card once for an order.", func(context.Context, string) (string, error) {
		n := executions.Add(1)
		<-finish
		return fmt.Sprintf("charged txn-%d", n), nil
	})
	const lease = 3 * time.Second // renewed every second
	first := idempotent(t, charge, a, tools.Lease(lease), tools.Timeout(middleware.Forever))
	second := idempotent(t, charge, b, tools.Lease(lease), tools.Timeout(middleware.Forever))
	// Load the scripts, so that what runs late is the renewal.
	if _, ok, err := a.Claim(context.Background(), "warm-up", "w", time.Minute); !ok || err != nil {
		t.Fatalf("Claim: got %v, %v", ok, err)
	}

	firstOut := make(chan string, 1)
	go func() {
		out, _ := first.Call(context.Background(), order)
		firstOut <- out
	}()
	if _, ok := eventually(5*time.Second, func() bool { return executions.Load() == 1 }); !ok {
		t.Fatal("the first call did not start")
	}
	resumed := srv.pause(1500 * time.Millisecond) // over the renewal a second after the claim
	resumed()
	resilientredis.WaitAbandons(a) // whatever the first replica undoes after its failed renewal is done

	secondOut := make(chan string, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		out, _ := second.Call(ctx, order)
		secondOut <- out
	}()
	// The first call ends once the second has run the tool, or waits for it.
	if _, ok := eventually(10*time.Second, func() bool { return executions.Load() == 2 || b.claims.Load() >= 2 }); !ok {
		t.Error("the second call neither ran nor waited")
	}
	close(finish)
	if out := <-secondOut; out != "charged txn-1" || executions.Load() != 1 {
		t.Errorf("the other replica after the stall: got %q after %d executions, want the running call's charge, once",
			out, executions.Load())
	}
	if out := <-firstOut; out != "charged txn-1" {
		t.Errorf("the first call: got %q", out)
	}
}

// claimCounter counts the claims made on its store.
type claimCounter struct {
	tools.Store
	claims atomic.Int32
}

func (c *claimCounter) Claim(ctx context.Context, key, owner string, lease time.Duration) (tools.Record, bool, error) {
	c.claims.Add(1)
	return c.Store.Claim(ctx, key, owner, lease)
}
