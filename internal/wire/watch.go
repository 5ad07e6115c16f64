package wire

import (
	"bytes"
	"encoding/binary"
	"io"

	"github.com/resilientgo/resilient/taxonomy"
)

// streamWatcher passes a stream body through to the client unchanged while
// it watches the lines go by for the end marker and in-band error events.
//
// It runs on every byte of every stream, so it does the least it can: it
// finds each line with one bytes.IndexByte over the bytes the client has
// just read, and reads only the start of the line (for NDJSON also its end),
// never searching a whole line. That is enough for every marker:
//
//	data: [DONE]                      OpenAI, Mistral and compatible servers
//	event: message_stop               Anthropic (also a data object of type message_stop)
//	{..., "done": true, ...}          Ollama (NDJSON; its other lines end in "done":false})
//	{"error": ...}                    in-band error: OpenAI, Ollama, most compatible servers
//	{"type": "error", ...}            in-band error: Anthropic
//	{"object": "error", ...}          in-band error: Mistral, vLLM
//
// An error object whose first member is something else (OpenRouter puts
// "error" after the chunk's id) is not recognised here; such chunks also
// carry finish_reason "error", which the response check treats as a
// transient failure. Lines are held across reads up to maxLine; a longer line
// (large tool arguments) is skipped to its end, not buffered. The watcher
// allocates nothing per line: only the held line's buffer grows, once.
type streamWatcher struct {
	body   io.ReadCloser
	slot   *Slot
	ndjson bool   // one JSON object per line (Ollama), rather than SSE
	held   []byte // the start of a line split across reads
	skip   bool   // the line being held is longer than maxLine: ignore it to its end
	ended  bool   // the end marker was recorded
}

// typeKey starts an Anthropic event's data, without spaces.
const typeKey = `{"type":"`

// maxLine bounds the buffer of a line split across reads.
const maxLine = 64 << 10

func (w *streamWatcher) Read(p []byte) (int, error) {
	n, err := w.body.Read(p)
	w.scan(p[:n])
	switch {
	case err == io.EOF:
		w.flush() // a last line without its newline is still a line
	case err != nil:
		w.slot.update(func(ev *taxonomy.Evidence) { ev.BodyErr = err })
	}
	return n, err
}

func (w *streamWatcher) Close() error { return w.body.Close() }

// scan inspects the complete lines of b and holds an unfinished last one.
// (The blank line that ends an SSE event is an empty line to inspect.)
func (w *streamWatcher) scan(b []byte) {
	if len(w.held) != 0 || w.skip {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			w.hold(b)
			return
		}
		w.hold(b[:i])
		w.flush()
		b = b[i+1:]
	}
	for len(b) != 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			w.hold(b)
			return
		}
		if line := b[:i]; !w.ordinary(line) {
			w.inspect(line)
		}
		b = b[i+1:]
	}
}

// The starts of ordinary lines, each read as one 8-byte word.
var (
	dataObject = binary.LittleEndian.Uint64([]byte(`data: {"`))
	typeString = binary.LittleEndian.Uint64([]byte(`type":"` + "\x00"))
	eventField = binary.LittleEndian.Uint64([]byte("event: \x00"))
	falseEnd   = binary.LittleEndian.Uint64([]byte(`":false}`))
	doneKey    = binary.LittleEndian.Uint64([]byte(`"done":f`))
)

// low7 keeps the first seven bytes of a little-endian word.
const low7 = 1<<56 - 1

// notDone reports that a line of at least 16 bytes ends in "done":false},
// as Ollama's chunks before the last do.
func notDone(line []byte) bool {
	n := len(line)
	return binary.LittleEndian.Uint64(line[n-8:]) == falseEnd && binary.LittleEndian.Uint64(line[n-13:]) == doneKey
}

// ordinary reports that inspect would find nothing in a complete line,
// judging from a word or two of its start: the fast path for the content
// chunks that make up nearly all of a stream. It answers false whenever it
// cannot tell, and inspect decides.
func (w *streamWatcher) ordinary(line []byte) bool {
	if len(line) < 16 {
		return false
	}
	switch head := binary.LittleEndian.Uint64(line); {
	case head == dataObject && !w.ndjson: // data: {"k
		switch k := line[8]; k {
		case 'e', 'o':
			return false
		case 't': // data: {"type":"c, and not "m(essage_stop)" or "e(rror)"
			c := line[15]
			return binary.LittleEndian.Uint64(line[8:])&low7 == typeString && c != 'm' && c != 'e'
		}
		return true
	case head&low7 == eventField: // event: n, and not "m(essage_stop)"
		c := line[7]
		return c != 'm' && !isSpace(c)
	case line[0] == '{' && line[1] == '"': // {"k
		if k := line[2]; k == 'e' || k == 't' || k == 'o' {
			return false
		}
		return !w.ndjson || notDone(line)
	}
	return false
}

// hold keeps the start of a line that continues in the next read.
func (w *streamWatcher) hold(b []byte) {
	switch {
	case w.skip:
	case len(w.held)+len(b) > maxLine:
		w.held, w.skip = w.held[:0], true
	default:
		w.held = append(w.held, b...)
	}
}

// flush inspects the held line, now complete, and empties the buffer.
func (w *streamWatcher) flush() {
	if !w.skip {
		w.inspect(w.held)
	}
	w.held, w.skip = w.held[:0], false
}

