package llms_test

import (
	"errors"
	"strings"
	"testing"

	lcllms "github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/anthropic"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
)

// A reply that spent its output limit before any output fails with an
// error that says so in plain words and keeps the client's own error, if
// it reported one, for errors.Is and for the reader of the log.
func TestOutputLimitErrorSaysWhyAndKeepsTheClientError(t *testing.T) {
	tests := []struct {
		name   string
		format faultserver.Format
		step   faultserver.Step
		stream bool
		stop   string
		client error // the error the client reported of its own, if any
	}{
		{"openai length with no text", faultserver.OpenAI, faultserver.Raw(200, jsonType,
			`{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"o4-mini","choices":[{"index":0,"message":{"role":"assistant","content":""},"finish_reason":"length"}],"usage":{"prompt_tokens":5,"completion_tokens":16,"total_tokens":21}}`),
			false, "length", nil},
		{"anthropic max_tokens with no text, streamed", faultserver.Anthropic, faultserver.RawStream(
			anthropicEmptyStart,
			anthropicMaxTokensDelta,
			anthropicMessageStop),
			true, "max_tokens", anthropic.ErrEmptyResponse},
	}
	for _, tt := range tests {
		forEach(t, []faultserver.Format{tt.format}, func(t *testing.T, f faultserver.Format) {
			s := faultserver.NewInMemory(tt.step, faultserver.Reply("never"))
			defer s.Close()
			var opts []lcllms.CallOption
			var c collector
			if tt.stream {
				opts = append(opts, lcllms.WithStreamingFunc(c.fn))
			}
			_, err := mustWrap(t, realClient(t, s, f)).GenerateContent(t.Context(), hello(), opts...)
			if !errors.Is(err, llms.ErrStopReason) || s.Count() != 1 {
				t.Fatalf("%s: got %v after %d requests, want ErrStopReason after 1", tt.name, err, s.Count())
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.stop+" before any output") || strings.Contains(msg, "%!") {
				t.Errorf("%s: the error says %q, want it to name %q before any output, well formatted", tt.name, msg, tt.stop)
			}
			if tt.client != nil && !errors.Is(err, tt.client) {
				t.Errorf("%s: the error %q does not keep the client's own (%v)", tt.name, msg, tt.client)
			}
		})
	}
}
