package faultserver_test

import (
	"flag"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/resilientgo/resilient/faultserver"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

type exchange struct {
	status int
	header string // selected headers, "Name: value" lines
	body   string
}

// post sends body to path and returns the status, the headers named in
// names and the body.
func post(t *testing.T, s *faultserver.Server, method, path, body string, names ...string) exchange {
	t.Helper()
	req, err := http.NewRequest(method, s.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var h []string
	for _, n := range names {
		h = append(h, n+": "+resp.Header.Get(n))
	}
	return exchange{resp.StatusCode, strings.Join(h, "\n"), string(b)}
}

// TestErrorBodies pins the error bodies and headers of each format.
func TestErrorBodies(t *testing.T) {
	const (
		openai    = "/v1/chat/completions"
		anthropic = "/v1/messages"
		ollama    = "/api/chat"
		gemini    = "/v1beta/models/gemini-2.0-flash:generateContent"
		jsonCT    = "Content-Type: application/json; charset=utf-8"
		geminiCT  = "Content-Type: application/json; charset=UTF-8"
	)
	tests := []struct {
		name string
		step faultserver.Step
		path string
		want exchange
	}{
		{"openai rate limited", faultserver.RateLimited("7"), openai, exchange{429,
			jsonCT + "\nRetry-After: 7\nX-Request-Id: req_fault1",
			`{"error":{"message":"Rate limit reached for gpt-4o-mini in organization org-test on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 7s. Visit https://platform.openai.com/account/rate-limits to learn more.","type":"requests","param":null,"code":"rate_limit_exceeded"}}`}},
		{"anthropic rate limited", faultserver.RateLimited("30"), anthropic, exchange{429,
			"Content-Type: application/json\nRetry-After: 30\nX-Request-Id: ",
			`{"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed your organization's rate limit of 50 requests per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase."}}`}},
		{"ollama rate limited without retry-after", faultserver.RateLimited(""), ollama, exchange{429,
			jsonCT + "\nRetry-After: \nX-Request-Id: ",
			`{"error":"rate limit exceeded"}`}},
		{"openai overloaded", faultserver.Overloaded(), openai, exchange{529, jsonCT + "\nRetry-After: \nX-Request-Id: req_fault1",
			`{"error":{"message":"The server is overloaded or not ready yet.","type":"server_error","param":null,"code":null}}`}},
		{"anthropic overloaded", faultserver.Overloaded(), anthropic, exchange{529, "Content-Type: application/json\nRetry-After: \nX-Request-Id: ",
			`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`}},
		{"openai context overflow", faultserver.ContextOverflow(), openai, exchange{400, jsonCT + "\nRetry-After: \nX-Request-Id: req_fault1",
			`{"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`}},
		{"anthropic context overflow", faultserver.ContextOverflow(), anthropic, exchange{400, "Content-Type: application/json\nRetry-After: \nX-Request-Id: ",
			`{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}`}},
		{"openai invalid api key", faultserver.InvalidAPIKey(), openai, exchange{401, jsonCT + "\nRetry-After: \nX-Request-Id: req_fault1",
			`{"error":{"message":"Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`}},
		{"anthropic invalid api key", faultserver.InvalidAPIKey(), anthropic, exchange{401, "Content-Type: application/json\nRetry-After: \nX-Request-Id: ",
			`{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`}},
		{"openai quota", faultserver.QuotaExceeded(), openai, exchange{429, jsonCT + "\nRetry-After: \nX-Request-Id: req_fault1",
			`{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`}},
		{"anthropic quota", faultserver.QuotaExceeded(), anthropic, exchange{400, "Content-Type: application/json\nRetry-After: \nX-Request-Id: ",
			`{"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits."}}`}},
		{"openai status 500 default type", faultserver.Status(500, "boom"), openai, exchange{500, jsonCT + "\nRetry-After: \nX-Request-Id: req_fault1",
			`{"error":{"message":"boom","type":"server_error","param":null,"code":null}}`}},
		{"anthropic status 500 default type", faultserver.Status(500, "boom"), anthropic, exchange{500, "Content-Type: application/json\nRetry-After: \nX-Request-Id: ",
			`{"type":"error","error":{"type":"api_error","message":"boom"}}`}},
		{"anthropic status 503 default type", faultserver.Status(503, "Overloaded"), anthropic, exchange{503, "Content-Type: application/json\nRetry-After: \nX-Request-Id: ",
			`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`}},
		{"anthropic status 403 default type", faultserver.Status(403, "no"), anthropic, exchange{403, "Content-Type: application/json\nRetry-After: \nX-Request-Id: ",
			`{"type":"error","error":{"type":"permission_error","message":"no"}}`}},
		{"openai status 404 default type", faultserver.Status(404, "The model `gpt-9` does not exist"), openai, exchange{404, jsonCT + "\nRetry-After: \nX-Request-Id: req_fault1",
			`{"error":{"message":"The model ` + "`gpt-9`" + ` does not exist","type":"invalid_request_error","param":null,"code":null}}`}},
		{"openai type and code set", faultserver.Status(429, "slow down").WithType("tokens").WithCode("rate_limit_exceeded").WithRetryAfter("2"), openai, exchange{429, jsonCT + "\nRetry-After: 2\nX-Request-Id: req_fault1",
			`{"error":{"message":"slow down","type":"tokens","param":null,"code":"rate_limit_exceeded"}}`}},
		{"anthropic type set", faultserver.Status(400, "bad").WithType("invalid_request_error").WithHeader("X-Should-Retry", "false"), anthropic, exchange{400, "Content-Type: application/json\nRetry-After: \nX-Request-Id: ",
			`{"type":"error","error":{"type":"invalid_request_error","message":"bad"}}`}},
		{"server error has an empty body", faultserver.ServerError(), openai, exchange{500, "Content-Type: \nRetry-After: \nX-Request-Id: req_fault1", ``}},
		{"bad gateway is html", faultserver.BadGateway(), anthropic, exchange{502, "Content-Type: text/html\nRetry-After: \nX-Request-Id: ",
			"<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"}},
		{"malformed", faultserver.Malformed("<p>hi</p>"), ollama, exchange{200, "Content-Type: text/html; charset=utf-8\nRetry-After: \nX-Request-Id: ", "<p>hi</p>"}},
		{"in-band error, non-streaming", faultserver.InBandError("server_error", "boom"), openai, exchange{200, jsonCT + "\nRetry-After: \nX-Request-Id: req_fault1",
			`{"error":{"message":"boom","type":"server_error","param":null,"code":null}}`}},
		{"gemini rate limited", faultserver.RateLimited("7"), gemini, exchange{429, geminiCT + "\nRetry-After: 7\nX-Request-Id: ",
			`{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}`}},
		{"gemini overloaded", faultserver.Overloaded(), gemini, exchange{503, geminiCT + "\nRetry-After: \nX-Request-Id: ",
			`{"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}`}},
		{"gemini invalid api key", faultserver.InvalidAPIKey(), gemini, exchange{400, geminiCT + "\nRetry-After: \nX-Request-Id: ",
			`{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}`}},
		{"gemini status 500 default status", faultserver.Status(500, "An internal error has occurred."), gemini, exchange{500, geminiCT + "\nRetry-After: \nX-Request-Id: ",
			`{"error":{"code":500,"message":"An internal error has occurred.","status":"INTERNAL"}}`}},
		{"gemini in-band error, non-streaming", faultserver.InBandError("UNAVAILABLE", "The model is overloaded."), gemini, exchange{200, jsonCT + "\nRetry-After: \nX-Request-Id: ",
			`{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}`}},
		{"gemini reply", faultserver.Reply("hi"), gemini, exchange{200, jsonCT + "\nRetry-After: \nX-Request-Id: ",
			`{"candidates":[{"content":{"parts":[{"text":"hi"}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":1,"totalTokenCount":6},"modelVersion":"gemini-2.0-flash","responseId":"resp-fault1"}`}},
		{"header overrides content type", faultserver.Reply("hi").WithHeader("Content-Type", "text/plain"), ollama, exchange{200, "Content-Type: text/plain\nRetry-After: \nX-Request-Id: ",
			`{"model":"llama3.2","created_at":"2000-01-01T00:00:00Z","message":{"role":"assistant","content":"hi"},"done_reason":"stop","done":true,"total_duration":1000000,"load_duration":1000,"prompt_eval_count":5,"prompt_eval_duration":1000,"eval_count":1,"eval_duration":1000}` + "\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := faultserver.NewInMemory(tt.step)
				defer s.Close()
				got := post(t, s, http.MethodPost, tt.path, `{"stream":false}`, "Content-Type", "Retry-After", "X-Request-Id")
				if got != tt.want {
					t.Errorf("got  %d %q\n%s\nwant %d %q\n%s", got.status, got.header, got.body, tt.want.status, tt.want.header, tt.want.body)
				}
			})
		})
	}
}

