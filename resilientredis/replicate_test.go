package resilientredis_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/resilientgo/resilient/resilientredis"
)

func TestWaitReplicasInvalid(t *testing.T) {
	t.Parallel()
	c := redis.NewClient(&redis.Options{Addr: closedAddr(t)})
	defer c.Close()
	ring := redis.NewRing(&redis.RingOptions{Addrs: map[string]string{"a": closedAddr(t)}})
	defer ring.Close()
	for _, tt := range []struct {
		name   string
		client redis.UniversalClient
		opts   []resilientredis.Option
		want   string
	}{
		{"no replica", c, []resilientredis.Option{resilientredis.WaitReplicas(0, time.Millisecond)}, "need 1 to 16 replicas"},
		{"too many replicas", c, []resilientredis.Option{resilientredis.WaitReplicas(17, time.Millisecond)}, "need 1 to 16 replicas"},
		{"no wait", c, []resilientredis.Option{resilientredis.WaitReplicas(1, 0)}, "positive timeout"},
		{"a wait past the round trip", c, []resilientredis.Option{resilientredis.WaitReplicas(1, time.Second)}, "shorter than the Timeout (1s)"},
		{"a ring", ring, []resilientredis.Option{resilientredis.WaitReplicas(1, time.Millisecond)}, "not a *redis.Ring"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := resilientredis.NewStore(tt.client, append(tt.opts, resilientredis.Timeout(time.Second))...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error saying %q", err, tt.want)
			}
		})
	}
	if _, err := resilientredis.NewLimiter(c, "k", 1, time.Second, resilientredis.WaitReplicas(1, time.Millisecond)); err == nil ||
		!strings.Contains(err.Error(), "WaitReplicas applies to the store only") {
		t.Errorf("NewLimiter(WaitReplicas): got %v, want refused", err)
	}
}

// TestWaitReplicasWithoutReplica: a Redis with no replica never
// acknowledges: each claim fails after the wait as Redis being
// unavailable, is abandoned, and the tool does not run.
func TestWaitReplicasWithoutReplica(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	s := storeOn(t, srv.client(), resilientredis.WaitReplicas(1, 50*time.Millisecond))
	ctx := context.Background()
	start := time.Now()
	_, ok, err := s.Claim(ctx, "k", "a", time.Minute)
	if ok || !errors.Is(err, resilientredis.ErrUnavailable) || !strings.Contains(err.Error(), "reached 0 of the 1 replicas asked within 50ms") {
		t.Fatalf("Claim: got %v, %v, want refused: no replica acknowledged", ok, err)
	}
	if took := time.Since(start); took < 50*time.Millisecond {
		t.Errorf("Claim answered after %v, before the wait of 50 ms", took)
	}
	resilientredis.WaitAbandons(s) // the failed claim is abandoned in the background
	plain, err := resilientredis.NewStore(srv.client())
	if err != nil {
		t.Fatal(err)
	}
	if r, ok, err := plain.Get(ctx, "k"); ok || err != nil {
		t.Errorf("after the claim failed: got the record %+v (%v), want none", r, err)
	}

	c := &charger{}
	w := idempotent(t, c.tool(), s)
	out, err := w.Call(ctx, order)
	if err != nil || !strings.Contains(out, "failed internally") || c.executions.Load() != 0 {
		t.Errorf("Call: got (%q, %v) after %d executions, want an internal failure and no execution", out, err, c.executions.Load())
	}
}

// TestWaitReplicasOnTopology: on a cluster or through sentinels, whose
// masters have a replica each, a store that waits for it claims, completes
// and answers repeats as one that does not, and the record is on the
// replica as soon as each call returns.
func TestWaitReplicasOnTopology(t *testing.T) {
	t.Parallel()
	addr := redisAddr(t)
	if topology() == standalone {
		t.Skip("the standalone test Redis may have no replica: this test runs on the cluster and sentinel runs")
	}
	prefix := testPrefix(t, addr)
	s := storeOn(t, newClient(t, addr), slow, resilientredis.Prefix(prefix), resilientredis.WaitReplicas(1, time.Second))
	ctx := context.Background()
	if _, ok, err := s.Claim(ctx, "k", "a", time.Minute); !ok || err != nil {
		t.Fatalf("Claim: got %v, %v", ok, err)
	}
	if got := onReplica(t, addr, prefix+"k"); got["owner"] != "a" || got["done"] != "0" {
		t.Errorf("the replica has %v, want a's claim", got)
	}
	if err := s.Complete(ctx, "k", "a", "charged", time.Minute); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if got := onReplica(t, addr, prefix+"k"); got["done"] != "1" || got["result"] != "charged" {
		t.Errorf("the replica has %v, want a's result", got)
	}

	c := &charger{}
	w := idempotent(t, c.tool(), s)
	first, err1 := w.Call(ctx, order)
	again, err2 := w.Call(ctx, order)
	if err1 != nil || err2 != nil || first != "charged txn-1" || again != "already done: charged txn-1" || c.executions.Load() != 1 {
		t.Errorf("calls: got (%q, %v), (%q, %v) after %d executions, want one charge and its repeat", first, err1, again, err2, c.executions.Load())
	}
}

// onReplica returns the hash at key as a replica of its master has it.
func onReplica(t *testing.T, addr, key string) map[string]string {
	t.Helper()
	ctx := context.Background()
	var replica string
	switch c := newClient(t, addr).(type) {
	case *redis.ClusterClient:
		master, err := c.MasterForKey(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		replica = replicaOf(t, master.Options().Addr)
	default: // through the sentinels
		sc := redis.NewSentinelClient(&redis.Options{Addr: strings.Split(addr, ",")[0]})
		defer sc.Close()
		name := os.Getenv(masterEnv)
		if name == "" {
			name = masterName
		}
		m, err := sc.GetMasterAddrByName(ctx, name).Result()
		if err != nil {
			t.Fatal(err)
		}
		replica = replicaOf(t, m[0]+":"+m[1])
	}
	rc := redis.NewClient(&redis.Options{Addr: replica})
	defer rc.Close()
	conn := rc.Conn()
	defer conn.Close()
	if topology() == cluster {
		if err := conn.ReadOnly(ctx).Err(); err != nil {
			t.Fatal(err)
		}
	}
	v, err := conn.HGetAll(ctx, key).Result()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// replicaOf returns the address of the first replica of the master at
// addr, which a failover client resolves through the sentinels.
func replicaOf(t *testing.T, addr string) string {
	t.Helper()
	info, err := nodeInfo(context.Background(), addr, "INFO", "replication")
	if err != nil {
		t.Fatal(err)
	}
	// slave0:ip=127.0.0.1,port=6380,state=online,offset=...,lag=0
	for _, f := range strings.Split(info["slave0"], ",") {
		if port, ok := strings.CutPrefix(f, "port="); ok {
			return "127.0.0.1:" + port
		}
	}
	t.Fatalf("the master at %s has no replica: %v", addr, info)
	return ""
}
