package resilientotel_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/tmc/langchaingo/llms/openai"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/resilientotel"
)

// harness is an Observer recording to the SDK's in-memory span exporter
// (every span sampled, exported as it ends) and a manual metric reader.
type harness struct {
	obs    *resilientotel.Observer
	tp     *sdktrace.TracerProvider
	spans  *tracetest.InMemoryExporter
	reader *sdkmetric.ManualReader
}

func newHarness(t *testing.T, opts ...resilientotel.Option) *harness {
	t.Helper()
	h := &harness{spans: tracetest.NewInMemoryExporter(), reader: sdkmetric.NewManualReader()}
	h.tp = sdktrace.NewTracerProvider(sdktrace.WithSyncer(h.spans), sdktrace.WithSampler(sdktrace.AlwaysSample()))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(h.reader))
	h.obs = resilientotel.New(append([]resilientotel.Option{resilientotel.TracerProvider(h.tp),
		resilientotel.MeterProvider(mp)}, opts...)...)
	return h
}

// openAI returns the real langchaingo OpenAI client pointed at s, through
// the library's evidence transport under an otelhttp transport recording to
// the harness's tracer provider.
func (h *harness) openAI(t *testing.T, s *faultserver.Server) *openai.LLM {
	t.Helper()
	tr := otelhttp.NewTransport(llms.NewTransport(s.Client().Transport),
		otelhttp.WithTracerProvider(h.tp), otelhttp.WithMeterProvider(metricnoop.NewMeterProvider()))
	llm, err := s.OpenAI(openai.WithHTTPClient(&http.Client{Transport: tr}))
	if err != nil {
		t.Fatal(err)
	}
	return llm
}

// named returns the ended spans called name, in the order they ended.
func (h *harness) named(name string) tracetest.SpanStubs {
	var out tracetest.SpanStubs
	for _, s := range h.spans.GetSpans() {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

// children returns the ended spans whose parent is p, in the order they
// started.
func (h *harness) children(p tracetest.SpanStub) tracetest.SpanStubs {
	var out tracetest.SpanStubs
	for _, s := range h.spans.GetSpans() {
		if s.Parent.SpanID() == p.SpanContext.SpanID() && s.SpanContext.TraceID() == p.SpanContext.TraceID() {
			out = append(out, s)
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].StartTime.Before(out[j-1].StartTime); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// metrics collects every metric, by name.
func (h *harness) metrics(t *testing.T) map[string]metricdata.Metrics {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := h.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	out := map[string]metricdata.Metrics{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			out[m.Name] = m
		}
	}
	return out
}

// point is one data point of any instrument: its attributes and value (a
// histogram's count and sum).
type point struct {
	attrs attribute.Set
	value float64
	count uint64
}

func points(m metricdata.Metrics) []point {
	var out []point
	switch d := m.Data.(type) {
	case metricdata.Sum[int64]:
		for _, p := range d.DataPoints {
			out = append(out, point{attrs: p.Attributes, value: float64(p.Value)})
		}
	case metricdata.Gauge[int64]:
		for _, p := range d.DataPoints {
			out = append(out, point{attrs: p.Attributes, value: float64(p.Value)})
		}
	case metricdata.Histogram[float64]:
		for _, p := range d.DataPoints {
			out = append(out, point{attrs: p.Attributes, value: p.Sum, count: p.Count})
		}
	case metricdata.Histogram[int64]:
		for _, p := range d.DataPoints {
			out = append(out, point{attrs: p.Attributes, value: float64(p.Sum), count: p.Count})
		}
	}
	return out
}

// render writes a data point's attributes as "k=v,k=v" in key order, for
// comparing whole attribute sets.
func render(s attribute.Set) string {
	var b strings.Builder
	for i, kv := range s.ToSlice() {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(string(kv.Key) + "=" + kv.Value.String())
	}
	return b.String()
}

// byAttrs maps each data point of the metric called name to its value
// (histograms: their sum), keyed by its rendered attributes.
func byAttrs(ms map[string]metricdata.Metrics, name string) map[string]float64 {
	out := map[string]float64{}
	for _, p := range points(ms[name]) {
		out[render(p.attrs)] = p.value
	}
	return out
}

// counts maps each data point of the histogram called name to its count.
func counts(ms map[string]metricdata.Metrics, name string) map[string]uint64 {
	out := map[string]uint64{}
	for _, p := range points(ms[name]) {
		out[render(p.attrs)] = p.count
	}
	return out
}

// attr returns the value of key among attrs, and whether it is there.
func attr(attrs []attribute.KeyValue, key string) (attribute.Value, bool) {
	for _, kv := range attrs {
		if string(kv.Key) == key {
			return kv.Value, true
		}
	}
	return attribute.Value{}, false
}

// retryAfterCall makes one call of a model observed by a new harness,
// through the real OpenAI client, against a server that answers a 429
// with Retry-After: 7 and then "Hello". Call it inside a synctest bubble.
func retryAfterCall(t *testing.T) *harness {
	t.Helper()
	h := newHarness(t)
	s := faultserver.NewInMemory(faultserver.RateLimited("7"), faultserver.Reply("Hello"))
	defer s.Close()
	model := resilient.Model(h.openAI(t, s), resilient.Observe(h.obs))
	if _, err := model.GenerateContent(t.Context(), hello()); err != nil {
		t.Fatal(err)
	}
	return h
}
