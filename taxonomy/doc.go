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
// the status written in the text. Only 100 to 599 count as a typed status
// and 400 to 599 as a status read from text.
//
// # The evidence reader
//
// The text is evidence as much as the status: most clients flatten the
// response into a string, and wrappers in other languages print it in
// shapes of their own. The reader extracts what a text says, not which
// sentence it is:
//
//   - the status, in every shape clients print it: after a client's words
//     ("unexpected status code: 429", "status code 400", "HTTP/1.1 503",
//     "Error code: 429"), after an exception's name ("HTTPError: 400",
//     "NonTransientAiException: 400 - Bad Request"), before or after its
//     reason phrase ("[400 Bad Request]", "Forbidden (403)", "404 (Not
//     Found)", `400 "bad request"`), beside the word error ("<H1>403 ERROR</H1>", "returned error
//     403"), after "returned" ("API returned 403: ..."), as a label
//     ("code=401"), in Chinese ("状态码: 503"), in angle brackets ("<400>"),
//     in a CDN page's title ("| 520: ..."), as aiohttp prints it ("400,
//     message='Bad Request', url=..."), as Dio 4 does ("Http status error
//     [404]"), as a reason phrase that opens
//     the text ("Not Found: {...}"), and in a member of a pasted body
//     ("code": 429, "status": 403, "status_code": 400);
//   - names: exception classes, error types and codes, status names,
//     wherever the text writes them (CamelCase, an acronym before a word as in "EOFException", snake_case, dotted paths:
//     "dev.langchain4j.exception.InvalidRequestException",
//     "InternalError.Algo.InvalidParameter", "StatusCode.RESOURCE_EXHAUSTED")
//     and in the type and code members of a pasted body ("type": "Bad
//     Request", "code": "InvalidParameter", "error_type": "Validation"); each
//     is split into words and looked up in the vocabulary;
//   - words, clause by clause: a fault of the request (invalid,
//     unsupported, missing, required, must, expected, not valid) with a part
//     of it (parameter, field, value, body, role, messages); a size of the
//     request (input, prompt, tokens, context, batch) over a ceiling with a
//     number or a comparison ("input batch size 473 > maximum allowed batch
//     size 64", "Range of input length should be [1, 30000]", "more tokens
//     than the batch size", "too large"), but not a lower bound, an output
//     limit, a rate, a deadline or a field with a length of its own; a key
//     refused; a limit reached; a connection broken; an endpoint not found;
//     a flag ("--jinja") or a name in backquotes ("`truncate`") is a
//     parameter of the request; a credential not set, failed or with no
//     auth ("API_KEY is not set", "Authorization failed", "NoAuthError");
//     an account paused or deactivated; a TLS alert ("sslv3 alert handshake
//     failure"); a quota that is replenished or resets; no capacity or no
//     free slot; a client that cannot decode the reply into its types
//     ("failed to deserialize ...: unknown field"); and a few phrases in
//     Chinese, read by substring;
//   - an operating system's error number where the text is localised
//     ("errno = 104", "[WinError 10054]": ECONNRESET and its kin on Linux,
//     the BSDs and Windows);
//   - waits in any unit and wording: "try again in 1.8s", "retry after 6
//     seconds", "Please wait 587 hours 33 minutes", "retry after one
//     minute", "try again in ~5s", as a clock (.NET's TimeSpan, "Quota will
//     be replenished in 5.03:23:11"), a body's "retry_after" (seconds) or
//     "retry_after_ms" member, a usage window's "resets_in_seconds", a
//     limit that "resets in 2h 15m", and a Retry-After header printed among
//     others (Go's http.Header, Python's dict, Elixir's map).
//
// # The vocabulary
//
// Names and words mean what the vocabulary (vocabulary.go) says, and
// every entry there cites at least two independent sources beside it
// (providers, SDKs, wrappers or standards), so that no entry is fitted to
// one message. Terms are whole names in normal form: HTTP's reason phrases
// (bad_request, not_found, too_many_requests, service_unavailable...),
// gRPC's canonical codes (invalid_argument, resource_exhausted,
// unavailable, deadline_exceeded, not_found, permission_denied,
// unauthenticated, failed_precondition...), and the type names providers
// and SDKs share (invalid_request, invalid_parameter, missing_parameter,
// validation, authentication, rate_limit, throttling, overloaded,
// timeout, connection...). A name is matched by its longest suffix that is
// a term, its generic words aside (error, exception, api, http, client), so
// that a provider's prefix does not hide it: ArkBadRequestError is
// bad_request, ResourceNotFoundException is not_found. A name no term
// covers is read by the concepts of its words, as a clause is.
//
// # Precedence
//
// Classify weighs the evidence in this order, first rule first; what a rule
// names is in [Class.Rule]:
//
//  1. an empty message is [Transient]: a stream that dropped before any error
//     body arrived;
//  2. wording more specific than any status or code: a request larger than
//     a limit of the account, a context overflow, in the known phrases or in
//     the reader's words (sent by local servers with a 500, by AWS as a
//     ValidationException; but a 429 stays a rate limit whatever it says),
//     and a model too large for a local runner's memory ([Permanent],
//     Ollama sends it with a 500);
//  3. the provider's error code;
//  4. an exhausted balance, quota or spending limit, or an inactive account,
//     with any status below 500 ([Permanent], even as a 429; an exhausted
//     quota that carries a retry hint is a rate limit, unless its limit
//     is 0: no wait lets a request through), and an insufficient
//     balance sent as a 500; a 500 that says "overloaded" is [Overloaded];
//     so is a 429, or a text with no status, whose words say the server,
//     the model or the service itself is overloaded, busy or at capacity
//     ("The engine is currently overloaded", "experiencing high traffic",
//     系统繁忙): the server's own state, where a 429 about the caller's
//     usage stays [RateLimited];
//     a 5xx whose words say a parameter, an option, a flag or a credential of the request
//     is refused is [Permanent] (local servers send every error as a 500:
//     the same request fails the same way);
//  5. the status, 400 to 599, when HTTP defines it (every 5xx, and the 4xx
//     of RFC 9110 and its kin); a 4xx of a provider's own making (Groq's
//     498, Cohere's 499) decides last, after the text rules, since its
//     meaning is the provider's. A 4xx read from a member of a pasted body
//     yields to a provider's code in the same text that names a failure of
//     the server: a relay's envelope writes its own status;
//  6. the provider's error type, which is broader than the status
//     ("server_error" comes with a 500 and a 529 alike), and the exact
//     codes and types of a pasted body; a server's failure type yields to
//     words that say a parameter is refused, as in 4;
//  7. the code of a flattened gRPC status ("rpc error: code =
//     ResourceExhausted desc = ..."); UNAVAILABLE whose words say the
//     connection under the call broke ("transport is closing", "connection
//     refused") is [Transient], not [Overloaded];
//  8. typed transport and request errors: TLS certificate errors, handshake
//     alerts and a server that does not speak TLS, a proxy's refusal of
//     CONNECT (net/http reports only its reason phrase: "Proxy
//     Authentication Required" is a 407, [Permanent]), ECONNRESET,
//     ECONNREFUSED, EPIPE, ECONNABORTED, ENETUNREACH, EHOSTUNREACH, io.EOF,
//     io.ErrUnexpectedEOF, encoding/json's type
//     errors ([Programming]) and syntax errors, *net.DNSError ([Transient],
//     a name not found included: see docs/testing.md), net.Error
//     timeouts, *url.Error (a URL that does not parse is [Programming]);
//  9. named, anchored text rules for the phrases of known providers, because
//     for several providers the text is the only evidence left. "5000
//     tokens" is not a 500 and a port such as ":35429" is not a 429;
//  10. the reader's names: the types and codes of a pasted body in the
//     vocabulary's words, then the names the text writes. When a text names
//     several failures, the most specific decides (an overflow, then an
//     account's or a model's failure, a fault of the request, a programming
//     error, a cancellation, a rate limit, an overload, a transient failure)
//     and among equals the innermost, written last;
//  11. an operating system's error number;
//  12. the reader's words, the first clause of the most specific meaning;
//  13. a status of the provider's own making, then a body that is nothing
//     but a reason phrase ({"detail": "Not Found"}).
//
// Where nothing matched, a token model speaks last: a naive Bayes model over
// the first 64 tokens of the error (the words of its text in lower case,
// names split into words, numbers dropped but a 4xx or 5xx kept as its
// class, pairs of words, Chinese read by pairs of characters; the words of
// the provider's type and code), trained on the package's own labelled
// corpus (the held-out batches, the development set and the rule tables of
// its tests) and shipped as data (tokmodel.txt, at most 3,000 tokens,
// regenerated by its test with -update). It answers only when one kind
// reaches a posterior of 0.9 on at least three words it knows, and never
// over a rule; its [Class.Rule] names the words that weighed most ("token
// model (length +1.7, exceeds +1.6, exceeds max +1.3)"). docs/testing.md
// gives its figures on batches it was not trained on.
//
// Nothing matched, and no clear words, is [Unknown]. The provider's
// x-should-retry header then overrules the retryability of the kind:
// "true" makes [Unknown] and [Permanent] transient, "false" makes a
// retryable kind permanent. The wait is chosen as described under Waits.
// An error whose own methods panic, such as a typed nil pointer returned as
// an error, is [Programming].
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
