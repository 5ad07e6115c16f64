package resilienthttp

import "net/http"

// Middleware returns a middleware of the type openai-go v3 and
// anthropic-sdk-go take (their option.Middleware is an alias of it), so
// that
//
//	client := openai.NewClient(option.WithMiddleware(resilienthttp.Middleware()))
//
// compiles and every request of the client runs under the library's
// pipeline: each attempt sent through next, its response read as evidence
// and judged, retried or handed to the SDK. With no option it has the
// recommended defaults (see the package documentation).
//
// The SDK's own retries can stay on: every response the middleware hands
// back after a failure carries x-should-retry: false, which both SDKs
// obey, and a failure without a response comes back as the library's
// error together with a response saying the same, which both SDKs return
// as it is. A call that keeps failing makes the library's attempts and no
// more.
//
// Invalid options make every call fail with an error naming each problem.
// The middleware is safe for concurrent use; build it once per client, as
// its breakers are what makes it useful.
func Middleware(opts ...Option) func(*http.Request, func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	c := newCore(opts)
	return func(req *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
		return c.do(req, next, true)
	}
}

// Transport returns an [http.RoundTripper] that sends each request through
// base (nil: http.DefaultTransport) under the library's pipeline, for the
// SDKs that take an *http.Client (go-openai, go-genai):
//
//	cfg := openai.DefaultConfig(key)
//	cfg.HTTPClient = &http.Client{Transport: resilienthttp.Transport(nil)}
//
// It follows the RoundTripper contract: the caller's request is never
// modified (each attempt sends a clone), and its body is closed on every
// path. A call that fails without a response returns the library's error
// (a *middleware.Error), except for a request from openai-go or
// anthropic-sdk-go (given an *http.Client rather than the [Middleware]),
// which gets a made-up 502 with x-should-retry: false instead, so that the
// SDK does not retry what the library gave up on.
//
// Invalid options make every request fail with an error naming each
// problem. It is safe for concurrent use; build it once per client.
func Transport(base http.RoundTripper, opts ...Option) http.RoundTripper {
	return &transport{base: base, core: newCore(opts)}
}

type transport struct {
	base http.RoundTripper
	core *core
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.base
	if base == nil {
		base = http.DefaultTransport
	}
	return t.core.do(req, base.RoundTrip, false)
}

// CloseIdleConnections closes the idle connections of the base transport,
// when it has any (http.Client.CloseIdleConnections calls it).
func (t *transport) CloseIdleConnections() {
	base := t.base
	if base == nil {
		base = http.DefaultTransport
	}
	if c, ok := base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}
