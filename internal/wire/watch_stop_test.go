package wire

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// The stream watcher records the stop reason of Anthropic's message_delta,
// whatever its spacing; a null one is none.
func TestStreamWatcherRecordsTheStopReason(t *testing.T) {
	tests := []struct{ delta, want string }{
		{`{"type":"message_delta","delta":{"stop_reason":"max_tokens","stop_sequence":null},"usage":{"output_tokens":1}}`, "max_tokens"},
		{`{"type": "message_delta", "delta": {"stop_reason" : "end_turn"}}`, "end_turn"},
		{`{"type":"message_delta","delta":{"stop_reason":null}}`, ""},
		{`{"type":"message_delta","delta":{"stop_reason":"` + strings.Repeat("x", maxStopReason+1) + `"}}`, ""},
		{`{"type":"message_delta","delta":{"stop_reason":"` + strings.Repeat("y", maxStopReason) + `"}}`, strings.Repeat("y", maxStopReason)},
	}
	for _, tt := range tests {
		ctx, s := WithSlot(context.Background())
		body := "event: message_start\ndata: {\"type\":\"message_start\"}\n\nevent: message_delta\ndata: " + tt.delta + "\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://provider.test/v1/messages", nil)
		resp, err := NewTransport(fakeRoundTripper{response(200, "text/event-stream", body)}).RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := readAll(t, resp.Body); err != nil {
			t.Fatal(err)
		}
		if got := s.StopReason(); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.delta, got, tt.want)
		}
	}
}
