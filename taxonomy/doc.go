// Package taxonomy classifies the failures of model and tool calls: it answers
// "what kind of failure was this?" so that the rest of the library can decide
// what to do about it.
//
// langchaingo's provider clients flatten most failures into plain strings, drop
// Retry-After and the provider's machine-readable error code, and some report a
// dropped stream as success. [Classify] recovers the kind from whatever evidence
// is left. First, two kinds of error answer for themselves:
//
//  1. errors that already know their class ([Classified], such as the final
//     error of an inner resilient layer, [ToolError] and [FatalToolError]);
//  2. context errors (context.Canceled is [Canceled]; a deadline is [Transient],
//     because the caller's own deadline is detected by the middleware, which
//     consults the caller's context before it classifies).
//
// Otherwise Classify gathers the evidence in one walk of the error tree
// (wrapped errors and every branch of errors.Join, in order): the wire
// evidence recorded by the HTTP transport ([WireError] carrying an
// [Evidence]: status, Retry-After, rate-limit resets, x-should-retry, the
// provider's error code, type and message); typed errors
// of SDKs this package does not import, read by their method sets
// (HTTPCode() int, HTTPStatusCode() int, the AWS SDK's ErrorCode() string)
// and exported fields (an integer StatusCode or HTTPStatusCode, or else an
// integer Code as genai's APIError has; string Code, Type and Message; a
// Status string that names a Google status, "RESOURCE_EXHAUSTED"; a Header
// or a Response carrying Retry-After); and, when no typed status was found,
// the status written in the text ("API returned unexpected status code:
// 429: ...", "(HTTP Error 503) ...", "googleapi: Error 400: ...",
// "HTTPError: 400 Client Error: ...", "Forbidden (403)", a JSON body's
// "code": 429). Only 100 to 599 count as a typed status and 400 to 599 as a
// status read from text. It then decides, first rule first:
//
//  1. an empty message is [Transient]: a stream that dropped before any error
//     body arrived;
//  2. wording more specific than any status or code: a context overflow (sent
//     by local servers with a 500, by AWS as a ValidationException; but a
//     429 stays a rate limit whatever it says) and a model too large for a
//     local runner's memory ([Permanent], Ollama sends it with a 500);
//  3. the provider's error code;
//  4. an exhausted balance, quota or spending limit, or an inactive account,
//     with any status below 500 ([Permanent], even as a 429; an exhausted
//     quota that carries a retry hint is a rate limit), and an insufficient
//     balance sent as a 500; a 500 that says "overloaded" is [Overloaded];
//  5. the status, 400 to 599, when HTTP defines it (every 5xx, and the 4xx
//     of RFC 9110 and its kin); a 4xx of a provider's own making (Groq's
//     498, Cohere's 499) decides last, after the text rules, since its
//     meaning is the provider's;
//  6. the provider's error type, which is broader than the status
//     ("server_error" comes with a 500 and a 529 alike);
//  7. the code of a flattened gRPC status ("rpc error: code =
//     ResourceExhausted desc = ...");
//  8. typed transport and request errors: TLS certificate errors, handshake
//     alerts and a server that does not speak TLS, a proxy's refusal of
//     CONNECT (net/http reports only its reason phrase: "Proxy
//     Authentication Required" is a 407, [Permanent]), ECONNRESET,
//     ECONNREFUSED, EPIPE, ECONNABORTED, ENETUNREACH, EHOSTUNREACH, io.EOF,
//     io.ErrUnexpectedEOF, encoding/json's type
//     errors ([Programming]) and syntax errors, *net.DNSError, net.Error
//     timeouts, *url.Error (a URL that does not parse is [Programming]);
//  9. named, anchored text rules, last, because for several providers the text
//     is the only evidence left. "5000 tokens" is not a 500 and a port such as
//     ":35429" is not a 429.
//
// Nothing matched is [Unknown]. The provider's x-should-retry header then
// overrules the retryability of the kind: "true" makes [Unknown] and
// [Permanent] transient, "false" makes a retryable kind permanent. The wait
// is chosen as described under Waits. An error whose own methods
// panic, such as a typed nil pointer returned as an error, is [Programming].
//
// A [Permanent] answer then says whose failure it is. [Class.ModelMissing]:
// the model or deployment is not there (a 404, model_not_found, "does not
// exist"). [Class.AccountFailure]: the caller's key, account, quota,
// billing or deployment refused it (a 401, 402 or 403, invalid_api_key,
// insufficient_quota, the billing rules of step 4, "API key not valid" in
// a 400, and every missing model), unless the text says the request was
// refused for its content (a content filter, a moderation flag): another
// account may serve the same request, so a pool moves it to another member
// and a model's fallbacks take it.
//
// # Waits
//
// [Class.RetryAfter] is the wait before a retry that the evidence asks for,
// and [Class.WaitSource] says where it comes from, strongest first: a
// Retry-After or retry-after-ms header ([WaitRetryAfter]; "Retry-After: 0"
// asks for a retry at once, and nothing overrides it); for a rate limit
// without one, the soonest reset its rate-limit headers announce
// ([WaitReset]), an exhausted limit's first; then a "try again in 1.8s" in
// the text ([WaitRetryAfter]). With none of them it is [WaitBackoff]: the
// pipeline's backoff decides. Every hint is clamped to [MaxWaitHint] where
// it is parsed.
//
// # Kinds
//
// The vocabulary is small and stable; [Kind.String] returns the names below.
//
//	unknown           nothing matched: retried, but fewer times than transient
//	transient         dropped connection, reset, EOF, 5xx, attempt timeout, an HTTP client's own timeout, empty message
//	rate_limited      429, throttling, "rate limit" (not an exhausted quota, credit or spending limit)
//	overloaded        529, "overloaded", 503 unavailable
//	context_overflow  the prompt is larger than the context window: compact, never retry blindly
//	permanent         the same request fails the same way: auth, bad request, billing and account
//	                  states, TLS and certificates, a model too large for a local runner, policy
//	canceled          the caller gave up
//	programming       misuse: not implemented, nil model, invalid options, a request the client
//	                  cannot build or decode
//
// # Extending
//
// A [Classifier] is one method; [ClassifierFunc] adapts a function and [Chain]
// composes classifiers so that the first answer other than [Unknown] wins. Put
// rules of your own ahead of [Default]:
//
//	c := taxonomy.Chain(
//		taxonomy.Match(taxonomy.Overloaded, regexp.MustCompile(`(?i)gateway is busy`)),
//		taxonomy.Default,
//	)
//
// # Tool errors
//
// [ToolError] and [FatalToolError] are the tool author's vocabulary: the text of
// a ToolError is shown to the model so that it can correct its call; a
// FatalToolError ends the agent's run and is never shown to the model.
package taxonomy
