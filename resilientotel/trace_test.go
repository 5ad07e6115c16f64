package resilientotel_test

import (
	"testing"
	"testing/synctest"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

func hello() []lcllms.MessageContent {
	return []lcllms.MessageContent{lcllms.TextParts(lcllms.ChatMessageTypeHuman, "Say hello")}
}

// A 429 with Retry-After: 7, then a success, through the real OpenAI
// client: one call span with two attempt spans, the first carrying the
// retry it scheduled, each with the HTTP span of its request under it.
func TestRetryAfterTrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := retryAfterCall(t)

		calls := h.named("chat gpt-4o-mini")
		if len(calls) != 1 {
			t.Fatalf("got %d call spans, want 1: %v", len(calls), h.spans.GetSpans())
		}
		call := calls[0]
		if call.SpanKind != trace.SpanKindClient || call.Parent.IsValid() {
			t.Errorf("call span: kind %v, parent %v; want a client root span", call.SpanKind, call.Parent)
		}
		for key, want := range map[string]string{
			"gen_ai.operation.name": "chat", "gen_ai.provider.name": "openai",
			"gen_ai.request.model": "gpt-4o-mini", "resilient.target": "openai/gpt-4o-mini",
		} {
			if got, _ := attr(call.Attributes, key); got.String() != want {
				t.Errorf("call span %s: got %q, want %q", key, got.String(), want)
			}
		}
		if got, _ := attr(call.Attributes, "resilient.attempts"); got.AsInt64() != 2 {
			t.Errorf("call span attempts: got %v, want 2", got.String())
		}
		if _, ok := attr(call.Attributes, "error.type"); ok || call.Status.Code == codes.Error {
			t.Errorf("a recovered call has error.type or an error status: %v", call.Status)
		}
		if got := call.EndTime.Sub(call.StartTime); got != 7*time.Second {
			t.Errorf("call span lasted %v, want the 7 s of Retry-After", got)
		}

		attempts := h.children(call)
		if len(attempts) != 2 || attempts[0].Name != "resilient.attempt" || attempts[1].Name != "resilient.attempt" {
			t.Fatalf("children of the call span: got %v, want two resilient.attempt spans", attempts.Snapshots())
		}
		first, second := attempts[0], attempts[1]
		if got, _ := attr(first.Attributes, "error.type"); got.String() != "rate_limited" || first.Status.Code != codes.Error {
			t.Errorf("first attempt: error.type %q, status %v; want rate_limited, error", got.String(), first.Status)
		}
		if got, _ := attr(first.Attributes, "resilient.rule"); got.String() == "" {
			t.Error("first attempt: no resilient.rule")
		}
		if len(first.Events) != 1 || first.Events[0].Name != "resilient.retry" {
			t.Fatalf("first attempt's events: got %v, want one resilient.retry", first.Events)
		}
		retry := first.Events[0].Attributes
		if got, _ := attr(retry, "resilient.retry.wait"); got.AsFloat64() != 7 {
			t.Errorf("retry event wait: got %v, want 7", got.String())
		}
		if got, _ := attr(retry, "resilient.wait.source"); got.String() != "retry_after" {
			t.Errorf("retry event source: got %q, want retry_after", got.String())
		}
		if !first.EndTime.Equal(first.StartTime) || !second.StartTime.Equal(first.EndTime.Add(7*time.Second)) {
			t.Errorf("attempts: first %v..%v, second from %v; want the second 7 s after the first ended",
				first.StartTime, first.EndTime, second.StartTime)
		}
		if _, ok := attr(second.Attributes, "error.type"); ok || second.Status.Code == codes.Error || len(second.Events) != 0 {
			t.Errorf("second attempt: got %v, %v, events %v; want a plain success", second.Attributes, second.Status, second.Events)
		}
		for i, a := range attempts {
			if got, _ := attr(a.Attributes, "resilient.attempt"); got.AsInt64() != int64(i+1) {
				t.Errorf("attempt %d: resilient.attempt = %v", i+1, got.String())
			}
			// The provider client received the attempt's context: the
			// otelhttp transport's span is the attempt's child.
			http := h.children(a)
			if len(http) != 1 || http[0].SpanKind != trace.SpanKindClient {
				t.Errorf("attempt %d: children %v, want the HTTP client span of its request", i+1, http.Snapshots())
			}
		}
		if got := len(h.spans.GetSpans()); got != 5 {
			t.Errorf("got %d spans, want 5 (call, 2 attempts, 2 requests)", got)
		}
	})
}
