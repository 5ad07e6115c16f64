package llms

import (
	"context"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/internal/streamguard"
)

// Stream timeouts end a hung stream as a transient failure.
var (
	// ErrStreamIdle is the cause of an attempt canceled because its stream
	// delivered no chunk for the StreamIdleTimeout.
	ErrStreamIdle = streamguard.ErrStreamIdle
	// ErrFirstChunkTimeout is the cause of an attempt canceled because its
	// stream delivered no first chunk within the FirstChunkTimeout.
	ErrFirstChunkTimeout = streamguard.ErrFirstChunkTimeout
)

// PartialStreamError is the failure of a streamed attempt that had already
// delivered chunks to the caller's streaming function. Those chunks cannot
// be taken back, and a second generation is not the same text, so without a
// restart hook (see [OnStreamRestart]) such a call is not retried: the final
// error carries the partial text instead.
//
// The caller's streaming function has received every chunk; the error keeps
// only what tells where the stream broke: the counts (Chunks, Bytes), and
// the text delivered up to the last 64 KiB (Partial, from a rune boundary).
// A stream's guard holds no more than that (at most twice as much between
// two trims), however long the stream, so a long answer that succeeds is
// not held twice. Err is the attempt's failure, which Unwrap returns.
type PartialStreamError = streamguard.PartialStreamError

// guard stands between the provider client and the caller's streaming
// functions for one attempt (see package streamguard): it routes the
// stream through the call options it returns.
type guard struct {
	*streamguard.Guard
	user          func(ctx context.Context, chunk []byte) error
	userReasoning func(ctx context.Context, reasoning, chunk []byte) error
}

// newGuard returns the attempt context, canceled with ErrFirstChunkTimeout
// or ErrStreamIdle when the stream stalls, and the guard. onStall is called
// with that cause after the cancellation, so that the attempt ends on time
// even when the provider client ignores its context.
func newGuard(ctx context.Context,
	user func(context.Context, []byte) error, userReasoning func(context.Context, []byte, []byte) error,
	first, idle time.Duration, onStall func(g *guard, cause error),
) (context.Context, *guard) {
	var stall func(*streamguard.Guard, error)
	if onStall != nil {
		// The timer may fire before New returns: the callback gets a guard
		// of its own over the same streamguard.Guard.
		stall = func(sg *streamguard.Guard, cause error) {
			onStall(&guard{Guard: sg, user: user, userReasoning: userReasoning}, cause)
		}
	}
	ctx, sg := streamguard.New(ctx, first, idle, stall)
	return ctx, &guard{Guard: sg, user: user, userReasoning: userReasoning}
}

// options returns the call options that route the stream through g. They
// come last, so they replace the caller's streaming functions.
func (g *guard) options() []lcllms.CallOption {
	var opts []lcllms.CallOption
	if g.user != nil {
		opts = append(opts, lcllms.WithStreamingFunc(g.onChunk))
	}
	if g.userReasoning != nil {
		opts = append(opts, lcllms.WithStreamingReasoningFunc(g.onReasoningChunk))
	}
	return opts
}

func (g *guard) onChunk(ctx context.Context, chunk []byte) error {
	return g.Deliver(chunk, func() error { return g.user(ctx, chunk) })
}

func (g *guard) onReasoningChunk(ctx context.Context, reasoning, chunk []byte) error {
	return g.Deliver(chunk, func() error { return g.userReasoning(ctx, reasoning, chunk) })
}
