package resilienthttp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/resilientgo/resilient/internal/redact"
	"github.com/resilientgo/resilient/internal/sat"
	"github.com/resilientgo/resilient/internal/wire"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/run"
	"github.com/resilientgo/resilient/taxonomy"
)

// ResponseError is the failure of an attempt that the provider answered
// with an error status, or with an in-band error: an error event in a
// stream before any content, or an error object as the body of a 200. Its
// fields come from the status and the provider's JSON error body. The SDK
// never sees it: it gets the response itself and builds its own error; it
// is what the library's events, logs and final error say of the attempt.
type ResponseError struct {
	// StatusCode is the response's status (200 for an in-band error).
	StatusCode int
	// Type, Code and Message are the provider's error type, code and
	// message, when its body had them.
	Type, Code, Message string
	// InBand is true for an error carried by a 200.
	InBand bool
}

// Error reads like "resilienthttp: 429 Too Many Requests: rate_limit_exceeded:
// Rate limit reached..." or "resilienthttp: in-band error: overloaded_error:
// Overloaded".
func (e *ResponseError) Error() string {
	var b bytes.Buffer
	b.WriteString("resilienthttp: ")
	if e.InBand {
		b.WriteString("in-band error")
	} else {
		fmt.Fprint(&b, e.StatusCode)
		if text := http.StatusText(e.StatusCode); text != "" {
			b.WriteString(" " + text)
		}
	}
	for _, s := range []string{e.Type, e.Code, e.Message} {
		if s != "" {
			b.WriteString(": ")
			b.WriteString(s)
		}
	}
	return b.String()
}

// call is the state of one request across its attempts.
type call struct {
	core          *core
	req           *http.Request // the SDK's
	body          *body
	send          sender
	target        *target
	caller        context.Context
	run           *run.Run
	obs           observe.Observers
	viaMiddleware bool
	started       time.Time // when observed

	mu       sync.Mutex
	attempts int
	kept     *kept            // the latest failed attempt that had a response
	released []*http.Response // the responses attempts handed out; one is the call's
	done     bool             // Do returned: attempts still running discard their responses
	tokens   usage
	// result is the call's response body when it is a stream, which
	// reports the call's end to the observers, with reportCtx.
	result    *handedBody
	reportCtx context.Context
}

// kept is a failed attempt's response, its body read into memory, for the
// SDK if that attempt turns out to be the last.
type kept struct {
	attempt int
	resp    *http.Response
}

// maxKeptBody bounds how much of a failed attempt's body is kept: the
// provider's error, or the start of a stream up to its error event.
const maxKeptBody = 1 << 20

// attempt is one attempt: the request sent afresh, its response read as
// evidence, and judged.
func (c *call) attempt(actx context.Context, s middleware.State) (*http.Response, error) {
	c.mu.Lock()
	c.attempts++
	c.mu.Unlock()
	r, l, sl, send, err := c.prepare(actx, s)
	if err != nil {
		return nil, err
	}
	resp, err := (&wire.Transport{Base: roundTripper(send)}).RoundTrip(r)
	if err != nil {
		if resp != nil && resp.Body != nil {
			resp.Body.Close()
		}
		l.end()
		return nil, c.once(err)
	}
	ev, _ := sl.Evidence()
	switch {
	case resp.StatusCode >= 400:
		err := taxonomy.WithEvidence(&ResponseError{StatusCode: resp.StatusCode, Type: ev.ErrorType, Code: ev.ErrorCode,
			Message: ev.ErrorMessage}, wire.ForError(ev))
		return nil, c.fail(s, resp, nil, l, err, true)
	case ev.Stream:
		held, err := holdStream(resp.Body, sl, c.core.cfg.maxHeld)
		if err != nil {
			return nil, c.fail(s, resp, held, l, err, isInBand(err))
		}
		return c.release(actx, resp, held, l, true)
	case resp.StatusCode/100 == 2 && resp.Body != nil && resp.Body != http.NoBody:
		data, err := io.ReadAll(io.LimitReader(resp.Body, c.core.cfg.maxBody))
		if err != nil {
			return nil, c.fail(s, resp, data, l, fmt.Errorf("resilienthttp: reading the response body: %w", err), false)
		}
		if int64(len(data)) < c.core.cfg.maxBody {
			resp.Body.Close() // at its end: the errorBodyWatcher has decided
			if ev, _ := sl.Evidence(); ev.InBand {
				// Not kept for the SDK: a 200 whose body is an error object
				// decodes as an empty reply, without an error, so the call
				// that ends on one ends with the library's error.
				err := taxonomy.WithEvidence(&ResponseError{StatusCode: resp.StatusCode, Type: ev.ErrorType, Code: ev.ErrorCode,
					Message: ev.ErrorMessage, InBand: true}, wire.ForError(ev))
				return nil, c.fail(s, resp, data, l, err, false)
			}
			if c.run != nil || c.obs.Active() {
				var u usage
				u.read(data)
				c.addTokens(u)
			}
			resp.Body = http.NoBody // the held bytes are the whole body
			return c.release(actx, resp, data, l, false)
		}
		return c.release(actx, resp, data, l, false)
	}
	return c.release(actx, resp, nil, l, false)
}

