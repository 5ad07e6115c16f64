package resilientotel_test

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/resilientredis"
)

// An outage of the Redis that replicas share state through is counted once
// per feature, by what it does meanwhile, however many round trips fail;
// a recovery records how long it lasted. The limiter and semaphore are
// resilientredis's, on a Redis that is not there.
func TestSharedStateMetrics(t *testing.T) {
	h := newHarness(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String() // nothing listens there once closed
	ln.Close()
	rdb := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, DialerRetries: 1})
	defer rdb.Close()
	limiter, err := resilientredis.NewLimiter(rdb, "openai", 10, time.Minute, resilientredis.Observe(h.obs))
	if err != nil {
		t.Fatal(err)
	}
	sem, err := resilientredis.NewSemaphore(rdb, "openai", 2, resilientredis.FailClosed(), resilientredis.Observe(h.obs))
	if err != nil {
		t.Fatal(err)
	}
	defer sem.Close()
	ctx := context.Background()
	for range 3 {
		if err := limiter.Acquire(ctx, 1); err != nil {
			t.Fatalf("a limiter failing open: got %v", err)
		}
		if _, err := sem.Acquire(ctx, 0); !errors.Is(err, resilientredis.ErrUnavailable) {
			t.Fatalf("a semaphore failing closed: got %v", err)
		}
	}
	h.obs.Observe(ctx, observe.SharedStateRestored{Feature: "limiter", Key: "resilient:limiter:{openai}", Down: 90 * time.Second})

	ms := h.metrics(t)
	want := map[string]float64{
		"resilient.shared.action=fail_open,resilient.shared.feature=limiter":     1,
		"resilient.shared.action=fail_closed,resilient.shared.feature=semaphore": 1,
	}
	got := byAttrs(ms, "resilient.shared.unavailable")
	if len(got) != len(want) {
		t.Errorf("resilient.shared.unavailable: got %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("resilient.shared.unavailable{%s}: got %v, want %v", k, got[k], v)
		}
	}
	const limiterAt = "resilient.shared.feature=limiter"
	if got := counts(ms, "resilient.shared.unavailable.duration"); len(got) != 1 || got[limiterAt] != 1 {
		t.Errorf("resilient.shared.unavailable.duration counts: got %v, want {%s: 1}", got, limiterAt)
	}
	if got := byAttrs(ms, "resilient.shared.unavailable.duration")[limiterAt]; got != 90 {
		t.Errorf("resilient.shared.unavailable.duration sum: got %v s, want 90", got)
	}
	if m := ms["resilient.shared.unavailable.duration"]; m.Unit != "s" {
		t.Errorf("unit: got %q, want s", m.Unit)
	}
}
