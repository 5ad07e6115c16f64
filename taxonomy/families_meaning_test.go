package taxonomy_test

import (
	"errors"
	"time"

	"github.com/resilientgo/resilient/taxonomy"
)

// meaningFamilyCases are the rows of the families the eleventh to
// thirteenth held-out batches still missed after their first fixes
// (docs/testing.md, "The first-sight curve"), each written as the meaning
// its words carry together and cited beside its rule: texts composed in
// the family's shape for other providers, clients and wordings (not the
// batches' rows), next to the texts it must not read so.
func meaningFamilyCases() []classifyCase {
	text := errors.New
	C, P, G := taxonomy.ContextOverflow, taxonomy.Permanent, taxonomy.Programming
	T, R, O, U := taxonomy.Transient, taxonomy.RateLimited, taxonomy.Overloaded, taxonomy.Unknown
	return []classifyCase{
		// ---- an overflow worded as a context that cannot shift, a session or sequence over its length ----
		{"llama.cpp's context shift disabled, through openai-python", text(`openai.InternalServerError: Error code: 500 - {'error': {'code': 500, 'message': 'context shift is disabled', 'type': 'server_error'}}`),
			class(C, `pattern "context shift disabled"`, 500)},
		{"context shifting not enabled, in a runner's log", text(`slot 0: context shifting is not enabled, cannot continue generation`),
			class(C, `pattern "context shift disabled"`, 0)},
		{"context shift enabled is no overflow", text(`warning: context shift is enabled; n_keep = 0`),
			class(U, "no rule matched", 0)},
		{"a TurboMind session over its length", text(`turbomind: request 7 exceeds the session max length, ending the session`),
			class(C, `pattern "exceeds the session or sequence length"`, 0)},
		{"a sequence over its maximum, as a parameter's name", text(`InvalidParameter: the input exceeds max_sequence_length`),
			class(C, `pattern "exceeds the session or sequence length"`, 0)},
		{"a session length as a setting is no overflow", text(`session max length set to 8192; restart the server to change it`),
			class(U, "no rule matched", 0)},

		// ---- a quota whose limit is 0 ----
		{"a free tier of 0 with a retry hint", text("[429 Too Many Requests] You exceeded your current quota, please check your plan and billing details.\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 0, model: gemini-3-pro\nPlease retry in 25.4s."),
			taxonomy.Class{Kind: P, Rule: `marker "exceeded your current quota"`, Status: 429, AccountFailure: true, RetryAfter: 25400 * time.Millisecond, WaitSource: taxonomy.WaitRetryAfter}},
		{"a quota of 0 by its metric alone", text(`Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_input_token_count, limit: 0, model: gemini-2.0-flash-exp`),
			account(`pattern "quota limit of 0"`, 0)},
		{"a QuotaFailure whose value is 0", text(`You exceeded your current quota. {"quotaMetric":"generativelanguage.googleapis.com/generate_content_free_tier_requests","quotaValue":"0"} Please retry in 9s.`),
			taxonomy.Class{Kind: P, Rule: `marker "exceeded your current quota"`, AccountFailure: true, RetryAfter: 9 * time.Second, WaitSource: taxonomy.WaitRetryAfter}},
		{"a free tier of 20 lifts by itself", text("You exceeded your current quota, please check your plan and billing details.\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 20, model: gemini-2.5-flash-lite\nPlease retry in 51.6s."),
			hinted(R, `marker "exceeded your current quota" that lifts by itself`, 0, 51600*time.Millisecond)},
		{"a quota's limit of 0.25 lifts by itself", text(`Quota exceeded for metric: example.googleapis.com/requests_per_second, limit: 0.25`),
			class(R, `marker "quota exceeded for"`, 0)},
		{"a limit of 0 that names no quota is a rate limit's count", text(`rate limit: 0 requests left in this window`),
			class(R, `marker "rate limit"`, 0)},
		{"a limit of 0.5 is no limit of 0", text("You exceeded your current quota: limit: 0.5 requests per second. Please retry in 2s."),
			hinted(R, `marker "exceeded your current quota" that lifts by itself`, 0, 2*time.Second)},

		// ---- the caller's code: a call with arguments the function does not take, a runtime panic ----
		{"an unexpected keyword argument, openai-python's async client", text(`TypeError: AsyncCompletions.create() got an unexpected keyword argument 'reasoning_effort'`),
			class(G, `pattern "call with arguments it does not take"`, 0)},
		{"a required positional argument missing", text(`TypeError: ChatOllama.invoke() missing 1 required positional argument: 'input'`),
			class(G, `pattern "call with arguments it does not take"`, 0)},
		{"too many positional arguments", text(`TypeError: embed_documents() takes 2 positional arguments but 3 were given`),
			class(G, `pattern "call with arguments it does not take"`, 0)},
		{"an argument the API refuses is the request's fault, not the code's", text(`Unsupported argument 'reasoning_effort' for this model`),
			class(P, `pattern "unsupported parameter"`, 0)},
		{"a Go panic in the caller's process", text("panic: runtime error: index out of range [1] with length 1\n\ngoroutine 1 [running]:\nmain.main()"),
			class(G, `pattern "a runtime panic"`, 0)},
		{"a relay's panic returned in its error body", text(`{"error":{"message":"Panic detected, error: runtime error: index out of range [0] with length 0. Please submit an issue with the related log here: https://github.com/songquanpeng/one-api","type":"one_api_panic"}}`),
			class(T, `pattern "a server's panic"`, 0)},
		{"a runtime panic that is the whole text", text(`runtime error: index out of range [5] with length 3`),
			class(G, `pattern "a runtime panic"`, 0)},
		{"a server's panic as its whole body", text(`{"message":"runtime error: invalid memory address or nil pointer dereference"}`),
			class(T, `pattern "a server's panic"`, 0)},
		{"a panic after a body that closed is the caller's", text(`{"id":"chatcmpl-1"} then runtime error: slice bounds out of range [:7] with capacity 4`),
			class(G, `pattern "a runtime panic"`, 0)},
		{"a base URL with no scheme, requests", text(`requests.exceptions.MissingSchema: Invalid URL 'localhost:11434/api/chat': No scheme supplied. Perhaps you meant https://localhost:11434/api/chat?`),
			class(G, `marker "no scheme supplied"`, 0)},

		// ---- a name the resolver did not find: transient by convention ----
		{"Node's ENOTFOUND", text(`Error: getaddrinfo ENOTFOUND openrouter.ai`),
			class(T, `pattern "name not resolved"`, 0)},
		{"glibc's EAI_NONAME through httpx", text(`httpx.ConnectError: [Errno -2] Name or service not known`),
			class(T, `pattern "name not resolved"`, 0)},
		{"macOS's EAI_NONAME through urllib3", text(`urllib3.exceptions.NameResolutionError: <urllib3.connection.HTTPSConnection object at 0x10>: Failed to resolve 'api.groq.com' ([Errno 8] nodename nor servname provided, or not known)`),
			class(T, `pattern "name not resolved"`, 0)},
		{"a hostname field is no lookup", text(`invalid config: no such hostname field in the provider block`),
			class(P, `words "invalid … field"`, 0)},

		// ---- a certificate chain not verified ----
		{"curl's self-signed certificate in the chain", text(`curl: (60) SSL certificate problem: self signed certificate in certificate chain`),
			class(P, `pattern "certificate chain not verified"`, 0)},
		{"Node's first certificate not verified", text(`FetchError: request to https://api.anthropic.com/v1/messages failed, reason: unable to verify the first certificate`),
			class(P, `pattern "certificate chain not verified"`, 0)},
		{"Node's local issuer, through axios", text(`AxiosError: unable to get local issuer certificate`),
			class(P, `pattern "certificate chain not verified"`, 0)},

		// ---- gRPC UNAVAILABLE around a connection that broke ----
		{"gRPC UNAVAILABLE, a refused dial", text(`rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp 127.0.0.1:50051: connect: connection refused"`),
			class(T, "grpc code Unavailable, connection broken", 0)},
		{"gRPC UNAVAILABLE, the client connection closing", text(`rpc error: code = Unavailable desc = grpc: the client connection is closing`),
			class(T, "grpc code Unavailable, connection broken", 0)},
		{"another gRPC code with a connection's words keeps its own rule", text(`rpc error: code = Internal desc = stream terminated by RST_STREAM with error code: INTERNAL_ERROR; connection reset by peer`),
			class(T, "grpc code Internal", 0)},
		{"gRPC UNAVAILABLE without a connection's words stays overloaded", text(`rpc error: code = Unavailable desc = The service is currently unavailable.`),
			class(O, "grpc code Unavailable", 0)},

		// ---- RESOURCE_EXHAUSTED that says the service is out of capacity ----
		{"a service out of capacity under a 429", text(`google.api_core.exceptions.ResourceExhausted: 429 The service is temporarily out of capacity, please try again later`),
			class(O, `pattern "server at capacity"`, 0)},
		{"a quota under RESOURCE_EXHAUSTED stays a rate limit", text(`RESOURCE_EXHAUSTED: Quota exceeded for aiplatform.googleapis.com/generate_content_requests_per_minute`),
			class(R, `marker "resource_exhausted"`, 0)},

		// ---- waits after a reset, and in a reset's member ----
		{"a usage window that resets in words", text(`Usage limit reached for this window (resets in 2h 15m)`),
			hinted(R, `words "quota refilled"`, 0, 2*time.Hour+15*time.Minute)},
		{"a usage window's seconds as a member", text(`{"error":{"type":"usage_limit_reached","message":"The usage limit has been reached","resets_in_seconds":95}}`),
			hinted(R, `type "usage_limit_reached" (usage_limit_reached)`, 0, 95*time.Second)},
		{"a reset at a clock time is no wait", text(`Usage limit reached; your limit resets at 2026-05-15T15:00:00Z`),
			class(R, `words "limit reached"`, 0)},
		{"a connection reset is no wait", text(`read tcp 10.0.0.2:51234->10.0.0.9:443: read: connection reset by peer after 5 seconds`),
			class(T, `marker "connection reset"`, 0)},
	}
}
