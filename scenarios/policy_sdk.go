package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"
)

// An sdkRetry is the retry loop of a provider SDK, as the SDK's source has
// it at the version named. Both official SDKs retry inside their HTTP
// request execution, below the code that parses a response, so the harness
// runs the loop as an http.RoundTripper under langchaingo's client: a
// response is retried on its status and headers, and a stream that fails
// after its 200 has been handed over is not.
//
// The fields are the behaviour; the report's description is generated from
// them.
type sdkRetry struct {
	module, version string
	source          string // the file and functions the behaviour was read from

	maxRetries int           // retries after the first request
	base       time.Duration // the wait before retry n is base*2^n ...
	maxWait    time.Duration // ... capped here ...
	jitter     float64       // ... then shortened by up to this fraction, uniformly

	statuses []int // retried statuses, besides 5xx and connection errors
	// retryAfterMax is the longest server-directed wait (retry-after-ms,
	// Retry-After) honoured; a longer one stops the retries and returns the
	// response. 0: honoured whatever its length.
	retryAfterMax time.Duration
	// retryBrokenBody: a non-streamed response that ends the call is read
	// inside the attempt, so that a body cut short is retried like a
	// connection error. Otherwise the body is handed over unread.
	retryBrokenBody bool
}

// openaiGo is github.com/openai/openai-go/v3 at v3.99.0:
// internal/requestconfig/requestconfig.go, (*RequestConfig).Execute with
// shouldRetry, retryDelay and parseRetryAfterHeader; MaxRetries 2 from
// NewRequestConfig; defaultMaxRetryAfterDelay 2 min, DefaultMaxServerDelay
// 8 s. The body of a 2xx is read after the retry loop, so it is never
// retried.
var openaiGo = sdkRetry{module: "openai-go", version: "v3.99.0",
	source:     "internal/requestconfig/requestconfig.go: (*RequestConfig).Execute, shouldRetry, retryDelay, parseRetryAfterHeader",
	maxRetries: 2, base: 500 * time.Millisecond, maxWait: 8 * time.Second, jitter: 0.25,
	statuses: []int{408, 409, 429}, retryAfterMax: 2 * time.Minute}

// anthropicGo is github.com/anthropics/anthropic-sdk-go at v1.84.0:
// internal/requestconfig/requestconfig.go, (*RequestConfig).send with
// shouldRetry, shouldRetryDroppedBody, retryDelay and parseRetryAfterHeader;
// MaxRetries 2 from NewRequestConfig. retryDelay honours a server-directed
// wait of any length; the body of a non-streamed response that ends the
// call is read in the attempt and retried when it breaks.
var anthropicGo = sdkRetry{module: "anthropic-sdk-go", version: "v1.84.0",
	source:     "internal/requestconfig/requestconfig.go: (*RequestConfig).send, shouldRetry, shouldRetryDroppedBody, retryDelay, parseRetryAfterHeader",
	maxRetries: 2, base: 500 * time.Millisecond, maxWait: 8 * time.Second, jitter: 0.25,
	statuses: []int{408, 409, 429}, retryBrokenBody: true}

// name is the policy's row label.
func (s sdkRetry) name() string { return s.module + " " + s.version + " retry" }

// describe says what the loop does, from its fields.
func (s sdkRetry) describe() string {
	statuses := make([]string, len(s.statuses))
	for i, st := range s.statuses {
		statuses[i] = strconv.Itoa(st)
	}
	after := "honoured whatever its length"
	if s.retryAfterMax > 0 {
		after = fmt.Sprintf("honoured up to %v, a longer one ends the retries", s.retryAfterMax)
	}
	body := "a 2xx body is handed over unread, so a body or stream that breaks after its status is not retried"
	if s.retryBrokenBody {
		body = "a non-streamed body is read inside the attempt and retried when it breaks; a stream is handed over unread, so a stream that breaks is not retried"
	}
	return fmt.Sprintf("the retry loop of %s %s (%s), run as the HTTP transport under langchaingo's client, where "+
		"the SDK retries: %d retries; the wait before retry n is min(%v x 2^n, %v) shortened by up to %.0f %% "+
		"(uniform jitter); retried: connection errors, %s and 5xx, unless the response says x-should-retry: "+
		"false (x-should-retry: true retries any status); a server-directed wait (retry-after-ms, then "+
		"Retry-After in seconds or as a date) replaces the backoff and is %s; %s; tools as they are.",
		s.module, s.version, s.source, s.maxRetries, s.base, s.maxWait, 100*s.jitter, strings.Join(statuses, ", "),
		after, body)
}

func sdkPolicy(s sdkRetry) Policy {
	return Policy{Name: s.name(), About: s.describe(),
		Model: func(r rig) (lcllms.Model, error) {
			return r.client(r.server, s.transport(r.transport, r.ts))
		}}
}

