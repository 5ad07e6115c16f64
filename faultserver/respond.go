package faultserver

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"strconv"
)

// respond writes the response of step st to request req.
func (s *Server) respond(w http.ResponseWriter, r *http.Request, req *Request, st Step) {
	wr := newWire(req)
	h := w.Header()
	if name := wr.requestIDHeader(); name != "" {
		h.Set(name, "req_fault"+strconv.Itoa(req.Index+1))
	}
	for k, v := range st.header {
		h[k] = append([]string(nil), v...)
	}
	stream := wr.streams

	switch st.kind {
	case kindReply, kindToolCalls, kindVectors:
		s.recordUsage(req, wr, st)
		if !stream {
			writeBody(w, http.StatusOK, wr.contentType(false), wr.full(st))
			return
		}
		head, body, tail := wr.frames(st)
		setDefault(h, "Content-Type", wr.contentType(true))
		writeFrames(w, concat(head, body, tail), true)

	case kindStatus:
		status, ct, body := wr.errorBody(st)
		writeBody(w, status, ct, body)

	case kindHangUp:
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			panic(http.ErrAbortHandler)
		}
		_ = conn.Close()

	case kindDropStream:
		if !stream {
			setDefault(h, "Content-Type", wr.contentType(false))
			writeTruncated(w, wr.full(ReplyChunks(st.chunks...)))
			return
		}
		head, body, _ := wr.frames(st)
		setDefault(h, "Content-Type", wr.contentType(true))
		h.Set("Transfer-Encoding", "chunked")
		writeRaw(w, func(bw *bufio.Writer) {
			for _, f := range concat(head, body) {
				fmt.Fprintf(bw, "%x\r\n%s\r\n", len(f), f)
				_ = bw.Flush()
			}
		})

	case kindNoEndMarker:
		if !stream && (req.Format != Ollama || req.Embeddings) {
			s.recordUsage(req, wr, ReplyChunks(st.chunks...))
			writeBody(w, http.StatusOK, wr.contentType(false), wr.full(ReplyChunks(st.chunks...)))
			return
		}
		head, body, _ := wr.frames(st)
		setDefault(h, "Content-Type", wr.contentType(true))
		h.Set("Connection", "close")
		writeRaw(w, func(bw *bufio.Writer) {
			for _, f := range concat(head, body) {
				_, _ = bw.WriteString(f)
				_ = bw.Flush()
			}
		})

	case kindInBandError:
		if !stream {
			writeBody(w, http.StatusOK, wr.contentType(false), []byte(wr.inBand(st.inBandType, st.inBandMessage)))
			return
		}
		head, body, _ := wr.frames(st)
		setDefault(h, "Content-Type", wr.contentType(true))
		// The error event is left unflushed, so that it reaches the client
		// together with the end of the body. anthropicclient's reader
		// goroutine blocks forever if it reads anything after its first
		// error.
		writeFrames(w, append(concat(head, body), wr.inBand(st.inBandType, st.inBandMessage)), false)

	case kindStall:
		if len(st.chunks) > 0 {
			var frames []string
			if stream {
				head, body, _ := wr.frames(st)
				frames = concat(head, body)
				setDefault(h, "Content-Type", wr.contentType(true))
			} else {
				setDefault(h, "Content-Type", wr.contentType(false))
			}
			w.WriteHeader(http.StatusOK)
			writeFrames(w, frames, true)
			_ = http.NewResponseController(w).Flush()
		}
		s.block(r.Context())
		panic(http.ErrAbortHandler)

	case kindMalformed:
		writeBody(w, http.StatusOK, "text/html; charset=utf-8", []byte(st.body))

	case kindRaw, kindRawStream, kindRawStall, kindReset:
		respondRaw(w, r, s, wr, st)

	case kindTruncatedJSON:
		setDefault(h, "Content-Type", wr.contentType(false))
		writeTruncated(w, wr.full(Reply("ok")))
	}
}

// recordUsage records the usage that the whole reply to st reports, before
// it is written: a client that has the reply finds it in [Server.Requests].
func (s *Server) recordUsage(req *Request, wr *wire, st Step) {
	in, out, ok := wr.reported(st)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs[req.Index].InputTokens, s.reqs[req.Index].OutputTokens = in, out
}

// writeBody writes a complete response.
func writeBody(w http.ResponseWriter, status int, contentType string, body []byte) {
	if contentType != "" {
		setDefault(w.Header(), "Content-Type", contentType)
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// writeFrames writes a 200 stream, flushing after each frame; the last frame
// is flushed only if flushLast.
func writeFrames(w http.ResponseWriter, frames []string, flushLast bool) {
	rc := http.NewResponseController(w)
	for i, f := range frames {
		_, _ = io.WriteString(w, f)
		if flushLast || i < len(frames)-1 {
			_ = rc.Flush()
		}
	}
}

// writeTruncated declares the Content-Length of body, sends its first half
// and closes the connection.
func writeTruncated(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.Header().Set("Connection", "close")
	writeRaw(w, func(bw *bufio.Writer) {
		_, _ = bw.Write(body[:len(body)/2])
	})
}

// writeRaw hijacks the connection, writes a 200 status line and the
// headers set on w, lets body write the rest, and closes the connection.
func writeRaw(w http.ResponseWriter, body func(*bufio.Writer)) {
	h := w.Header().Clone()
	conn, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	defer conn.Close()
	bw := brw.Writer
	_, _ = bw.WriteString("HTTP/1.1 200 OK\r\n")
	_ = h.Write(bw)
	_, _ = bw.WriteString("\r\n")
	_ = bw.Flush()
	body(bw)
	_ = bw.Flush()
}

// setDefault sets a header unless the step already set it.
func setDefault(h http.Header, key, value string) {
	if h.Get(key) == "" {
		h.Set(key, value)
	}
}

func concat(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