// once marks the failure of an attempt that spent a body it cannot send
// again as not retryable.
func (c *call) once(err error) error {
	if c.body.replayable() {
		return err
	}
	return middleware.Unretryable(err, "the request body cannot be sent again")
}

// prepare builds the attempt's request: a clone of the SDK's with a fresh
// body, on a context of its own (see links) that carries the evidence slot,
// and for a pool the chosen member's URL and key.
func (c *call) prepare(actx context.Context, s middleware.State) (*http.Request, *links, *wire.Slot, sender, error) {
	rb, err := c.body.reader()
	if err != nil {
		return nil, nil, nil, nil, middleware.Unretryable(err, "the request body cannot be sent again")
	}
	l := newLinks(actx, c.caller)
	ctx, sl := wire.WithSlot(l.ctx)
	r := c.req.Clone(ctx)
	r.Body = rb
	if c.body.whole {
		data := c.body.data
		r.ContentLength = int64(len(data))
		r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
	}
	send := c.send
	if c.core.cfg.pool != nil {
		if send, err = c.toMember(r, s.Member); err != nil {
			rb.Close()
			l.end()
			return nil, nil, nil, nil, err
		}
	}
	return r, l, sl, send, nil
}

// toMember points r at the pool's member i and returns what sends it.
func (c *call) toMember(r *http.Request, i int) (sender, error) {
	from := -1
	var rest string
	for j, base := range c.core.bases {
		if p, ok := under(r.URL, base); ok && (from < 0 || len(base.Path) > len(c.core.bases[from].Path)) {
			from, rest = j, p
		}
	}
	if from < 0 {
		return nil, taxonomy.WithClass(fmt.Errorf("resilienthttp: %s is under no pool member's base URL", r.URL.Redacted()),
			taxonomy.Class{Kind: taxonomy.Programming, Rule: "request outside the pool"})
	}
	m, base := c.core.cfg.pool[i], c.core.bases[i]
	u := *r.URL
	u.Scheme, u.Host, u.Path, u.RawPath = base.Scheme, base.Host, base.Path+rest, ""
	origin := sameOrigin(&u, r.URL)
	r.URL, r.Host = &u, ""
	setKey(r, m.APIKey)
	if origin || !c.viaMiddleware {
		return c.send, nil
	}
	t := m.Transport
	if t == nil {
		t = http.DefaultTransport
	}
	return t.RoundTrip, nil
}

