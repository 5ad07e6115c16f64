package llms

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/resilientgo/resilient/taxonomy"
)

// Evidence is what the [Transport] recorded about the last HTTP exchange of
// one attempt: the facts langchaingo's clients throw away.
type Evidence struct {
	// Evidence holds what the classifier reads: status, Retry-After,
	// x-should-retry, the provider's error type, code and message.
	taxonomy.Evidence
	// RateLimitReset is the earliest rate-limit reset the provider announced
	// (x-ratelimit-reset-*, anthropic-ratelimit-*-reset), 0 if none.
	RateLimitReset time.Duration
	// Stream is true when the response was a stream (SSE or NDJSON).
	Stream bool
	// EndMarker is true when the stream's end marker arrived: "data: [DONE]"
	// (OpenAI, Mistral), "message_stop" (Anthropic), "done": true (Ollama).
	EndMarker bool
	// InBand is true when the stream carried an error event; its type, code
	// and message are in Evidence.
	InBand bool
	// BodyErr is the error that ended reading the response body, if any
	// other than a clean end of file.
	BodyErr error
}

// slot is where the transport writes the evidence of the attempt whose
// context carries it. The wrapper reads it after the provider client returns.
type slot struct {
	mu   sync.Mutex
	seen bool
	ev   *Evidence // allocated by the transport: calls that make no HTTP request pay nothing
}

type slotKey struct{}

func withSlot(ctx context.Context) (context.Context, *slot) {
	s := &slot{}
	return context.WithValue(ctx, slotKey{}, s), s
}

func slotFrom(ctx context.Context) *slot {
	s, _ := ctx.Value(slotKey{}).(*slot)
	return s
}

// evidence returns what was recorded and whether the transport saw the
// attempt at all.
func (s *slot) evidence() (Evidence, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ev == nil {
		return Evidence{}, s.seen
	}
	return *s.ev, s.seen
}

func (s *slot) update(f func(*Evidence)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ev == nil {
		s.ev = new(Evidence)
	}
	f(s.ev)
}

// Transport is an [http.RoundTripper] that records, for each attempt of a
// wrapped model, the wire evidence langchaingo's clients discard: status,
// Retry-After (seconds or HTTP date), retry-after-ms, x-should-retry,
// rate-limit reset headers, the provider's error type and code from the
// body (read and restored, so the client still sees it), and for SSE and
// NDJSON streams whether the end marker arrived and any in-band error event.
//
// It records only requests whose context comes from a wrapped model's
// attempt; other requests pass through untouched. Plug it into a provider
// client with the client's WithHTTPClient option and [HTTPClient].
//
// A Transport is safe for concurrent use.
type Transport struct {
	// Base performs the requests. Nil means http.DefaultTransport.
	Base http.RoundTripper
}

// NewTransport returns a Transport over base (nil: http.DefaultTransport).
func NewTransport(base http.RoundTripper) *Transport { return &Transport{Base: base} }

// HTTPClient returns an *http.Client whose transport is a [Transport] over
// http.DefaultTransport, ready for openai.WithHTTPClient,
// anthropic.WithHTTPClient, ollama.WithHTTPClient or
// huggingface.WithHTTPClient. It sets no overall timeout: the wrapped model's
// attempt timeout bounds each attempt.
func HTTPClient() *http.Client { return &http.Client{Transport: NewTransport(nil)} }

// maxErrorBody bounds how much of an error response is read to find the
// provider's error code.
const maxErrorBody = 1 << 20

// RoundTrip performs the request and records its evidence.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	s := slotFrom(req.Context())
	if s == nil {
		return base.RoundTrip(req)
	}
	s.update(func(ev *Evidence) { *ev = Evidence{} }) // the last exchange of the attempt wins
	resp, err := base.RoundTrip(req)
	s.mu.Lock()
	s.seen = true
	s.mu.Unlock()
	if err != nil {
		return resp, err
	}
	ev := headerEvidence(resp.Header, resp.StatusCode, time.Now())
	if resp.StatusCode >= 400 && resp.Body != nil {
		body, readErr := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		resp.Body.Close()
		resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{readErr}))
		ev.ErrorType, ev.ErrorCode, ev.ErrorMessage = parseErrorBody(body)
	}
	if isStream(resp.Header.Get("Content-Type")) && resp.Body != nil {
		ev.Stream = true
		resp.Body = &streamWatcher{body: resp.Body, slot: s}
	}
	s.update(func(dst *Evidence) { *dst = ev })
	return resp, nil
}

// errReader replays a read error after the restored body, or EOF.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	return 0, io.EOF
}

func isStream(contentType string) bool {
	ct := strings.ToLower(contentType)
	return strings.Contains(ct, "text/event-stream") || strings.Contains(ct, "ndjson")
}

// headerEvidence reads the wait hints and identifiers from the headers.
func headerEvidence(h http.Header, status int, now time.Time) Evidence {
	ev := Evidence{Evidence: taxonomy.Evidence{
		Status:      status,
		ShouldRetry: strings.ToLower(strings.TrimSpace(h.Get("X-Should-Retry"))),
		RequestID:   firstHeader(h, "X-Request-Id", "Request-Id", "X-Amzn-Requestid"),
	}}
	if d, ok := taxonomy.ParseRetryAfterMillis(h.Get("Retry-After-Ms")); ok {
		ev.RetryAfter = d
	} else if d, ok := taxonomy.ParseRetryAfter(h.Get("Retry-After"), now); ok {
		ev.RetryAfter = d
	}
	ev.RateLimitReset = rateLimitReset(h, now)
	if ev.RetryAfter == 0 && status == http.StatusTooManyRequests {
		// No Retry-After on a 429: the announced reset is the next best hint.
		ev.RetryAfter = ev.RateLimitReset
	}
	return ev
}

