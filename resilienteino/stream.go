package resilienteino

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/resilientgo/resilient/internal/reply"
	"github.com/resilientgo/resilient/internal/streamguard"
	"github.com/resilientgo/resilient/internal/wire"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/taxonomy"
)

// Stream timeouts end a hung stream as a transient failure: errors.Is finds
// them in its error.
var (
	// ErrStreamIdle: the stream delivered no chunk for the
	// [StreamIdleTimeout].
	ErrStreamIdle = streamguard.ErrStreamIdle
	// ErrFirstChunkTimeout: the stream delivered no first chunk within the
	// [FirstChunkTimeout].
	ErrFirstChunkTimeout = streamguard.ErrFirstChunkTimeout
)

// PartialStreamError is the failure of a streamed attempt that had already
// delivered chunks to the reader. Those chunks cannot be taken back, and a
// second generation is not the same text, so without a restart hook (see
// [OnStreamRestart]) such a call is not retried: the reader's Recv returns
// the final error, which carries the partial text (the last 64 KiB of it),
// the counts (Chunks, Bytes) and the attempt's failure (Err, Unwrap).
type PartialStreamError = streamguard.PartialStreamError

// Sentinels of replies that succeed but cannot be used, found by errors.Is
// in the final error. They are package llms's values.
var (
	// ErrEmptyResponse: the reply carries no text, reasoning or tool call.
	ErrEmptyResponse = reply.ErrEmptyResponse
	// ErrTruncatedStream: the stream ended without its end marker.
	ErrTruncatedStream = reply.ErrTruncatedStream
	// ErrInBandError: a 200 stream carried an error event.
	ErrInBandError = reply.ErrInBandError
	// ErrStopReason: the finish reason reports an error (a content filter),
	// or the output token limit was reached before any output.
	ErrStopReason = reply.ErrStopReason
)

// streamBuffer is how many chunks the reader of a stream may lag behind.
const streamBuffer = 16

// Stream calls the wrapped model's Stream under the pipeline and returns a
// reader of its chunks, then the fallbacks' while the failure is one
// another model can fix. It returns once the first chunk with output (text,
// reasoning or a tool call) has reached the reader, or the call has
// failed: a failure before any output (a 429, a 529, an in-band error, a
// stream cut or stalled before it said anything) is retried as Generate's
// are, and the reader never sees it. A failure after output ends the
// reader's stream with an error from Recv: a *[PartialStreamError], unless
// [OnStreamRestart] allows a new attempt, whose chunks then follow on the
// same reader. The chunks of an attempt that failed before any output
// (empty ones, carrying only metadata) are dropped with it.
//
// Close the reader when done with it: the call ends when the reader is
// closed or read to its end.
func (m *ChatModel) Stream(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	if err := m.Err(); err != nil {
		return nil, err
	}
	sr, sw := schema.Pipe[*schema.Message](streamBuffer)
	s := &streamCall{out: sw, started: make(chan struct{})}
	c := &modelCall{messages: input, options: opts, stream: s}
	done := make(chan error, 1)
	go func() {
		var err error
		if m.obs.Active() {
			start := time.Now()
			ctx := m.obs.StartCall(ctx, m.target)
			_, err = m.withFallbacks(ctx, c, (*ChatModel).stream)
			m.reportEnd(ctx, c, start, err)
		} else {
			_, err = m.withFallbacks(ctx, c, (*ChatModel).stream)
		}
		if err != nil && s.hasStarted() {
			sw.Send(nil, err)
		}
		sw.Close()
		done <- err
	}()
	select {
	case <-s.started:
		return sr, nil
	case err := <-done:
		if s.hasStarted() || err == nil {
			return sr, nil
		}
		return nil, err
	}
}

// streamCall is what a call to Stream shares across its attempts: the
// writer of the caller's reader, and whether output reached it.
type streamCall struct {
	out     *schema.StreamWriter[*schema.Message]
	once    sync.Once
	started chan struct{} // closed when the first chunk with output reached the reader
}

func (s *streamCall) start() { s.once.Do(func() { close(s.started) }) }

func (s *streamCall) hasStarted() bool {
	select {
	case <-s.started:
		return true
	default:
		return false
	}
}

// errReaderClosed is the caller's error when it closed the reader.
var errReaderClosed = errors.New("resilienteino: the stream's reader was closed")

func (m *ChatModel) stream(ctx context.Context, c *modelCall) (*schema.Message, error) {
	return m.streamPipe.Do(ctx, func(ctx context.Context, s middleware.State) (*schema.Message, error) {
		return m.streamAttempt(ctx, c, s)
	}, m.request(ctx, c))
}

// tally is what an attempt's chunks said, without keeping them: the stop
// reason and usage of the last that carried them, whether any had output.
type tally struct {
	stop   string
	usage  *schema.Message // the last chunk with usage
	output bool
	chunks []*schema.Message // every chunk, kept only for the caller's checks
}

