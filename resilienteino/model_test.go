package resilienteino_test

import (
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/cloudwego/eino/schema"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/resilienteino"
	"github.com/resilientgo/resilient/taxonomy"
)

// Every fault the langchaingo wrappers recover from, through eino-ext's
// real openai model and the evidence transport, with the requests each
// costs and the waits between them.
func TestGenerateRecoversFromEachFault(t *testing.T) {
	tests := []struct {
		name     string
		fault    faultserver.Step
		requests int
		wait     time.Duration // between the two requests; -1: any
	}{
		{"429 Retry-After seconds", faultserver.RateLimited("7"), 2, 7 * time.Second},
		{"429 retry-after-ms", faultserver.RateLimited("").WithHeader("retry-after-ms", "1500"), 2, 1500 * time.Millisecond},
		{"429 Retry-After 0", faultserver.RateLimited("0"), 2, 0},
		{"429 reset of the exhausted limit", faultserver.RateLimited("").WithHeader("x-ratelimit-remaining-requests", "0").
			WithHeader("x-ratelimit-reset-requests", "6s"), 2, 6 * time.Second},
		{"429 try again in the message", faultserver.Status(429, "Rate limit reached for gpt-4o. Please try again in 3s."), 2, 3 * time.Second},
		{"529 overloaded", faultserver.Overloaded(), 2, -1},
		{"503", faultserver.Status(503, "Service Unavailable"), 2, -1},
		{"500 empty body", faultserver.ServerError(), 2, -1},
		{"502 HTML page", faultserver.BadGateway(), 2, -1},
		{"connection closed", faultserver.HangUp(), 2, -1},
		{"cut body", faultserver.DropStream("Hel"), 2, -1},
		{"200 with an error object", faultserver.InBandError("server_error", "The server had an error"), 2, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := faultserver.NewInMemory(tt.fault, faultserver.Reply("Hello"))
				defer s.Close()
				out, err := resilienteino.Model(openaiModel(t, s)).Generate(t.Context(), hello())
				if err != nil || out.Content != "Hello" || s.Count() != tt.requests {
					t.Fatalf("got %v, %v after %d requests, want Hello after %d", out, err, s.Count(), tt.requests)
				}
				if g := gaps(s); tt.wait >= 0 && g[0] != tt.wait {
					t.Errorf("waited %v, want exactly %v", g[0], tt.wait)
				}
			})
		})
	}
}

