package wire

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/internal/benchcpu"
)

// The stream benchmarks read a 10,000-chunk stream the way langchaingo's
// clients read one (a bufio.Scanner over the body, line by line), through
// two transports in the same run:
//
//	body=raw      the base transport's body, unwatched
//	body=watched  the same body through the evidence Transport
//	body=lines    (wire=memory only) a body that finds each line's end
//	              with bytes.IndexByte and does nothing else: the floor of
//	              any watcher that looks at every line start in Go
//
// over three wires:
//
//	wire=memory    a RoundTripper that answers from a byte slice: the
//	               watcher's cost against nothing but the line splitting
//	wire=pipe      http.Transport to an HTTP server over an in-memory
//	               connection (faultserver.NewInMemory)
//	wire=loopback  http.Transport to an HTTP server on 127.0.0.1
//	               (faultserver.New)
//
// in the three stream formats (OpenAI and Anthropic SSE, Ollama NDJSON).
// Compare with benchrounds, base body=raw (see docs/performance.md); each
// reports its process CPU time per stream too (-metric cpu-ns/op).

const benchChunks = 10_000

// benchStream renders a stream of n text chunks in format f, as the
// providers send it, ending with the format's end marker.
func benchStream(f string, n int) (contentType string, body []byte) {
	var b bytes.Buffer
	switch f {
	case "openai":
		for i := range n {
			fmt.Fprintf(&b, `data: {"id":"chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG","object":"chat.completion.chunk","created":1741570283,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_f9f4fb6dbf","choices":[{"index":0,"delta":{"content":" word%d"},"logprobs":null,"finish_reason":null}]}`+"\n\n", i)
		}
		b.WriteString(`data: {"id":"chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG","object":"chat.completion.chunk","created":1741570283,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_f9f4fb6dbf","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}]}` + "\n\n")
		b.WriteString("data: [DONE]\n\n")
		return "text/event-stream", b.Bytes()
	case "anthropic":
		b.WriteString("event: message_start\n" + `data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-sonnet-4-5","stop_reason":null,"usage":{"input_tokens":25,"output_tokens":1}}}` + "\n\n")
		for i := range n {
			fmt.Fprintf(&b, "event: content_block_delta\n"+`data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" word%d"}}`+"\n\n", i)
		}
		b.WriteString("event: message_delta\n" + `data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":15}}` + "\n\n")
		b.WriteString("event: message_stop\n" + `data: {"type":"message_stop"}` + "\n\n")
		return "text/event-stream", b.Bytes()
	default: // ollama
		for i := range n {
			fmt.Fprintf(&b, `{"model":"llama3.2","created_at":"2025-03-10T01:31:23.443452Z","message":{"role":"assistant","content":" word%d"},"done":false}`+"\n", i)
		}
		b.WriteString(`{"model":"llama3.2","created_at":"2025-03-10T01:31:23.443452Z","message":{"role":"assistant","content":""},"done_reason":"stop","done":true,"total_duration":4883583458,"load_duration":1334875,"prompt_eval_count":26,"prompt_eval_duration":342546000,"eval_count":282,"eval_duration":4535599000}` + "\n")
		return "application/x-ndjson", b.Bytes()
	}
}

// memoryTransport answers every request with the same stream from memory.
type memoryTransport struct {
	contentType string
	body        []byte
}

func (m memoryTransport) RoundTrip(*http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {m.contentType}},
		Body: io.NopCloser(bytes.NewReader(m.body))}, nil
}

// readLines reads a body the way the providers' clients do and counts its
// lines.
func readLines(body io.Reader) (int, error) {
	sc := bufio.NewScanner(body)
	n := 0
	for sc.Scan() {
		n++
	}
	return n, sc.Err()
}

func BenchmarkStream(b *testing.B) {
	for _, format := range []string{"openai", "anthropic", "ollama"} {
		contentType, body := benchStream(format, benchChunks)
		wantLines := bytes.Count(body, []byte("\n"))
		step := faultserver.Malformed(string(body)).WithHeader("Content-Type", contentType)
		pipe, loopback := faultserver.NewInMemory(step), faultserver.New(step)
		wires := []struct {
			name string
			base http.RoundTripper
			url  string
		}{
			{"memory", memoryTransport{contentType, body}, "http://provider.test/v1/chat/completions"},
			{"pipe", pipe.Client().Transport, pipe.OpenAIBaseURL() + "/chat/completions"},
			{"loopback", loopback.Client().Transport, loopback.OpenAIBaseURL() + "/chat/completions"},
		}
		for _, wire := range wires {
			for _, variant := range []string{"raw", "watched", "lines"} {
				if variant == "lines" && wire.name != "memory" {
					continue
				}
				b.Run(fmt.Sprintf("format=%s/wire=%s/body=%s", format, wire.name, variant), func(b *testing.B) {
					rt := wire.base
					switch variant {
					case "watched":
						rt = NewTransport(wire.base)
					case "lines":
						rt = linesTransport{wire.base}
					}
					ctx, s := WithSlot(context.Background())
					b.SetBytes(int64(len(body)))
					b.ReportAllocs()
					stop := benchcpu.Start(b)
					for b.Loop() {
						req, _ := http.NewRequestWithContext(ctx, http.MethodPost, wire.url, strings.NewReader(`{"model":"m","stream":true}`))
						resp, err := rt.RoundTrip(req)
						if err != nil {
							b.Fatal(err)
						}
						n, err := readLines(resp.Body)
						resp.Body.Close()
						if err != nil || n != wantLines {
							b.Fatalf("read %d lines (%v), want %d", n, err, wantLines)
						}
					}
					stop()
					if ev, _ := s.Evidence(); variant == "watched" && !ev.EndMarker {
						b.Fatalf("the end marker was not seen: %+v", ev)
					}
				})
			}
		}
		pipe.Close()
		loopback.Close()
	}
}

// linesTransport wraps each response body in a linesBody.
type linesTransport struct{ base http.RoundTripper }

func (l linesTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := l.base.RoundTrip(req)
	if err == nil {
		resp.Body = &linesBody{ReadCloser: resp.Body}
	}
	return resp, err
}

// linesBody finds the end of every line the client reads, one
// bytes.IndexByte per line (skipping blank lines without one, as the
// watcher does), and nothing else.
type linesBody struct {
	io.ReadCloser
	lines int
}

func (l *linesBody) Read(p []byte) (int, error) {
	n, err := l.ReadCloser.Read(p)
	for b := p[:n]; len(b) > 0; {
		if b[0] == '\n' {
			b = b[1:]
			continue
		}
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			break
		}
		l.lines++
		b = b[i+1:]
	}
	return n, err
}
