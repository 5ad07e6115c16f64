package resilientredis_test

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/resilientredis"
	"github.com/resilientgo/resilient/tools"
)

// The examples but ExampleObserve need a Redis at 127.0.0.1:6379, so they
// show the wiring and are not run by go test.

// A mutating tool that runs once per input across every replica.
func ExampleNewStore() {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	defer rdb.Close()

	store, err := resilientredis.NewStore(rdb, resilientredis.Logger(slog.Default()))
	if err != nil {
		log.Fatal(err)
	}
	charge, err := tools.New(
		tools.Func("charge", "Charges a card once for an order.", func(ctx context.Context, input string) (string, error) {
			key, _ := tools.KeyFrom(ctx) // pass it on as the payment provider's Idempotency-Key
			return "charged with key " + key, nil
		}),
		tools.Idempotent(store), tools.Lease(time.Minute))
	if err != nil {
		log.Fatal(err)
	}
	out, err := charge.Call(context.Background(), `{"order":"4471","amount":2499}`)
	fmt.Println(out, err)
}

// One limit of 500 requests a minute for every replica calling the same
// provider account: each attempt of the pipeline acquires one request.
func ExampleNewLimiter() {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	defer rdb.Close()

	limiter, err := resilientredis.NewLimiter(rdb, "openai:gpt-4o", 500, time.Minute,
		resilientredis.MaxWait(10*time.Second))
	if err != nil {
		log.Fatal(err)
	}
	pipeline, err := middleware.New[string]("openai", middleware.RateLimit(limiter))
	if err != nil {
		log.Fatal(err)
	}
	out, err := pipeline.Do(context.Background(), func(context.Context, middleware.State) (string, error) {
		return "called the provider", nil
	})
	fmt.Println(out, err)
}

// Requests and tokens per minute: a caller that knows the size of its call
// (the prompt's tokens and the most it lets the model write) acquires once
// for it, before the call.
func ExampleTokens() {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	defer rdb.Close()

	limiter, err := resilientredis.NewLimiter(rdb, "anthropic:claude", 50, time.Minute,
		resilientredis.Tokens(40_000))
	if err != nil {
		log.Fatal(err)
	}
	promptTokens, maxTokens := 1200, 800
	if err := limiter.Acquire(context.Background(), promptTokens+maxTokens); err != nil {
		log.Fatal(err) // limit.ErrLimited: not within the wait allowed
	}
	fmt.Println("call the model")
}

// A breaker that opens and closes with the other replicas' breakers of the
// same provider.
func ExampleShareBreaker() {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	defer rdb.Close()

	breaker := breaker.New(breaker.Settings{Name: "openai", Failures: 5, Delay: 30 * time.Second, Observers: []observe.Observer{observe.Log(slog.Default())}})
	shared, err := resilientredis.ShareBreaker(context.Background(), rdb, breaker, "openai")
	if err != nil {
		log.Fatal(err)
	}
	defer shared.Close()

	// Give the breaker to every pipeline that calls the provider.
	pipeline, err := middleware.New[string]("openai", middleware.UseBreaker(breaker))
	if err != nil {
		log.Fatal(err)
	}
	_, err = pipeline.Do(context.Background(), func(context.Context, middleware.State) (string, error) {
		return "called the provider", nil
	})
	fmt.Println(err, breaker.State())
}

// At most 8 requests in flight to a self-hosted deployment from every
// replica together: each attempt of the pipeline holds a slot until it
// returns, and waits up to 10 s for one.
func ExampleNewSemaphore() {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	defer rdb.Close()

	sem, err := resilientredis.NewSemaphore(rdb, "vllm:llama-3.1-70b", 8,
		resilientredis.Logger(slog.Default()))
	if err != nil {
		log.Fatal(err)
	}
	defer sem.Close()
	pipeline, err := middleware.New[string]("vllm", middleware.ConcurrencyLimit(sem, 10*time.Second))
	if err != nil {
		log.Fatal(err)
	}
	out, err := pipeline.Do(context.Background(), func(context.Context, middleware.State) (string, error) {
		return "called the deployment", nil
	})
	fmt.Println(out, err)
}

// printer is an observer that prints the shared-state events it receives.
type printer struct{}

func (printer) Start(ctx context.Context, _ observe.Start) context.Context { return ctx }

func (printer) Observe(_ context.Context, e observe.Event) {
	switch e := e.(type) {
	case observe.SharedStateUnavailable:
		fmt.Printf("%s %s: %s (%s)\n", e.Feature, e.Key, e.Action, e.Detail)
	case observe.SharedStateRestored:
		fmt.Printf("%s %s: back after %v\n", e.Feature, e.Key, e.Down)
	}
}

// Observers see a feature lose Redis once, however many of its round trips
// fail: here a limiter of a Redis that is not there admits three attempts
// (it fails open) and reports one transition. Give it the observers of the
// models and tools (resilientotel.New(), observe.Log(logger)).
func ExampleObserve() {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1}) // nothing listens on port 1
	defer rdb.Close()

	limiter, err := resilientredis.NewLimiter(rdb, "openai", 500, time.Minute, resilientredis.Observe(printer{}))
	if err != nil {
		log.Fatal(err)
	}
	for range 3 {
		fmt.Println(limiter.Acquire(context.Background(), 1))
	}
	// Output:
	// limiter resilient:limiter:{openai}: fail_open (admitting without the shared limit)
	// <nil>
	// <nil>
	// <nil>
}
