package resilienteino_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/resilienteino"
	"github.com/resilientgo/resilient/taxonomy"
)

// A stream that fails before it says anything is retried, and the reader
// sees only the stream that answered.
func TestStreamRetriesBeforeTheFirstChunk(t *testing.T) {
	tests := []struct {
		name  string
		fault faultserver.Step
		wait  time.Duration // -1: any
		// backoff: the wait is a timeout, then a backoff under 0.5 s
		backoff bool
	}{
		{"in-band error", faultserver.InBandError("server_error", "The server had an error while processing your request."), -1, false},
		{"in-band rate limit timed by the headers", faultserver.InBandError("rate_limit_error", "Rate limit exceeded").
			WithHeader("x-ratelimit-remaining-tokens", "0").WithHeader("x-ratelimit-reset-tokens", "4s"), 4 * time.Second, false},
		{"cut cleanly before any chunk", faultserver.NoEndMarker(), -1, false},
		{"dropped before any chunk", faultserver.DropStream(), -1, false},
		{"429 Retry-After", faultserver.RateLimited("5"), 5 * time.Second, false},
		{"529", faultserver.Overloaded(), -1, false},
		{"502 HTML page", faultserver.BadGateway(), -1, false},
		{"no first chunk in time", faultserver.Stall(), llms.DefaultFirstChunkTimeout, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := faultserver.NewInMemory(tt.fault, faultserver.Reply("Hello big world"))
				defer s.Close()
				sr, err := resilienteino.Model(openaiModel(t, s)).Stream(t.Context(), hello())
				if err != nil {
					t.Fatal(err)
				}
				text, err := readAll(sr)
				if err != nil || text != "Hello big world" || s.Count() != 2 {
					t.Fatalf("read %q, %v after %d requests, want the whole reply after 2", text, err, s.Count())
				}
				switch g := gaps(s); {
				case tt.wait < 0:
				case tt.backoff && (g[0] < tt.wait || g[0] >= tt.wait+middleware.DefaultBaseDelay):
					t.Errorf("waited %v, want %v and a backoff under 0.5 s", g[0], tt.wait)
				case !tt.backoff && g[0] != tt.wait:
					t.Errorf("waited %v, want exactly %v", g[0], tt.wait)
				}
			})
		})
	}
}

// A failure before any output that is not retried is Stream's own error,
// after one request.
func TestStreamPermanentFailureIsStreamsError(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.InvalidAPIKey(), faultserver.Reply("Hello"))
		defer s.Close()
		sr, err := resilienteino.Model(openaiModel(t, s)).Stream(t.Context(), hello())
		var final *middleware.Error
		if sr != nil || !errors.As(err, &final) || final.Reason != observe.ReasonPermanent || s.Count() != 1 {
			t.Fatalf("got %v, %v after %d requests, want no reader, a permanent failure, 1 request", sr, err, s.Count())
		}
	})
}

// A stream that breaks after it showed text is not retried without a
// restart hook: the reader gets the text, then a PartialStreamError.
func TestStreamCutAfterOutputEndsWithAPartialStreamError(t *testing.T) {
	tests := []struct {
		name  string
		fault faultserver.Step
	}{
		{"dropped", faultserver.DropStream("Hel", "lo")},
		{"cut cleanly", faultserver.NoEndMarker("Hel", "lo")},
		{"in-band error after text", faultserver.InBandError("server_error", "The server had an error", "Hel", "lo")},
		{"stalled after text", faultserver.Stall("Hel", "lo")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := faultserver.NewInMemory(tt.fault, faultserver.Reply("Hello big world"))
				defer s.Close()
				sr, err := resilienteino.Model(openaiModel(t, s)).Stream(t.Context(), hello())
				if err != nil {
					t.Fatal(err)
				}
				text, err := readAll(sr)
				var partial *resilienteino.PartialStreamError
				if text != "Hello" || !errors.As(err, &partial) || partial.Partial != "Hello" || s.Count() != 1 {
					t.Fatalf("read %q, %v after %d requests, want Hello, then a partial stream error after 1", text, err, s.Count())
				}
			})
		})
	}
}

// With a restart hook, a stream that broke after it showed text is tried
// again: the hook gets the text shown, and the new attempt's chunks follow
// on the same reader.
func TestStreamRestartHook(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.DropStream("Hel", "lo"), faultserver.Reply("Hello big world"))
		defer s.Close()
		var mu sync.Mutex
		var cleared []string
		hook := func(_ context.Context, partial string) error {
			mu.Lock()
			defer mu.Unlock()
			cleared = append(cleared, partial)
			return nil
		}
		sr, err := resilienteino.Model(openaiModel(t, s), resilienteino.OnStreamRestart(hook)).Stream(t.Context(), hello())
		if err != nil {
			t.Fatal(err)
		}
		text, err := readAll(sr)
		mu.Lock()
		defer mu.Unlock()
		if err != nil || text != "HelloHello big world" || s.Count() != 2 || len(cleared) != 1 || cleared[0] != "Hello" {
			t.Fatalf("read %q, %v after %d requests, hook given %q; want the shown text cleared once, then the whole reply", text, err, s.Count(), cleared)
		}
	})
}

// A reader closed early ends the call: no retry, nothing left running.
func TestStreamReaderClosedEndsTheCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.ReplyChunks("a", "b", "c", "d"), faultserver.Reply("never"))
		defer s.Close()
		sr, err := resilienteino.Model(openaiModel(t, s)).Stream(t.Context(), hello())
		if err != nil {
			t.Fatal(err)
		}
		if chunk, err := sr.Recv(); err != nil || chunk.Content != "a" {
			t.Fatalf("first chunk: %v, %v", chunk, err)
		}
		sr.Close()
		synctest.Wait()
		if s.Count() != 1 {
			t.Errorf("%d requests, want 1", s.Count())
		}
	})
}

// The usage of a stream's last chunk counts for the run.
func TestStreamUsageCountsForTheRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.Overloaded(), faultserver.Reply("Hello big world"))
		defer s.Close()
		ctx := resilienteino.NewRun(t.Context())
		sr, err := resilienteino.Model(openaiModel(t, s)).Stream(ctx, hello())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := readAll(sr); err != nil {
			t.Fatal(err)
		}
		u := resilienteino.UsageFrom(ctx)
		if u.Requests != 2 || u.Retries != 1 || u.InputTokens == 0 || u.OutputTokens == 0 {
			t.Errorf("usage %+v, want 2 requests, 1 retry and the tokens the reply reported", u)
		}
	})
}

// A stream the guard ended for stalling is a transient failure, whose
// error says so.
func TestStreamStallIsTransient(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.Stall())
		defer s.Close()
		_, err := resilienteino.Model(openaiModel(t, s), resilienteino.MaxAttempts(1),
			resilienteino.FirstChunkTimeout(10*time.Second)).Stream(t.Context(), hello())
		if !errors.Is(err, resilienteino.ErrFirstChunkTimeout) || taxonomy.Classify(err).Kind != taxonomy.Transient {
			t.Fatalf("got %v (%v), want a transient first chunk timeout", err, taxonomy.Classify(err).Kind)
		}
	})
}
