// Package resilienthttp puts the library's resilience under any Go SDK of
// a model API, at the one place they all meet: HTTP. openai-go v3 and
// anthropic-sdk-go take a [Middleware] (their option.WithMiddleware);
// go-openai, go-genai and any client built on an *http.Client take a
// [Transport]:
//
//	client := openai.NewClient(option.WithMiddleware(resilienthttp.Middleware()))
//
//	cfg := goopenai.DefaultConfig(key)
//	cfg.HTTPClient = &http.Client{Transport: resilienthttp.Transport(nil)}
//
// Behind both is the pipeline of package middleware that the langchaingo
// wrappers run on, one per target (the host and the model the request
// names, so each has its own circuit breaker):
//
//	retry(limiter?(concurrency?(breaker(timeout(attempt)))))
//
// # An attempt
//
// Each attempt sends a clone of the SDK's request with the body afresh
// (request bodies are kept in memory, to [MaxBody], when the request has
// no GetBody) and reads the response as evidence, as package llms does
// for langchaingo: the status, Retry-After (seconds or a date),
// retry-after-ms, x-should-retry, the rate-limit reset headers, the
// provider's JSON error type, code and message (from the first MiB of the
// body). Package taxonomy classifies it, and the pipeline decides: a
// permanent failure (400, 401, 404, a quota used up) stops at once; a 429
// waits exactly what the provider asked (a wait over the cap ends the call
// and holds the breaker open); 529, 503, other 5xx, HTML error pages,
// dropped and reset connections and timeouts retry with full-jitter
// backoff, up to the attempts of their kind.
//
// A response that is not a stream is read whole inside the attempt (to
// [MaxBody]), so that a body cut short, or a 200 whose body is the
// provider's error object, is retried too; the SDK then reads it from
// memory. A stream (SSE or NDJSON) is held back until its first event with
// content arrives: an in-band error event before it (Anthropic's
// overloaded_error after message_start, an OpenAI-compatible server's
// {"error": ...} chunk), a stream that breaks, stalls or ends before it,
// are failures of the attempt and retried, and the SDK never sees them.
// Then the stream is the SDK's: what happens after its first content
// cannot be retried by anyone but the caller, and a gap longer than the
// [StreamIdleTimeout] ends it with [ErrStreamIdle].
//
// # What the SDK gets
//
// The response of the attempt that answered, unchanged. When the call
// fails, the last attempt's response, its body intact, with the header
// x-should-retry: false: the SDK builds its own typed error from it
// (*openai.Error keeps its status and the provider's message) and, since
// openai-go and anthropic-sdk-go obey that header, does not retry it. A
// call that fails without a response the SDK can read (every attempt's
// connection broke, a 200 carried an error object, or the breaker, a limit
// or the run refused it) returns the library's
// *middleware.Error, which says why and lists every attempt (errors.Is
// matches middleware.ErrExhausted, ErrCircuitOpen, ErrUsageLimit...); the
// Middleware hands it together with a response saying x-should-retry:
// false, and both SDKs then return the error as it is. So the SDK's own
// retries can stay on: a call that keeps failing makes the library's
// attempts and no more.
//
// # Runs, pools, observers
//
// A run started with run.New (resilient.NewRun) in the context
// the SDK is called with works as it does for the langchaingo wrappers:
// every attempt counts against its request limit and token budget, each
// retry against its retry budget, and the tokens each response reports
// (in its body, or in its stream as the SDK reads it: OpenAI's usage
// chunk, Anthropic's message_start and message_delta, Gemini's
// usageMetadata) add up in its usage. [Pool] spreads attempts over
// deployments of the same API (base URLs and keys), balanced as the
// library's pools are. [Observe] and [Logger] report every decision;
// package resilientotel turns them into OpenTelemetry traces and metrics,
// and the attempt's span is in the context of the request each attempt
// sends, so an otelhttp transport under it nests there.
//
// # What it cannot do
//
// It sees bytes, not conversations: it cannot compact a conversation that
// overflows the context window (a context overflow is handed to the SDK
// at once), cannot fall back to another provider's API (a pool's members
// must speak the same API), and cannot restart a stream once bytes of it
// reached the SDK. The langchaingo wrappers (package llms) can; the Eino
// adapter too.
package resilienthttp
