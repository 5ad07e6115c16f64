package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/resilientgo/resilient/taxonomy"
)

// Slot is where the [Transport] writes the evidence of the attempt whose
// context carries it (see [WithSlot]). The adapter reads it after the
// provider client returns. It is safe for concurrent use.
type Slot struct {
	mu    sync.Mutex
	seen  bool
	ev    *taxonomy.Evidence // allocated by the transport: calls that make no HTTP request pay nothing
	rtErr error              // the error of the attempt's last round trip, if it failed
	stop  string             // the stop reason an Anthropic stream announced
}

func (s *Slot) setStop(reason string) {
	s.mu.Lock()
	s.stop = reason
	s.mu.Unlock()
}

// StopReason returns the stop reason an Anthropic stream announced in its
// message_delta event, "" if none.
func (s *Slot) StopReason() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stop
}

type slotKey struct{}

// WithSlot returns ctx carrying a new slot, and the slot: give the context
// to the provider client for one attempt, and read the slot when it
// returns.
func WithSlot(ctx context.Context) (context.Context, *Slot) {
	s := &Slot{}
	return context.WithValue(ctx, slotKey{}, s), s
}

// SlotFrom returns the slot ctx carries, nil if none.
func SlotFrom(ctx context.Context) *Slot {
	s, _ := ctx.Value(slotKey{}).(*Slot)
	return s
}

// Evidence returns what was recorded and whether the transport saw the
// attempt at all.
func (s *Slot) Evidence() (taxonomy.Evidence, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ev == nil {
		return taxonomy.Evidence{}, s.seen
	}
	return *s.ev, s.seen
}

// Check returns what check says of the evidence recorded, read in place:
// ev points to it (to an empty Evidence if none was recorded), valid until
// check returns, and seen says whether the transport saw the attempt at
// all. check must not change or keep ev, nor call the slot's methods.
func (s *Slot) Check(check func(ev *taxonomy.Evidence, seen bool) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ev == nil {
		return check(&noEvidence, s.seen)
	}
	return check(s.ev, s.seen)
}

// noEvidence is what a slot holds before anything is recorded; it is only
// read.
var noEvidence taxonomy.Evidence

// Record records ev as the evidence of the attempt, as the transport does
// for an exchange it saw: for a client that talks to its provider by other
// means than an *http.Client, and for tests.
func (s *Slot) Record(ev taxonomy.Evidence) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen = true
	s.ev = &ev
}

// WithCause returns err with the error of the attempt's last round trip
// attached when err does not already carry it: langchaingo's openai client
// answers every transport error with a fixed text ("network error: failed
// to reach API server"), which says neither what failed nor whether it can
// fail differently next time. Attached, the cause's types reach the
// classifier and its text the caller.
func (s *Slot) WithCause(err error) error {
	s.mu.Lock()
	cause := s.rtErr
	s.mu.Unlock()
	if err == nil || cause == nil || errors.Is(err, cause) {
		return err
	}
	return fmt.Errorf("%w: %w", err, cause)
}

func (s *Slot) update(f func(*taxonomy.Evidence)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ev == nil {
		s.ev = new(taxonomy.Evidence)
	}
	f(s.ev)
}

// ForError returns the evidence to attach to an attempt's error. Of an
// in-band error (an error event in a 200 stream, an error object as a 200's
// body) the 200 says nothing: the error's type, code and message decide.
// The one type OpenAI and Anthropic document for a 400 alone,
// "invalid_request_error", stands for that status, so that the object is
// read as it would be under it: an overflow or a spent balance by its
// wording, anything else a request that no retry mends. (The type alone does
// not decide elsewhere: servers also send it with a 500's crash text.)
func ForError(ev taxonomy.Evidence) taxonomy.Evidence {
	if ev.InBand {
		ev.Status = 0
		if ev.ErrorType == "invalid_request_error" {
			ev.Status = http.StatusBadRequest
		}
	}
	return ev
}

// Transport is an [http.RoundTripper] that records, for each attempt of a
// wrapped model, the wire evidence langchaingo's clients discard, as a
// [taxonomy.Evidence]: status, Retry-After (seconds or HTTP date),
// retry-after-ms, x-should-retry, rate-limit reset headers, the provider's
// error type, code and message from the body of an error response, and as
// an in-band error from the body of a successful one that is a provider error
// object (an OpenAI-compatible server's 200 with {"error": ...}), and for
// SSE and NDJSON streams whether the end marker arrived and any in-band error
// event. When the round trip itself fails, its error is kept too: clients
// that replace it with a text of their own lose its cause and its type.
//
// The client still receives every byte of the response, unchanged. Of an
// error body the Transport reads at most the first 1 MiB, to find the
// provider's error; the client reads that much from memory and the rest, if
// any, from the connection. A stream is watched as the client reads it, line
// by line, without copying it.
//
// It records only requests whose context carries a [Slot] (an attempt of a
// wrapped model); other requests pass through untouched.
//
// A Transport is safe for concurrent use.
type Transport struct {
	// Base performs the requests. Nil means http.DefaultTransport.
	Base http.RoundTripper
}

