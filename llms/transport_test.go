package llms

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestParseErrorBody(t *testing.T) {
	tests := []struct {
		name               string
		body               string
		typ, code, message string
	}{
		{"openai", `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded","param":null}}`,
			"requests", "rate_limit_exceeded", "Rate limit reached"},
		{"openai numeric code", `{"error":{"message":"bad","type":"invalid_request_error","code":400}}`,
			"invalid_request_error", "400", "bad"},
		{"anthropic", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
			"overloaded_error", "", "Overloaded"},
		{"gemini", `{"error":{"code":429,"message":"Resource has been exhausted","status":"RESOURCE_EXHAUSTED"}}`,
			"RESOURCE_EXHAUSTED", "429", "Resource has been exhausted"},
		{"ollama", `{"error":"model \"llama3\" not found, try pulling it first"}`,
			"", "", `model "llama3" not found, try pulling it first`},
		{"mistral", `{"object":"error","message":"Unauthorized","type":"unauthorized","code":"1000"}`,
			"unauthorized", "1000", "Unauthorized"},
		{"html", `<html><body>502 Bad Gateway</body></html>`, "", "", ""},
		{"empty", ``, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			typ, code, message := parseErrorBody([]byte(tt.body))
			if typ != tt.typ || code != tt.code || message != tt.message {
				t.Errorf("got (%q, %q, %q), want (%q, %q, %q)", typ, code, message, tt.typ, tt.code, tt.message)
			}
		})
	}
}

func TestHeaderEvidence(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		status int
		header map[string]string
		want   time.Duration
	}{
		{"Retry-After seconds", 429, map[string]string{"Retry-After": "7"}, 7 * time.Second},
		{"Retry-After date", 503, map[string]string{"Retry-After": "Mon, 30 Nov 2026 12:00:30 GMT"}, 30 * time.Second},
		{"retry-after-ms wins", 429, map[string]string{"Retry-After": "7", "Retry-After-Ms": "1500"}, 1500 * time.Millisecond},
		{"openai reset on a 429", 429, map[string]string{"X-Ratelimit-Remaining-Requests": "0", "X-Ratelimit-Reset-Requests": "6m0s"}, 6 * time.Minute},
		{"anthropic reset on a 429", 429, map[string]string{"Anthropic-Ratelimit-Tokens-Remaining": "0", "Anthropic-Ratelimit-Tokens-Reset": "2026-11-30T12:00:20Z"}, 20 * time.Second},
		{"a reset is not a wait on a 500", 500, map[string]string{"X-Ratelimit-Remaining-Requests": "0", "X-Ratelimit-Reset-Requests": "1s"}, 0},
		{"garbage", 429, map[string]string{"Retry-After": "soon"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tt.header {
				h.Set(k, v)
			}
			if got := headerEvidence(h, tt.status, now).RetryAfter; got != tt.want {
				t.Errorf("RetryAfter: got %v, want %v", got, tt.want)
			}
		})
	}
}

// fakeRoundTripper answers with a fixed response.
type fakeRoundTripper struct{ resp *http.Response }

func (f fakeRoundTripper) RoundTrip(*http.Request) (*http.Response, error) { return f.resp, nil }

