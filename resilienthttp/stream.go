package resilienthttp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/resilientgo/resilient/internal/wire"
	"github.com/resilientgo/resilient/taxonomy"
)

// ErrStreamIdle is matched by [errors.Is] on the read error of a stream
// that stalled for longer than the [StreamIdleTimeout] after it was handed
// to the SDK.
var ErrStreamIdle = errors.New("resilienthttp: stream idle")

// errEndedEarly is the failure of a stream that ended cleanly before any
// event with content and without its end marker: a connection closed by a
// proxy, a server that crashed between two writes.
var errEndedEarly = taxonomy.WithClass(errors.New("resilienthttp: stream ended before its first event"),
	taxonomy.Class{Kind: taxonomy.Transient, Rule: "stream ended before its first event"})

// holdStream reads the start of a stream (SSE, or NDJSON lines) without
// handing any of it on, until it can tell how the stream begins: an event
// with content (or the stream's end marker, or limit bytes held) ends the
// hold, and the bytes read are returned for the SDK, which gets them first;
// an in-band error event, a stream that breaks, or one that ends before any
// content, is the attempt's failure, returned as the error (with the bytes
// read). The slot holds the evidence that the wire transport's stream
// watcher records as the bytes go by: end marker, in-band error, read error.
func holdStream(body io.Reader, sl *wire.Slot, limit int) ([]byte, error) {
	buf := make([]byte, 0, 4<<10)
	scanned, content := 0, false
	for {
		n, err := body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		for !content {
			i := bytes.IndexByte(buf[scanned:], '\n')
			if i < 0 {
				break
			}
			content = hasContent(buf[scanned : scanned+i])
			scanned += i + 1
		}
		if err != nil && !content && scanned < len(buf) {
			content = hasContent(buf[scanned:]) // a last line without its newline
		}
		ev, _ := sl.Evidence()
		switch {
		case ev.InBand:
			return buf, taxonomy.WithEvidence(&ResponseError{StatusCode: 200, Type: ev.ErrorType, Code: ev.ErrorCode,
				Message: ev.ErrorMessage, InBand: true}, wire.ForError(ev))
		case err != nil && err != io.EOF:
			return buf, fmt.Errorf("resilienthttp: stream broke before its first event: %w", err)
		case content || ev.EndMarker || len(buf) >= limit:
			return buf, nil
		case err == io.EOF:
			return buf, errEndedEarly
		}
		if len(buf) == cap(buf) {
			buf = append(buf, make([]byte, min(cap(buf), limit))...)[:len(buf)]
		}
	}
}