// NewTransport returns a Transport over base (nil: http.DefaultTransport).
func NewTransport(base http.RoundTripper) *Transport { return &Transport{Base: base} }

// HTTPClient returns an *http.Client whose transport is a [Transport] over
// http.DefaultTransport. It sets no overall timeout: the wrapped model's
// attempt timeout bounds each attempt.
func HTTPClient() *http.Client { return &http.Client{Transport: NewTransport(nil)} }

// maxErrorBody bounds how much of an error response is read to find the
// provider's error type, code and message.
const maxErrorBody = 1 << 20

// RoundTrip performs the request and records its evidence.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	s := SlotFrom(req.Context())
	if s == nil {
		return base.RoundTrip(req)
	}
	s.update(func(ev *taxonomy.Evidence) { *ev = taxonomy.Evidence{} }) // the last exchange of the attempt wins
	resp, err := base.RoundTrip(req)
	s.mu.Lock()
	s.seen = true
	s.rtErr = err
	s.stop = ""
	s.mu.Unlock()
	if err != nil {
		return resp, err
	}
	ev := taxonomy.HeaderEvidence(resp.Header, resp.StatusCode, time.Now())
	if resp.StatusCode >= 400 && resp.Body != nil {
		var head []byte
		head, resp.Body = peekBody(resp.Body, maxErrorBody)
		ev.ErrorType, ev.ErrorCode, ev.ErrorMessage = parseErrorBody(head)
	}
	if ct := strings.ToLower(resp.Header.Get("Content-Type")); isStream(ct) && resp.Body != nil {
		ev.Stream = true
		resp.Body = &streamWatcher{body: resp.Body, slot: s, ndjson: strings.Contains(ct, "ndjson")}
	} else if resp.StatusCode/100 == 2 && resp.Body != nil && resp.Body != http.NoBody {
		resp.Body = &errorBodyWatcher{body: resp.Body, slot: s}
	}
	s.update(func(dst *taxonomy.Evidence) { *dst = ev })
	return resp, nil
}

// peekBody reads up to limit bytes of body and returns them with a body
// that yields every byte of the original: those bytes, then the rest. A body
// that ended within the limit is closed at once, and its read error, if any,
// comes after the bytes read; a longer one is read on from the connection
// and closed when the returned body is.
func peekBody(body io.ReadCloser, limit int64) ([]byte, io.ReadCloser) {
	head, err := io.ReadAll(io.LimitReader(body, limit))
	if err == nil && int64(len(head)) == limit {
		return head, &replayBody{Reader: io.MultiReader(bytes.NewReader(head), body), body: body}
	}
	body.Close()
	return head, io.NopCloser(io.MultiReader(bytes.NewReader(head), errReader{err}))
}

// replayBody reads from Reader and closes body.
type replayBody struct {
	io.Reader
	body io.Closer
}

func (r *replayBody) Close() error { return r.body.Close() }

// errReader replays a read error after the restored body, or EOF.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	return 0, io.EOF
}

// isStream reports whether a lowercased Content-Type is a stream: SSE or
// NDJSON.
func isStream(ct string) bool {
	return strings.Contains(ct, "text/event-stream") || strings.Contains(ct, "ndjson")
}

// parseErrorBody finds the provider's error type, code and message in the
// shapes the providers use, each at most 8 KiB
// ([taxonomy.BoundMessage]):
//
//	OpenAI     {"error": {"message", "type", "code"}}
//	Anthropic  {"type": "error", "error": {"type", "message"}}
//	Gemini     {"error": {"code": 429, "message", "status": "RESOURCE_EXHAUSTED"}}
//	Ollama     {"error": "message"}
//	Mistral    {"object": "error", "message", "type", "code"}
func parseErrorBody(body []byte) (typ, code, message string) {
	typ, code, message = decodeErrorBody(body)
	return taxonomy.BoundMessage(typ), taxonomy.BoundMessage(code), taxonomy.BoundMessage(message)
}

func decodeErrorBody(body []byte) (typ, code, message string) {
	var doc struct {
		Error   json.RawMessage `json:"error"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(body, &doc) != nil {
		return "", "", ""
	}
	if len(doc.Error) > 0 && doc.Error[0] == '"' {
		_ = json.Unmarshal(doc.Error, &message)
		return "", "", message
	}
	if len(doc.Error) > 0 && doc.Error[0] == '{' {
		var inner struct {
			Type    string          `json:"type"`
			Code    json.RawMessage `json:"code"`
			Message string          `json:"message"`
			Status  string          `json:"status"`
		}
		if json.Unmarshal(doc.Error, &inner) == nil {
			typ = inner.Type
			if typ == "" {
				typ = inner.Status
			}
			return typ, rawString(inner.Code), inner.Message
		}
	}
	if doc.Type == "error" {
		doc.Type = ""
	}
	return doc.Type, rawString(doc.Code), doc.Message
}

// rawString renders a JSON code that may be a string, a number or null.
func rawString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}