// fail ends a failed attempt's request and returns err, the attempt's
// failure. When keep is set (the provider answered with an error the SDK
// reads: an error status, or an error event in a stream), the response is
// kept for the SDK, its body
// read into memory: the bytes read already, then what remains, to
// maxKeptBody. A response that broke or stalled is not: the SDK would make
// nothing of it that the library's error does not say better.
func (c *call) fail(s middleware.State, resp *http.Response, read []byte, l *links, err error, keep bool) error {
	if !keep {
		resp.Body.Close()
		l.end()
		return c.once(err)
	}
	rest, rerr := io.ReadAll(io.LimitReader(resp.Body, max(0, maxKeptBody-int64(len(read)))))
	resp.Body.Close()
	l.end()
	data := append(read[:len(read):len(read)], rest...)
	var tail io.Reader = bytes.NewReader(nil)
	if rerr != nil {
		tail = errReader{rerr}
	}
	resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(data), tail))
	resp.ContentLength = -1
	if rerr == nil && resp.Header.Get("Content-Length") != "" {
		resp.ContentLength = int64(len(data))
		resp.Header.Set("Content-Length", fmt.Sprint(len(data)))
	}
	c.mu.Lock()
	if !c.done {
		c.kept = &kept{attempt: s.Attempt, resp: resp}
	}
	c.mu.Unlock()
	return c.once(err)
}

// isInBand reports whether a stream's failure is an in-band error event.
func isInBand(err error) bool {
	var re *ResponseError
	return errors.As(err, &re) && re.InBand
}

// marshalError renders the body of the response made up for a call that
// failed without one, in a shape both OpenAI's and Anthropic's SDKs read:
// {"type": "error", "error": {"type", "code", "message"}}.
func marshalError(reason, message string) []byte {
	b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]string{
		"type": "resilienthttp_error", "code": reason, "message": message}})
	return b
}

// errReader replays a read error after the bytes kept.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// release hands the attempt's response out: its body is held (bytes the
// attempt read) followed by the rest from the connection, and the request
// outlives the attempt until the body ends or is closed. An attempt whose
// time ran out as its response arrived fails instead.
func (c *call) release(actx context.Context, resp *http.Response, held []byte, l *links, stream bool) (*http.Response, error) {
	if !l.release() {
		resp.Body.Close()
		l.end()
		return nil, context.Cause(actx)
	}
	count := stream && (c.run != nil || c.obs.Active())
	if resp.Body != nil {
		hb := newHandedBody(held, resp.Body, l, c.core.cfg.idle, count, nil)
		if stream {
			hb.done = func(u usage) { c.streamEnded(hb, u) }
		}
		resp.Body = hb
	} else {
		l.end()
	}
	c.mu.Lock()
	late := c.done
	if !late {
		c.released = append(c.released, resp)
	}
	c.mu.Unlock()
	if late {
		resp.Body.Close()
		return nil, errors.New("resilienthttp: the call had ended")
	}
	return resp, nil
}

func (c *call) addTokens(u usage) {
	c.run.AddTokens(u.input, u.output)
	c.mu.Lock()
	c.tokens.input = sat.Add(c.tokens.input, u.input)
	c.tokens.output = sat.Add(c.tokens.output, u.output)
	c.mu.Unlock()
}

// start starts the logical call for the observers.
func (c *call) start(ctx context.Context) context.Context {
	c.started = time.Now()
	return c.obs.StartCall(ctx, c.target.desc)
}

// streamEnded is called when the body b of a stream handed out ends: its
// usage is the run's, and when it is the call's response the call ends
// there for the observers.
func (c *call) streamEnded(b *handedBody, u usage) {
	c.addTokens(u)
	c.mu.Lock()
	report := c.result == b
	c.mu.Unlock()
	if report {
		c.report(c.reportCtx, nil, nil)
	}
}

// report ends the logical call for the observers.
func (c *call) report(ctx context.Context, final *middleware.Error, err error) {
	if !c.obs.Active() {
		return
	}
	c.mu.Lock()
	e := observe.CallEnd{Target: c.target.desc, Attempts: c.attempts,
		Duration: time.Since(c.started), InputTokens: c.tokens.input, OutputTokens: c.tokens.output}
	c.mu.Unlock()
	if err != nil {
		e.Class, e.Reason = taxonomy.Classify(err), middleware.ReasonOf(err)
	}
	c.obs.Report(ctx, e, err)
}

