package llms_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	lcllms "github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/taxonomy"
)

// The tests in this file drive langchaingo's real openai, anthropic and ollama
// clients against the fault server, in memory and inside synctest bubbles, so
// that waits are exact and instant.

var providers = []faultserver.Format{faultserver.OpenAI, faultserver.Anthropic, faultserver.Ollama}

// realClient builds the provider's real client against s, with the evidence
// transport in front of the server's own.
func realClient(t *testing.T, s *faultserver.Server, f faultserver.Format) lcllms.Model {
	t.Helper()
	m, err := s.Model(f, &http.Client{Transport: llms.NewTransport(s.Client().Transport)})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// bareClient builds the provider's real client without the transport.
func bareClient(t *testing.T, s *faultserver.Server, f faultserver.Format) lcllms.Model {
	t.Helper()
	m, err := s.Model(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func forEachProvider(t *testing.T, test func(t *testing.T, f faultserver.Format)) {
	forEach(t, providers, test)
}

// forEach runs test for each format, each in its own synctest bubble.
func forEach(t *testing.T, formats []faultserver.Format, test func(t *testing.T, f faultserver.Format)) {
	for _, f := range formats {
		t.Run(f.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) { test(t, f) })
		})
	}
}

func hello() []lcllms.MessageContent { return []lcllms.MessageContent{human("Say hello")} }

func text(resp *lcllms.ContentResponse) string {
	var b strings.Builder
	for _, c := range resp.Choices {
		b.WriteString(c.Content)
	}
	return b.String()
}

func TestWireFaultsEndToEnd(t *testing.T) {
	tests := []struct {
		name      string
		script    []faultserver.Step
		stream    bool
		wantText  string // "" means the call must fail
		wantKind  taxonomy.Kind
		wantCalls int
	}{
		{"529 then success", []faultserver.Step{faultserver.Overloaded(), faultserver.Reply("Hello")}, false, "Hello", 0, 2},
		{"500 empty body then success", []faultserver.Step{faultserver.ServerError(), faultserver.Reply("Hello")}, false, "Hello", 0, 2},
		{"502 html then success", []faultserver.Step{faultserver.BadGateway(), faultserver.Reply("Hello")}, false, "Hello", 0, 2},
		{"connection closed then success", []faultserver.Step{faultserver.HangUp(), faultserver.Reply("Hello")}, false, "Hello", 0, 2},
		{"truncated JSON then success", []faultserver.Step{faultserver.TruncatedJSON(), faultserver.Reply("Hello")}, false, "Hello", 0, 2},
		{"401 once", []faultserver.Step{faultserver.InvalidAPIKey(), faultserver.Reply("never")}, false, "", taxonomy.Permanent, 1},
		{"persistent 529", []faultserver.Step{faultserver.Overloaded()}, false, "", taxonomy.Overloaded, 3},
		{"stream dropped before the first chunk", []faultserver.Step{faultserver.DropStream(), faultserver.ReplyChunks("Hel", "lo")}, true, "Hello", 0, 2},
		{"stream without its end marker", []faultserver.Step{faultserver.NoEndMarker(), faultserver.ReplyChunks("Hel", "lo")}, true, "Hello", 0, 2},
		{"in-band overloaded_error before any chunk", []faultserver.Step{faultserver.InBandError("overloaded_error", "Overloaded"), faultserver.ReplyChunks("Hel", "lo")}, true, "Hello", 0, 2},
		{"in-band overloaded_error, persistent", []faultserver.Step{faultserver.InBandError("overloaded_error", "Overloaded")}, true, "", taxonomy.Overloaded, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			forEachProvider(t, func(t *testing.T, f faultserver.Format) {
				s := faultserver.NewInMemory(tt.script...)
				defer s.Close()
				var opts []lcllms.CallOption
				if tt.stream {
					opts = append(opts, lcllms.WithStreamingFunc(func(context.Context, []byte) error { return nil }))
				}
				resp, err := mustWrap(t, realClient(t, s, f)).GenerateContent(t.Context(), hello(), opts...)
				if tt.wantText != "" {
					if err != nil || text(resp) != tt.wantText {
						t.Fatalf("got (%v, %v), want %q", resp, err, tt.wantText)
					}
				} else if got := taxonomy.Classify(err).Kind; got != tt.wantKind {
					t.Errorf("kind: got %v (%v), want %v", got, err, tt.wantKind)
				}
				if got := s.Count(); got != tt.wantCalls {
					t.Errorf("requests: got %d, want %d", got, tt.wantCalls)
				}
			})
		})
	}
}

