package faultserver

import (
	"context"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Server is a loopback LLM provider that answers each request with the next
// step of its script. Create it with [New] or [NewInMemory] and stop it with
// [Server.Close].
//
// A Server is safe for concurrent use: requests are served concurrently and
// take steps in arrival order, and all methods may be called from any
// goroutine (including from a [Func] step). Requests to other paths are
// answered 404 and neither recorded nor given a step.
type Server struct {
	// URL is the root URL of the server, e.g. "http://127.0.0.1:41234"
	// (New) or "http://faultserver.test" (NewInMemory), with no trailing
	// slash.
	URL string

	srv       *http.Server
	listener  net.Listener
	transport *http.Transport
	client    *http.Client
	serveDone chan struct{}
	closing   chan struct{} // closed by Close: ends delays and stalls

	mu     sync.Mutex
	closed bool
	script []Step
	next   int // index into script of the next step; see take
	reqs   []Request
	active int // requests being answered
	most   int // the most answered at once
	conns  map[net.Conn]bool
	wg     sync.WaitGroup // open connections and running handlers

	fnMu      sync.Mutex // serializes Func calls
	closeOnce sync.Once
}

// New starts a server on a real TCP listener on 127.0.0.1, like
// net/http/httptest, replaying script one step per request. Once the script
// is exhausted its last step repeats: New(HangUp()) is a lasting outage and
// New(RateLimited("1"), Reply("ok")) recovers after one error. With no steps
// every request gets Reply("ok").
//
// Real sockets do not block durably inside a testing/synctest bubble; use
// [NewInMemory] there. New panics if it cannot listen, as httptest does.
func New(script ...Step) *Server {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic("faultserver: listen: " + err.Error())
	}
	tr := &http.Transport{
		DialContext:         (&net.Dialer{}).DialContext,
		MaxIdleConnsPerHost: 64,
	}
	return start(l, "http://"+l.Addr().String(), tr, script)
}

// NewInMemory is [New] served over an in-memory listener: each connection is
// a [net.Pipe] delivered through a channel. Its blocking is durable, so the
// server works inside a testing/synctest bubble, where delays ([Step.After])
// and stalls take fake time. Call NewInMemory and Close inside the bubble.
//
// Only the client returned by [Server.Client] (and the clients built by
// [Server.OpenAI], [Server.Anthropic] and [Server.Ollama]) can reach the
// server; it dials the in-memory listener whatever the URL's host.
func NewInMemory(script ...Step) *Server {
	l := newPipeListener()
	tr := &http.Transport{
		DialContext:         l.dial,
		MaxIdleConnsPerHost: 64,
	}
	return start(l, "http://faultserver.test", tr, script)
}

func start(l net.Listener, url string, tr *http.Transport, script []Step) *Server {
	if len(script) == 0 {
		script = []Step{Reply("ok")}
	}
	s := &Server{
		URL:       url,
		listener:  l,
		transport: tr,
		client:    &http.Client{Transport: tr},
		serveDone: make(chan struct{}),
		closing:   make(chan struct{}),
		script:    append([]Step(nil), script...),
		conns:     map[net.Conn]bool{},
	}
	s.srv = &http.Server{
		Handler:   http.HandlerFunc(s.serveHTTP),
		ConnState: s.connState,
		ErrorLog:  log.New(io.Discard, "", 0),
	}
	go func() {
		defer close(s.serveDone)
		_ = s.srv.Serve(l)
	}()
	return s
}

// Client returns the HTTP client for this server. It has its own Transport,
// whose idle connections [Server.Close] closes; for a [NewInMemory] server it
// is the only way in. Every call returns the same client.
func (s *Server) Client() *http.Client {
	return s.client
}

// OpenAIBaseURL returns URL+"/v1", the value for openai.WithBaseURL.
func (s *Server) OpenAIBaseURL() string { return s.URL + "/v1" }

// AnthropicBaseURL returns URL+"/v1", the value for anthropic.WithBaseURL.
func (s *Server) AnthropicBaseURL() string { return s.URL + "/v1" }

// OllamaURL returns URL, the value for ollama.WithServerURL.
func (s *Server) OllamaURL() string { return s.URL }

// Push appends steps to the script. If the script was exhausted (its last
// step repeating), the next request gets the first pushed step.
func (s *Server) Push(steps ...Step) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, steps...)
}

// SetScript replaces the script: the next request gets steps[0]. With no
// steps every request gets Reply("ok"). Recorded requests are kept.
func (s *Server) SetScript(steps ...Step) {
	if len(steps) == 0 {
		steps = []Step{Reply("ok")}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append([]Step(nil), steps...)
	s.next = 0
}

// Requests returns copies of the requests received so far, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.reqs))
	for i, r := range s.reqs {
		out[i] = r.clone()
	}
	return out
}

// Count returns the number of requests received so far.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.reqs)
}

