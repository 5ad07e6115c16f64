package redact_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/resilientgo/resilient/internal/redact"
)

// benchTexts are the texts the benchmarks redact: a typical error of a
// model provider (about 200 bytes, with the words "token" and "key" that
// make the named-field rules look, and no secret), and a 10 KB one (a
// response dump with headers, a JSON body and one Authorization header).
var benchTexts = func() map[string]string {
	short := `openai: status 429: {"error":{"message":"Rate limit reached for gpt-4o in organization ` +
		`org-abc123 on tokens per min (TPM): Limit 30000, Used 29000.","type":"tokens","code":"rate_limit_exceeded"}}`
	var b strings.Builder
	b.WriteString(`POST "https://api.example.com/v1/chat/completions": 502 Bad Gateway; request headers: ` +
		`map[Accept:[application/json] Authorization:[Bearer ` + strings.Repeat("aB3dE5gH7k", 4) +
		`] Content-Type:[application/json] User-Agent:[langchaingo/0.1.14]]; body: `)
	for i := 0; b.Len() < 10_000; i++ {
		b.WriteString(`{"index":` + strconv.Itoa(i) + `,"message":{"role":"assistant","content":"The order ` +
			`ORD-2024-00` + strconv.Itoa(i) + ` ships on Monday; max_tokens was 4096 and the cache_key user:7."},` +
			`"finish_reason":"length"},`)
	}
	return map[string]string{"200B": short, "10KB": b.String()}
}()

func BenchmarkString(b *testing.B) {
	for _, name := range []string{"200B", "10KB"} {
		text := benchTexts[name]
		b.Run("size="+name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				redact.String(text)
			}
		})
	}
}
