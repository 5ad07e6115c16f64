package resilientredis_test

import (
	"context"
	"testing"

	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/resilientredis"
)

// BenchmarkSemaphore measures what sharing a concurrency limit through
// Redis costs an attempt that finds a slot free: an acquire and a release,
// two scripts, against the bulkhead of one process, on the Redis at
// RESILIENT_REDIS_ADDR.
//
//	go run ./internal/cmd/benchrounds -pkg ./resilientredis -bench Semaphore -base impl=bulkhead -rounds 10
func BenchmarkSemaphore(b *testing.B) {
	addr := redisAddr(b)
	ctx := context.Background()
	bulkhead, err := limit.NewBulkhead(8)
	if err != nil {
		b.Fatal(err)
	}
	shared, err := resilientredis.NewSemaphore(newClient(b, addr), "provider", 8, resilientredis.Prefix(testPrefix(b, addr)))
	if err != nil {
		b.Fatal(err)
	}
	defer shared.Close()
	for _, bc := range []struct {
		name string
		sem  limit.Semaphore
	}{{"impl=bulkhead", bulkhead}, {"impl=redis", shared}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				release, err := bc.sem.Acquire(ctx, 0)
				if err != nil {
					b.Fatal(err)
				}
				release()
			}
		})
	}
}
