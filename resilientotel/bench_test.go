package resilientotel_test

import (
	"context"
	"testing"

	lcllms "github.com/tmc/langchaingo/llms"
	lctools "github.com/tmc/langchaingo/tools"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/internal/benchcpu"
	"github.com/resilientgo/resilient/resilientotel"
	"github.com/resilientgo/resilient/tools"
)

// BenchmarkObserver measures what the observer adds to a wrapped call that
// succeeds at once (no HTTP: the inner model and tool answer a fixed
// value), with the SDK set up as in production: every span sampled, a
// batching span processor in front of an exporter that drops the spans,
// a meter provider aggregating every measurement. Variants:
//
//	obs=none   resilient.Model / resilient.Tool with default options
//	obs=otel   the same with resilient.Observe(resilientotel.New(...))
//	obs=spans  obs=none inside two nested spans made by hand with the same
//	           SDK: what the two spans of obs=otel cost by themselves
//
// Compare them as paired rounds (docs/performance.md):
//
//	go run ./internal/cmd/benchrounds -pkg ./resilientotel -bench Observer -base obs=none -rounds 10
func BenchmarkObserver(b *testing.B) {
	tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()),
		sdktrace.WithBatcher(dropExporter{}))
	b.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	obs := resilientotel.New(resilientotel.TracerProvider(tp), resilientotel.MeterProvider(mp))

	prompt := []lcllms.MessageContent{lcllms.TextParts(lcllms.ChatMessageTypeHuman, "hi")}
	inner := &fixedModel{resp: &lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{{Content: "ok", StopReason: "stop"}}}}
	var tool lctools.Tool = tools.Func("noop", "does nothing", func(context.Context, string) (string, error) { return "ok", nil })
	tracer := tp.Tracer("bench")
	for _, call := range []string{"model", "tool"} {
		for _, variant := range []string{"none", "otel", "spans"} {
			var fn func(ctx context.Context) error
			switch call {
			case "model":
				var opts []resilient.ModelOption
				if variant == "otel" {
					opts = append(opts, resilient.Observe(obs))
				}
				m := resilient.Model(inner, opts...)
				fn = func(ctx context.Context) error {
					_, err := m.GenerateContent(ctx, prompt)
					return err
				}
			case "tool":
				var opts []resilient.ToolOption
				if variant == "otel" {
					opts = append(opts, resilient.Observe(obs))
				}
				t := resilient.Tool(tool, opts...)
				fn = func(ctx context.Context) error {
					_, err := t.Call(ctx, `{"order":4471}`)
					return err
				}
			}
			if variant == "spans" {
				bare := fn
				fn = func(ctx context.Context) error {
					ctx, call := tracer.Start(ctx, "call", trace.WithSpanKind(trace.SpanKindClient),
						trace.WithAttributes(attribute.String("gen_ai.operation.name", "chat")))
					ctx, attempt := tracer.Start(ctx, "resilient.attempt")
					attempt.SetAttributes(attribute.Int("resilient.attempt", 1))
					err := bare(ctx)
					attempt.End()
					call.End()
					return err
				}
			}
			b.Run("call="+call+"/obs="+variant, func(b *testing.B) {
				ctx := context.Background()
				if err := fn(ctx); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				stop := benchcpu.Start(b)
				for b.Loop() {
					_ = fn(ctx)
				}
				stop()
			})
		}
	}
}

// fixedModel answers every call with the same response.
type fixedModel struct{ resp *lcllms.ContentResponse }

func (m *fixedModel) GenerateContent(context.Context, []lcllms.MessageContent, ...lcllms.CallOption) (*lcllms.ContentResponse, error) {
	return m.resp, nil
}

func (m *fixedModel) Call(ctx context.Context, prompt string, options ...lcllms.CallOption) (string, error) {
	return lcllms.GenerateFromSinglePrompt(ctx, m, prompt, options...)
}

// dropExporter exports spans nowhere.
type dropExporter struct{}

func (dropExporter) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (dropExporter) Shutdown(context.Context) error                             { return nil }
