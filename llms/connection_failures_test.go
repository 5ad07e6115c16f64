package llms_test

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/anthropic"
	"github.com/tmc/langchaingo/llms/ollama"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/taxonomy"
)

// clientAt builds the real client of format f against baseURL (the
// server's root, "http://host"), over transport rt wrapped in the evidence
// transport.
func clientAt(t *testing.T, f faultserver.Format, root string, rt http.RoundTripper) lcllms.Model {
	t.Helper()
	hc := &http.Client{Transport: llms.NewTransport(rt)}
	var m lcllms.Model
	var err error
	switch f {
	case faultserver.OpenAI:
		m, err = openai.New(openai.WithBaseURL(root+"/v1"), openai.WithToken("sk-test"), openai.WithModel("gpt-4o-mini"), openai.WithHTTPClient(hc))
	case faultserver.Anthropic:
		m, err = anthropic.New(anthropic.WithBaseURL(root+"/v1"), anthropic.WithToken("sk-ant-test"), anthropic.WithModel("claude-3-5-haiku-latest"), anthropic.WithHTTPClient(hc))
	case faultserver.Ollama:
		m, err = ollama.New(ollama.WithServerURL(root), ollama.WithModel("llama3.2"), ollama.WithHTTPClient(hc))
	}
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// refusingDialer refuses every connection as the kernel does when nothing
// listens on the port, and records when each dial happened.
type refusingDialer struct {
	mu    sync.Mutex
	times []time.Time
}

func (d *refusingDialer) dial(_ context.Context, network, addr string) (net.Conn, error) {
	d.mu.Lock()
	d.times = append(d.times, time.Now())
	d.mu.Unlock()
	return nil, &net.OpError{Op: "dial", Net: network, Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
}

// A refused connection fails in no time: the retries must still wait their
// backoff, not spin through the attempts, and the final error says what
// happened.
func TestConnectionRefusedWaitsTheBackoff(t *testing.T) {
	forEachProvider(t, func(t *testing.T, f faultserver.Format) {
		d := &refusingDialer{}
		m := mustWrap(t, clientAt(t, f, "http://127.0.0.1:1", &http.Transport{DialContext: d.dial}), llms.Middleware(middleware.NoJitter()))
		_, err := m.GenerateContent(t.Context(), hello())
		if c := taxonomy.Classify(err); c.Kind != taxonomy.Transient {
			t.Errorf("class: got %v (%v), want transient", c, err)
		}
		if len(d.times) != 3 {
			t.Fatalf("dials: got %d, want 3", len(d.times))
		}
		if gap1, gap2 := d.times[1].Sub(d.times[0]), d.times[2].Sub(d.times[1]); gap1 != 500*time.Millisecond || gap2 != time.Second {
			t.Errorf("gaps between the attempts: %v and %v, want the backoff's 500ms and 1s", gap1, gap2)
		}
	})
}

// https:// to a plain HTTP port fails the same way every time: one request,
// a permanent failure naming the cause, whatever the client makes of the
// error.
func TestTLSToAPlainPortIsPermanent(t *testing.T) {
	forEachProvider(t, func(t *testing.T, f faultserver.Format) {
		s := faultserver.NewInMemory(faultserver.Reply("never"))
		defer s.Close()
		tr := s.Client().Transport.(*http.Transport).Clone()
		tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} // the handshake fails before any certificate
		_, err := mustWrap(t, clientAt(t, f, "https://faultserver.test", tr)).GenerateContent(t.Context(), hello())
		if c := taxonomy.Classify(err); c.Kind != taxonomy.Permanent {
			t.Errorf("class: got %v (%v), want permanent", c, err)
		}
		if !errors.As(err, new(tls.RecordHeaderError)) {
			t.Errorf("the cause is lost: %v", err)
		}
		tr.CloseIdleConnections()
	})
}

// A connection reset (RST) before any response is retried, like a hang-up.
// It needs a real socket, so it runs on loopback with a backoff of a
// millisecond.
func TestConnectionResetIsRetried(t *testing.T) {
	for _, f := range providers {
		t.Run(f.String(), func(t *testing.T) {
			s := faultserver.New(faultserver.Reset(), faultserver.Reset(), faultserver.Reply("Hello"))
			defer s.Close()
			resp, err := mustWrap(t, realClient(t, s, f), llms.Middleware(middleware.Backoff(time.Millisecond, time.Millisecond))).GenerateContent(t.Context(), hello())
			if err != nil || text(resp) != "Hello" || s.Count() != 3 {
				t.Fatalf("got %v after %d requests, want Hello after 3", err, s.Count())
			}
			s.SetScript(faultserver.Reset())
			_, err = mustWrap(t, realClient(t, s, f), llms.Middleware(middleware.SingleAttempt())).GenerateContent(t.Context(), hello())
			if c := taxonomy.Classify(err); c.Kind != taxonomy.Transient {
				t.Errorf("class of a reset: got %v (%v), want transient", c, err)
			}
		})
	}
}
