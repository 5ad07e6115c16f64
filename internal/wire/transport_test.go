package wire

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/resilientgo/resilient/taxonomy"
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

// fakeRoundTripper answers with a fixed response.
type fakeRoundTripper struct{ resp *http.Response }

func (f fakeRoundTripper) RoundTrip(*http.Request) (*http.Response, error) { return f.resp, nil }

func roundTrip(t *testing.T, resp *http.Response, watched bool) (*http.Response, taxonomy.Evidence, bool) {
	t.Helper()
	ctx, s := context.Background(), (*Slot)(nil)
	if watched {
		ctx, s = WithSlot(ctx)
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://provider.test/v1/chat/completions", nil)
	got, err := NewTransport(fakeRoundTripper{resp}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	if s == nil {
		return got, taxonomy.Evidence{}, false
	}
	body, _ := readAll(t, got.Body)
	got.Body = io.NopCloser(bytes.NewReader(body))
	ev, seen := s.Evidence()
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
	if got, _ := readAll(t, resp.Body); string(got) != body {
		t.Errorf("the client sees body %q, want it restored: %q", got, body)
	}
}

// A stream test case: a body and what the watcher must make of it.
type streamCase struct {
	name            string
	contentType     string
	body            string
	wantEnd, inBand bool
	wantType        string
}

var streamCases = []streamCase{
	{"openai done", "text/event-stream", "data: {\"choices\":[]}\n\ndata: [DONE]\n\n", true, false, ""},
	{"openai done without the space", "text/event-stream", "data:[DONE]\n\n", true, false, ""},
	{"openai done with CRLF", "text/event-stream", "data: {\"choices\":[]}\r\n\r\ndata: [DONE]\r\n\r\n", true, false, ""},
	{"openai done without a last newline", "text/event-stream", "data: {\"choices\":[]}\n\ndata: [DONE]", true, false, ""},
	{"openai cut short", "text/event-stream", "data: {\"choices\":[]}\n\n", false, false, ""},
	{"openai cut inside a line", "text/event-stream", "data: {\"choices\":[]}\n\ndata: [DO", false, false, ""},
	{"[DONE] inside content is not the marker", "text/event-stream", "data: {\"choices\":[{\"delta\":{\"content\":\"data: [DONE]\"}}]}\n\n", false, false, ""},
	{"openai in-band error", "text/event-stream", "data: {\"error\":{\"message\":\"Overloaded\",\"type\":\"server_error\"}}\n\n", false, true, "server_error"},
	{"in-band error with spaces", "text/event-stream", "data: { \"error\" : {\"message\":\"Overloaded\",\"type\":\"server_error\"}}\n\n", false, true, "server_error"},
	{"vllm in-band error", "text/event-stream", "data: {\"object\":\"error\",\"message\":\"max_tokens is too large\",\"type\":\"BadRequestError\",\"param\":null,\"code\":400}\n\n", false, true, "BadRequestError"},
	{"anthropic stop", "text/event-stream", "event: message_stop\ndata: {\"type\": \"message_stop\"}\n\n", true, false, ""},
	{"anthropic stop data alone", "text/event-stream", "data: {\"type\":\"message_stop\"}\n\n", true, false, ""},
	{"anthropic ping is nothing", "text/event-stream", "event: ping\ndata: {\"type\": \"ping\"}\n\n", false, false, ""},
	{"anthropic delta is nothing", "text/event-stream", "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"message_stop\"}}\n\n", false, false, ""},
	{"anthropic error event", "text/event-stream", "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n", false, true, "overloaded_error"},
	{"ollama done", "application/x-ndjson", "{\"message\":{\"content\":\"Hi\"},\"done\":false}\n{\"done\":true}\n", true, false, ""},
	{"ollama done after its reason", "application/x-ndjson", "{\"model\":\"llama3.2\",\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done_reason\":\"stop\",\"done\":true,\"total_duration\":4883583458}\n", true, false, ""},
	{"ollama done with spaces", "application/x-ndjson", "{\"model\": \"llama3.2\", \"done\" : true}\n", true, false, ""},
	{"ollama done without a last newline", "application/x-ndjson", "{\"message\":{\"content\":\"Hi\"},\"done\":false}\n{\"done\":true}", true, false, ""},
	{"ollama not done", "application/x-ndjson", "{\"message\":{\"content\":\"Hi\"},\"done\":false}\n", false, false, ""},
	{"ollama done as a value is not the marker", "application/x-ndjson", "{\"status\":\"done\",\"done\":false,\"x\":1}\n", false, false, ""},
	{"ollama done in content is not the marker", "application/x-ndjson", "{\"message\":{\"content\":\"\\\"done\\\": true\"},\"done\":false}\n", false, false, ""},
	{"done in an SSE stream is not a marker", "text/event-stream", "data: {\"done\":true}\n\n", false, false, ""},
	{"ollama error line", "application/x-ndjson", "{\"error\":\"an error was encountered while running the model\"}\n", false, true, ""},
	{"content mentioning an error is not one", "text/event-stream", "data: {\"choices\":[{\"delta\":{\"content\":\"the \\\"error\\\" field\"}}]}\n\n", false, false, ""},
	{"an object of type error without an error shape is not one", "text/event-stream", "data: {\"type\":\"error\"}\n\n", false, false, ""},
	{"anthropic error event with a type only", "text/event-stream", "data: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\"}}\n\n", false, true, "overloaded_error"},
	{"a marker after a blank line, then more", "text/event-stream", "data: {\"type\":\"ping\"}\n\nevent: message_stop\ndata: {\"type\":\"ping\"}\n\n", true, false, ""},
	{"an empty data line is nothing", "text/event-stream", "data:\n\ndata: \n\ndata: [DONE]\n\n", true, false, ""},
	{"a cut object in an SSE stream is nothing", "text/event-stream", "data: {\"\n\ndata: {\n\ndata: {\"error\n\ndata: {\"error\" 1}\n\n", false, false, ""},
	{"a cut object in an NDJSON stream is nothing", "application/x-ndjson", "{\"\n{\n{ \n{\"done\n{\"x\":1,\"done\"}\n", false, false, ""},
	{"a line of exactly maxLine bytes is read", "text/event-stream", exactLine + "\n\n", false, true, "server_error"},
	{"the line after a skipped one counts", "text/event-stream", "data: {\"x\":\"" + strings.Repeat("x", maxLine) + "\"}\n\ndata: [DONE]\n\n", true, false, ""},
	// Read a byte at a time, the first maxLine+1 bytes overflow the bound
	// and the line's tail is what looks like a marker (the line is cut, as a
	// dropped stream would cut it).
	{"a skipped line's tail is not a line", "text/event-stream", "data: {\"x\":\"" + strings.Repeat("x", maxLine+1-len("data: {\"x\":\"")) + "data: [DONE]\n\n", false, false, ""},
}

// TestTransportWatchesStreams reads every case whole, one byte per read
// (every line split at every place), and in reads of 7 bytes.
func TestTransportWatchesStreams(t *testing.T) {
	readers := []struct {
		name string
		wrap func(io.Reader) io.Reader
	}{
		{"whole", func(r io.Reader) io.Reader { return r }},
		{"one byte per read", iotest.OneByteReader},
		{"seven bytes per read", func(r io.Reader) io.Reader { return &chunkReader{r: r, n: 7} }},
		{"reads that start with a blank line", startAtBlankLines},
	}
	for _, rd := range readers {
		for _, tt := range streamCases {
			t.Run(rd.name+"/"+tt.name, func(t *testing.T) {
				resp := response(200, tt.contentType, "")
				resp.Body = io.NopCloser(rd.wrap(strings.NewReader(tt.body)))
				got, ev, _ := roundTrip(t, resp, true)
				if !ev.Stream || ev.EndMarker != tt.wantEnd || ev.InBand != tt.inBand || ev.ErrorType != tt.wantType {
					t.Errorf("got stream %v, end %v, in-band %v, type %q; want end %v, in-band %v, type %q",
						ev.Stream, ev.EndMarker, ev.InBand, ev.ErrorType, tt.wantEnd, tt.inBand, tt.wantType)
				}
				if body, _ := readAll(t, got.Body); string(body) != tt.body {
					t.Errorf("the client read %d bytes, want the %d sent, unchanged", len(body), len(tt.body))
				}
			})
		}
	}
}

// exactLine is an in-band error line of exactly maxLine bytes: the longest
// the watcher holds across reads.
var exactLine = func() string {
	head, tail := `data: {"error":{"type":"server_error","message":"`, `"}}`
	return head + strings.Repeat("x", maxLine-len(head)-len(tail)) + tail
}()

// startAtBlankLines returns a reader whose reads are cut between the two
// newlines that end each SSE event, so that reads start with a blank line.
func startAtBlankLines(r io.Reader) io.Reader {
	body, _ := io.ReadAll(r)
	var pieces [][]byte
	for {
		i := bytes.Index(body, []byte("\n\n"))
		if i < 0 {
			break
		}
		pieces, body = append(pieces, body[:i+1]), body[i+1:]
	}
	return &piecesReader{pieces: append(pieces, body)}
}

// piecesReader returns one piece per read.
type piecesReader struct{ pieces [][]byte }

func (p *piecesReader) Read(b []byte) (int, error) {
	if len(p.pieces) == 0 {
		return 0, io.EOF
	}
	n := copy(b, p.pieces[0])
	if p.pieces[0] = p.pieces[0][n:]; len(p.pieces[0]) == 0 {
		p.pieces = p.pieces[1:]
	}
	return n, nil
}

// readAll reads r to its end, failing the test at once when r keeps
// returning no bytes and no error (a reader that would never end).
func readAll(t *testing.T, r io.Reader) ([]byte, error) {
	t.Helper()
	var out []byte
	buf := make([]byte, 32<<10)
	for empty := 0; empty < 100; {
		n, err := r.Read(buf)
		out = append(out, buf[:n]...)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		if n == 0 {
			empty++
		}
	}
	t.Fatalf("the body returned nothing 100 times in a row without ending")
	return nil, nil
}

// chunkReader reads at most n bytes at a time.
type chunkReader struct {
	r io.Reader
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) { return c.r.Read(p[:min(len(p), c.n)]) }

// An in-band rate limit on a 200 stream keeps the response's rate-limit
// headers, so that the classifier can wait for the reset.
func TestInBandRateLimitKeepsTheReset(t *testing.T) {
	body := "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"Number of request tokens has exceeded your per-minute rate limit\"}}\n\n"
	_, ev, _ := roundTrip(t, response(200, "text/event-stream", body,
		"Anthropic-Ratelimit-Tokens-Remaining", "0", "Anthropic-Ratelimit-Tokens-Reset", time.Now().Add(time.Hour).UTC().Format(time.RFC3339)), true)
	ev.Status = 0 // as the response check does for an in-band error
	c := taxonomy.Classify(&taxonomy.WireError{Evidence: ev, Err: errors.New("in-band error")})
	if !ev.InBand || c.Kind != taxonomy.RateLimited || c.WaitSource != taxonomy.WaitReset || c.RetryAfter < 59*time.Minute {
		t.Errorf("got %v waiting %v (%v) from %+v, want rate_limited waiting about an hour for the reset", c, c.RetryAfter, c.WaitSource, ev)
	}
}

func TestTransportPassesOtherRequestsThrough(t *testing.T) {
	resp, _, _ := roundTrip(t, response(500, "application/json", `{"error":"x"}`), false)
	if _, ok := resp.Body.(*streamWatcher); ok {
		t.Errorf("a request without a slot was watched")
	}
}

func TestTransportBodyReadErrorIsRecorded(t *testing.T) {
	_, s := WithSlot(context.Background())
	broken := errors.New("connection reset by peer")
	w := &streamWatcher{body: io.NopCloser(io.MultiReader(strings.NewReader("data: x\n"), errReader{broken})), slot: s}
	_, _ = io.ReadAll(w)
	if ev, _ := s.Evidence(); !errors.Is(ev.BodyErr, broken) {
		t.Errorf("BodyErr: got %v, want the read error", ev.BodyErr)
	}
}

// closeRecorder records whether the body was closed.
type closeRecorder struct {
	io.Reader
	closed bool
}

func (c *closeRecorder) Close() error { c.closed = true; return nil }

// An error body is read at most maxErrorBody deep to find the provider's
// error, and the client still reads every byte of it, however long: no cut
// that looks like an ordinary end of body.
func TestTransportPassesLongErrorBodiesThrough(t *testing.T) {
	short := `{"error":{"message":"Overloaded","type":"server_error"}}`
	long := `{"error":{"message":"` + strings.Repeat("x", maxErrorBody) + `","type":"server_error"}}`
	exact := short + strings.Repeat(" ", maxErrorBody-len(short))
	tests := []struct {
		name, body, wantType string
		wantClosedEarly      bool // closed by the transport, before the client closes
	}{
		{"short body", short, "server_error", true},
		{"exactly the bound", exact, "server_error", false},
		{"over the bound: passed through, not parsed", long, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := &closeRecorder{Reader: strings.NewReader(tt.body)}
			resp := response(500, "application/json", "")
			resp.Body = body
			ctx, s := WithSlot(context.Background())
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://provider.test/v1/chat/completions", nil)
			got, err := NewTransport(fakeRoundTripper{resp}).RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			if body.closed != tt.wantClosedEarly {
				t.Errorf("closed before the client closed: %v, want %v", body.closed, tt.wantClosedEarly)
			}
			read, err := readAll(t, got.Body)
			if err != nil || string(read) != tt.body {
				t.Errorf("the client read %d bytes (%v), want all %d", len(read), err, len(tt.body))
			}
			if got.Body.Close(); !body.closed {
				t.Errorf("closing the response body did not close the connection's body")
			}
			if ev, _ := s.Evidence(); ev.ErrorType != tt.wantType {
				t.Errorf("error type: got %q, want %q", ev.ErrorType, tt.wantType)
			}
		})
	}
}

// A read error within the bound reaches the client after the bytes read.
func TestTransportReplaysAnErrorBodyReadError(t *testing.T) {
	broken := errors.New("connection reset by peer")
	resp := response(500, "application/json", "")
	resp.Body = io.NopCloser(io.MultiReader(strings.NewReader(`{"error":`), errReader{broken}))
	ctx, _ := WithSlot(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://provider.test/v1/chat/completions", nil)
	got, err := NewTransport(fakeRoundTripper{resp}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	if read, err := readAll(t, got.Body); string(read) != `{"error":` || !errors.Is(err, broken) {
		t.Errorf("the client read %q, %v; want the bytes then the read error", read, err)
	}
}

// A huge provider message is attached bounded: memory and classification
// time do not grow with it.
func TestTransportBoundsTheMessage(t *testing.T) {
	message := strings.Repeat("Overloaded. ", 80_000) // 960 kB, within the body bound
	body := `{"error":{"message":"` + message + `","type":"server_error"}}`
	_, ev, _ := roundTrip(t, response(529, "application/json", body), true)
	if want := taxonomy.BoundMessage(message); ev.ErrorMessage != want || len(want) != 8<<10 {
		t.Errorf("message: got %d bytes, want the first %d", len(ev.ErrorMessage), len(want))
	}
	if ev.ErrorType != "server_error" {
		t.Errorf("type: got %q, want server_error", ev.ErrorType)
	}
}

// Every error status from 400 up has its body read; a success's body is
// watched as a stream when it is one, and otherwise for an error object:
// under a 200 the same object is an in-band error either way.
func TestTransportReadsErrorBodiesOnly(t *testing.T) {
	body := `{"error":{"message":"bad request","type":"invalid_request_error","code":"bad"}}`
	tests := []struct {
		status      int
		contentType string
		wantType    string
		wantStream  bool
	}{
		{400, "application/json", "invalid_request_error", false},
		{200, "application/json", "invalid_request_error", false},
		{200, "text/event-stream", "invalid_request_error", true},
		{200, "application/x-ndjson", "invalid_request_error", true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.status, " ", tt.contentType), func(t *testing.T) {
			resp, ev, seen := roundTrip(t, response(tt.status, tt.contentType, body), true)
			if !seen || ev.ErrorType != tt.wantType || ev.Stream != tt.wantStream || ev.InBand != (tt.status == 200) {
				t.Errorf("got type %q, stream %v, in-band %v; want %q, %v, %v", ev.ErrorType, ev.Stream, ev.InBand, tt.wantType, tt.wantStream, tt.status == 200)
			}
			if got, _ := readAll(t, resp.Body); string(got) != body {
				t.Errorf("the client sees %q, want %q", got, body)
			}
		})
	}
}