func (t *tally) add(chunk *schema.Message, keep bool) {
	if chunk == nil {
		return
	}
	if meta := chunk.ResponseMeta; meta != nil {
		if meta.FinishReason != "" {
			t.stop = meta.FinishReason
		}
		if meta.Usage != nil {
			t.usage = chunk
		}
	}
	t.output = t.output || !isEmpty(chunk)
	if keep {
		t.chunks = append(t.chunks, chunk)
	}
}

// streamAttempt is one attempt of Stream: call the model with an evidence
// slot and a stream guard, pass its chunks on, check how it ended.
func (m *ChatModel) streamAttempt(ctx context.Context, c *modelCall, s middleware.State) (*schema.Message, error) {
	if err := m.prepare(ctx, c, s); err != nil {
		return nil, err
	}
	actx, sl := wire.WithSlot(ctx)
	actx, g := streamguard.New(actx, m.cfg.firstChunk, m.cfg.idle, func(g *streamguard.Guard, cause error) {
		s.End(m.streamFailure(c, g, reply.Classed(taxonomy.Transient, streamguard.StallRule(cause), cause)))
	})
	reader, err := m.client(s).Stream(actx, c.current(), c.options...)
	if err != nil {
		stall := g.Stop()
		ev, seen := sl.Evidence()
		return nil, m.streamFailure(c, g, withStall(stall, withEvidence(sl, err, ev, seen)))
	}
	defer reader.Close()
	var t tally
	var held []*schema.Message // chunks without output, before the first with output
	var recvErr error
	for {
		chunk, err := reader.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			recvErr = err
			break
		}
		t.add(chunk, len(m.cfg.checks) > 0)
		if !t.output {
			held = append(held, chunk)
			_ = g.Deliver(nil, func() error { return nil }) // a sign of life for the idle timeout
			continue
		}
		send := append(held, chunk)
		held = nil
		if err := m.deliver(c, g, send); err != nil {
			recvErr = err
			break
		}
	}
	stall := g.Stop()
	ev, seen := sl.Evidence()
	if recvErr != nil {
		if !errors.Is(recvErr, streamguard.ErrAttemptOver) && g.CallerErr() == nil {
			recvErr = withEvidence(sl, recvErr, ev, seen)
		}
		return nil, m.streamFailure(c, g, withStall(stall, recvErr))
	}
	chunks, _ := g.Delivered()
	var whole *schema.Message
	if len(t.chunks) > 0 {
		if whole, err = schema.ConcatMessages(t.chunks); err != nil {
			return nil, m.streamFailure(c, g, reply.Classed(taxonomy.Transient, "chunks do not concatenate", err))
		}
	}
	r := reply.Reply{Stop: t.stop, Empty: !t.output, Streamed: true, Chunks: chunks,
		CutByClient: t.stop == ""} // an OpenAI-compatible stream ends with a finish reason
	if err := m.check(whole, r, ev, seen); err != nil {
		return nil, m.streamFailure(c, g, withStall(stall, err))
	}
	if stall != nil {
		return nil, m.streamFailure(c, g, withStall(stall, ErrTruncatedStream))
	}
	c.addUsage(ctx, t.usage)
	return whole, nil
}

// deliver passes chunks on to the caller's reader through the guard.
func (m *ChatModel) deliver(c *modelCall, g *streamguard.Guard, chunks []*schema.Message) error {
	for _, chunk := range chunks {
		shown := []byte(chunk.Content + chunk.ReasoningContent)
		err := g.Deliver(shown, func() error {
			if c.stream.out.Send(chunk, nil) {
				return errReaderClosed
			}
			c.stream.start()
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// withStall returns err as the failure of a stream the guard ended for
// stalling, when it did.
func withStall(stall, err error) error {
	if stall == nil {
		return err
	}
	return reply.Classed(taxonomy.Transient, streamguard.StallRule(stall), fmt.Errorf("%w: %w", stall, err))
}

// streamFailure returns the error of a streamed attempt that failed with
// err: the caller closing its reader stops the call; a stream that had
// delivered chunks is not retried unless a restart hook is set (the partial
// text is kept for it); otherwise err.
func (m *ChatModel) streamFailure(c *modelCall, g *streamguard.Guard, err error) error {
	if callerErr := g.CallerErr(); callerErr != nil {
		return middleware.Unretryable(reply.Classed(taxonomy.Canceled, "the stream's reader was closed",
			fmt.Errorf("%w: %w", callerErr, err)), "the caller closed the stream")
	}
	if perr := g.Partial(err); perr != nil {
		if m.cfg.onRestart == nil {
			return middleware.Unretryable(perr, "the stream had already delivered output; set OnStreamRestart to allow a retry")
		}
		c.mu.Lock()
		c.partial = perr
		c.mu.Unlock()
		return perr
	}
	return err
}

// restartTarget returns where the stream the restart follows broke.
func restartTarget(s middleware.State, name string) string { return cmp.Or(s.Previous.Target, name) }
