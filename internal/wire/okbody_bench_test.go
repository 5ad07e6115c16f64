package wire

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// BenchmarkReplyBody decodes a successful non-streamed reply of each
// format as langchaingo's clients do (json.Decoder over the body), through
// two transports in the same run: body=raw, the base transport's body, and
// body=watched, the same through the evidence Transport, which looks at the
// reply's first key for an error object. Compare with benchrounds, base
// body=raw.
func BenchmarkReplyBody(b *testing.B) {
	replies := map[string]string{
		"openai":    `{"id":"chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG","object":"chat.completion","created":1741570283,"model":"gpt-4o-2024-08-06","choices":[{"index":0,"message":{"role":"assistant","content":"` + strings.Repeat("word ", 400) + `","refusal":null},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":19,"completion_tokens":400,"total_tokens":419},"service_tier":"default","system_fingerprint":"fp_f9f4fb6dbf"}`,
		"anthropic": `{"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"` + strings.Repeat("word ", 400) + `"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":25,"output_tokens":400}}`,
	}
	for _, format := range []string{"openai", "anthropic"} {
		body := []byte(replies[format])
		for _, variant := range []string{"raw", "watched"} {
			b.Run(fmt.Sprintf("format=%s/body=%s", format, variant), func(b *testing.B) {
				var rt http.RoundTripper = memoryTransport{"application/json", body}
				if variant == "watched" {
					rt = NewTransport(rt)
				}
				ctx, _ := WithSlot(context.Background())
				b.SetBytes(int64(len(body)))
				b.ReportAllocs()
				for b.Loop() {
					req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://provider.test/v1/chat/completions", strings.NewReader(`{"model":"m"}`))
					resp, err := rt.RoundTrip(req)
					if err != nil {
						b.Fatal(err)
					}
					var v map[string]any
					err = json.NewDecoder(resp.Body).Decode(&v)
					resp.Body.Close()
					if err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