// transport returns the loop as a transport over base, its waits divided
// by ts.
func (s sdkRetry) transport(base http.RoundTripper, ts timeScale) *sdkTransport {
	return &sdkTransport{sdk: s, base: base, ts: ts, rng: rand.New(rand.NewPCG(3, 0))}
}

// sdkTransport runs an sdkRetry. It is safe for concurrent use.
type sdkTransport struct {
	sdk  sdkRetry
	base http.RoundTripper
	ts   timeScale
	mu   sync.Mutex
	rng  *rand.Rand
}

func (t *sdkTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	for retry := 0; ; retry++ {
		attempt := req.Clone(ctx)
		if req.GetBody != nil {
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			attempt.Body = body
		}
		res, err := t.base.RoundTrip(attempt)
		if ctx.Err() != nil {
			closeBody(res)
			return nil, ctx.Err()
		}
		retryable := t.sdk.shouldRetry(req, res, err)
		last := retry >= t.sdk.maxRetries
		if err == nil && (last || !retryable) && t.sdk.retryBrokenBody && readsBody(req, res) {
			if rerr := bufferBody(res); rerr != nil {
				// shouldRetryDroppedBody: a connection error, unless the
				// response said x-should-retry: false.
				retryable = res.Header.Get("x-should-retry") != "false" && t.sdk.shouldRetry(req, nil, rerr)
				res, err = nil, rerr
			}
		}
		if last || !retryable {
			return res, err
		}
		wait, ok := t.wait(res, retry)
		if !ok {
			return res, err
		}
		closeBody(res)
		if serr := sleep(ctx, wait); serr != nil {
			return nil, serr
		}
	}
}

// shouldRetry is the SDKs' shouldRetry: a request whose body cannot be
// replayed is not retried; a connection error is; x-should-retry decides
// when present; then the status.
func (s sdkRetry) shouldRetry(req *http.Request, res *http.Response, err error) bool {
	switch {
	case req.Body != nil && req.Body != http.NoBody && req.GetBody == nil:
		return false
	case res == nil:
		return err != nil
	}
	switch res.Header.Get("x-should-retry") {
	case "true":
		return true
	case "false":
		return false
	}
	return slices.Contains(s.statuses, res.StatusCode) || res.StatusCode >= 500
}

// wait is the SDKs' retryDelay, in harness time: a server-directed wait
// when there is one (ok false when it is over retryAfterMax), otherwise the
// jittered backoff.
func (t *sdkTransport) wait(res *http.Response, retry int) (time.Duration, bool) {
	if d, ok := serverWait(res); ok {
		if maxAfter := t.ts.of(t.sdk.retryAfterMax); maxAfter > 0 && d > maxAfter {
			return 0, false
		}
		return max(0, d), true
	}
	delay := time.Duration(math.Min(float64(t.sdk.base)*math.Pow(2, float64(retry)), float64(t.sdk.maxWait)))
	t.mu.Lock()
	delay -= time.Duration(t.rng.Float64() * t.sdk.jitter * float64(delay))
	t.mu.Unlock()
	return t.ts.of(delay), true
}

// serverWait reads the server-directed wait as both SDKs' parseRetryAfterHeader
// do: retry-after-ms in milliseconds, then Retry-After in seconds or as an
// HTTP date. The fault server sends these already scaled.
func serverWait(res *http.Response) (time.Duration, bool) {
	if res == nil {
		return 0, false
	}
	if v := res.Header.Get("Retry-After-Ms"); v != "" {
		if f, err := strconv.ParseFloat(v, 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			return time.Duration(f * float64(time.Millisecond)), true
		}
	}
	if v := res.Header.Get("Retry-After"); v != "" {
		if f, err := strconv.ParseFloat(v, 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			return time.Duration(f * float64(time.Second)), true
		}
		if at, err := time.Parse(time.RFC1123, v); err == nil {
			return time.Until(at), true
		}
	}
	return 0, false
}

// readsBody reports whether the SDK reads res's body inside the attempt: an
// error status always, a success only when the call does not stream (a
// streaming call takes the raw response).
func readsBody(req *http.Request, res *http.Response) bool {
	return res.StatusCode >= 400 || !streams(req)
}

// streams reports whether req asks for a streamed reply.
func streams(req *http.Request) bool {
	if req.GetBody == nil {
		return false
	}
	body, err := req.GetBody()
	if err != nil {
		return false
	}
	defer body.Close()
	var b struct {
		Stream bool `json:"stream"`
	}
	_ = json.NewDecoder(body).Decode(&b)
	return b.Stream
}

// bufferBody reads res's body into memory, so that a body cut short fails
// here, inside the attempt.
func bufferBody(res *http.Response) error {
	data, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return err
	}
	res.Body = io.NopCloser(bytes.NewReader(data))
	return nil
}

func closeBody(res *http.Response) {
	if res != nil && res.Body != nil {
		res.Body.Close()
	}
}
