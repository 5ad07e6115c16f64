package llms_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/internal/scripted"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
)

// hang is a step of a model that ignores its context, as langchaingo's
// mistral client does: it answers after d whatever happens.
func hang(d time.Duration, chunks ...string) scripted.Step {
	return scripted.Step{Func: func(ctx context.Context, _ []lcllms.MessageContent, opts lcllms.CallOptions) (*lcllms.ContentResponse, error) {
		for _, c := range chunks {
			if opts.StreamingFunc != nil {
				_ = opts.StreamingFunc(ctx, []byte(c))
			}
		}
		time.Sleep(d)
		return &lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{{Content: "too late", StopReason: "stop"}}}, nil
	}}
}

func TestTimeoutBoundsAModelThatIgnoresItsContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		inner := scripted.New(hang(time.Hour), scripted.Reply("on time"))
		m := mustWrap(t, inner, llms.Middleware(middleware.Timeout(time.Second)), llms.Middleware(middleware.NoJitter()))
		start := time.Now()
		got, err := m.Call(t.Context(), "hi")
		if err != nil || got != "on time" || time.Since(start) != time.Second+500*time.Millisecond {
			t.Fatalf("got (%q, %v) after %v, want the second answer after 1.5s", got, err, time.Since(start))
		}
		time.Sleep(time.Hour)
	})
}

func TestFirstChunkTimeoutBoundsAStreamThatIgnoresItsContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		inner := scripted.New(hang(time.Hour), scripted.Step{Chunks: []string{"stream", "ed"}})
		m := mustWrap(t, inner, llms.FirstChunkTimeout(2*time.Second), llms.Middleware(middleware.NoJitter()))
		var got strings.Builder
		start := time.Now()
		_, err := m.GenerateContent(t.Context(), []lcllms.MessageContent{human("hi")},
			lcllms.WithStreamingFunc(func(_ context.Context, chunk []byte) error { got.Write(chunk); return nil }))
		if err != nil || got.String() != "streamed" || time.Since(start) != 2*time.Second+500*time.Millisecond {
			t.Fatalf("got (%q, %v) after %v, want the second stream after 2.5s", got.String(), err, time.Since(start))
		}
		time.Sleep(time.Hour)
	})
}

func TestAStalledStreamThatDeliveredIsNotRepeated(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		inner := scripted.New(hang(time.Hour, "Hel"), scripted.Reply("Hello"))
		m := mustWrap(t, inner, llms.StreamIdleTimeout(time.Second))
		var got strings.Builder
		_, err := m.GenerateContent(t.Context(), []lcllms.MessageContent{human("hi")},
			lcllms.WithStreamingFunc(func(_ context.Context, chunk []byte) error { got.Write(chunk); return nil }))
		var perr *llms.PartialStreamError
		if !errors.As(err, &perr) || perr.Partial != "Hel" || got.String() != "Hel" || inner.Calls() != 1 {
			t.Fatalf("got %q and %v after %d calls, want a partial stream error after one", got.String(), err, inner.Calls())
		}
		time.Sleep(time.Hour)
	})
}
