package resilientredis_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/resilientredis"
)

// replica is one process's breaker, shared.
type replica struct {
	b  *breaker.Breaker
	sb *resilientredis.SharedBreaker
}

// share returns a breaker (5 failures, 100 ms) shared under "provider" in
// prefix through a client of its own at addr.
func share(t *testing.T, addr, prefix string, opts ...resilientredis.Option) replica {
	t.Helper()
	b := breaker.New(breaker.Settings{Name: "provider", Failures: 5, Delay: 100 * time.Millisecond})
	sb, err := resilientredis.ShareBreaker(context.Background(), newClient(t, addr), b, "provider",
		append([]resilientredis.Option{slow, resilientredis.Prefix(prefix)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	return replica{b, sb}
}

func isOpen(b *breaker.Breaker) func() bool {
	return func() bool { return b.State() == observe.BreakerOpen }
}

func isClosed(b *breaker.Breaker) func() bool {
	return func() bool { return b.State() == observe.BreakerClosed }
}

// version returns the shared state's version: how many changes were
// published.
func version(t *testing.T, addr, prefix string) string {
	t.Helper()
	return newClient(t, addr).HGet(context.Background(), prefix+"provider", "version").Val()
}

// TestBreakerOpensAndClosesTogether: an open on one replica holds the other
// open for the remaining delay, a close closes it, and nothing echoes: two
// changes make two versions.
func TestBreakerOpensAndClosesTogether(t *testing.T) {
	t.Parallel()
	addr := redisAddr(t)
	prefix := testPrefix(t, addr)
	a, b := share(t, addr, prefix), share(t, addr, prefix)

	a.b.HoldOpen(2 * time.Second) // a Retry-After of 2 s over the cap
	if took, ok := eventually(time.Second, isOpen(b.b)); !ok {
		t.Fatalf("b not open after %v", took)
	}
	if d := b.b.RemainingDelay(); d < 1500*time.Millisecond || d > 2*time.Second {
		t.Errorf("b holds open for %v, want about 2 s (its own delay is 100 ms)", d)
	}
	time.Sleep(200 * time.Millisecond) // b's own 100 ms delay passes: still held
	if !isOpen(b.b)() {
		t.Errorf("b: got %v after its own delay, want open until the shared period ends", b.b.State())
	}

	a.b.Close()
	if took, ok := eventually(time.Second, isClosed(b.b)); !ok {
		t.Fatalf("b not closed after %v", took)
	}
	time.Sleep(100 * time.Millisecond)
	if got := version(t, addr, prefix); got != "2" {
		t.Errorf("version: got %s, want 2 (one open, one close, no echo)", got)
	}
}

// TestBreakerLongestOpenWins: a shorter open never shortens a longer one.
func TestBreakerLongestOpenWins(t *testing.T) {
	t.Parallel()
	addr := redisAddr(t)
	prefix := testPrefix(t, addr)
	a, b := share(t, addr, prefix), share(t, addr, prefix)
	a.b.HoldOpen(3 * time.Second)
	if _, ok := eventually(time.Second, isOpen(b.b)); !ok {
		t.Fatal("b not open")
	}
	b.b.HoldOpen(time.Second) // no change: already held longer
	a2 := share(t, addr, prefix)
	if d := a2.b.RemainingDelay(); d < 2500*time.Millisecond {
		t.Errorf("a replica started now holds open for %v, want the longest period, about 3 s", d)
	}
}

// TestBreakerPollIsTheSafetyNet: a change that no message announced (a
// replica that missed it) is applied by the poll within PollInterval.
func TestBreakerPollIsTheSafetyNet(t *testing.T) {
	t.Parallel()
	addr := redisAddr(t)
	prefix := testPrefix(t, addr)
	const poll = 100 * time.Millisecond
	b := share(t, addr, prefix, resilientredis.PollInterval(poll))
	client := newClient(t, addr)
	now := client.Time(context.Background()).Val()
	client.HSet(context.Background(), prefix+"provider", "state", "open", "version", 7, "origin", "elsewhere",
		"until", now.Add(2*time.Second).UnixMilli()) // written without PUBLISH
	// The bound allows the poll interval plus scheduling slack on a loaded
	// machine (a 2-core runner under -race saw 262 ms); what fails it is a
	// replica that never polls, which would wait for the 2 s open to pass.
	took, ok := eventually(3*time.Second, isOpen(b.b))
	if !ok || took > poll+700*time.Millisecond {
		t.Errorf("open seen after %v (%v), want within the poll interval %v (and slack)", took, ok, poll)
	}
}

// TestBreakerStaleCloseLoses: a replica that closes without having seen a
// newer open does not end it: it gets the open instead.
func TestBreakerStaleCloseLoses(t *testing.T) {
	t.Parallel()
	addr := redisAddr(t)
	prefix := testPrefix(t, addr)
	b := share(t, addr, prefix, resilientredis.PollInterval(time.Minute))
	b.b.Open()
	if _, ok := eventually(time.Second, func() bool { return version(t, addr, prefix) == "1" }); !ok {
		t.Fatal("the open was not published")
	}
	client := newClient(t, addr)
	now := client.Time(context.Background()).Val()
	client.HSet(context.Background(), prefix+"provider", "state", "open", "version", 2, "origin", "elsewhere",
		"until", now.Add(2*time.Second).UnixMilli()) // a newer open that b has not seen
	b.b.Close()
	if _, ok := eventually(time.Second, func() bool { return b.b.State() == observe.BreakerOpen }); !ok {
		t.Errorf("b: got %v, want open again: its close was stale", b.b.State())
	}
	if got := client.HGet(context.Background(), prefix+"provider", "state").Val(); got != "open" {
		t.Errorf("shared state: got %s, want open", got)
	}
}

// TestBreakerOpenBeforeSharing: a breaker already open when it starts
// sharing tells the others.
func TestBreakerOpenBeforeSharing(t *testing.T) {
	t.Parallel()
	addr := redisAddr(t)
	prefix := testPrefix(t, addr)
	other := share(t, addr, prefix)
	b := breaker.New(breaker.Settings{Name: "provider", Failures: 5, Delay: 2 * time.Second})
	b.Open()
	sb, err := resilientredis.ShareBreaker(context.Background(), newClient(t, addr), b, "provider", resilientredis.Prefix(prefix))
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	if _, ok := eventually(time.Second, isOpen(other.b)); !ok {
		t.Error("the other replica did not open")
	}
}

// TestBreakerClosedStopsSharing: after Close, local changes stay local.
func TestBreakerClosedStopsSharing(t *testing.T) {
	t.Parallel()
	addr := redisAddr(t)
	prefix := testPrefix(t, addr)
	a, b := share(t, addr, prefix), share(t, addr, prefix)
	if err := a.sb.Close(); err != nil {
		t.Fatal(err)
	}
	_ = a.sb.Close() // idempotent
	a.b.Open()
	time.Sleep(200 * time.Millisecond)
	if got := b.b.State(); got != observe.BreakerClosed {
		t.Errorf("b: got %v, want closed", got)
	}
}

// TestBreakerDown: without Redis, ShareBreaker returns at once with no
// error and a log line, and the breaker works alone.
func TestBreakerDown(t *testing.T) {
	t.Parallel()
	logger, msgs := newRecorder()
	b := breaker.New(breaker.Settings{Name: "provider", Failures: 5, Delay: time.Minute})
	start := time.Now()
	sb, err := resilientredis.ShareBreaker(context.Background(), downClient(t), b, "provider",
		resilientredis.Logger(logger), resilientredis.PollInterval(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > resilientredis.DefaultTimeout {
		t.Errorf("ShareBreaker took %v without Redis, want at most the timeout", took)
	}
	b.Open()
	time.Sleep(150 * time.Millisecond) // a few polls and publishes fail
	if got := b.State(); got != observe.BreakerOpen {
		t.Errorf("open: got %v", got)
	}
	b.Close()
	if got := b.State(); got != observe.BreakerClosed {
		t.Errorf("closed: got %v", got)
	}
	if err := sb.Close(); err != nil {
		t.Error(err)
	}
	if got := count(msgs(), "redis unavailable"); got != 1 {
		t.Errorf(`"redis unavailable" lines: got %d, want 1: %q`, got, msgs())
	}
}

// TestBreakerReconnects: an open that happened while Redis was unreachable
// is published once it is back, within PollInterval.
func TestBreakerReconnects(t *testing.T) {
	t.Parallel()
	addr := redisAddr(t)
	prefix := testPrefix(t, addr)
	p := newProxy(t, addr)
	p.down()
	const poll = 100 * time.Millisecond
	logger, msgs := newRecorder()
	alone := share(t, p.addr, prefix, resilientredis.PollInterval(poll), resilientredis.Logger(logger),
		resilientredis.Timeout(200*time.Millisecond))
	other := share(t, addr, prefix)
	alone.b.HoldOpen(5 * time.Second)
	time.Sleep(2 * poll)
	if got := other.b.State(); got != observe.BreakerClosed {
		t.Fatalf("other: got %v while the first is cut off, want closed", got)
	}
	p.up(t)
	took, ok := eventually(2*time.Second, isOpen(other.b))
	if !ok || took > poll+500*time.Millisecond {
		t.Errorf("other open after %v (%v), want within a poll of Redis coming back", took, ok)
	}
	// The recovery is logged by the loop that noticed it, which may finish
	// its round trip just after the other breaker opened.
	_, _ = eventually(2*time.Second, func() bool { return count(msgs(), "redis reachable again") > 0 })
	if got := msgs(); count(got, "redis unavailable") != 1 || count(got, "redis reachable again") != 1 {
		t.Errorf("log: got %q", got)
	}
}

func TestShareBreakerInvalid(t *testing.T) {
	t.Parallel()
	_, err := resilientredis.ShareBreaker(context.Background(), nil, nil, "", resilientredis.Tokens(1))
	want := `resilientredis: ShareBreaker(nil client)
resilientredis: ShareBreaker(nil breaker)
resilientredis: ShareBreaker: empty key
resilientredis: Tokens applies to the limiter only`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
}

// forgeScript publishes an open of ARGV[1] ms as a replica of another
// version could: the hash says until now + ARGV[2] ms, the message ARGV[1].
var forgeScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local v = redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('HSET', KEYS[1], 'state', 'open', 'origin', 'older', 'until', string.format('%d', now + tonumber(ARGV[2])))
redis.call('PUBLISH', KEYS[1], 'open ' .. v .. ' older ' .. ARGV[1])
return v
`)

// TestBreakerSharedHoldsAreBounded: no replica is held open by another for
// longer than its longest hold (middleware.MaxHold): not by what a replica
// publishes, nor by what one reads, whoever wrote it (a replica of an older
// version publishing a year, or a number of milliseconds that overflows a
// Duration), nor when it starts after it was written.
func TestBreakerSharedHoldsAreBounded(t *testing.T) {
	t.Parallel()
	addr := redisAddr(t)
	prefix := testPrefix(t, addr)
	ctx := context.Background()

	// a opens for an hour on its own evidence, but holds the others for at
	// most its MaxHold.
	p, err := middleware.New[string]("provider", middleware.CircuitBreaker(1, time.Hour), middleware.MaxHold(2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	sa, err := resilientredis.ShareBreaker(ctx, newClient(t, addr), p.Breaker(), "provider", resilientredis.Prefix(prefix))
	if err != nil {
		t.Fatal(err)
	}
	defer sa.Close()
	b := share(t, addr, prefix)
	p.Breaker().Open()
	if _, ok := eventually(time.Second, isOpen(b.b)); !ok {
		t.Fatal("b not open")
	}
	if d := b.b.RemainingDelay(); d > 2*time.Second {
		t.Errorf("b held open for %v by a, whose longest hold is 2 s", d)
	}
	p.Breaker().Close()
	if _, ok := eventually(time.Second, isClosed(b.b)); !ok {
		t.Fatal("b not closed")
	}

	// An older replica publishes holds of a year, then of more milliseconds
	// than a Duration holds: each holds c for its longest hold.
	c := share(t, addr, prefix, resilientredis.PollInterval(time.Minute)) // the messages alone
	client := newClient(t, addr)
	const year = "31536000000"
	for _, ms := range []string{"9223372036854775807", year} {
		if err := forgeScript.Run(ctx, client, []string{prefix + "provider"}, ms, year).Err(); err != nil {
			t.Fatal(err)
		}
		if _, ok := eventually(time.Second, isOpen(c.b)); !ok {
			t.Fatalf("a published hold of %s ms did not open c", ms)
		}
		if d := c.b.RemainingDelay(); d > breaker.DefaultMaxHold || d < breaker.DefaultMaxHold-time.Second {
			t.Errorf("a published hold of %s ms holds c open for %v, want its longest hold, %v", ms, d, breaker.DefaultMaxHold)
		}
		c.b.Close() // published: the shared state is closed again
		if _, ok := eventually(time.Second, func() bool { return client.HGet(ctx, prefix+"provider", "state").Val() == "closed" }); !ok {
			t.Fatal("c's close was not published")
		}
	}

	// A replica started after a year was written reads it, bounded.
	if err := forgeScript.Run(ctx, client, []string{prefix + "provider"}, year, year).Err(); err != nil {
		t.Fatal(err)
	}
	d := share(t, addr, prefix)
	if got := d.b.RemainingDelay(); got > breaker.DefaultMaxHold || got < breaker.DefaultMaxHold-time.Second {
		t.Errorf("a replica started later holds open for %v, want its longest hold, %v", got, breaker.DefaultMaxHold)
	}
}

// TestBreakerPropagation: a change on one replica reaches another through
// pub/sub within milliseconds, on every topology (on a cluster, go-redis
// subscribes on the node that owns the slot of the channel, named as the
// key: the node that runs the script and publishes). The median of 20
// opens and 20 closes is logged and must stay under 50 ms, a bound a
// loaded machine keeps; a change that waited for the poll (1 s) would not.
func TestBreakerPropagation(t *testing.T) {
	t.Parallel()
	addr := redisAddr(t)
	prefix := testPrefix(t, addr)
	a, b := share(t, addr, prefix), share(t, addr, prefix)
	changed := make(chan observe.BreakerState, 4)
	remove := b.b.OnStateChange(func(s observe.BreakerState) { changed <- s })
	defer remove()
	await := func(want observe.BreakerState) time.Duration {
		t.Helper()
		start := time.Now()
		timeout := time.After(5 * time.Second)
		for {
			select {
			case s := <-changed:
				if s == want {
					return time.Since(start)
				}
			case <-timeout:
				t.Fatalf("the other replica did not become %v within 5 s", want)
			}
		}
	}
	var took []time.Duration
	for range 20 {
		a.b.HoldOpen(time.Minute)
		took = append(took, await(observe.BreakerOpen))
		a.b.Close()
		took = append(took, await(observe.BreakerClosed))
	}
	slices.Sort(took)
	median := took[len(took)/2]
	t.Logf("%s: a change reached the other replica in %v (median of %d), %v to %v", topology(), median, len(took), took[0], took[len(took)-1])
	if median > 50*time.Millisecond {
		t.Errorf("median propagation %v, want within 50 ms", median)
	}
}

func isForced(b *breaker.Breaker, f breaker.Forcing) func() bool {
	return func() bool { return b.Forced() == f }
}

// TestBreakerForcingReachesEveryReplica: an operator's forcing on one
// replica forces the others, a replica started later too, and stays until
// a close ends it everywhere; a forced breaker's evidence changes nothing
// shared; a forced state does not expire.
func TestBreakerForcingReachesEveryReplica(t *testing.T) {
	t.Parallel()
	addr := redisAddr(t)
	prefix := testPrefix(t, addr)
	ctx := context.Background()
	a, b := share(t, addr, prefix), share(t, addr, prefix)

	a.b.ForceOpen()
	if took, ok := eventually(time.Second, isForced(b.b, breaker.ForcedOpen)); !ok {
		t.Fatalf("b not forced open after %v: %v", took, b.b.Forced())
	}
	if b.b.TryAcquire() {
		t.Error("b, forced open by a, admitted an attempt")
	}
	time.Sleep(300 * time.Millisecond) // past the breakers' delay of 100 ms
	if c := share(t, addr, prefix); c.b.Forced() != breaker.ForcedOpen {
		t.Errorf("a replica started while forced open: %v, want forced_open", c.b.Forced())
	}
	if ttl := newClient(t, addr).TTL(ctx, prefix+"provider").Val(); ttl != -1 {
		t.Errorf("the forced state expires in %v, want never (-1)", ttl)
	}

	a.b.Close() // the operator's reset
	if took, ok := eventually(time.Second, func() bool {
		return b.b.Forced() == breaker.NotForced && b.b.State() == observe.BreakerClosed
	}); !ok {
		t.Fatalf("b not reset after %v: %v %v", took, b.b.Forced(), b.b.State())
	}

	b.b.ForceClosed()
	if took, ok := eventually(time.Second, isForced(a.b, breaker.ForcedClosed)); !ok {
		t.Fatalf("a not forced closed after %v: %v", took, a.b.Forced())
	}
	for range 10 { // twice a's threshold
		if !a.b.TryAcquire() {
			t.Fatal("a, forced closed, refused an attempt")
		}
		a.b.Record(breaker.Unhealthy)
	}
	a.b.HoldOpen(time.Minute)
	time.Sleep(100 * time.Millisecond)
	if !isForced(b.b, breaker.ForcedClosed)() || !isForced(a.b, breaker.ForcedClosed)() {
		t.Errorf("after failures and a hold on a: a %v, b %v, want both forced_closed", a.b.Forced(), b.b.Forced())
	}

	b.b.Close()
	if took, ok := eventually(time.Second, isForced(a.b, breaker.NotForced)); !ok {
		t.Fatalf("a still forced after %v: %v", took, a.b.Forced())
	}
	time.Sleep(100 * time.Millisecond)
	if got := version(t, addr, prefix); got != "4" {
		t.Errorf("version: got %s, want 4 (forced open, reset, forced closed, reset; no echo)", got)
	}
}
