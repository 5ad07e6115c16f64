package wire

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// ordinaryIsSafe fails t if the watcher's fast path calls line ordinary
// while reading it in full records something.
func ordinaryIsSafe(t *testing.T, line []byte, ndjson bool) {
	t.Helper()
	if bytes.IndexByte(line, '\n') >= 0 {
		return // not one line
	}
	w := &streamWatcher{ndjson: ndjson}
	if !w.ordinary(line) {
		return
	}
	_, w.slot = WithSlot(context.Background())
	w.inspect(line)
	if ev, _ := w.slot.Evidence(); ev.EndMarker || ev.InBand {
		t.Errorf("ordinary(%q, ndjson %v) = true, but the line records %+v", line, ndjson, ev)
	}
}

// The fast path passes over no line that holds a marker or an error: every
// line of the stream cases and the benchmark streams, and each of them with
// a marker's start written over it at every offset of its first 24 bytes.
func TestOrdinaryLinesHoldNothing(t *testing.T) {
	var lines []string
	for _, c := range streamCases {
		lines = append(lines, strings.Split(c.body, "\n")...)
	}
	for _, f := range []string{"openai", "anthropic", "ollama"} {
		_, body := benchStream(f, 3)
		lines = append(lines, strings.Split(string(body), "\n")...)
	}
	patches := []string{`[DONE]`, `message_stop`, `error"`, `"error"`, `"type":"error"`, `"type":"message_stop"`,
		`"object":"error"`, `"done":true}`, `"done": true}`, ` `, "\r", `{"`, `data: {"`, `event: m`,
		"  message_stop", "\tmessage_stop"}
	seen := 0
	for _, l := range lines {
		for _, ndjson := range []bool{false, true} {
			ordinaryIsSafe(t, []byte(l), ndjson)
			for _, p := range patches {
				for at := 0; at < 24 && at < len(l); at++ {
					b := []byte(l)
					copy(b[at:], p)
					ordinaryIsSafe(t, b, ndjson)
					seen++
				}
			}
		}
	}
	if seen < 1000 {
		t.Fatalf("only %d lines tried", seen)
	}
}

// The fast path takes the content chunks of every format, so that the
// watcher reads them at the cost of finding their ends.
func TestOrdinaryTakesContentChunks(t *testing.T) {
	for _, f := range []string{"openai", "anthropic", "ollama"} {
		contentType, body := benchStream(f, 1)
		w := &streamWatcher{ndjson: strings.Contains(contentType, "ndjson")}
		lines := strings.Split(string(body), "\n")
		chunk := lines[0] // the first text chunk
		if f == "anthropic" {
			chunk = lines[4] // after message_start and the chunk's event line
			if !w.ordinary([]byte(lines[3])) {
				t.Errorf("%s: the event line %q is not ordinary", f, lines[3])
			}
		}
		if !w.ordinary([]byte(chunk)) {
			t.Errorf("%s: the content chunk %q is not ordinary", f, chunk)
		}
	}
}

// A line cut right after an object's opening quote is read without a
// panic, in each format and however it is split across reads.
func TestTruncatedObjectLines(t *testing.T) {
	for _, body := range []string{"data: {\"\n\n", "data:{\"\r\n", "{\"\n", "{\"   \n", "data: {\""} {
		for _, ndjson := range []bool{false, true} {
			_, s := WithSlot(context.Background())
			w := &streamWatcher{body: io.NopCloser(iotest.OneByteReader(strings.NewReader(body))), slot: s, ndjson: ndjson}
			if got, err := io.ReadAll(w); err != nil || string(got) != body {
				t.Errorf("%q: read %q, %v", body, got, err)
			}
			w = &streamWatcher{body: io.NopCloser(strings.NewReader(body)), slot: s, ndjson: ndjson}
			if got, err := io.ReadAll(w); err != nil || string(got) != body {
				t.Errorf("%q: read %q, %v", body, got, err)
			}
			if ev, _ := s.Evidence(); ev.EndMarker || ev.InBand {
				t.Errorf("%q: recorded %+v", body, ev)
			}
		}
	}
}

func FuzzOrdinaryLinesHoldNothing(f *testing.F) {
	for _, c := range streamCases {
		for _, l := range strings.Split(c.body, "\n") {
			f.Add([]byte(l), strings.Contains(c.contentType, "ndjson"))
		}
	}
	f.Fuzz(func(t *testing.T, line []byte, ndjson bool) { ordinaryIsSafe(t, line, ndjson) })
}
