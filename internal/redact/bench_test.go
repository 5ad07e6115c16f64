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

// hostile are texts of 1 MiB built to make a scanner read the same bytes
// over and over: each place where a secret may start opens a value, a URL
// or an encoding that never ends. Their cost stays linear (compare with
// size=1MB).
var hostile = map[string]string{
	"names":     r("password=", 1<<20/9),
	"quotes":    `{"token":"` + r("a", 1<<20),
	"urls":      r("a://b:", 1<<20/6),
	"prefixes":  r("sk-", 1<<20/3),
	"escapes":   r(`\"`, 1<<19),
	"percent":   r("%22", 1<<20/3),
	"brackets":  r("key:[", 1<<20/5),
	"pairs":     r(`"name":"password",`, 1<<20/18),
	"keywords":  r("keytokensecretpass", 1<<20/18),
	"telegram":  r("12345:A", 1<<20/7),
	"userinfos": "https://u:" + r("/x", 1<<19),
}

func BenchmarkStringLarge(b *testing.B) {
	big := r(benchTexts["10KB"], 100)
	b.Run("size=1MB", func(b *testing.B) {
		b.SetBytes(int64(len(big)))
		for b.Loop() {
			redact.String(big)
		}
	})
	for name, text := range hostile {
		b.Run("hostile="+name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				redact.String(text)
			}
		})
	}
}
