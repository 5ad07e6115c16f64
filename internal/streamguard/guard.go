// Package streamguard stands between a provider's stream and the caller for
// one attempt of a streamed model call: it counts what was delivered, keeps
// the last 64 KiB of it for a [PartialStreamError], ends a stream that
// stalls (no first chunk in time, or too long a gap) with a cause, and drops
// chunks that arrive after the attempt ended. It knows no client library's
// types: the adapters (package llms for langchaingo, module resilienteino
// for Eino) hand it each chunk's text and the function that shows it.
package streamguard

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// The defaults of the stream guard unless an option says otherwise: the
// longest wait for the first chunk (llms.DefaultFirstChunkTimeout) and the
// longest gap between two chunks (llms.DefaultStreamIdleTimeout), for
// resilienthttp and resilienteino too.
const (
	DefaultFirstChunk = 2 * time.Minute
	DefaultIdle       = time.Minute
)

// Stream timeouts end a hung stream as a transient failure.
var (
	// ErrStreamIdle is the cause of an attempt canceled because its stream
	// delivered no chunk for the stream idle timeout.
	ErrStreamIdle = errors.New("resilient: stream idle timeout")
	// ErrFirstChunkTimeout is the cause of an attempt canceled because its
	// stream delivered no first chunk within the first chunk timeout.
	ErrFirstChunkTimeout = errors.New("resilient: no first chunk before the timeout")
	// ErrAttemptOver is what [Guard.Deliver] returns for a chunk that
	// arrives after the attempt ended: it is not delivered.
	ErrAttemptOver = errors.New("resilient: chunk after the attempt ended")
)

// PartialStreamError is the failure of a streamed attempt that had already
// delivered chunks to the caller. Those chunks cannot be taken back, and a
// second generation is not the same text, so without a restart hook such a
// call is not retried: the final error carries the partial text instead.
//
// The caller has received every chunk; the error keeps only what tells
// where the stream broke: the counts, and the text delivered up to the last
// 64 KiB. A stream's guard holds no more than that (at most twice as much
// between two trims), however long the stream, so a long answer that
// succeeds is not held twice.
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
	return fmt.Sprintf("resilient: stream interrupted after %d chunks: %v", e.Chunks, e.Err)
}

// Unwrap returns the attempt's failure.
func (e *PartialStreamError) Unwrap() error { return e.Err }

// Guard stands between the provider client and the caller for one attempt.
// It is safe for concurrent use.
type Guard struct {
	first, idle time.Duration
	onStall     func(g *Guard, cause error) // ends the attempt: the client may ignore ctx
	ctx         context.Context
	cancel      context.CancelCauseFunc
	timer       *time.Timer
	started     atomic.Bool // a chunk arrived, empty or not

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

// New returns the attempt context, canceled with [ErrFirstChunkTimeout] or
// [ErrStreamIdle] when the stream stalls, and the guard. first bounds the
// wait for the first chunk, idle the gap between two (0: no bound).
// onStall, if not nil, is called with that cause after the cancellation, so
// that the attempt ends on time even when the provider client ignores its
// context. Stop the guard with [Guard.Stop].
func New(ctx context.Context, first, idle time.Duration, onStall func(g *Guard, cause error)) (context.Context, *Guard) {
	g := &Guard{first: first, idle: idle, onStall: onStall}
	g.ctx, g.cancel = context.WithCancelCause(ctx)
	if wait := cmp.Or(first, idle); wait > 0 {
		g.timer = time.AfterFunc(wait, g.stalled)
	}
	return g.ctx, g
}

// stalled runs when the timer fires: no chunk came in time.
func (g *Guard) stalled() {
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

// Deliver passes one chunk, whose shown text is chunk, to the caller with
// send, unless the attempt already ended ([ErrAttemptOver]), and rearms the
// idle timer. An error of send is the caller's: [Guard.CallerErr] returns
// it. An empty chunk counts as a sign of life but not as a chunk
// delivered.
func (g *Guard) Deliver(chunk []byte, send func() error) error {
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
		return ErrAttemptOver
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
func (g *Guard) keep(chunk []byte) {
	g.bytes += len(chunk)
	g.tail = append(g.tail, chunk[max(0, len(chunk)-maxPartial):]...) // no more of a chunk than is kept
	// Trimming at exactly twice maxPartial (>= for >) would keep the same
	// last maxPartial bytes: that mutant is equivalent.
	if len(g.tail) > 2*maxPartial {
		g.tail = g.tail[:copy(g.tail, g.tail[len(g.tail)-maxPartial:])]
	}
}

// Stop ends the guard: no chunk reaches the caller afterwards. It returns
// [ErrStreamIdle] or [ErrFirstChunkTimeout] when the guard ended the
// attempt.
func (g *Guard) Stop() error {
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

// Delivered returns how many non-empty chunks and bytes reached the caller.
func (g *Guard) Delivered() (chunks, bytes int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.chunks, g.bytes
}

// Partial returns the error of a stream that failed with err after
// delivering chunks, nil if it delivered none.
func (g *Guard) Partial(err error) *PartialStreamError {
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

// CallerErr returns the error the caller's send returned, if any.
func (g *Guard) CallerErr() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.userErr
}

// StallRule names the taxonomy rule of a stall's cause.
func StallRule(stall error) string {
	if errors.Is(stall, ErrFirstChunkTimeout) {
		return "first chunk timeout"
	}
	return "stream idle timeout"
}
