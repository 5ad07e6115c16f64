package faultserver

import (
	"net"
	"net/http"
	"slices"
)

// Raw is a response sent verbatim, whatever the request's format: status,
// Content-Type (none when "") and body, with its Content-Length. It makes
// the bodies the canned steps do not: a 200 whose JSON has no choices or an
// unknown shape, an error object under a 200 from an OpenAI-compatible
// server, a JSON reply labelled text/plain, a 429 whose body alone says when
// to retry ("Please retry after 20 seconds", as Azure OpenAI words it).
func Raw(status int, contentType, body string) Step {
	return Step{kind: kindRaw, rawStatus: status, rawType: contentType, body: body}
}

// RawStream is a 200 stream whose frames are sent verbatim, each flushed on
// its own, under the format's stream Content-Type; the body then ends
// cleanly. A frame is written as given: an SSE frame carries its own
// "data: ...\n\n", an NDJSON line its own newline. It makes the streams the
// canned steps do not: a finish reason "length" with no text, an OpenAI
// chunk carrying {"error":...} after text, keep-alive comments.
func RawStream(frames ...string) Step {
	return Step{kind: kindRawStream, chunks: slices.Clone(frames)}
}

// RawStall is [RawStream] that, instead of ending the body after its frames,
// keeps the connection open and silent until the client gives up or the
// server is closed: a stream that sends headers then nothing (no frames),
// or keep-alive pings and then nothing.
func RawStall(frames ...string) Step {
	return Step{kind: kindRawStall, chunks: slices.Clone(frames)}
}

// Reset aborts the connection without a response: on a TCP connection
// ([New]) with SO_LINGER 0, so that the client reads a connection reset
// (RST) rather than a clean close; an in-memory connection ([NewInMemory])
// has no RST and is closed as by [HangUp].
func Reset() Step {
	return Step{kind: kindReset}
}

// respondRaw writes the response of the verbatim steps.
func respondRaw(w http.ResponseWriter, r *http.Request, s *Server, wr *wire, st Step) {
	h := w.Header()
	switch st.kind {
	case kindRaw:
		if st.rawType != "" {
			setDefault(h, "Content-Type", st.rawType)
		} else if h.Get("Content-Type") == "" {
			h["Content-Type"] = nil // no Content-Type at all: net/http would sniff one
		}
		writeBody(w, st.rawStatus, "", []byte(st.body))
	case kindRawStream, kindRawStall:
		setDefault(h, "Content-Type", wr.contentType(true))
		w.WriteHeader(http.StatusOK)
		_ = http.NewResponseController(w).Flush()
		writeFrames(w, st.chunks, true)
		if st.kind == kindRawStall {
			s.block(r.Context())
			panic(http.ErrAbortHandler)
		}
	case kindReset:
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			panic(http.ErrAbortHandler)
		}
		if tc, ok := conn.(*net.TCPConn); ok {
			_ = tc.SetLinger(0)
		}
		_ = conn.Close()
	}
}