func firstHeader(h http.Header, names ...string) string {
	for _, n := range names {
		if v := h.Get(n); v != "" {
			return v
		}
	}
	return ""
}

// rateLimitReset returns the earliest announced reset of an exhausted limit.
// OpenAI sends durations ("1s", "6m0s") in x-ratelimit-reset-*; Anthropic
// sends RFC 3339 times in anthropic-ratelimit-*-reset.
func rateLimitReset(h http.Header, now time.Time) time.Duration {
	var best time.Duration
	consider := func(d time.Duration) {
		if d > 0 && (best == 0 || d < best) {
			best = d
		}
	}
	for _, kind := range []string{"requests", "tokens"} {
		if remaining := h.Get("X-Ratelimit-Remaining-" + kind); remaining == "0" {
			if d, err := time.ParseDuration(h.Get("X-Ratelimit-Reset-" + kind)); err == nil {
				consider(d)
			}
		}
		if remaining := h.Get("Anthropic-Ratelimit-" + kind + "-Remaining"); remaining == "0" {
			if t, err := time.Parse(time.RFC3339, h.Get("Anthropic-Ratelimit-"+kind+"-Reset")); err == nil {
				consider(t.Sub(now))
			}
		}
	}
	return best
}

// parseErrorBody finds the provider's error type, code and message in the
// shapes the providers use:
//
//	OpenAI     {"error": {"message", "type", "code"}}
//	Anthropic  {"type": "error", "error": {"type", "message"}}
//	Gemini     {"error": {"code": 429, "message", "status": "RESOURCE_EXHAUSTED"}}
//	Ollama     {"error": "message"}
//	Mistral    {"object": "error", "message", "type", "code"}
func parseErrorBody(body []byte) (typ, code, message string) {
	var doc struct {
		Error   json.RawMessage `json:"error"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(body, &doc) != nil {
		return "", "", ""
	}
	if len(doc.Error) > 0 && doc.Error[0] == '"' {
		_ = json.Unmarshal(doc.Error, &message)
		return "", "", message
	}
	if len(doc.Error) > 0 && doc.Error[0] == '{' {
		var inner struct {
			Type    string          `json:"type"`
			Code    json.RawMessage `json:"code"`
			Message string          `json:"message"`
			Status  string          `json:"status"`
		}
		if json.Unmarshal(doc.Error, &inner) == nil {
			typ = inner.Type
			if typ == "" {
				typ = inner.Status
			}
			return typ, rawString(inner.Code), inner.Message
		}
	}
	if doc.Type == "error" {
		doc.Type = ""
	}
	return doc.Type, rawString(doc.Code), doc.Message
}

// rawString renders a JSON code that may be a string, a number or null.
func rawString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

// streamWatcher passes a stream body through to the client unchanged while
// it watches the lines go by for the end marker and in-band error events.
type streamWatcher struct {
	body    io.ReadCloser
	slot    *slot
	partial []byte // the unfinished last line
}

// maxLine bounds the line buffer; longer lines (big tool arguments) are
// skipped, not buffered.
const maxLine = 64 << 10

func (w *streamWatcher) Read(p []byte) (int, error) {
	n, err := w.body.Read(p)
	if n > 0 {
		w.scan(p[:n])
	}
	if err != nil && err != io.EOF {
		w.slot.update(func(ev *Evidence) { ev.BodyErr = err })
	}
	return n, err
}

func (w *streamWatcher) Close() error { return w.body.Close() }

func (w *streamWatcher) scan(b []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			if len(w.partial)+len(b) <= maxLine {
				w.partial = append(w.partial, b...)
			} else {
				w.partial = w.partial[:0]
			}
			return
		}
		line := b[:i]
		if len(w.partial) > 0 {
			line = append(w.partial, line...)
			w.partial = w.partial[:0]
		}
		w.line(bytes.TrimSpace(line))
		b = b[i+1:]
	}
}

// line inspects one complete line of SSE or NDJSON.
func (w *streamWatcher) line(line []byte) {
	data := line
	if rest, ok := bytes.CutPrefix(line, []byte("data:")); ok {
		data = bytes.TrimSpace(rest)
	}
	switch {
	case bytes.Equal(data, []byte("[DONE]")),
		bytes.Equal(line, []byte("event: message_stop")),
		hasField(data, "type", "message_stop"),
		hasField(data, "done", "true"):
		w.slot.update(func(ev *Evidence) { ev.EndMarker = true })
	case bytes.Contains(data, []byte(`"error"`)):
		typ, code, msg := parseErrorBody(data)
		if typ == "" && code == "" && msg == "" {
			return
		}
		w.slot.update(func(ev *Evidence) {
			ev.InBand = true
			ev.ErrorType, ev.ErrorCode, ev.ErrorMessage = typ, code, msg
		})
	}
}

// hasField reports whether a JSON line holds "name": value (value written
// raw: "true", or a string's content), with or without a space after the
// colon, without decoding the line.
func hasField(data []byte, name, value string) bool {
	if value != "true" {
		value = `"` + value + `"`
	}
	key := `"` + name + `":`
	i := bytes.Index(data, []byte(key))
	if i < 0 {
		return false
	}
	rest := bytes.TrimLeft(data[i+len(key):], " ")
	return bytes.HasPrefix(rest, []byte(value))
}
