package middleware_test

import (
	"context"
	"testing"

	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	"github.com/failsafe-go/failsafe-go/timeout"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/internal/benchcpu"
	"github.com/resilientgo/resilient/middleware"
)

// The protected call does nothing: the benchmarks measure what the layers
// around it cost when nothing fails.
//
//go:noinline
func noop(context.Context) (string, error) { return "ok", nil }

// rawFailsafe is what a user would write with failsafe-go directly for the
// same three policies as the default pipeline: retry with backoff, a circuit
// breaker and a per-attempt timeout, composed once and shared.
func rawFailsafe() failsafe.Executor[string] {
	retry := retrypolicy.NewBuilder[string]().
		WithMaxAttempts(middleware.DefaultMaxAttempts).
		WithBackoff(middleware.DefaultBaseDelay/2, middleware.DefaultMaxDelay/2).
		WithJitterFactor(1).
		Build()
	breaker := circuitbreaker.NewBuilder[string]().
		WithFailureThreshold(breaker.DefaultFailures).
		WithDelay(breaker.DefaultDelay).
		Build()
	return failsafe.With[string](retry, breaker, timeout.New[string](middleware.DefaultTimeout))
}

// noopCalls are the three ways of making the no-op call compared here, each
// built once: the bare call, raw failsafe-go and the pipeline.
func noopCalls(b *testing.B) []struct {
	name string
	call func(context.Context)
} {
	ex := rawFailsafe()
	p := mustPipeline(b)
	fn := func(ctx context.Context, _ middleware.State) (string, error) { return noop(ctx) }
	return []struct {
		name string
		call func(context.Context)
	}{
		{"bare", func(ctx context.Context) { _, _ = noop(ctx) }},
		{"failsafe", func(ctx context.Context) {
			_, _ = ex.WithContext(ctx).GetWithExecution(func(e failsafe.Execution[string]) (string, error) {
				return noop(e.Context())
			})
		}},
		{"pipeline", func(ctx context.Context) { _, _ = p.Do(ctx, fn) }},
	}
}

func BenchmarkNoop(b *testing.B) {
	ctx := context.Background()
	for _, c := range noopCalls(b) {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			stop := benchcpu.Start(b)
			for b.Loop() {
				c.call(ctx)
			}
			stop()
		})
	}
}

func BenchmarkNoopParallel(b *testing.B) {
	ctx := context.Background()
	for _, c := range noopCalls(b) {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			stop := benchcpu.Start(b)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					c.call(ctx)
				}
			})
			stop()
		})
	}
}

// BenchmarkPool compares the no-op call through a pipeline over one target
// with the same call through pools of three and thirty members, where each
// attempt also chooses its member (health, load, round robin) and counts
// its load there: serially, and from every core at once.
func BenchmarkPool(b *testing.B) {
	ctx := context.Background()
	fn := func(ctx context.Context, _ middleware.State) (string, error) { return noop(ctx) }
	targets := []struct {
		name string
		p    *middleware.Pipeline[string]
	}{
		{"target=model", mustPipeline(b)},
		{"target=pool3", mustPool(b, members(3))},
		{"target=pool30", mustPool(b, members(30))},
	}
	for _, t := range targets {
		b.Run("calls=serial/"+t.name, func(b *testing.B) {
			b.ReportAllocs()
			stop := benchcpu.Start(b)
			for b.Loop() {
				_, _ = t.p.Do(ctx, fn)
			}
			stop()
		})
		b.Run("calls=parallel/"+t.name, func(b *testing.B) {
			b.ReportAllocs()
			stop := benchcpu.Start(b)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					_, _ = t.p.Do(ctx, fn)
				}
			})
			stop()
		})
	}
}
