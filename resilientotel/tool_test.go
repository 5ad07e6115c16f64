package resilientotel_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"go.opentelemetry.io/otel/codes"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

var toolOutcomes = []observe.Reason{
	observe.Reason(0), observe.ReasonToolError, observe.ReasonFatal, observe.ReasonInternal,
	observe.ReasonTimeout, observe.ReasonCircuitOpen, observe.ReasonStuck, observe.ReasonReplayed,
	observe.ReasonUsageLimit,
}

// Each tool call is one span and one count of its outcome. The tool layer
// reports a tool call as a CallEnd of operation execute_tool; the events
// are driven here as it sends them, one call per outcome.
func TestToolOutcomes(t *testing.T) {
	h := newHarness(t)
	target := observe.Target{Name: "lookup_order", Operation: observe.OperationExecuteTool}
	for _, outcome := range toolOutcomes {
		ctx := h.obs.Start(t.Context(), observe.Start{Target: target})
		if outcome == observe.ReasonReplayed {
			h.obs.Observe(ctx, observe.IdempotentReplay{Tool: target.Name, Key: "9f86d081"})
		}
		h.obs.Observe(ctx, observe.CallEnd{Target: target, Reason: outcome, Attempts: 1, Type: "*net.OpError"})
	}

	got := byAttrs(h.metrics(t), "resilient.tool.calls")
	if len(got) != len(toolOutcomes) {
		t.Errorf("resilient.tool.calls: got %v, want one point per outcome", got)
	}
	for _, outcome := range toolOutcomes {
		if n := got["gen_ai.tool.name=lookup_order,resilient.outcome="+outcome.String()]; n != 1 {
			t.Errorf("resilient.tool.calls{%v}: got %v, want 1", outcome, n)
		}
	}

	spans := h.named("execute_tool lookup_order")
	if len(spans) != len(toolOutcomes) {
		t.Fatalf("got %d tool spans, want %d", len(spans), len(toolOutcomes))
	}
	for i, s := range spans {
		outcome := toolOutcomes[i]
		if v, _ := attr(s.Attributes, "resilient.outcome"); v.String() != outcome.String() {
			t.Errorf("span %d: outcome %q, want %q", i, v.String(), outcome)
		}
		if v, _ := attr(s.Attributes, "gen_ai.tool.name"); v.String() != "lookup_order" {
			t.Errorf("span %d: gen_ai.tool.name %q", i, v.String())
		}
		if v, _ := attr(s.Attributes, "gen_ai.operation.name"); v.String() != "execute_tool" {
			t.Errorf("span %d: gen_ai.operation.name %q", i, v.String())
		}
		errorType, failed := attr(s.Attributes, "error.type")
		wantFailed := outcome != observe.Reason(0) && outcome != observe.ReasonReplayed
		if failed != wantFailed || (failed && errorType.String() != outcome.String()) ||
			(s.Status.Code == codes.Error) != wantFailed {
			t.Errorf("span %d (%v): error.type %q, status %v; want failed=%v", i, outcome, errorType.String(), s.Status, wantFailed)
		}
	}
	if ev := spans[7].Events; len(ev) != 1 || ev[0].Name != "resilient.idempotent_replay" {
		t.Errorf("replayed call's events: got %v, want the replay", ev)
	}
	if ms := h.metrics(t); len(points(ms["gen_ai.client.operation.duration"])) != 0 {
		t.Error("a tool call was recorded as a GenAI client operation")
	}
}

// secret is in the text of every error the tools below return: it must
// reach no span, event, status or metric.
const secret = "sk-live-s3cr3t-T0k3n"

// No attribute, event or status carries the text of a tool's error, for
// every way a tool can fail, through resilient.Tool.
func TestToolErrorTextsNeverRecorded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t)
		flaky := 0
		toolset := []struct {
			name string
			fn   func(ctx context.Context, input string) (string, error)
			opts []resilient.ToolOption
		}{
			{"tool_error", func(context.Context, string) (string, error) {
				return "", taxonomy.NewToolError("order not found for key " + secret)
			}, nil},
			{"internal", func(context.Context, string) (string, error) {
				return "", errors.New("dial db://admin:" + secret + "@10.0.0.1: connection refused")
			}, nil},
			{"fatal", func(context.Context, string) (string, error) {
				return "", taxonomy.NewFatalToolError(errors.New("account locked: " + secret))
			}, nil},
			{"panic", func(context.Context, string) (string, error) {
				panic("bad state " + secret)
			}, nil},
			{"timeout", func(ctx context.Context, _ string) (string, error) {
				<-ctx.Done()
				return "", errors.New("gave up waiting for " + secret)
			}, []resilient.ToolOption{resilient.Timeout(time.Second)}},
			{"flaky", func(context.Context, string) (string, error) {
				if flaky++; flaky == 1 {
					return "", errors.New("read tcp: connection reset by peer (" + secret + ")")
				}
				return "ok", nil
			}, []resilient.ToolOption{resilient.SafeToRetry()}},
		}
		for _, tool := range toolset {
			wrapped := resilient.Tool(tools.Func(tool.name, "test tool", tool.fn),
				append([]resilient.ToolOption{resilient.Observe(h.obs)}, tool.opts...)...)
			_, _ = wrapped.Call(t.Context(), `{"key":"`+secret+`"}`)
		}
		synctest.Wait()

		spans := h.spans.GetSpans()
		for _, tool := range toolset {
			var seen bool
			for _, s := range spans {
				seen = seen || strings.HasSuffix(s.Name, tool.name)
			}
			if !seen {
				t.Errorf("no span for tool %s", tool.name)
			}
		}
		for _, s := range spans {
			texts := []string{s.Name, s.Status.Description}
			for _, kv := range s.Attributes {
				texts = append(texts, kv.Value.String())
			}
			for _, e := range s.Events {
				texts = append(texts, e.Name)
				for _, kv := range e.Attributes {
					texts = append(texts, kv.Value.String())
				}
			}
			for _, text := range texts {
				if strings.Contains(text, secret) {
					t.Errorf("span %q carries the secret: %q", s.Name, text)
				}
			}
		}
		ms := h.metrics(t)
		if len(ms) == 0 {
			t.Fatal("no metrics")
		}
		for name, m := range ms {
			for _, p := range points(m) {
				if strings.Contains(render(p.attrs), secret) {
					t.Errorf("metric %s carries the secret: %s", name, render(p.attrs))
				}
			}
		}
	})
}
