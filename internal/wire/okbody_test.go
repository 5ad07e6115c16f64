package wire

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// The body of a successful reply that is not a stream is watched for a
// provider error object, whatever its layout, and passed to the client
// unchanged.
func TestErrorBodyWatcher(t *testing.T) {
	pretty := "{\n    \"error\": {\n        \"message\": \"The server is overloaded or not ready yet.\",\n        \"type\": \"server_error\",\n        \"param\": null,\n        \"code\": null\n    }\n}\n"
	long := `{"error":{"message":"` + strings.Repeat("x", maxErrorObject) + `","type":"server_error"}}`
	whole := largestErrorObject()
	tests := []struct {
		name               string
		body               string
		wantType, wantCode string
		wantMessage        string
		wantInBand         bool
	}{
		{"OpenAI, pretty-printed as OpenAI sends it", pretty, "server_error", "", "The server is overloaded or not ready yet.", true},
		{"Anthropic", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, "overloaded_error", "", "Overloaded", true},
		{"Ollama", ` {"error":"model 'x' not found"}`, "", "", "model 'x' not found", true},
		{"Mistral", `{"object":"error","message":"Service tier capacity exceeded","type":"service_tier_capacity_exceeded","code":"3505"}`, "service_tier_capacity_exceeded", "3505", "Service tier capacity exceeded", true},
		{"a success", `{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"{\"error\":1}"}}]}`, "", "", "", false},
		{"an Anthropic success", `{"type":"message","id":"msg_1","content":[{"type":"text","text":"Hello"}]}`, "", "", "", false},
		{"an embeddings list", `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[0.1,0.2]}]}`, "", "", "", false},
		{"an error that says nothing", `{"error":null,"id":"x","choices":[]}`, "", "", "", false},
		{"not JSON", `<html>error</html>`, "", "", "", false},
		{"an object longer than an error object", long, "", "", "", false},
		{"an error object of the largest size kept", whole, "server_error", "", "Overloaded", true},
		{"blank beyond the first key's bound", strings.Repeat(" ", maxFirstKey) + `{"error":"x"}`, "", "", "", false},
		{"a first key beyond its bound", `{` + strings.Repeat(" ", maxFirstKey) + `"error":"x"}`, "", "", "", false},
	}
	for _, tt := range tests {
		for _, size := range []int{1, 7, 32 << 10, 1 << 20} {
			t.Run(tt.name, func(t *testing.T) {
				resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
					Body: io.NopCloser(&chunkReader{r: strings.NewReader(tt.body), n: size})}
				got, ev, seen := roundTrip(t, resp, true)
				if !seen || ev.InBand != tt.wantInBand || ev.ErrorType != tt.wantType || ev.ErrorCode != tt.wantCode || ev.ErrorMessage != tt.wantMessage {
					t.Errorf("reads of %d bytes: got in-band %v, type %q, code %q, message %q", size, ev.InBand, ev.ErrorType, ev.ErrorCode, ev.ErrorMessage)
				}
				if b, _ := readAll(t, got.Body); string(b) != tt.body {
					t.Errorf("the client sees %d bytes, want the body unchanged", len(b))
				}
			})
		}
	}
}

// largestErrorObject is an error object of exactly maxErrorObject bytes,
// the largest that is kept and read.
func largestErrorObject() string {
	body := `{"error":{"message":"Overloaded","type":"server_error","detail":""}}`
	return body[:len(body)-3] + strings.Repeat("x", maxErrorObject-len(body)) + `"}}`
}

// An error object of the largest size kept is recorded however the reads
// split it: here the network delivers its first byte alone and the rest in
// one read into a client's large buffer, so the read that finds the first
// key also brings the whole object.
func TestErrorBodyWatcherKeepsTheLargestObjectInOneRead(t *testing.T) {
	body := largestErrorObject()
	ctx, s := WithSlot(t.Context())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://provider.test/v1/chat/completions", nil)
	resp, err := NewTransport(fakeRoundTripper{&http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(io.MultiReader(strings.NewReader(body[:1]), strings.NewReader(body[1:])))}}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	var got []byte
	buf := make([]byte, 2*maxErrorObject)
	for {
		n, err := resp.Body.Read(buf)
		got = append(got, buf[:n]...)
		if err != nil {
			break
		}
	}
	resp.Body.Close()
	if ev, _ := s.Evidence(); !ev.InBand || ev.ErrorType != "server_error" || ev.ErrorMessage != "Overloaded" || string(got) != body {
		t.Errorf("got in-band %v, type %q, message %q and %d bytes of %d; want the error recorded and the body unchanged",
			ev.InBand, ev.ErrorType, ev.ErrorMessage, len(got), len(body))
	}
}

// A client that decodes the object and closes the body without reading to
// its end still has the error recorded.
func TestErrorBodyWatcherOnClose(t *testing.T) {
	ctx, s := WithSlot(t.Context())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://provider.test/v1/chat/completions", nil)
	body := `{"error":{"message":"Invalid model","type":"invalid_request_error","code":"model_not_found"}}` + "\n\n"
	resp, err := NewTransport(fakeRoundTripper{response(200, "application/json", body)}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if ev, _ := s.Evidence(); !ev.InBand || ev.ErrorCode != "model_not_found" {
		t.Errorf("got %+v, want the error recorded at close", ev)
	}
}

// A success reply is recognised on its first read and nothing of it is
// kept, however long the body.
func TestErrorBodyWatcherKeepsNothingOfASuccess(t *testing.T) {
	for _, body := range []string{
		`{"id":"chatcmpl-1","object":"chat.completion","choices":[]}`,
		`{"object":"list","data":[{"object":"embedding","index":0,"embedding":[` + strings.Repeat("0.1,", 10000) + `0.1]}]}`,
		`{"type":"message","id":"msg_1","content":[]}`,
	} {
		_, s := WithSlot(t.Context())
		w := &errorBodyWatcher{body: io.NopCloser(strings.NewReader(body)), slot: s}
		if _, err := w.Read(make([]byte, 512)); err != nil {
			t.Fatal(err)
		}
		if w.state != notError || w.buf != nil {
			t.Errorf("%.30s...: after the first read, state %d with %d bytes kept; want passed through, nothing kept", body, w.state, len(w.buf))
		}
	}
}