// TestStreams pins whole streamed replies against testdata/*.golden. Run
// with -update to rewrite them after a deliberate change.
func TestStreams(t *testing.T) {
	calls := []faultserver.ToolCall{{ID: "call_1", Name: "search", Arguments: `{"q":"go"}`}}
	tests := []struct {
		name, path, body string
		step             faultserver.Step
	}{
		{"openai_reply", "/v1/chat/completions", `{"model":"gpt-4o-mini","stream":true,"stream_options":{"include_usage":true}}`, faultserver.ReplyChunks("Hel", "lo")},
		{"openai_tool_calls", "/v1/chat/completions", `{"model":"gpt-4o-mini","stream":true}`, faultserver.ReplyToolCalls(calls...)},
		{"openai_in_band_error", "/v1/chat/completions", `{"model":"gpt-4o-mini","stream":true}`, faultserver.InBandError("server_error", "The server had an error while processing your request.", "Hel")},
		{"anthropic_reply", "/v1/messages", `{"model":"claude-x","stream":true}`, faultserver.ReplyChunks("Hel", "lo")},
		{"anthropic_tool_calls", "/v1/messages", `{"model":"claude-x","stream":true}`, faultserver.ReplyToolCalls(calls...)},
		{"anthropic_in_band_error", "/v1/messages", `{"model":"claude-x","stream":true}`, faultserver.InBandError("overloaded_error", "Overloaded", "Hel")},
		{"anthropic_no_end_marker", "/v1/messages", `{"model":"claude-x","stream":true}`, faultserver.NoEndMarker("Hel", "lo")},
		{"gemini_reply", "/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse", `{}`, faultserver.ReplyChunks("Hel", "lo")},
		{"gemini_tool_calls", "/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse", `{}`, faultserver.ReplyToolCalls(calls...)},
		{"gemini_in_band_error", "/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse", `{}`, faultserver.InBandError("UNAVAILABLE", "The model is overloaded.", "Hel")},
		{"ollama_reply", "/api/chat", `{"model":"llama3.2"}`, faultserver.ReplyChunks("Hel", "lo")},
		{"ollama_reply_not_streamed", "/api/chat", `{"model":"llama3.2","stream":false}`, faultserver.ReplyChunks("Hel", "lo")},
		{"ollama_tool_calls", "/api/chat", `{"model":"llama3.2","stream":true}`, faultserver.ReplyToolCalls(calls...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := faultserver.NewInMemory(tt.step)
				defer s.Close()
				got := post(t, s, http.MethodPost, tt.path, tt.body, "Content-Type")
				text := got.header + "\n\n" + got.body
				path := filepath.Join("testdata", tt.name+".golden")
				if *update {
					if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if text != string(want) {
					t.Errorf("got\n%s\nwant\n%s", text, want)
				}
			})
		})
	}
}