// A permanent failure costs one request: Eino's ModelRetryConfig retries
// every error by default.
func TestGeneratePermanentFailureCostsOneRequest(t *testing.T) {
	tests := []struct {
		name  string
		fault faultserver.Step
	}{
		{"400 bad request", faultserver.Status(400, "Invalid value for 'temperature': must be at most 2.")},
		{"401 invalid key", faultserver.InvalidAPIKey()},
		{"insufficient quota", faultserver.QuotaExceeded()},
		{"404 model", faultserver.Status(404, "The model `gpt-5o` does not exist or you do not have access to it.").WithCode("model_not_found")},
		{"content filter", faultserver.Raw(200, "application/json",
			`{"id":"x","object":"chat.completion","model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":""},"finish_reason":"content_filter"}]}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := faultserver.NewInMemory(tt.fault, faultserver.Reply("Hello"))
				defer s.Close()
				_, err := resilienteino.Model(openaiModel(t, s)).Generate(t.Context(), hello())
				var final *middleware.Error
				if !errors.As(err, &final) || final.Reason != observe.ReasonPermanent || s.Count() != 1 {
					t.Fatalf("got %v after %d requests, want a permanent failure after 1", err, s.Count())
				}
			})
		})
	}
}

// A Retry-After over the cap fails at once, and holds the breaker open for
// the others.
func TestGenerateRetryAfterOverTheCapFailsFast(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.RateLimited("120"), faultserver.Reply("Hello"))
		defer s.Close()
		m := resilienteino.Model(openaiModel(t, s))
		start := time.Now()
		_, err := m.Generate(t.Context(), hello())
		var final *middleware.Error
		if !errors.As(err, &final) || final.Reason != observe.ReasonRetryAfterOverCap || time.Since(start) != 0 || s.Count() != 1 {
			t.Fatalf("got %v after %v and %d requests, want over the cap at once", err, time.Since(start), s.Count())
		}
		if _, err := m.Generate(t.Context(), hello()); !errors.Is(err, resilienteino.ErrCircuitOpen) || s.Count() != 1 {
			t.Errorf("second call: got %v after %d requests, want the circuit open and no request", err, s.Count())
		}
	})
}

// A context overflow is compacted once, keeping the system message and the
// tool call with its result, then retried.
func TestGenerateCompactsAnOverflow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.ContextOverflow(), faultserver.Reply("Hello"))
		defer s.Close()
		out, err := resilienteino.Model(openaiModel(t, s)).Generate(t.Context(), conversation())
		if err != nil || out.Content != "Hello" || s.Count() != 2 {
			t.Fatalf("got %v, %v after %d requests, want Hello after 2", out, err, s.Count())
		}
		reqs := s.Requests()
		if before, after := reqs[0].MessageCount(), reqs[1].MessageCount(); before != 10 || after != 7 {
			t.Errorf("sent %d then %d messages, want 10 then 7 (system, marker, a user turn, the call with its two results, the last turn)", before, after)
		}
	})
}

// A hung request ends at the attempt timeout and is retried.
func TestGenerateHangEndsAtTheTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.Stall(), faultserver.Reply("Hello"))
		defer s.Close()
		start := time.Now()
		out, err := resilienteino.Model(openaiModel(t, s), resilienteino.Timeout(30*time.Second)).Generate(t.Context(), hello())
		if err != nil || out.Content != "Hello" || s.Count() != 2 {
			t.Fatalf("got %v, %v after %d requests, want Hello after 2", out, err, s.Count())
		}
		if g := gaps(s); g[0] < 30*time.Second || g[0] >= 30*time.Second+middleware.DefaultBaseDelay {
			t.Errorf("retried %v after the hung request, want the timeout (30 s) and a backoff under 0.5 s", g[0])
		}
		if time.Since(start) != s.Requests()[1].Time.Sub(start) {
			t.Errorf("the call returned %v after it started, not when the retry was answered", time.Since(start))
		}
	})
}

// The breaker opens after 10 failures in a row that say something about
// the target, and then a call costs no request until the probe.
func TestGenerateBreakerOpens(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.Overloaded())
		defer s.Close()
		m := resilienteino.Model(openaiModel(t, s), resilienteino.MaxAttempts(1))
		for range 10 {
			if _, err := m.Generate(t.Context(), hello()); err == nil {
				t.Fatal("an overloaded server answered")
			}
		}
		_, err := m.Generate(t.Context(), hello())
		if !errors.Is(err, resilienteino.ErrCircuitOpen) || s.Count() != 10 {
			t.Fatalf("got %v after %d requests, want the circuit open after 10", err, s.Count())
		}
		if m.Breaker().State() != observe.BreakerOpen {
			t.Errorf("breaker %v, want open", m.Breaker().State())
		}
		time.Sleep(breaker.DefaultDelay)
		s.SetScript(faultserver.Reply("Hello"))
		if out, err := m.Generate(t.Context(), hello()); err != nil || out.Content != "Hello" || s.Count() != 11 {
			t.Errorf("after the delay: got %v, %v after %d requests, want the probe answered", out, err, s.Count())
		}
	})
}

// Without the evidence transport the client's error text still decides.
func TestGenerateWithoutTheTransport(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.Overloaded(), faultserver.InvalidAPIKey())
		defer s.Close()
		_, err := resilienteino.Model(bareModel(t, s)).Generate(t.Context(), hello())
		if c := taxonomy.Classify(err); c.Kind != taxonomy.Permanent || s.Count() != 2 {
			t.Fatalf("got %v (%v) after %d requests, want permanent after 2", err, c.Kind, s.Count())
		}
	})
}

func TestModelReportsInvalidOptions(t *testing.T) {
	s := faultserver.NewInMemory()
	defer s.Close()
	m := resilienteino.Model(openaiModel(t, s), resilienteino.MaxAttempts(0), nil)
	for _, want := range []string{"MaxAttempts(0)", "nil option"} {
		if err := m.Err(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Err: %v, want it to name %q", err, want)
		}
	}
	if _, err := m.Generate(t.Context(), hello()); taxonomy.Classify(err).Kind != taxonomy.Programming || s.Count() != 0 {
		t.Errorf("Generate: got %v after %d requests, want a programming error and none", err, s.Count())
	}
	if _, err := resilienteino.New(nil); err == nil {
		t.Error("New(nil): no error")
	}
}

// conversation is a run of ten messages: a system message, three turns,
// an assistant's two tool calls with their results, and a last question.
func conversation() []*schema.Message {
	calls := []schema.ToolCall{
		{ID: "call_1", Type: "function", Function: schema.FunctionCall{Name: "lookup_order", Arguments: `{"order":"R1"}`}},
		{ID: "call_2", Type: "function", Function: schema.FunctionCall{Name: "quote_shipping", Arguments: `{"order":"R1"}`}},
	}
	return []*schema.Message{
		schema.SystemMessage("You help customers."),
		schema.UserMessage("Hello"),
		schema.AssistantMessage("Hello, how can I help?", nil),
		schema.UserMessage("I have an order."),
		schema.AssistantMessage("Which one?", nil),
		schema.UserMessage("R1: where is it?"),
		schema.AssistantMessage("", calls),
		schema.ToolMessage("order R1: shipped", "call_1"),
		schema.ToolMessage("dhl: 2 days", "call_2"),
		schema.UserMessage("So when does it arrive?"),
	}
}