func roundTrip(t *testing.T, resp *http.Response, watched bool) (*http.Response, Evidence, bool) {
	t.Helper()
	ctx, s := context.Background(), (*slot)(nil)
	if watched {
		ctx, s = withSlot(ctx)
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://provider.test/v1/chat/completions", nil)
	got, err := NewTransport(fakeRoundTripper{resp}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	if s == nil {
		return got, Evidence{}, false
	}
	body, _ := io.ReadAll(got.Body)
	got.Body = io.NopCloser(bytes.NewReader(body))
	ev, seen := s.evidence()
	return got, ev, seen
}

func response(status int, contentType, body string, header ...string) *http.Response {
	h := http.Header{"Content-Type": {contentType}}
	for i := 0; i+1 < len(header); i += 2 {
		h.Set(header[i], header[i+1])
	}
	return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(strings.NewReader(body))}
}

func TestTransportRecordsAndRestoresTheErrorBody(t *testing.T) {
	body := `{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}`
	resp, ev, seen := roundTrip(t, response(429, "application/json", body, "Retry-After", "20", "X-Request-Id", "req_1", "X-Should-Retry", "false"), true)
	if !seen || ev.Status != 429 || ev.ErrorCode != "insufficient_quota" || ev.RetryAfter != 20*time.Second ||
		ev.RequestID != "req_1" || ev.ShouldRetry != "false" {
		t.Errorf("evidence: got %+v", ev)
	}
	if got, _ := io.ReadAll(resp.Body); string(got) != body {
		t.Errorf("the client sees body %q, want it restored: %q", got, body)
	}
}

func TestTransportWatchesStreams(t *testing.T) {
	tests := []struct {
		name            string
		contentType     string
		body            string
		wantEnd, inBand bool
		wantType        string
	}{
		{"openai done", "text/event-stream", "data: {\"choices\":[]}\n\ndata: [DONE]\n\n", true, false, ""},
		{"openai cut short", "text/event-stream", "data: {\"choices\":[]}\n\n", false, false, ""},
		{"openai in-band error", "text/event-stream", "data: {\"error\":{\"message\":\"Overloaded\",\"type\":\"server_error\"}}\n\n", false, true, "server_error"},
		{"anthropic stop", "text/event-stream", "event: message_stop\ndata: {\"type\": \"message_stop\"}\n\n", true, false, ""},
		{"anthropic error event", "text/event-stream", "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n", false, true, "overloaded_error"},
		{"ollama done", "application/x-ndjson", "{\"message\":{\"content\":\"Hi\"},\"done\":false}\n{\"done\":true}\n", true, false, ""},
		{"ollama error line", "application/x-ndjson", "{\"error\":\"an error was encountered while running the model\"}\n", false, true, ""},
		{"content mentioning an error is not one", "text/event-stream", "data: {\"choices\":[{\"delta\":{\"content\":\"the \\\"error\\\" field\"}}]}\n\n", false, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ev, _ := roundTrip(t, response(200, tt.contentType, tt.body), true)
			if !ev.Stream || ev.EndMarker != tt.wantEnd || ev.InBand != tt.inBand || ev.ErrorType != tt.wantType {
				t.Errorf("got stream %v, end %v, in-band %v, type %q; want end %v, in-band %v, type %q",
					ev.Stream, ev.EndMarker, ev.InBand, ev.ErrorType, tt.wantEnd, tt.inBand, tt.wantType)
			}
		})
	}
}

// A line split across reads is still seen whole.
func TestStreamWatcherJoinsSplitLines(t *testing.T) {
	_, s := withSlot(context.Background())
	w := &streamWatcher{body: io.NopCloser(strings.NewReader("")), slot: s}
	for _, part := range []string{"data: [DO", "NE]", "\n"} {
		w.scan([]byte(part))
	}
	if ev, _ := s.evidence(); !ev.EndMarker {
		t.Errorf("the end marker split across reads was missed")
	}
}

func TestTransportPassesOtherRequestsThrough(t *testing.T) {
	resp, _, _ := roundTrip(t, response(500, "application/json", `{"error":"x"}`), false)
	if _, ok := resp.Body.(*streamWatcher); ok {
		t.Errorf("a request without a slot was watched")
	}
}

func TestTransportBodyReadErrorIsRecorded(t *testing.T) {
	_, s := withSlot(context.Background())
	broken := errors.New("connection reset by peer")
	w := &streamWatcher{body: io.NopCloser(io.MultiReader(strings.NewReader("data: x\n"), errReader{broken})), slot: s}
	_, _ = io.ReadAll(w)
	if ev, _ := s.evidence(); !errors.Is(ev.BodyErr, broken) {
		t.Errorf("BodyErr: got %v, want the read error", ev.BodyErr)
	}
}
