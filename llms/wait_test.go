package llms_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/taxonomy"
)

// These tests drive the real openai, anthropic and ollama clients against
// the fault server, inside synctest bubbles, through the evidence transport:
// the wait before a retry follows the provider's headers exactly, and the
// pipeline reports where it came from.

// header is one response header of a scripted failure.
type header struct{ key, value string }

func withHeaders(s faultserver.Step, hs ...header) faultserver.Step {
	for _, h := range hs {
		s = s.WithHeader(h.key, h.value)
	}
	return s
}

// rfc3339In renders the time d from now, as anthropic-ratelimit-*-reset
// does. Inside a bubble, now is a whole second.
func rfc3339In(d time.Duration) string { return time.Now().Add(d).UTC().Format(time.RFC3339) }

func TestWaitFollowsTheHeaders(t *testing.T) {
	tests := []struct {
		name       string
		headers    func() []header // built inside the bubble, where the clock is fake
		want       time.Duration
		wantSource taxonomy.WaitSource
	}{
		{"openai reset of the exhausted limit", func() []header {
			return []header{{"x-ratelimit-remaining-requests", "0"}, {"x-ratelimit-reset-requests", "6s"},
				{"x-ratelimit-remaining-tokens", "1000"}, {"x-ratelimit-reset-tokens", "20ms"}}
		}, 6 * time.Second, taxonomy.WaitReset},
		{"openai reset, no limit said to be exhausted: the soonest", func() []header {
			return []header{{"x-ratelimit-reset-requests", "1m0s"}, {"x-ratelimit-reset-tokens", "3s"}}
		}, 3 * time.Second, taxonomy.WaitReset},
		{"anthropic reset of the exhausted limit", func() []header {
			return []header{{"anthropic-ratelimit-tokens-remaining", "0"}, {"anthropic-ratelimit-tokens-reset", rfc3339In(20 * time.Second)},
				{"anthropic-ratelimit-requests-remaining", "49"}, {"anthropic-ratelimit-requests-reset", rfc3339In(time.Second)}}
		}, 20 * time.Second, taxonomy.WaitReset},
		{"Retry-After wins over a reset", func() []header {
			return []header{{"Retry-After", "2"}, {"x-ratelimit-remaining-requests", "0"}, {"x-ratelimit-reset-requests", "20s"}}
		}, 2 * time.Second, taxonomy.WaitRetryAfter},
		{"Retry-After 0 means now, whatever the reset", func() []header {
			return []header{{"Retry-After", "0"}, {"x-ratelimit-remaining-requests", "0"}, {"x-ratelimit-reset-requests", "30s"}}
		}, 0, taxonomy.WaitRetryAfter},
		{"retry-after-ms 0 means now, whatever Retry-After says", func() []header {
			return []header{{"retry-after-ms", "0"}, {"Retry-After", "7"}}
		}, 0, taxonomy.WaitRetryAfter},
		{"retry-after-ms is the more precise", func() []header {
			return []header{{"retry-after-ms", "1500"}, {"Retry-After", "2"}}
		}, 1500 * time.Millisecond, taxonomy.WaitRetryAfter},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			forEachProvider(t, func(t *testing.T, f faultserver.Format) {
				s := faultserver.NewInMemory(withHeaders(faultserver.RateLimited(""), tt.headers()...), faultserver.Reply("Hello"))
				defer s.Close()
				rec := &observetest.Recorder{}
				resp, err := mustWrap(t, realClient(t, s, f), llms.Middleware(middleware.Observe(rec))).GenerateContent(t.Context(), hello())
				if err != nil || text(resp) != "Hello" {
					t.Fatalf("got %v", err)
				}
				wantRetryAfter(t, s, tt.want)
				retries := observetest.Of[observe.RetryScheduled](rec)
				if len(retries) != 1 || retries[0].Wait != tt.want || retries[0].Source != tt.wantSource {
					t.Errorf("retries reported: %+v, want one after %v from %v", retries, tt.want, tt.wantSource)
				}
			})
		})
	}
}

// A reset over the cap is treated like a Retry-After over the cap: the call
// fails at once, so that a fallback can take it. An absurd reset is clamped
// where it is parsed.
func TestResetOverTheCapFailsFast(t *testing.T) {
	for _, reset := range []string{"5m0s", "10000h", "99999999999999999999h"} {
		t.Run(reset, func(t *testing.T) {
			forEachProvider(t, func(t *testing.T, f faultserver.Format) {
				step := withHeaders(faultserver.RateLimited(""), header{"x-ratelimit-remaining-requests", "0"}, header{"x-ratelimit-reset-requests", reset})
				s := faultserver.NewInMemory(step, faultserver.Reply("Hello"))
				defer s.Close()
				start := time.Now()
				_, err := mustWrap(t, realClient(t, s, f)).GenerateContent(t.Context(), hello())
				var final *middleware.Error
				if !errors.As(err, &final) || final.Reason != observe.ReasonRetryAfterOverCap || time.Since(start) != 0 || s.Count() != 1 {
					t.Fatalf("got %v after %v and %d requests, want retry-after over the cap at once", err, time.Since(start), s.Count())
				}
				if c := final.Class(); c.RetryAfter > taxonomy.MaxWaitHint || c.WaitSource != taxonomy.WaitReset {
					t.Errorf("class: got %v from %v, want at most %v from the reset", c.RetryAfter, c.WaitSource, taxonomy.MaxWaitHint)
				}
			})
		})
	}
}