// eventProbe is what hasContent reads of an event's data.
type eventProbe struct {
	Type    string `json:"type"`
	Choices *[]struct {
		Delta struct {
			Content   *string         `json:"content"`
			Refusal   *string         `json:"refusal"`
			Reasoning *string         `json:"reasoning_content"`
			ToolCalls json.RawMessage `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage json.RawMessage `json:"usage"`
}

// preamble lists the event types that open a stream before any content:
// Anthropic's message_start, ping and content_block_start, OpenAI's
// responses' response.created and response.in_progress. Held back, an error
// that follows them is still retried.
var preamble = map[string]bool{
	"message_start": true, "ping": true, "content_block_start": true, "content_block_stop": true,
	"response.created": true, "response.in_progress": true, "response.queued": true,
	"error": true,
}

// hasContent reports whether one line of a stream is an event the SDK would
// turn into output: a chat completion chunk with text, a refusal, reasoning,
// tool calls or a finish reason, or the usage chunk; a Gemini chunk; an
// Anthropic event past the preamble; the end marker "[DONE]"; a JSON object
// of a shape it does not know. Not content: SSE fields other than data,
// comments, blank lines, preamble events, a chunk with the role alone (the
// first chunk OpenAI sends), error objects (the stream watcher records
// those).
func hasContent(line []byte) bool {
	line = bytes.TrimSpace(line)
	if data, ok := bytes.CutPrefix(line, []byte("data:")); ok {
		line = bytes.TrimSpace(data)
	} else if len(line) == 0 || line[0] != '{' {
		return false // another SSE field, a comment, a blank line
	}
	if string(line) == "[DONE]" {
		return true
	}
	if len(line) == 0 || line[0] != '{' {
		return false
	}
	var ev eventProbe
	if json.Unmarshal(line, &ev) != nil {
		return true // not what it seems: let the SDK say so
	}
	switch {
	case ev.Type != "":
		return !preamble[ev.Type]
	case ev.Choices == nil:
		return !bytes.HasPrefix(line, []byte(`{"error"`))
	}
	for _, c := range *ev.Choices {
		d := c.Delta
		if c.FinishReason != nil || nonEmpty(d.Content) || nonEmpty(d.Refusal) || nonEmpty(d.Reasoning) ||
			len(d.ToolCalls) > 0 && string(d.ToolCalls) != "null" {
			return true
		}
	}
	return len(*ev.Choices) == 0 && len(ev.Usage) > 0 && string(ev.Usage) != "null"
}

func nonEmpty(s *string) bool { return s != nil && *s != "" }

// handedBody is the body of a response handed to the SDK: the bytes the
// attempt read (a held stream's start, or a body read up to the limit),
// then the rest from the connection. It bounds each read from the
// connection by the stream idle timeout, counts the usage the stream
// reports when asked to, and calls done once, at the end of the body or
// when it is closed, with the usage it counted.
type handedBody struct {
	held  []byte
	body  io.ReadCloser
	links *links
	idle  time.Duration
	timer *time.Timer
	count bool // scan lines for usage
	lines lineSplitter
	usage usage
	once  sync.Once
	done  func(usage)
}

func newHandedBody(held []byte, body io.ReadCloser, l *links, idle time.Duration, count bool, done func(usage)) *handedBody {
	b := &handedBody{held: held, body: body, links: l, idle: idle, count: count, done: done}
	if idle > 0 {
		b.timer = time.AfterFunc(idle, func() { l.cancel(ErrStreamIdle) })
		b.timer.Stop()
	}
	return b
}

func (b *handedBody) Read(p []byte) (int, error) {
	if len(b.held) > 0 {
		n := copy(p, b.held)
		b.held = b.held[n:]
		b.see(p[:n])
		return n, nil
	}
	if b.timer != nil {
		b.timer.Reset(b.idle)
	}
	n, err := b.body.Read(p)
	if b.timer != nil {
		b.timer.Stop()
	}
	b.see(p[:n])
	if err != nil {
		if err != io.EOF && errors.Is(context.Cause(b.links.ctx), ErrStreamIdle) {
			err = fmt.Errorf("%w for %v: %w", ErrStreamIdle, b.idle, err)
		}
		b.finish()
	}
	return n, err
}

// Close closes the connection's body and ends the request.
func (b *handedBody) Close() error {
	err := b.body.Close()
	b.finish()
	return err
}

func (b *handedBody) see(p []byte) {
	if b.count {
		b.lines.feed(p, func(line []byte) {
			if data, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("data:")); ok {
				line = bytes.TrimSpace(data)
			}
			b.usage.read(line)
		})
	}
}

func (b *handedBody) finish() {
	b.once.Do(func() {
		if b.timer != nil {
			b.timer.Stop()
		}
		if b.count {
			b.lines.flush(b.usage.read)
		}
		b.links.end()
		if b.done != nil {
			b.done(b.usage)
		}
	})
}

// lineSplitter cuts bytes into lines, holding an unfinished line across
// feeds up to maxLine bytes; a longer line is skipped (usage is never in
// one: those are content).
type lineSplitter struct {
	held []byte
	skip bool
}

const maxLine = 64 << 10

func (s *lineSplitter) feed(b []byte, fn func([]byte)) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			s.hold(b)
			return
		}
		if len(s.held) > 0 || s.skip {
			s.hold(b[:i])
			s.flush(fn)
		} else {
			fn(b[:i])
		}
		b = b[i+1:]
	}
}

func (s *lineSplitter) hold(b []byte) {
	switch {
	case s.skip:
	case len(s.held)+len(b) > maxLine:
		s.held, s.skip = s.held[:0], true
	default:
		s.held = append(s.held, b...)
	}
}

// flush hands on the held line, if any, and empties the buffer.
func (s *lineSplitter) flush(fn func([]byte)) {
	if !s.skip && len(s.held) > 0 {
		fn(s.held)
	}
	s.held, s.skip = s.held[:0], false
}
