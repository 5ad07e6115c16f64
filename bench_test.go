package resilient_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	"github.com/failsafe-go/failsafe-go/timeout"
	lcllms "github.com/tmc/langchaingo/llms"
	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/internal/benchcpu"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/tools"
)

// The overhead benchmarks measure what the wrappers cost when nothing fails:
// a call to a model or a tool that answers at once, made three ways.
//
//	impl=bare       the inner call, unwrapped
//	impl=failsafe   raw failsafe-go with the same policies as the wrapper's
//	                defaults (retry with backoff, circuit breaker, per-attempt
//	                timeout), composed once, WithContext(ctx).GetWithExecution
//	                per call, the way failsafe-go's own documentation
//	                composes policies
//	impl=resilient  resilient.Model / resilient.Tool, default options
//
// Each runs serially (run=serial) and under b.RunParallel (run=parallel).
// Each reports its process CPU time per call too (cpu-ns/op, see
// internal/benchcpu). Compare as paired rounds (see docs/performance.md).

// noopModel answers every call with the same response, allocating nothing.
type noopModel struct{ resp *lcllms.ContentResponse }

func newNoopModel() *noopModel {
	return &noopModel{resp: &lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{{Content: "ok", StopReason: "stop"}}}}
}

func (m *noopModel) GenerateContent(context.Context, []lcllms.MessageContent, ...lcllms.CallOption) (*lcllms.ContentResponse, error) {
	return m.resp, nil
}

func (m *noopModel) Call(ctx context.Context, prompt string, options ...lcllms.CallOption) (string, error) {
	return lcllms.GenerateFromSinglePrompt(ctx, m, prompt, options...)
}

// noopTool answers every call with the same text.
type noopTool struct{}

func (noopTool) Name() string                                 { return "noop" }
func (noopTool) Description() string                          { return "does nothing" }
func (noopTool) Call(context.Context, string) (string, error) { return "ok", nil }

// rawFailsafe is what a user would write with failsafe-go directly for the
// policies the wrappers apply by default: 3 attempts with jittered backoff,
// a circuit breaker and a per-attempt timeout.
func rawFailsafe[R any](attemptTimeout time.Duration) failsafe.Executor[R] {
	retry := retrypolicy.NewBuilder[R]().
		WithMaxAttempts(middleware.DefaultMaxAttempts).
		WithBackoff(middleware.DefaultBaseDelay, middleware.DefaultMaxDelay).
		WithJitterFactor(1).
		Build()
	breaker := circuitbreaker.NewBuilder[R]().
		WithFailureThreshold(breaker.DefaultFailures).
		WithDelay(breaker.DefaultDelay).
		Build()
	return failsafe.With[R](retry, breaker, timeout.New[R](attemptTimeout))
}

// impls is one benchmark's three ways of making the same call.
type impls map[string]func(ctx context.Context) error

// runImpls runs each way serially and in parallel, named for benchstat:
// <name>/run=serial/impl=bare and so on.
func runImpls(b *testing.B, calls impls) {
	ctx := context.Background()
	for _, run := range []string{"serial", "parallel"} {
		for _, impl := range []string{"bare", "failsafe", "resilient"} {
			call := calls[impl]
			b.Run("run="+run+"/impl="+impl, func(b *testing.B) {
				if err := call(ctx); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				stop := benchcpu.Start(b)
				defer stop()
				if run == "serial" {
					for b.Loop() {
						_ = call(ctx)
					}
					return
				}
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						_ = call(ctx)
					}
				})
			})
		}
	}
}

var prompt = []lcllms.MessageContent{lcllms.TextParts(lcllms.ChatMessageTypeHuman, "hi")}

func BenchmarkModel(b *testing.B) {
	inner := newNoopModel()
	ex := rawFailsafe[*lcllms.ContentResponse](middleware.DefaultTimeout)
	wrapped := resilient.Model(inner)
	runImpls(b, impls{
		"bare": func(ctx context.Context) error {
			_, err := inner.GenerateContent(ctx, prompt)
			return err
		},
		"failsafe": func(ctx context.Context) error {
			_, err := ex.WithContext(ctx).GetWithExecution(func(e failsafe.Execution[*lcllms.ContentResponse]) (*lcllms.ContentResponse, error) {
				return inner.GenerateContent(e.Context(), prompt)
			})
			return err
		},
		"resilient": func(ctx context.Context) error {
			_, err := wrapped.GenerateContent(ctx, prompt)
			return err
		},
	})
}

func BenchmarkTool(b *testing.B) {
	var inner lctools.Tool = noopTool{}
	ex := rawFailsafe[string](tools.DefaultTimeout)
	wrapped := resilient.Tool(inner)
	if err := wrapped.Err(); err != nil {
		b.Fatal(err)
	}
	runImpls(b, impls{
		"bare": func(ctx context.Context) error {
			_, err := inner.Call(ctx, `{"order":4471}`)
			return err
		},
		"failsafe": func(ctx context.Context) error {
			_, err := ex.WithContext(ctx).GetWithExecution(func(e failsafe.Execution[string]) (string, error) {
				return inner.Call(e.Context(), `{"order":4471}`)
			})
			return err
		},
		"resilient": func(ctx context.Context) error {
			_, err := wrapped.Call(ctx, `{"order":4471}`)
			return err
		},
	})
}

// noopEmbedder answers every batch with the same vectors, allocating
// nothing.
type noopEmbedder struct{ vectors [][]float32 }

func (e noopEmbedder) CreateEmbedding(_ context.Context, texts []string) ([][]float32, error) {
	return e.vectors[:len(texts)], nil
}

func BenchmarkEmbedder(b *testing.B) {
	const batch = 64
	texts := make([]string, batch)
	vectors := make([][]float32, batch)
	for i := range texts {
		texts[i] = "document " + strconv.Itoa(i)
		vectors[i] = make([]float32, 8)
		vectors[i][0] = 1
	}
	inner := noopEmbedder{vectors: vectors}
	ex := rawFailsafe[[][]float32](middleware.DefaultTimeout)
	wrapped := resilient.Embedder(inner)
	runImpls(b, impls{
		"bare": func(ctx context.Context) error {
			_, err := inner.CreateEmbedding(ctx, texts)
			return err
		},
		"failsafe": func(ctx context.Context) error {
			_, err := ex.WithContext(ctx).GetWithExecution(func(e failsafe.Execution[[][]float32]) ([][]float32, error) {
				return inner.CreateEmbedding(e.Context(), texts)
			})
			return err
		},
		"resilient": func(ctx context.Context) error {
			_, err := wrapped.CreateEmbedding(ctx, texts)
			return err
		},
	})
}
