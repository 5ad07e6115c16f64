package resilient_test

import (
	"context"
	"slices"
	"testing"

	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/resilientotel"
	"github.com/resilientgo/resilient/tools"
)

// The README's telemetry example: with the global tracer provider set up,
// a model call and a tool call are spans.
func TestREADMETelemetry(t *testing.T) {
	spans := tracetest.NewInMemoryExporter()
	provider := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	defer provider.Shutdown(context.Background())
	global := otel.GetTracerProvider()
	otel.SetTracerProvider(provider)
	defer otel.SetTracerProvider(global)

	srv := faultserver.New(faultserver.Overloaded(), faultserver.Reply("Hello"))
	defer srv.Close()
	llm, err := srv.OpenAI()
	if err != nil {
		t.Fatal(err)
	}
	orderLookup := tools.Func("lookup_order", "Looks up an order.", func(context.Context, string) (string, error) {
		return "shipped", nil
	})

	// readme:begin telemetry
	obs := resilientotel.New()
	model := resilient.Model(llm, resilient.Observe(obs))
	lookup := resilient.Tool(orderLookup, resilient.Observe(obs))
	// readme:end

	if _, err := model.Call(t.Context(), "Hello?"); err != nil {
		t.Fatal(err)
	}
	if _, err := lookup.Call(t.Context(), "4471"); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range spans.GetSpans() {
		names = append(names, s.Name)
	}
	slices.Sort(names)
	// Two attempts of the model (a 529, then the answer), one of the tool.
	want := []string{"chat gpt-4o-mini", "execute_tool lookup_order", "resilient.attempt", "resilient.attempt", "resilient.attempt"}
	if !slices.Equal(names, want) {
		t.Errorf("got spans %q, want %q", names, want)
	}
}
