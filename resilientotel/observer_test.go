package resilientotel_test

import (
	"context"
	"errors"
	"log"
	"strings"
	"sync"
	"testing"

	"go.opentelemetry.io/otel"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/resilientotel"
	"github.com/resilientgo/resilient/taxonomy"
)

// With no options the observer records to the global providers. A
// pipeline used directly is a call span named after its target.
func TestGlobalProviders(t *testing.T) {
	spans := tracetest.NewInMemoryExporter()
	reader := sdkmetric.NewManualReader()
	prevTP, prevMP := otel.GetTracerProvider(), otel.GetMeterProvider()
	otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans)))
	otel.SetMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)))
	t.Cleanup(func() {
		otel.SetTracerProvider(prevTP)
		otel.SetMeterProvider(prevMP)
	})

	p, err := middleware.New[string]("fetch_page", middleware.Observe(resilientotel.New()), middleware.SingleAttempt())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Do(t.Context(), func(context.Context, middleware.State) (string, error) { return "ok", nil }); err != nil {
		t.Fatal(err)
	}
	h := &harness{spans: spans, reader: reader}
	calls := h.named("fetch_page")
	if len(calls) != 1 || calls[0].SpanKind != trace.SpanKindInternal {
		t.Fatalf("got %v, want one internal span fetch_page", spans.GetSpans().Snapshots())
	}
	if v, _ := attr(calls[0].Attributes, "resilient.target"); v.String() != "fetch_page" {
		t.Errorf("resilient.target: got %q", v.String())
	}
	if got := h.children(calls[0]); len(got) != 1 || got[0].Name != "resilient.attempt" {
		t.Errorf("children: got %v, want one attempt", got.Snapshots())
	}
	if got := byAttrs(h.metrics(t), "resilient.attempts"); got["resilient.outcome=ok,resilient.target=fetch_page"] != 1 {
		t.Errorf("resilient.attempts: got %v", got)
	}
}

// Token usage reported in CallEnd goes to gen_ai.client.token.usage and
// the span; a failed call's duration and span carry its kind.
func TestModelCallEnd(t *testing.T) {
	h := newHarness(t)
	target := observe.Target{Name: "openai/gpt-4o", Operation: observe.OperationChat, Provider: "openai", Model: "gpt-4o"}
	ctx := h.obs.Start(t.Context(), observe.Start{Target: target})
	h.obs.Observe(ctx, observe.CallEnd{Target: target, Attempts: 1,
		InputTokens: 12, OutputTokens: 5})
	ctx = h.obs.Start(t.Context(), observe.Start{Target: target})
	h.obs.Observe(ctx, observe.CallEnd{Target: target, Attempts: 3,
		Reason: observe.ReasonExhausted, Class: taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "status 529"}})

	const base = "gen_ai.operation.name=chat,gen_ai.provider.name=openai,gen_ai.request.model=gpt-4o"
	ms := h.metrics(t)
	tokens := byAttrs(ms, "gen_ai.client.token.usage")
	if len(tokens) != 2 || tokens[base+",gen_ai.token.type=input"] != 12 || tokens[base+",gen_ai.token.type=output"] != 5 {
		t.Errorf("token usage: got %v, want input 12, output 5", tokens)
	}
	durations := counts(ms, "gen_ai.client.operation.duration")
	if len(durations) != 2 || durations[base] != 1 || durations["error.type=overloaded,"+base] != 1 {
		t.Errorf("durations: got %v, want one success and one overloaded", durations)
	}
	spans := h.named("chat gpt-4o")
	if len(spans) != 2 {
		t.Fatalf("got %d spans", len(spans))
	}
	if v, _ := attr(spans[0].Attributes, "gen_ai.usage.input_tokens"); v.AsInt64() != 12 {
		t.Errorf("input tokens on the span: got %v", v.String())
	}
	if v, _ := attr(spans[0].Attributes, "gen_ai.usage.output_tokens"); v.AsInt64() != 5 {
		t.Errorf("output tokens on the span: got %v", v.String())
	}
	for _, key := range []string{"resilient.attempts", "resilient.outcome", "error.type"} {
		if v, ok := attr(spans[0].Attributes, key); ok {
			t.Errorf("a model call that succeeded at once has %s = %v", key, v.String())
		}
	}
	if v, _ := attr(spans[1].Attributes, "resilient.attempts"); v.AsInt64() != 3 {
		t.Errorf("failed call: resilient.attempts %v, want 3", v.String())
	}
	failed := spans[1]
	if v, _ := attr(failed.Attributes, "error.type"); v.String() != "overloaded" || failed.Status.Description != "overloaded" {
		t.Errorf("failed call: error.type %q, status %v", v.String(), failed.Status)
	}
	if v, _ := attr(failed.Attributes, "resilient.reason"); v.String() != observe.ReasonExhausted.String() {
		t.Errorf("failed call: resilient.reason %q", v.String())
	}
}

