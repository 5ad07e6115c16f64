package resilientredis_test

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/resilientgo/resilient/resilientredis"
)

// BenchmarkStoreWait measures what WaitReplicas costs an idempotent call:
// a claim and a completion, each followed by WAIT for the replica, against
// the same without, on a master with one replica of the benchmark's own
// (loopback: the replication's round trip is the least it can be).
//
//	go run ./internal/cmd/benchrounds -pkg ./resilientredis -bench StoreWait -base wait=none -rounds 10
func BenchmarkStoreWait(b *testing.B) {
	bins, err := lookBins("redis-server")
	if err != nil {
		b.Skip(err)
	}
	ports, err := freePorts(2)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	master, err := startNode(filepath.Join(dir, "master"), ports[0], bins[0], serverArgs(ports[0])...)
	if err != nil {
		b.Fatal(err)
	}
	defer master.kill()
	replica, err := startNode(filepath.Join(dir, "replica"), ports[1], bins[0],
		serverArgs(ports[1], "--replicaof", "127.0.0.1", strconv.Itoa(ports[0]))...)
	if err != nil {
		b.Fatal(err)
	}
	defer replica.kill()
	ctx := context.Background()
	for {
		if info, _ := nodeInfo(ctx, replica.addr, "INFO", "replication"); info["master_link_status"] == "up" {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	c := redis.NewClient(&redis.Options{Addr: master.addr})
	defer c.Close()
	for _, v := range []struct {
		name string
		opts []resilientredis.Option
	}{
		{"wait=none", nil},
		{"wait=1", []resilientredis.Option{resilientredis.WaitReplicas(1, 500*time.Millisecond)}},
	} {
		b.Run(v.name, func(b *testing.B) {
			s, err := resilientredis.NewStore(c, append(v.opts, resilientredis.Prefix("resilientbench:"+v.name+":"))...)
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			for b.Loop() {
				n++
				key := strconv.Itoa(n)
				if _, ok, err := s.Claim(ctx, key, "owner", time.Minute); !ok || err != nil {
					b.Fatalf("Claim: %v, %v", ok, err)
				}
				if err := s.Complete(ctx, key, "owner", "charged", time.Minute); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
