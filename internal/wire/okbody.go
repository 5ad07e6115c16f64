package wire

import (
	"bytes"
	"io"
)

// errorBodyWatcher passes the body of a successful response that is not a
// stream through to the client unchanged, while it looks whether the body is
// in fact a provider error object: OpenAI-compatible servers and proxies,
// Ollama and gateways in front of Anthropic can answer 200 with
// {"error": {...}}, {"error": "..."} or {"type": "error", ...}. The clients
// then report success with an empty reply, or an error that has lost the
// error's type and code; the recorded object lets the classifier decide by
// the error's meaning, as it would under the error's own status.
//
// It decides from the first member of the object: a body whose first member
// is not "error", nor "type" or "object" with the value "error" (every
// success reply: "id", "model", "object": "list", ...) is passed through
// without another look, and without a byte copied. A
// body that may be an error is kept, at most maxErrorObject bytes, and read
// when the client reaches its end or closes it. It is used by the one
// goroutine that reads the body, as any response body is.
type errorBodyWatcher struct {
	body  io.ReadCloser
	slot  *Slot
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

// maxFirstKey bounds where the first key must be whole: an object whose
// first key ends later is not an error object.
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
	if w.state == undecided {
		// Decide from the bytes at hand before copying any: a success
		// reply is rejected on its first read and never kept.
		seen := b
		if len(w.buf) != 0 {
			w.buf = append(w.buf, b...)
			seen = w.buf
		}
		if w.state = firstKeyState(seen); w.state == notError {
			w.buf = nil
			return
		}
		if len(w.buf) == 0 {
			w.buf = append(w.buf, b...)
		}
		if len(w.buf) > maxErrorObject {
			w.state, w.buf = notError, nil
		}
		return
	}
	if len(w.buf)+len(b) > maxErrorObject {
		w.state, w.buf = notError, nil
		return
	}
	w.buf = append(w.buf, b...)
}

// firstKeyState says from the start of a body whether it may be an error
// object: its first member is "error", or "type" or "object" with the value
// "error".
func firstKeyState(start []byte) uint8 {
	// Only the first maxFirstKey bytes count, however the reads split the
	// body: the answer does not depend on them.
	start = start[:min(len(start), maxFirstKey)]
	obj := trimSpace(start)
	switch {
	case len(start) >= maxFirstKey && (len(obj) == 0 || obj[0] != '{'):
		return notError
	case len(obj) == 0:
		return undecided
	case obj[0] != '{':
		return notError
	}
	key, value := firstMember(obj)
	switch {
	case key == nil && len(start) < maxFirstKey:
		return undecided
	case isErrorMember(key, value):
		// {"error": ...}, Anthropic's {"type": "error", ...}, Mistral's
		// {"object": "error", ...}; an OpenAI embeddings list ({"object":
		// "list"}) or an Anthropic message ({"type": "message"}) is passed
		// through.
		return mayBeError
	case (string(key) == "type" || string(key) == "object") && len(value) < len(`"error"`) && len(start) < maxFirstKey:
		return undecided // the value may yet be "error"
	}
	return notError
}

// decide records the body if it is an error object, once.
func (w *errorBodyWatcher) decide() {
	if w.state == mayBeError {
		recordErrorObject(w.slot, bytes.TrimSpace(w.buf))
	}
	w.state, w.buf = notError, nil
}