func TestRoutes(t *testing.T) {
	tests := []struct {
		method, path string
		want         exchange
	}{
		{http.MethodPost, "/chat/completions", exchange{404, "", `{"error":{"message":"faultserver: no route for POST /chat/completions (want POST /v1/chat/completions, /v1/embeddings, /v1/messages, /api/chat, /api/embed or /v1beta/models/{model}:generateContent)","type":"invalid_request_error","param":null,"code":"unknown_url"}}`}},
		{http.MethodGet, "/v1/messages", exchange{405, "", `{"error":{"message":"faultserver: no route for GET /v1/messages (want POST /v1/chat/completions, /v1/embeddings, /v1/messages, /api/chat, /api/embed or /v1beta/models/{model}:generateContent)","type":"invalid_request_error","param":null,"code":"unknown_url"}}`}},
	}
	s := faultserver.New()
	defer s.Close()
	for _, tt := range tests {
		if got := post(t, s, tt.method, tt.path, `{}`); got != tt.want {
			t.Errorf("%s %s: got %d %s, want %d %s", tt.method, tt.path, got.status, got.body, tt.want.status, tt.want.body)
		}
	}
	if got := s.Count(); got != 0 {
		t.Errorf("got %d requests recorded for unknown routes, want 0", got)
	}
}
