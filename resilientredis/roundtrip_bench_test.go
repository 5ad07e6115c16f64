package resilientredis

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// BenchmarkRoundTrip measures what bounding a round trip whatever the
// client costs (a goroutine and a channel per command) against the
// command bounded by its context alone, which a client without
// ContextTimeoutEnabled ignores: one HMGET, as Store.Get makes, on the
// Redis at RESILIENT_REDIS_ADDR.
//
//	go run ./internal/cmd/benchrounds -pkg ./resilientredis -bench RoundTrip -base impl=context -rounds 10
func BenchmarkRoundTrip(b *testing.B) {
	addr := os.Getenv("RESILIENT_REDIS_ADDR")
	if addr == "" {
		b.Skip("RESILIENT_REDIS_ADDR is not set")
	}
	c := redis.NewClient(&redis.Options{Addr: addr})
	defer c.Close()
	ctx := context.Background()
	get := func(ctx context.Context) ([]any, error) {
		return c.HMGet(ctx, "resilientbench:absent", "owner", "done", "result").Result()
	}
	b.Run("impl=context", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rctx, cancel := context.WithTimeout(ctx, time.Second)
			if _, err := get(rctx); err != nil {
				b.Fatal(err)
			}
			cancel()
		}
	})
	b.Run("impl=roundTrip", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := roundTrip(ctx, time.Second, get); err != nil {
				b.Fatal(err)
			}
		}
	})
}
