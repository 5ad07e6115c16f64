// Package taxonomy classifies the failures of model and tool calls: it answers
// "what kind of failure was this?" so that the rest of the library can decide
// what to do about it.
//
// langchaingo's provider clients flatten most failures into plain strings, drop
// Retry-After and the provider's machine-readable error code, and some report a
// dropped stream as success. [Classify] recovers the kind from whatever evidence
// is left, strongest first:
//
//  1. errors that already know their class ([Classified], such as the final
//     error of an inner resilient layer, [ToolError] and [FatalToolError]);
//  2. context errors (context.Canceled is [Canceled]; a deadline is [Transient],
//     because the caller's own deadline is detected by the middleware, which
//     consults the caller's context before it classifies);
//  3. wire evidence recorded by the HTTP transport ([WireError] carrying an
//     [Evidence]): status, Retry-After, rate-limit resets, x-should-retry and
//     the provider's error type and code;
//  4. typed errors that expose a status without this package importing theirs:
//     HTTPCode() int (googleai) and HTTPStatusCode() int (bedrock);
//  5. transport errors: *url.Error, net.Error, io.EOF, io.ErrUnexpectedEOF,
//     ECONNRESET, ECONNREFUSED, EPIPE, TLS certificate errors;
//  6. the status code inside langchaingo's texts ("API returned unexpected
//     status code: 429: ...", "(HTTP Error 503) ...", "googleapi: Error 400: ...")
//     and the code of a flattened gRPC status ("rpc error: code =
//     ResourceExhausted desc = ...");
//  7. named, anchored text rules, last, because for several providers the text
//     is the only evidence left. "5000 tokens" is not a 500 and a port such as
//     ":35429" is not a 429.
//
// An empty error message is [Transient]: a stream that dropped before any error
// body arrived. An error whose own methods panic, such as a typed nil pointer
// returned as an error, is [Programming].
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
//	transient         dropped connection, reset, EOF, 5xx, attempt timeout, empty message
//	rate_limited      429, throttling, "rate limit" (not quota exhaustion)
//	overloaded        529, "overloaded", 503 unavailable
//	context_overflow  the prompt is larger than the context window: compact, never retry blindly
//	permanent         the same request fails the same way: auth, bad request, quota, policy
//	canceled          the caller gave up
//	programming       misuse: not implemented, nil model, invalid options
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