// The gauge reports at most MaxBreakers breakers: a newcomer takes the
// place of a closed one, and is left out while every place is open.
func TestMaxBreakers(t *testing.T) {
	h := newHarness(t, resilientotel.MaxBreakers(2))
	change := func(name string, from, to observe.BreakerState) {
		h.obs.Observe(t.Context(), observe.BreakerChange{Target: name, From: from, To: to})
	}
	change("a", observe.BreakerClosed, observe.BreakerOpen)
	change("b", observe.BreakerClosed, observe.BreakerOpen)
	change("c", observe.BreakerClosed, observe.BreakerOpen) // full of open breakers: left out
	change("d", observe.BreakerOpen, observe.BreakerClosed) // closed: left out
	check := func(want map[string]float64) {
		t.Helper()
		got := byAttrs(h.metrics(t), "resilient.breaker.state")
		if len(got) != len(want) {
			t.Fatalf("gauge: got %v, want %v", got, want)
		}
		for k, v := range want {
			if got["resilient.target="+k] != v {
				t.Errorf("gauge %s: got %v, want %v (all: %v)", k, got["resilient.target="+k], v, got)
			}
		}
	}
	check(map[string]float64{"a": 2, "b": 2})
	change("b", observe.BreakerOpen, observe.BreakerHalfOpen)
	change("b", observe.BreakerHalfOpen, observe.BreakerClosed)
	check(map[string]float64{"a": 2, "b": 0})
	change("c", observe.BreakerOpen, observe.BreakerHalfOpen) // takes closed b's place
	check(map[string]float64{"a": 2, "c": 1})
	if got := byAttrs(h.metrics(t), "resilient.breaker.transitions"); got["resilient.breaker.state=open,resilient.target=c"] != 1 ||
		got["resilient.breaker.state=closed,resilient.target=d"] != 1 {
		t.Errorf("transitions of breakers left out of the gauge are counted: got %v", got)
	}
}

// A call the sampler drops records no span, but its measurements.
func TestUnsampledCall(t *testing.T) {
	spans := tracetest.NewInMemoryExporter()
	reader := sdkmetric.NewManualReader()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans), sdktrace.WithSampler(sdktrace.NeverSample()))
	obs := resilientotel.New(resilientotel.TracerProvider(tp),
		resilientotel.MeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))))
	p, err := middleware.New[string]("fetch_page", middleware.Observe(obs), middleware.MaxAttempts(2),
		middleware.Backoff(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	_, err = p.Do(t.Context(), func(ctx context.Context, _ middleware.State) (string, error) {
		if !trace.SpanContextFromContext(ctx).IsValid() {
			t.Error("the attempt's context carries no span context to propagate")
		}
		if calls++; calls == 1 {
			return "", errors.New("connection reset by peer")
		}
		return "ok", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := spans.GetSpans(); len(got) != 0 {
		t.Errorf("got %d spans, want none", len(got))
	}
	h := &harness{spans: spans, reader: reader}
	if got := byAttrs(h.metrics(t), "resilient.attempts"); len(got) != 2 {
		t.Errorf("resilient.attempts: got %v, want a success and a failure", got)
	}
}

// Two observers on one call each record their own spans, parented alike.
func TestTwoObservers(t *testing.T) {
	h1, h2 := newHarness(t), newHarness(t)
	p, err := middleware.New[string]("fetch_page", middleware.Observe(h1.obs, h2.obs))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Do(t.Context(), func(context.Context, middleware.State) (string, error) { return "ok", nil }); err != nil {
		t.Fatal(err)
	}
	for i, h := range []*harness{h1, h2} {
		calls := h.named("fetch_page")
		if len(calls) != 1 {
			t.Fatalf("observer %d: got %d call spans", i+1, len(calls))
		}
		if got := h.children(calls[0]); len(got) != 1 || got[0].Name != "resilient.attempt" {
			t.Errorf("observer %d: children %v, want its attempt", i+1, got.Snapshots())
		}
	}
}

// MaxBreakers follows the rule of every option: 0 allows none, a later
// value overrides an earlier one, and a negative one is refused, handed to
// otel.Handle, the default kept.
func TestMaxBreakersRule(t *testing.T) {
	change := func(h *harness, name string) {
		h.obs.Observe(t.Context(), observe.BreakerChange{Target: name, From: observe.BreakerClosed, To: observe.BreakerOpen})
	}
	h := newHarness(t, resilientotel.MaxBreakers(5), resilientotel.MaxBreakers(0))
	change(h, "a")
	if got := byAttrs(h.metrics(t), "resilient.breaker.state"); len(got) != 0 {
		t.Errorf("MaxBreakers(0): the gauge reports %v, want none", got)
	}
	var (
		mu      sync.Mutex
		handled []error
	)
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) {
		mu.Lock()
		defer mu.Unlock()
		handled = append(handled, err)
	}))
	defer otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) { log.Print(err) })) // as otel's default
	h = newHarness(t, resilientotel.MaxBreakers(-1))
	mu.Lock()
	defer mu.Unlock()
	if len(handled) != 1 || !strings.Contains(handled[0].Error(), "MaxBreakers(-1): must not be negative") {
		t.Errorf("MaxBreakers(-1): otel.Handle got %v, want the refusal", handled)
	}
	change(h, "a")
	if got := byAttrs(h.metrics(t), "resilient.breaker.state"); len(got) != 1 {
		t.Errorf("MaxBreakers(-1): the gauge reports %v, want the default's room", got)
	}
}