// finish turns the pipeline's result into what the SDK gets, and releases
// what no one will read.
func (c *call) finish(ctx context.Context, resp *http.Response, err error) (*http.Response, error) {
	c.mu.Lock()
	c.done = true
	kept, released := c.kept, c.released
	stream := false
	if err == nil {
		if hb, ok := resp.Body.(*handedBody); ok && hb.done != nil {
			stream, c.result, c.reportCtx = true, hb, ctx
		}
	}
	c.mu.Unlock()
	c.body.close()
	for _, r := range released {
		if r != resp && r.Body != nil {
			r.Body.Close() // an attempt abandoned as it answered
		}
	}
	if err == nil {
		if !stream {
			c.report(ctx, nil, nil)
		}
		return resp, nil
	}
	var final *middleware.Error
	errors.As(err, &final)
	c.report(ctx, final, err)
	if kept != nil && final != nil && len(final.Attempts) > 0 && final.Attempts[len(final.Attempts)-1].Number == kept.attempt {
		kept.resp.Header.Set("X-Should-Retry", "false")
		return kept.resp, nil
	}
	return c.core.noResponse(c.req, err, c.viaMiddleware)
}

// noResponse is what the SDK gets when the call failed without a response
// to hand it: the library's error, with a response that only says
// x-should-retry: false when the caller is an SDK's middleware chain
// (openai-go and anthropic-sdk-go then return the error as it is, without
// a retry of their own). Through a Transport, net/http drops a response
// returned with an error, so a request from a Stainless SDK (openai-go,
// anthropic-sdk-go: it carries X-Stainless-Retry-Count) gets that response
// alone, a 502 whose JSON error body holds the library's error text; any
// other request gets the error.
func (c *core) noResponse(req *http.Request, err error, viaMiddleware bool) (*http.Response, error) {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		if req.Context().Err() != nil {
			return nil, err // the caller gave up: nothing to retry
		}
	}
	stainless := req.Header.Get("X-Stainless-Retry-Count") != ""
	if !viaMiddleware && !stainless {
		return nil, err
	}
	reason, text := "failed", ""
	var final *middleware.Error
	if errors.As(err, &final) {
		reason, text = final.Reason.String(), err.Error() // each attempt's text redacted and bounded
	} else {
		text = redact.Keep(err.Error(), nil)
	}
	body := marshalError(reason, text)
	resp := &http.Response{
		Status: "502 Bad Gateway", StatusCode: http.StatusBadGateway,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{
			"Content-Type":        {"application/json"},
			"X-Should-Retry":      {"false"},
			"X-Resilient-Reason":  {reason},
			"X-Resilient-Failure": {"no response"},
		},
		Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)), Request: req,
	}
	if viaMiddleware {
		return resp, err
	}
	return resp, nil
}

// links ties an attempt's request to the attempt's context until its
// response is handed out, and to the caller's context until its body ends:
// a stream outlives the attempt that opened it. The request's context has
// the attempt context's values (its trace span, its evidence slot).
type links struct {
	ctx         context.Context
	cancel      context.CancelCauseFunc
	stopAttempt func() bool
	stopCaller  func() bool
}

func newLinks(attempt, caller context.Context) *links {
	ctx, cancel := context.WithCancelCause(context.WithoutCancel(attempt))
	return &links{ctx: ctx, cancel: cancel,
		stopAttempt: context.AfterFunc(attempt, func() { cancel(context.Cause(attempt)) }),
		stopCaller:  context.AfterFunc(caller, func() { cancel(context.Cause(caller)) }),
	}
}

// release frees the request from the attempt's context, reporting false
// when that context had already ended it.
func (l *links) release() bool { return l.stopAttempt() }

// end ends the request.
func (l *links) end() {
	l.stopAttempt()
	l.stopCaller()
	l.cancel(nil)
}

// roundTripper adapts a sender.
type roundTripper sender

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