func TestRetryAfterWaitedExactly(t *testing.T) {
	forEachProvider(t, func(t *testing.T, f faultserver.Format) {
		s := faultserver.NewInMemory(faultserver.RateLimited("7"), faultserver.Reply("Hello"))
		defer s.Close()
		resp, err := mustWrap(t, realClient(t, s, f)).GenerateContent(t.Context(), hello())
		if err != nil || text(resp) != "Hello" {
			t.Fatalf("got %v", err)
		}
		wantRetryAfter(t, s, 7*time.Second)
	})
}

func TestRetryAfterOverTheCapFailsFast(t *testing.T) {
	forEachProvider(t, func(t *testing.T, f faultserver.Format) {
		s := faultserver.NewInMemory(faultserver.RateLimited("3600"), faultserver.Reply("Hello"))
		defer s.Close()
		m := mustWrap(t, realClient(t, s, f))
		start := time.Now()
		_, err := m.GenerateContent(t.Context(), hello())
		var final *middleware.Error
		if !errors.As(err, &final) || final.Reason != observe.ReasonRetryAfterOverCap || time.Since(start) != 0 {
			t.Fatalf("got %v after %v, want retry-after over the cap at once", err, time.Since(start))
		}
		if _, err := m.GenerateContent(t.Context(), hello()); !errors.Is(err, circuitbreaker.ErrOpen) || s.Count() != 1 {
			t.Errorf("second call: got %v with %d requests, want circuit open without a request", err, s.Count())
		}
	})
}

func TestWithoutTheTransportTextStillDecides(t *testing.T) {
	tests := []struct {
		name      string
		step      faultserver.Step
		wantCalls int
	}{
		{"529", faultserver.Overloaded(), 3},
		{"401", faultserver.InvalidAPIKey(), 1},
		{"hang up", faultserver.HangUp(), 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			forEachProvider(t, func(t *testing.T, f faultserver.Format) {
				s := faultserver.NewInMemory(tt.step)
				defer s.Close()
				_, err := mustWrap(t, bareClient(t, s, f)).GenerateContent(t.Context(), hello())
				if err == nil || s.Count() != tt.wantCalls {
					t.Errorf("got %v after %d requests, want a failure after %d", err, s.Count(), tt.wantCalls)
				}
			})
		})
	}
}

func TestStreamDroppedAfterFirstChunk(t *testing.T) {
	forEachProvider(t, func(t *testing.T, f faultserver.Format) {
		s := faultserver.NewInMemory(faultserver.DropStream("Hel"), faultserver.ReplyChunks("Hel", "lo"))
		defer s.Close()
		var c collector
		_, err := mustWrap(t, realClient(t, s, f)).GenerateContent(t.Context(), hello(), lcllms.WithStreamingFunc(c.fn))
		var partial *llms.PartialStreamError
		if !errors.As(err, &partial) || partial.Partial != "Hel" || s.Count() != 1 {
			t.Fatalf("without a restart hook: got %v after %d requests, want a PartialStreamError(Hel) after 1", err, s.Count())
		}

		s.SetScript(faultserver.DropStream("Hel"), faultserver.ReplyChunks("Hel", "lo"))
		c = collector{}
		restarted := 0
		hook := func(context.Context, string) error {
			restarted++
			c.mu.Lock()
			c.chunks = nil
			c.mu.Unlock()
			return nil
		}
		resp, err := mustWrap(t, realClient(t, s, f), llms.OnStreamRestart(hook)).GenerateContent(t.Context(), hello(), lcllms.WithStreamingFunc(c.fn))
		if err != nil || text(resp) != "Hello" || c.text() != "Hello" || restarted != 1 || s.Count() != 3 {
			t.Fatalf("with a restart hook: got (%v, %q shown, %d restarts) after %d requests, want Hello once after 3", err, c.text(), restarted, s.Count())
		}
	})
}

