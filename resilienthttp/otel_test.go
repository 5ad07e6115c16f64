package resilienthttp_test

import (
	"net/http"
	"testing"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/resilienthttp"
	"github.com/resilientgo/resilient/resilientotel"
)

// OpenTelemetry through the event seam: one call span named by the GenAI
// conventions, with the usage the stream reported, one span per attempt
// under it, and the HTTP client span of an otelhttp transport under the
// library nested in the attempt that sent the request.
func TestOpenTelemetry(t *testing.T) {
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans), sdktrace.WithSampler(sdktrace.AlwaysSample()))
	obs := resilientotel.New(resilientotel.TracerProvider(tp), resilientotel.MeterProvider(metricnoop.NewMeterProvider()))

	srv := faultserver.New(faultserver.Overloaded(), faultserver.Reply("Order 4471 shipped."))
	defer srv.Close()
	transport := &http.Transport{}
	defer transport.CloseIdleConnections()
	under := otelhttp.NewTransport(transport, otelhttp.WithTracerProvider(tp), otelhttp.WithMeterProvider(metricnoop.NewMeterProvider()))
	client := &http.Client{Transport: resilienthttp.Transport(under, resilienthttp.Observe(obs))}
	if _, body, err := post(t.Context(), client, srv, chat("gpt-4o-mini", true)); err != nil || answer(body) != "Order 4471 shipped." {
		t.Fatalf("got %q, %v", body, err)
	}

	byName := map[string][]tracetest.SpanStub{}
	for _, s := range spans.GetSpans() {
		byName[s.Name] = append(byName[s.Name], s)
	}
	calls, attempts := byName["chat gpt-4o-mini"], byName["resilient.attempt"]
	if len(calls) != 1 || len(attempts) != 2 {
		t.Fatalf("got spans %v, want one call and two attempts", names(spans.GetSpans()))
	}
	call, want := calls[0], srv.Requests()[1]
	attrs := map[attribute.Key]attribute.Value{}
	for _, kv := range call.Attributes {
		attrs[kv.Key] = kv.Value
	}
	if attrs["gen_ai.provider.name"].AsString() != "openai" || attrs["gen_ai.usage.input_tokens"].AsInt64() != int64(want.InputTokens) ||
		attrs["gen_ai.usage.output_tokens"].AsInt64() != int64(want.OutputTokens) {
		t.Errorf("call span attributes %v, want provider openai and %d+%d tokens", call.Attributes, want.InputTokens, want.OutputTokens)
	}
	for _, a := range attempts {
		if a.Parent.SpanID() != call.SpanContext.SpanID() {
			t.Errorf("an attempt span is not the call's child")
		}
		nested := 0
		for _, s := range spans.GetSpans() {
			if s.Parent.SpanID() == a.SpanContext.SpanID() && s.SpanKind.String() == "client" {
				nested++
			}
		}
		if nested != 1 {
			t.Errorf("attempt span has %d HTTP client spans under it, want 1: %v", nested, names(spans.GetSpans()))
		}
	}
}

func names(spans tracetest.SpanStubs) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.Name)
	}
	return out
}
