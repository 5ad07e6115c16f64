package llms

import (
	"bytes"
	"io"
)

// errorBodyWatcher passes the body of a successful response that is not a
// stream through to the client unchanged, while it looks whether the body is
// in fact a provider error object: OpenAI-compatible servers, Ollama and
// Anthropic's own edge have all been seen answering 200 with
// {"error": {...}}, {"error": "..."} or {"type": "error", ...}. The clients
// then report success with an empty reply, or an error that has lost the
// error's type and code; the recorded object lets the classifier decide by
// the error's meaning, as it would under the error's own status.
//
// It decides from the first member of the object: a body whose first key is
// not "error", "type" or "object" (every success reply: "id", "model", ...)
// is passed through without another look and costs nothing more. A body that
// may be an error is kept, at most maxErrorObject bytes, and read when the
// client reaches its end or closes it.
type errorBodyWatcher struct {
	body  io.ReadCloser
	slot  *slot
	buf   []byte
	state uint8
}

const (
	undecided uint8 = iota
	mayBeError
	notError
)

// maxErrorObject bounds what is kept of a body that may be an error object.
// Error objects are a few hundred bytes; a longer body is not one.
const maxErrorObject = 64 << 10

// maxFirstKey is how much of the body may pass before its first key is
// known; an object whose first key starts later is not an error object.
const maxFirstKey = 512

func (w *errorBodyWatcher) Read(p []byte) (int, error) {
	n, err := w.body.Read(p)
	if w.state != notError {
		w.keep(p[:n])
	}
	if err != nil {
		w.decide()
	}
	return n, err
}

// Close implements io.Closer. A client that decoded the object without
// reading to the end of the body has read the whole object by then.
func (w *errorBodyWatcher) Close() error {
	w.decide()
	return w.body.Close()
}

func (w *errorBodyWatcher) keep(b []byte) {
	if len(w.buf)+len(b) > maxErrorObject {
		w.state, w.buf = notError, nil
		return
	}
	w.buf = append(w.buf, b...)
	if w.state != undecided {
		return
	}
	obj := trimSpace(w.buf)
	if len(obj) == 0 {
		return
	}
	if obj[0] != '{' {
		w.state, w.buf = notError, nil
		return
	}
	switch key, _ := firstMember(obj); {
	case key == nil && len(w.buf) < maxFirstKey:
	case string(key) == "error" || string(key) == "type" || string(key) == "object":
		w.state = mayBeError
	default:
		w.state, w.buf = notError, nil
	}
}

// decide records the body if it is an error object, once.
func (w *errorBodyWatcher) decide() {
	if w.state == mayBeError {
		recordErrorObject(w.slot, bytes.TrimSpace(w.buf))
	}
	w.state, w.buf = notError, nil
}
