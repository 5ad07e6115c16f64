package faultserver_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/faultserver"
)

// postRaw sends a chat request in the given format's path to s and returns the
// response (its body unread).
func postRaw(t *testing.T, ctx context.Context, s *faultserver.Server, path string) (*http.Response, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+path, strings.NewReader(`{"model":"m","stream":true}`))
	if err != nil {
		t.Fatal(err)
	}
	return s.Client().Do(req)
}

func TestRawIsSentVerbatim(t *testing.T) {
	tests := []struct {
		name, contentType, wantType string
	}{
		{"with a Content-Type", "text/plain; charset=utf-8", "text/plain; charset=utf-8"},
		{"without one, none is sniffed", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const body = `{"error":{"message":"busy","type":"server_error"}}`
			s := faultserver.New(faultserver.Raw(200, tt.contentType, body))
			defer s.Close()
			for _, path := range []string{"/v1/chat/completions", "/v1/messages", "/api/chat", "/v1/embeddings"} {
				resp, err := postRaw(t, t.Context(), s, path)
				if err != nil {
					t.Fatal(err)
				}
				got, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 || string(got) != body || resp.Header.Get("Content-Type") != tt.wantType {
					t.Errorf("%s: got %d %q %q, want 200 %q %q", path, resp.StatusCode, resp.Header.Get("Content-Type"), got, tt.wantType, body)
				}
			}
		})
	}
}

func TestRawStreamSendsItsFramesAndEnds(t *testing.T) {
	frames := []string{": keep-alive\n\n", "data: {\"error\":{\"message\":\"x\"}}\n\n"}
	s := faultserver.New(faultserver.RawStream(frames...))
	defer s.Close()
	for path, wantType := range map[string]string{"/v1/chat/completions": "text/event-stream; charset=utf-8", "/api/chat": "application/x-ndjson"} {
		resp, err := postRaw(t, t.Context(), s, path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || string(got) != strings.Join(frames, "") || resp.Header.Get("Content-Type") != wantType {
			t.Errorf("%s: got (%q, %v) as %q, want the frames verbatim and a clean end as %q", path, got, err, resp.Header.Get("Content-Type"), wantType)
		}
	}
}

func TestRawStallSendsItsFramesThenNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.RawStall("event: ping\ndata: {\"type\": \"ping\"}\n\n"))
		defer s.Close()
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		start := time.Now()
		resp, err := postRaw(t, ctx, s, "/v1/messages")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		got, err := io.ReadAll(resp.Body)
		if string(got) != "event: ping\ndata: {\"type\": \"ping\"}\n\n" || !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != time.Minute {
			t.Errorf("got (%q, %v) after %v, want the ping, then nothing until the deadline", got, err, time.Since(start))
		}
	})
}

func TestResetSendsAnRST(t *testing.T) {
	s := faultserver.New(faultserver.Reset())
	defer s.Close()
	_, err := postRaw(t, t.Context(), s, "/v1/chat/completions")
	if !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("got %v, want a connection reset", err)
	}
}