// An in-band rate-limit error on a 200 stream is timed by the stream's
// rate-limit headers: the classifier sees every hint the transport recorded.
func TestInBandRateLimitWaitsForTheReset(t *testing.T) {
	forEachProvider(t, func(t *testing.T, f faultserver.Format) {
		step := withHeaders(faultserver.InBandError("rate_limit_error", "Rate limit exceeded"),
			header{"x-ratelimit-remaining-tokens", "0"}, header{"x-ratelimit-reset-tokens", "4s"})
		s := faultserver.NewInMemory(step, faultserver.ReplyChunks("Hel", "lo"))
		defer s.Close()
		resp, err := mustWrap(t, realClient(t, s, f)).GenerateContent(t.Context(), hello(),
			lcllms.WithStreamingFunc(func(context.Context, []byte) error { return nil }))
		if err != nil || text(resp) != "Hello" {
			t.Fatalf("got %v", err)
		}
		wantRetryAfter(t, s, 4*time.Second)
	})
}

// An error body longer than the transport reads (1 MiB) reaches the client
// whole: the provider's message is not cut off without a sign. (Ollama's
// client is left out: it reports a 500 as an empty success, whatever the
// body says.)
func TestLongErrorBodyReachesTheClient(t *testing.T) {
	const end = "END-OF-THE-PROVIDER-MESSAGE"
	message := strings.Repeat("The server had an error while processing your request. ", (2<<20)/56) + end
	forEach(t, []faultserver.Format{faultserver.OpenAI, faultserver.Anthropic}, func(t *testing.T, f faultserver.Format) {
		s := faultserver.NewInMemory(faultserver.Status(500, message))
		defer s.Close()
		_, err := mustWrap(t, realClient(t, s, f), llms.Middleware(middleware.SingleAttempt())).GenerateContent(t.Context(), hello())
		var wire *taxonomy.WireError
		if !errors.As(err, &wire) || wire.Status != 500 {
			t.Fatalf("got %v, want the 500's evidence", err)
		}
		if !strings.HasSuffix(wire.Err.Error(), end) {
			t.Errorf("the client's error does not end with the message's end: ...%q", tail(wire.Err.Error(), 60))
		}
		if c := taxonomy.Classify(err); c.Kind != taxonomy.Transient {
			t.Errorf("class: got %v, want transient", c)
		}
	})
}

func tail(s string, n int) string { return s[max(0, len(s)-n):] }

// A provider message of a megabyte is attached to the evidence bounded.
func TestHugeProviderMessageIsBounded(t *testing.T) {
	message := strings.Repeat("Overloaded. ", 80_000) // 960 kB: within what the transport reads
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.Status(529, message))
		defer s.Close()
		_, err := mustWrap(t, realClient(t, s, faultserver.OpenAI), llms.Middleware(middleware.SingleAttempt())).GenerateContent(t.Context(), hello())
		var wire *taxonomy.WireError
		if !errors.As(err, &wire) || len(wire.ErrorMessage) != 8<<10 || !strings.HasPrefix(message, wire.ErrorMessage) {
			t.Fatalf("got %d bytes of message (%T), want its first 8 KiB", len(wire.ErrorMessage), err)
		}
	})
}

// The stream guard keeps only the last 64 KiB of what it delivered, for the
// PartialStreamError and the restart hook, however long the stream.
func TestPartialStreamKeepsABoundedTail(t *testing.T) {
	var chunks []string
	total := 0
	for i := 0; total < 200<<10; i++ {
		c := strings.Repeat(string(rune('a'+i%26)), 511) + "|"
		chunks = append(chunks, c)
		total += len(c)
	}
	delivered := strings.Join(chunks, "")
	want := delivered[len(delivered)-64<<10:]
	forEachProvider(t, func(t *testing.T, f faultserver.Format) {
		s := faultserver.NewInMemory(faultserver.DropStream(chunks...), faultserver.ReplyChunks("Hel", "lo"))
		defer s.Close()
		var c collector
		_, err := mustWrap(t, realClient(t, s, f)).GenerateContent(t.Context(), hello(), lcllms.WithStreamingFunc(c.fn))
		var partial *llms.PartialStreamError
		if !errors.As(err, &partial) {
			t.Fatalf("got %v, want a PartialStreamError", err)
		}
		if partial.Partial != want || partial.Bytes != total || partial.Chunks != len(chunks) || c.text() != delivered {
			t.Fatalf("got %d bytes of partial text (its tail: %v), %d bytes and %d chunks counted, %d bytes streamed; want the last %d, %d, %d, %d",
				len(partial.Partial), partial.Partial == want, partial.Bytes, partial.Chunks, len(c.text()), len(want), total, len(chunks), total)
		}

		s.SetScript(faultserver.DropStream(chunks...), faultserver.ReplyChunks("Hel", "lo"))
		var restarted []string
		hook := func(_ context.Context, partial string) error {
			restarted = append(restarted, partial)
			return nil
		}
		resp, err := mustWrap(t, realClient(t, s, f), llms.OnStreamRestart(hook)).GenerateContent(t.Context(), hello(),
			lcllms.WithStreamingFunc(func(context.Context, []byte) error { return nil }))
		if err != nil || text(resp) != "Hello" || len(restarted) != 1 || restarted[0] != want {
			t.Fatalf("with a restart hook: got %v and %d restarts, want Hello after one restart given the last 64 KiB", err, len(restarted))
		}
	})
}

// wantRetryAfter checks that s got two requests, exactly d apart.
func wantRetryAfter(t *testing.T, s *faultserver.Server, d time.Duration) {
	t.Helper()
	reqs := s.Requests()
	if len(reqs) != 2 || reqs[1].Time.Sub(reqs[0].Time) != d {
		t.Fatalf("got %d requests, %v apart; want 2, exactly %v apart", len(reqs), reqs[len(reqs)-1].Time.Sub(reqs[0].Time), d)
	}
}