// Close stops the server: it stops accepting connections, ends delayed and
// stalled responses (their connections are dropped), closes all
// connections, closes the idle connections of the client returned by
// [Server.Client], and waits for every handler to return. It is safe to
// call more than once.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		s.mu.Unlock()
		close(s.closing)
		_ = s.srv.Close()
		s.mu.Lock()
		for c := range s.conns {
			_ = c.Close()
		}
		s.mu.Unlock()
		<-s.serveDone
		s.wg.Wait()
		s.transport.CloseIdleConnections()
	})
}

// connState tracks connections so that Close can wait for them, as
// httptest.Server does.
func (s *Server) connState(c net.Conn, state http.ConnState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch state {
	case http.StateNew:
		if s.closed {
			_ = c.Close()
			return
		}
		s.conns[c] = true
		s.wg.Add(1)
	case http.StateHijacked, http.StateClosed:
		if s.conns[c] {
			delete(s.conns, c)
			s.wg.Done()
		}
	}
}

// take records a request and returns the step that answers it.
func (s *Server) take(r *http.Request, format Format, embeddings bool, body []byte) (Request, Step, bool) {
	stream, set := parseStream(body)
	req := Request{
		Method:     r.Method,
		Path:       r.URL.Path,
		Header:     r.Header.Clone(),
		Body:       body,
		Stream:     stream,
		Format:     format,
		Embeddings: embeddings,
		Time:       time.Now(),
		streamSet:  set,
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return req, Step{}, false
	}
	req.Index = len(s.reqs)
	s.reqs = append(s.reqs, req.clone())
	i := s.next
	if i < len(s.script) {
		s.next++
	} else {
		i = len(s.script) - 1
	}
	s.wg.Add(1) // this handler; Close waits for it
	s.active++
	s.most = max(s.most, s.active)
	return req, s.script[i], true
}

// answered ends a request taken by take.
func (s *Server) answered() {
	s.mu.Lock()
	s.active--
	s.mu.Unlock()
	s.wg.Done()
}

// InFlight returns how many requests the server is answering now. A
// request is in flight from its arrival (its body read) until its handler
// returns, which for a reply that is not streamed is before the client can
// read the end of it: net/http sends a small buffered response when the
// handler returns. A client that sends a request only after another
// returned never sees the two overlap.
func (s *Server) InFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.active
}

// MaxInFlight returns the most requests the server answered at once since
// it started (see [Server.InFlight]): what a concurrency limit in front of
// it must keep under its bound.
func (s *Server) MaxInFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.most
}

// resolve plays Func steps until it reaches a concrete step.
func (s *Server) resolve(st Step, req Request) Step {
	for st.kind == kindFunc {
		outer := st
		s.fnMu.Lock()
		r := req.clone()
		st = outer.fn(&r)
		s.fnMu.Unlock()
		st.delay += outer.delay
		for k, v := range outer.header {
			if st.header.Get(k) == "" {
				st.header = st.header.Clone()
				if st.header == nil {
					st.header = http.Header{}
				}
				st.header[k] = v
			}
		}
	}
	return st
}

// wait sleeps d. It returns false if the request or the server ended first.
func (s *Server) wait(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	case <-s.closing:
		return false
	}
}

// block waits until the request or the server ends.
func (s *Server) block(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-s.closing:
	}
}

// route maps a request path to its wire format, and says whether it is an
// embeddings endpoint.
func route(path string) (f Format, embeddings, ok bool) {
	switch path {
	case "/v1/chat/completions":
		return OpenAI, false, true
	case "/v1/messages":
		return Anthropic, false, true
	case "/api/chat":
		return Ollama, false, true
	case "/v1/embeddings":
		return OpenAI, true, true
	case "/api/embed":
		return Ollama, true, true
	}
	for _, version := range []string{"/v1beta/models/", "/v1/models/"} {
		if rest, ok := strings.CutPrefix(path, version); ok && rest != "" &&
			(strings.HasSuffix(rest, ":generateContent") || strings.HasSuffix(rest, ":streamGenerateContent")) {
			return Gemini, false, true
		}
	}
	return 0, false, false
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	format, embeddings, ok := route(r.URL.Path)
	if !ok || r.Method != http.MethodPost {
		status := http.StatusNotFound
		if ok {
			status = http.StatusMethodNotAllowed
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(status)
		_, _ = w.Write(marshal(obj{{"error", obj{
			{"message", "faultserver: no route for " + r.Method + " " + r.URL.Path + " (want POST /v1/chat/completions, /v1/embeddings, /v1/messages, /api/chat, /api/embed or /v1beta/models/{model}:generateContent)"},
			{"type", "invalid_request_error"},
			{"param", nil},
			{"code", "unknown_url"},
		}}}))
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	req, st, ok := s.take(r, format, embeddings, body)
	if !ok {
		panic(http.ErrAbortHandler)
	}
	defer s.answered()
	st = s.resolve(st, req)
	if !s.wait(r.Context(), st.delay) {
		panic(http.ErrAbortHandler)
	}
	s.respond(w, r, &req, st)
}
