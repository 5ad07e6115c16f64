package resilient_test

import (
	"context"
	"crypto/rand"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/resilientredis"
	"github.com/resilientgo/resilient/tools"
)

// The README's Redis example, against the Redis at RESILIENT_REDIS_ADDR
// (skipped without one, as the resilientredis tests are): a charge sent
// twice runs once, the model answers under the shared limits (requests
// per minute, in flight), and the shared breaker is closed.
func TestREADMERedis(t *testing.T) {
	addr := os.Getenv("RESILIENT_REDIS_ADDR")
	if addr == "" {
		t.Skip("RESILIENT_REDIS_ADDR is not set: start Redis (redis-server --port 6399) and set RESILIENT_REDIS_ADDR=127.0.0.1:6399")
	}
	srv := faultserver.New(faultserver.Reply("Charged."))
	defer srv.Close()
	llm, err := srv.OpenAI()
	if err != nil {
		t.Fatal(err)
	}
	var charges atomic.Int32
	chargeTool := tools.Func("charge", "Charges an order.", func(context.Context, string) (string, error) {
		charges.Add(1)
		return "charged", nil
	})
	// A new order each run: the store keeps its records for a day (they
	// expire then).
	order := `{"order": "` + rand.Text() + `", "cents": 1999}`

	ctx := t.Context()
	var lines observetest.LogBuffer
	logger := lines.Logger()
	// readme:begin redis
	rdb := redis.NewClient(&redis.Options{Addr: addr}) // e.g. "127.0.0.1:6379"
	logged := resilientredis.Logger(logger)            // "redis unavailable", "redis reachable again"

	store, _ := resilientredis.NewStore(rdb, logged)
	charge := resilient.Tool(chargeTool, resilient.Idempotent(store))

	limiter, _ := resilientredis.NewLimiter(rdb, "openai", 500, time.Minute, logged) // all replicas together
	sem, _ := resilientredis.NewSemaphore(rdb, "openai", 8, logged)                  // 8 in flight, all replicas together
	defer sem.Close()
	model := resilient.Model(llm, resilient.RateLimit(limiter), resilient.ConcurrencyLimit(sem, 10*time.Second))

	shared, _ := resilientredis.ShareBreaker(ctx, rdb, model.Breaker(), "openai", logged)
	defer shared.Close()
	// readme:end
	t.Cleanup(func() { rdb.Close() }) // after the deferred shared.Close

	for range 2 {
		if _, err := charge.Call(ctx, order); err != nil {
			t.Fatal(err)
		}
	}
	if n := charges.Load(); n != 1 {
		t.Errorf("the charge ran %d times, want once", n)
	}
	if answer, err := model.Call(ctx, "Charge order 4471"); err != nil || answer != "Charged." {
		t.Errorf("got %q, %v; want the model's answer", answer, err)
	}
	if s := model.Breaker().State(); s != observe.BreakerClosed {
		t.Errorf("got breaker %v, want closed", s)
	}
	// The Logger reaches the store: a Redis that keeps nothing across a
	// restart (as CI's) is reported.
	aof, _ := rdb.ConfigGet(ctx, "appendonly").Result()
	save, _ := rdb.ConfigGet(ctx, "save").Result()
	if aof["appendonly"] == "no" && save["save"] == "" && !strings.Contains(lines.String(), "redis without persistence") {
		t.Errorf("the logger given with resilientredis.Logger wrote %q, want the store's warning about persistence", lines.String())
	}
}