// openaiMessages decodes the roles of an OpenAI request's messages and
// whether each tool message follows an assistant message with tool calls.
func openaiMessages(t *testing.T, body []byte) (roles []string, pairsIntact bool) {
	t.Helper()
	var req struct {
		Messages []struct {
			Role      string            `json:"role"`
			ToolCalls []json.RawMessage `json:"tool_calls"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	pairsIntact = true
	for i, m := range req.Messages {
		roles = append(roles, m.Role)
		if m.Role == "tool" {
			j := i - 1
			for j >= 0 && req.Messages[j].Role == "tool" {
				j--
			}
			if j < 0 || len(req.Messages[j].ToolCalls) == 0 {
				pairsIntact = false
			}
		}
	}
	return roles, pairsIntact
}

func TestContextOverflowCompactsAndRetriesOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.ContextOverflow(), faultserver.Reply("Hello"))
		defer s.Close()
		resp, err := mustWrap(t, realClient(t, s, faultserver.OpenAI)).GenerateContent(t.Context(), conversation())
		if err != nil || text(resp) != "Hello" {
			t.Fatalf("got %v", err)
		}
		reqs := s.Requests()
		if len(reqs) != 2 || reqs[1].MessageCount() >= reqs[0].MessageCount() {
			t.Fatalf("got %d requests carrying %d then %d messages, want 2, fewer the second time",
				len(reqs), reqs[0].MessageCount(), reqs[len(reqs)-1].MessageCount())
		}
		roles, intact := openaiMessages(t, reqs[1].Body)
		if !intact || roles[0] != "system" || roles[len(roles)-1] != "user" {
			t.Errorf("compacted request roles %v: tool pairs intact %v", roles, intact)
		}
	})
}

func TestCallerCancelDuringBackoffSendsNoMoreRequests(t *testing.T) {
	forEachProvider(t, func(t *testing.T, f faultserver.Format) {
		s := faultserver.NewInMemory(faultserver.RateLimited("30"), faultserver.Reply("Hello"))
		defer s.Close()
		ctx, cancel := context.WithCancel(t.Context())
		go func() {
			time.Sleep(10 * time.Second)
			cancel()
		}()
		_, err := mustWrap(t, realClient(t, s, f)).GenerateContent(ctx, hello())
		if !errors.Is(err, context.Canceled) || s.Count() != 1 {
			t.Fatalf("got %v after %d requests, want canceled after 1", err, s.Count())
		}
		time.Sleep(time.Minute)
		if s.Count() != 1 {
			t.Errorf("a request was sent after the cancel")
		}
	})
}

func TestFallbackAnswersWhenPrimaryIsOverloaded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		primary := faultserver.NewInMemory(faultserver.Overloaded())
		defer primary.Close()
		secondary := faultserver.NewInMemory(faultserver.Reply("from anthropic"))
		defer secondary.Close()
		m := mustWrap(t, realClient(t, primary, faultserver.OpenAI),
			llms.Fallbacks(realClient(t, secondary, faultserver.Anthropic)))
		resp, err := m.GenerateContent(t.Context(), hello())
		if err != nil || text(resp) != "from anthropic" {
			t.Fatalf("got %v", err)
		}
		if primary.Count() != 3 || secondary.Count() != 1 {
			t.Errorf("requests: primary %d, fallback %d; want 3 and 1", primary.Count(), secondary.Count())
		}
	})
}

func TestQuotaIsNotRetried(t *testing.T) {
	// Ollama has no billing: only the hosted providers exhaust a quota.
	for _, f := range []faultserver.Format{faultserver.OpenAI, faultserver.Anthropic} {
		t.Run(f.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := faultserver.NewInMemory(faultserver.QuotaExceeded(), faultserver.Reply("never"))
				defer s.Close()
				_, err := mustWrap(t, realClient(t, s, f)).GenerateContent(t.Context(), hello())
				if taxonomy.Classify(err).Kind != taxonomy.Permanent || s.Count() != 1 {
					t.Errorf("got %v after %d requests, want permanent after 1", err, s.Count())
				}
			})
		})
	}
}

func TestEvidenceReachesTheFinalError(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.QuotaExceeded())
		defer s.Close()
		_, err := mustWrap(t, realClient(t, s, faultserver.OpenAI)).GenerateContent(t.Context(), hello())
		var wire *taxonomy.WireError
		if !errors.As(err, &wire) || wire.Status != 429 || wire.ErrorCode != "insufficient_quota" {
			t.Fatalf("got %v, want the 429's evidence with code insufficient_quota", err)
		}
		if c := taxonomy.Classify(err); c.Kind != taxonomy.Permanent || c.Rule != `code "insufficient_quota"` {
			t.Errorf("class: got %v, want permanent by the code", c)
		}
		if !strings.Contains(err.Error(), "exceeded your current quota") {
			t.Errorf("the provider's message is lost: %v", err)
		}
	})
}

// An OpenAI-compatible server that ends its stream with a finish reason but
// without "data: [DONE]" answered in full: no retry.
func TestStreamWithFinishReasonButNoDoneMarker(t *testing.T) {
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		calls++
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, `data: {"id":"1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"Hello"},"finish_reason":null}]}`+"\n\n")
		_, _ = io.WriteString(w, `data: {"id":"1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\n")
	}))
	defer srv.Close()
	llm, err := openai.New(openai.WithToken("sk-test"), openai.WithBaseURL(srv.URL+"/v1"),
		openai.WithHTTPClient(&http.Client{Transport: llms.NewTransport(nil)}))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := mustWrap(t, llm).GenerateContent(t.Context(), hello(),
		lcllms.WithStreamingFunc(func(context.Context, []byte) error { return nil }))
	if err != nil || text(resp) != "Hello" || calls != 1 {
		t.Fatalf("got (%v, %v) after %d requests, want Hello after 1", resp, err, calls)
	}
}
