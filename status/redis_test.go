package status_test

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/resilientredis"
	"github.com/resilientgo/resilient/status"
)

// redisClient returns a client of the test Redis (RESILIENT_REDIS_ADDR,
// as for package resilientredis), or skips the test.
func redisClient(t *testing.T) redis.UniversalClient {
	t.Helper()
	addr := os.Getenv("RESILIENT_REDIS_ADDR")
	if addr == "" {
		t.Skip("RESILIENT_REDIS_ADDR is not set: start Redis (redis-server --port 6399) and set RESILIENT_REDIS_ADDR=127.0.0.1:6399")
	}
	c := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{addr}})
	t.Cleanup(func() { _ = c.Close() })
	if err := c.Ping(context.Background()).Err(); err != nil {
		t.Fatalf("RESILIENT_REDIS_ADDR=%s, but no Redis answers there: %v", addr, err)
	}
	return c
}

// replica is one process of a service: its model, whose breaker is shared
// through Redis, and its status handler.
type replica struct {
	model   *llms.Model
	handler http.Handler
}

// newReplica builds a replica calling srv, sharing its breaker under
// prefix.
func newReplica(t *testing.T, srv *faultserver.Server, prefix string) replica {
	t.Helper()
	model := resilient.Model(openaiAgainst(t, srv), resilient.CircuitBreaker(2, 10*time.Second), resilient.MaxAttempts(1))
	sb, err := resilientredis.ShareBreaker(t.Context(), redisClient(t), model.Breaker(), "chat",
		resilientredis.Prefix(prefix), resilientredis.Timeout(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	reg := &status.Registry{}
	if err := errors.Join(reg.AddModel("chat", model), reg.AddShared("chat breaker", sb)); err != nil {
		t.Fatal(err)
	}
	return replica{model, status.Handler(reg, status.AllowActions())}
}

// eventually polls cond every 5 ms for up to d.
func eventually(d time.Duration, cond func() bool) bool {
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

// TestActionReachesEveryReplica: forced open through one replica's status
// endpoint, a breaker shared through a real Redis is shown forced open on
// the other replica, whose calls are refused without a request; reset
// through the other, it closes on the first, whose calls go through.
func TestActionReachesEveryReplica(t *testing.T) {
	prefix := "resilienttest:status:" + rand.Text()[:8] + ":"
	t.Cleanup(func() {
		c := redisClient(t)
		c.Del(context.Background(), prefix+"chat")
	})
	srv := faultserver.New(faultserver.Reply("Order 4471 shipped."))
	defer srv.Close()
	a, b := newReplica(t, srv, prefix), newReplica(t, srv, prefix)
	call := func(r replica) error {
		_, err := r.model.Call(t.Context(), "Where is order 4471?")
		return err
	}

	if got := act(t, a.handler, "/breakers/chat/force_open"); got.Why != status.WhyForcedOpen {
		t.Fatalf("force_open on a answered %+v", got)
	}
	if !eventually(5*time.Second, func() bool { return report(t, b.handler).Models[0].Breaker.Why == status.WhyForcedOpen }) {
		t.Fatalf("b's breaker shown %+v, want forced open by a", report(t, b.handler).Models[0].Breaker)
	}
	if err := call(b); !errors.Is(err, resilient.ErrCircuitOpen) || srv.Count() != 0 {
		t.Errorf("a call on b: %v after %d requests, want ErrCircuitOpen and none", err, srv.Count())
	}
	if got := ready(t, b.handler); got != `Service Unavailable {"ready":false,"unready":["chat"]}` {
		t.Errorf("GET /ready on b: %s", got)
	}
	shared := report(t, b.handler).Shared[0]
	if shared.Name != "chat breaker" || shared.Feature != "breaker" || !shared.Reachable || shared.Action != "local" {
		t.Errorf("b's shared state: %+v, want a reachable breaker that would work alone", shared)
	}

	act(t, b.handler, "/breakers/chat/reset")
	if !eventually(5*time.Second, func() bool {
		br := report(t, a.handler).Models[0].Breaker
		return br.State == "closed" && br.Why == ""
	}) {
		t.Fatalf("a's breaker shown %+v, want closed by b's reset", report(t, a.handler).Models[0].Breaker)
	}
	if err := call(a); err != nil || srv.Count() != 1 {
		t.Errorf("a call on a after the reset: %v after %d requests, want an answer", err, srv.Count())
	}
}

// TestSharedStateShownUnreachable: a shared rate limiter whose Redis does
// not answer is shown unreachable, failing open, with the client's error,
// after the first attempt it admitted without Redis.
func TestSharedStateShownUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close() // nothing listens there now
	client := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	defer client.Close()
	l, err := resilientredis.NewLimiter(client, "openai", 60, time.Minute, resilientredis.Timeout(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	reg := &status.Registry{}
	_ = reg.AddLimiter("openai", l)
	if got := report(t, status.Handler(reg)).Limiters[0].Shared; got == nil || !got.Reachable {
		t.Errorf("before any attempt: %+v, want reachable (not known otherwise)", got)
	}
	if err := l.Acquire(t.Context(), 1); err != nil {
		t.Fatalf("a limiter failing open refused: %v", err)
	}
	got := report(t, status.Handler(reg)).Limiters[0]
	if got.Shared == nil || got.Shared.Reachable || got.Shared.Action != "fail_open" || got.Shared.Error == "" ||
		got.Limit != "60 requests per 1m0s, shared under resilient:limiter:{openai}" {
		t.Errorf("after an attempt without Redis: %+v (shared %+v), want unreachable, failing open, with the error", got, got.Shared)
	}
}

// TestRedisSemaphoreShownInUse: a semaphore shared through Redis shows the
// slots the whole fleet holds, as its replicas take and give them back.
func TestRedisSemaphoreShownInUse(t *testing.T) {
	prefix := "resilienttest:status:" + rand.Text()[:8] + ":"
	var sems []*resilientredis.Semaphore
	var handlers []http.Handler
	for range 2 {
		sem, err := resilientredis.NewSemaphore(redisClient(t), "openai", 4, resilientredis.Prefix(prefix))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = sem.Close() })
		reg := &status.Registry{}
		if err := reg.AddSemaphore("openai", sem); err != nil {
			t.Fatal(err)
		}
		sems, handlers = append(sems, sem), append(handlers, status.Handler(reg))
	}
	shown := func(h http.Handler) string {
		s := report(t, h).Semaphores[0]
		switch {
		case s.Size == nil:
			return "no size"
		case s.InUse == nil:
			return fmt.Sprintf("%d slots, none said in use", *s.Size)
		}
		return fmt.Sprintf("%d of %d", *s.InUse, *s.Size)
	}
	var releases []func()
	for _, sem := range sems {
		r, err := sem.Acquire(t.Context(), 0)
		if err != nil {
			t.Fatal(err)
		}
		releases = append(releases, r)
	}
	for i, h := range handlers {
		if got := shown(h); got != "2 of 4" {
			t.Errorf("replica %d with a slot held by each of two replicas shows %s, want 2 of 4", i, got)
		}
	}
	releases[0]()
	if got := shown(handlers[1]); got != "1 of 4" {
		t.Errorf("after the first replica's release the other shows %s, want 1 of 4", got)
	}
	releases[1]()
}