// inspect reads one complete line of SSE or NDJSON.
func (w *streamWatcher) inspect(line []byte) {
	// Trimmed for CRLF line ends and indented JSON.
	line = trimSpace(line)
	// SSE "data: <payload>", SSE "event: <name>", or an NDJSON line, which
	// is the object itself.
	if data, ok := bytes.CutPrefix(line, []byte("data:")); ok {
		w.payload(trimSpace(data))
	} else if name, ok := bytes.CutPrefix(line, []byte("event:")); ok {
		if string(trimSpace(name)) == "message_stop" {
			w.end()
		}
	} else {
		w.payload(line)
	}
}

// payload reads one event's data: "[DONE]" or a JSON object.
func (w *streamWatcher) payload(data []byte) {
	if string(data) == "[DONE]" {
		w.end()
		return
	}
	if !bytes.HasPrefix(data, []byte("{")) {
		return
	}
	if mayBeMarker(data) {
		w.object(data)
	}
	if w.ndjson && !bytes.HasSuffix(data, []byte(`"done":false}`)) && doneTrue(data) {
		w.end()
	}
}

// mayBeMarker rejects most content chunks on a byte or two: only an object
// whose first key is "error", "type" or "object" can be a marker or an
// error, and only a type that starts like "message_stop" or "error" (a
// content chunk's "id", "model", "choices", type "content_block_delta" are
// rejected). Objects it lets through are read by object.
func mayBeMarker(data []byte) bool {
	if typ, ok := bytes.CutPrefix(data, []byte(typeKey)); ok {
		return bytes.HasPrefix(typ, []byte("m")) || bytes.HasPrefix(typ, []byte("e"))
	}
	key, ok := bytes.CutPrefix(data, []byte(`{"`))
	return !ok || bytes.HasPrefix(key, []byte("e")) || bytes.HasPrefix(key, []byte("t")) || bytes.HasPrefix(key, []byte("o"))
}

// object reads the first member of a JSON object for a marker or an error.
func (w *streamWatcher) object(data []byte) {
	if key, value := firstMember(data); string(key) == "type" {
		switch {
		case bytes.HasPrefix(value, []byte(`"message_stop"`)):
			w.end()
			return
		case bytes.HasPrefix(value, []byte(`"message_delta"`)):
			w.stopReason(data)
			return
		}
	}
	recordErrorObject(w.slot, data)
}

// stopReason records the stop reason of Anthropic's message_delta event:
// langchaingo's anthropic client drops it when the message has no content
// ("no response"), and an output limit reached before any output must not
// be retried as an empty reply.
func (w *streamWatcher) stopReason(data []byte) {
	_, after, ok := bytes.Cut(data, []byte(`"stop_reason"`))
	if !ok {
		return
	}
	value, ok := bytes.CutPrefix(trimSpace(after), []byte(":"))
	if !ok {
		return
	}
	reason, ok := bytes.CutPrefix(trimSpace(value), []byte(`"`))
	if !ok {
		return
	}
	if reason, _, ok = bytes.Cut(reason, []byte(`"`)); ok && len(reason) <= maxStopReason {
		w.slot.setStop(string(reason))
	}
}

// maxStopReason bounds a recorded stop reason: the real ones are short words.
const maxStopReason = 64

func (w *streamWatcher) end() {
	if w.ended {
		return
	}
	w.ended = true
	w.slot.update(func(ev *taxonomy.Evidence) { ev.EndMarker = true })
}

// recordErrorObject records a JSON object as an in-band error if its first
// member makes it one of the provider error shapes parseErrorBody knows:
// "error" (OpenAI, Ollama, most compatible servers), "type": "error"
// (Anthropic) or "object": "error" (Mistral, vLLM). An object whose error
// says nothing ("error": null) is not one.
func recordErrorObject(s *Slot, data []byte) {
	if !isErrorMember(firstMember(data)) {
		return
	}
	typ, code, msg := parseErrorBody(data)
	if typ == "" && code == "" && msg == "" {
		return
	}
	s.update(func(ev *taxonomy.Evidence) {
		ev.InBand = true
		ev.ErrorType, ev.ErrorCode, ev.ErrorMessage = typ, code, msg
	})
}

// isErrorMember reports whether the first member of an object, its key and
// what follows its colon (see firstMember), makes it a provider error
// object: "error", or "type" or "object" with the value "error".
func isErrorMember(key, value []byte) bool {
	switch string(key) {
	case "error":
		return true
	case "type", "object":
		return bytes.HasPrefix(value, []byte(`"error"`))
	}
	return false
}

// firstMember returns the first key of a JSON object and what follows its
// colon, without decoding: `{"type": "x", ...}` gives `type` and `"x", ...`.
// Both are nil when obj does not start that way.
func firstMember(obj []byte) (key, value []byte) {
	rest, ok := bytes.CutPrefix(trimSpace(obj[1:]), []byte(`"`))
	if !ok {
		return nil, nil
	}
	key, rest, ok = bytes.Cut(rest, []byte(`"`))
	if !ok {
		return nil, nil
	}
	if value, ok = bytes.CutPrefix(trimSpace(rest), []byte(":")); !ok {
		return nil, nil
	}
	return key, trimSpace(value)
}

// doneTrue reports whether a JSON line holds "done": true, with or without
// spaces around the colon.
func doneTrue(data []byte) bool {
	for {
		_, after, found := bytes.Cut(data, []byte(`"done"`))
		if !found {
			return false
		}
		if value, ok := bytes.CutPrefix(trimSpace(after), []byte(":")); ok {
			return bytes.HasPrefix(trimSpace(value), []byte("true"))
		}
		data = after
	}
}

// trimSpace trims the ASCII spaces, tabs and carriage returns SSE and NDJSON
// lines may carry at either end.
func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
