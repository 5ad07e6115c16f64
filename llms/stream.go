package llms

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	lcllms "github.com/tmc/langchaingo/llms"
)

// Stream timeouts end a hung stream as a transient failure.
var (
	// ErrStreamIdle is the cause of an attempt canceled because its stream
	// delivered no chunk for the StreamIdleTimeout.
	ErrStreamIdle = errors.New("llms: stream idle timeout")
	// ErrFirstChunkTimeout is the cause of an attempt canceled because its
	// stream delivered no first chunk within the FirstChunkTimeout.
	ErrFirstChunkTimeout = errors.New("llms: no first chunk before the timeout")
)

// PartialStreamError is the failure of a streamed attempt that had already
// delivered chunks to the caller's streaming function. Those chunks cannot
// be taken back, and a second generation is not the same text, so without a
// restart hook (see [OnStreamRestart]) such a call is not retried: the final
// error carries the partial text instead.
//
// The caller's streaming function has received every chunk; the error keeps
// only what tells where the stream broke: the counts, and the text delivered
// up to the last 64 KiB. A stream's guard holds no more than that (at most
// twice as much between two trims), however long the stream, so a long
// answer that succeeds is not held twice.
type PartialStreamError struct {
	// Partial is the text delivered before the failure: all of it when
	// Bytes is at most 64 KiB, else its last 64 KiB (from a rune boundary).
	Partial string
	// Chunks counts the chunks delivered.
	Chunks int
	// Bytes counts the bytes delivered.
	Bytes int
	// Err is the attempt's failure.
	Err error
}

// Error says how much was delivered and why the stream failed.
func (e *PartialStreamError) Error() string {
	return fmt.Sprintf("llms: stream interrupted after %d chunks: %v", e.Chunks, e.Err)
}

// Unwrap returns the attempt's failure.
func (e *PartialStreamError) Unwrap() error { return e.Err }

// guard stands between the provider client and the caller's streaming
// functions for one attempt: it counts what was delivered, keeps the last
// 64 KiB of it for a PartialStreamError, ends a hung stream with a cause, and
// drops chunks that arrive after the attempt ended.
type guard struct {
	user          func(ctx context.Context, chunk []byte) error
	userReasoning func(ctx context.Context, reasoning, chunk []byte) error
	first, idle   time.Duration
	onStall       func(g *guard, cause error) // ends the attempt: the client may ignore ctx
	ctx           context.Context
	cancel        context.CancelCauseFunc
	timer         *time.Timer
	started       atomic.Bool // a chunk arrived, empty or not

	mu      sync.Mutex
	stall   error  // ErrFirstChunkTimeout or ErrStreamIdle once the timer ended the attempt
	chunks  int    // non-empty chunks delivered
	bytes   int    // bytes delivered
	tail    []byte // the last bytes delivered: at least maxPartial of them when there are, at most 2*maxPartial
	userErr error
	stopped bool
}

// maxPartial bounds the delivered text a guard keeps for a
// PartialStreamError and the restart hook.
const maxPartial = 64 << 10

// newGuard returns the attempt context, canceled with ErrFirstChunkTimeout
// or ErrStreamIdle when the stream stalls, and the guard. onStall is called
// with that cause after the cancellation, so that the attempt ends on time
// even when the provider client ignores its context.
func newGuard(ctx context.Context,
	user func(context.Context, []byte) error, userReasoning func(context.Context, []byte, []byte) error,
	first, idle time.Duration, onStall func(g *guard, cause error),
) (context.Context, *guard) {
	g := &guard{user: user, userReasoning: userReasoning, first: first, idle: idle, onStall: onStall}
	g.ctx, g.cancel = context.WithCancelCause(ctx)
	if wait := cmp.Or(first, idle); wait > 0 {
		g.timer = time.AfterFunc(wait, g.stalled)
	}
	return g.ctx, g
}

// stalled runs when the timer fires: no chunk came in time.
func (g *guard) stalled() {
	cause := ErrStreamIdle
	if !g.started.Load() && g.first > 0 {
		cause = ErrFirstChunkTimeout
	}
	g.mu.Lock()
	g.stall = cause
	g.mu.Unlock()
	g.cancel(cause)
	if g.onStall != nil {
		g.onStall(g, cause)
	}
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
	return g.deliver(chunk, func() error { return g.user(ctx, chunk) })
}

func (g *guard) onReasoningChunk(ctx context.Context, reasoning, chunk []byte) error {
	return g.deliver(chunk, func() error { return g.userReasoning(ctx, reasoning, chunk) })
}

// deliver passes one chunk to the caller unless the attempt already ended,
// and rearms the idle timer.
func (g *guard) deliver(chunk []byte, send func() error) error {
	g.started.Store(true)
	if g.timer != nil {
		if g.idle > 0 {
			g.timer.Reset(g.idle)
		} else {
			g.timer.Stop() // only the first chunk was bounded
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stopped || g.ctx.Err() != nil {
		// The attempt ended (stalled, timed out, abandoned, or its caller
		// gave up): nothing more reaches the caller from it.
		return errAttemptOver
	}
	if err := send(); err != nil {
		g.userErr = err
		return err
	}
	if len(chunk) > 0 {
		g.chunks++
		g.keep(chunk)
	}
	return nil
}

// keep appends a delivered chunk to the tail, trimming the tail back to its
// last maxPartial bytes once it passes twice that: the copy is amortised
// over at least maxPartial bytes of stream.
func (g *guard) keep(chunk []byte) {
	g.bytes += len(chunk)
	g.tail = append(g.tail, chunk[max(0, len(chunk)-maxPartial):]...) // no more of a chunk than is kept
	// Trimming at exactly twice maxPartial (>= for >) would keep the same
	// last maxPartial bytes: that mutant is equivalent.
	if len(g.tail) > 2*maxPartial {
		g.tail = g.tail[:copy(g.tail, g.tail[len(g.tail)-maxPartial:])]
	}
}

var errAttemptOver = errors.New("llms: chunk after the attempt ended")

// stop ends the guard: no chunk reaches the caller afterwards. It returns
// ErrStreamIdle or ErrFirstChunkTimeout when the guard ended the attempt.
func (g *guard) stop() error {
	if g.timer != nil {
		g.timer.Stop()
	}
	g.mu.Lock()
	g.stopped = true
	stall := g.stall
	g.mu.Unlock()
	g.cancel(nil)
	return stall
}

// delivered returns how many non-empty chunks and bytes reached the caller.
func (g *guard) delivered() (chunks, bytes int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.chunks, g.bytes
}

// partial returns the error of a stream that failed with err after
// delivering chunks, nil if it delivered none.
func (g *guard) partial(err error) *PartialStreamError {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.chunks == 0 {
		return nil
	}
	tail := g.tail[max(0, len(g.tail)-maxPartial):]
	for len(tail) > 0 && len(tail) < g.bytes && !utf8.RuneStart(tail[0]) {
		tail = tail[1:] // the cut split a rune: start at the next one
	}
	return &PartialStreamError{Partial: string(tail), Chunks: g.chunks, Bytes: g.bytes, Err: err}
}

// callerErr returns the error the caller's streaming function returned, if any.
func (g *guard) callerErr() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.userErr
}
