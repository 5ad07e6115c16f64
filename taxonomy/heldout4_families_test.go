package taxonomy_test

import (
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
	"time"

	"github.com/resilientgo/resilient/taxonomy"
)

// fourthFamilyCases are the rows of the families that the fourth held-out
// batch (and the third batch's sealed part, once its figure was taken)
// found misclassified, each from a real provider, runner, SDK or library
// text or shape (the source is in the row's name), next to the rows of
// texts they must not match.
func fourthFamilyCases() []classifyCase {
	P, R, O, T, C, U := taxonomy.Permanent, taxonomy.RateLimited, taxonomy.Overloaded, taxonomy.Transient, taxonomy.ContextOverflow, taxonomy.Unknown
	opError := func(op string, errno syscall.Errno) error {
		return &net.OpError{Op: op, Net: "tcp", Err: &os.SyscallError{Syscall: op, Err: errno}}
	}
	return []classifyCase{
		// ---- the status where other clients write it ----
		{"reason phrase, then the status in brackets (enricoros/big-AGI#176)", errors.New(`[Issue] Anthropic - Forbidden (403) · {"error":{"type":"forbidden","message":"Request not allowed"}}`),
			account("status 403", 403)},
		{"a bracketed number after no reason phrase is no status", errors.New("dropped a batch of tokens (403) early"),
			class(U, "no rule matched", 0)},
		{"Python requests' HTTPError (borrrrring/xcstrings#3)", errors.New(`HTTPError: 400 Client Error: Bad Request for url: https://generativelanguage.googleapis.com/v1beta/models/gemini-pro:generateContent?key=*****`),
			class(P, "status 400", 400)},
		{"Python requests' 5xx wording (requests raise_for_status)", errors.New(`503 Server Error: Service Unavailable for url: https://api-inference.huggingface.co/models/gpt2`),
			class(O, "status 503", 503)},
		{"an exception's name before the status (anthropic-sdk-typescript PermissionDeniedError)", errors.New(`PermissionDeniedError: 403 {"type":"error","error":{"type":"permission_error","message":"Your API key does not have permission to use the specified resource."}}`),
			account("status 403", 403)},
		{"llama.cpp's body while loading: the code member is the status (llama.cpp server.cpp)", errors.New(`{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}`),
			class(O, "status 503", 503)},
		{"Azure's code member, a string of three digits (microsoft/copilot-camp#551)", errors.New(`{"error":{"code":"429","message": "Rate limit is exceeded. Try again in 2 seconds."}}`),
			hinted(R, "status 429", 429, 2*time.Second)},
		{"Mistral's four-digit code is no status (BerriAI/litellm#25078)", errors.New(`{"object":"error","message":"Service tier capacity exceeded for this model.","type":"service_tier_capacity_exceeded","param":null,"code":"3505"}`),
			class(O, `pattern "out of capacity"`, 0)},

		// ---- a status after an exception's name and "Error", an exhausted quota that lifts by itself ----
		{"a Python exception, then Error and the status (huggingface/transformers#28523, once its figure was taken)", errors.New("ValueError: Error 422: {'error': 'Input validation error: `max_new_tokens` must be <= 192"),
			class(P, "status 422", 422)},
		{"gemini quota exceeded per minute, without a retry hint (google-gemini/gemini-cli#8437, once its figure was taken)", errors.New(`Generate error: 429 RESOURCE_EXHAUSTED. {'error': {'code': 429, 'message': 'You exceeded your current quota, please check your plan and billing details.', 'status': 'RESOURCE_EXHAUSTED', 'details': [{'@type': 'type.googleapis.com/google.rpc.QuotaFailure', 'violations': [{'quotaMetric': 'generativelanguage.googleapis.com/generate_content_free_tier_requests', 'quotaId': 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier'}]}]}}`),
			class(R, `marker "exceeded your current quota" that lifts by itself`, 429)},
		{"a quota exceeded per day stays exhausted", errors.New(`429 RESOURCE_EXHAUSTED. {'error': {'code': 429, 'message': 'You exceeded your current quota, please check your plan and billing details.', 'details': [{'quotaId': 'GenerateRequestsPerDayPerProjectPerModel-FreeTier'}]}}`),
			account(`marker "exceeded your current quota"`, 429)},

		// ---- genai's APIError: the status in an integer Code, Google's status name in Status ----
		{"genai APIError without a message, wrapped by the caller", fmt.Errorf("gemini: %w", genaiAPIError{Code: 503, Status: "UNAVAILABLE"}),
			taxonomy.Class{Kind: O, Rule: "status 503", Status: 503, Code: "UNAVAILABLE"}},
		{"genai APIError of a stream, a status name and no number", fmt.Errorf("gemini stream: %w", genaiAPIError{Status: "UNAVAILABLE"}),
			taxonomy.Class{Kind: O, Rule: `type "UNAVAILABLE"`, Code: "UNAVAILABLE"}},
		{"a Status that names no code is not read (ollama's StatusError)", fmt.Errorf("ollama: %w", genaiAPIError{Status: "Service Unavailable"}),
			class(O, `marker "service unavailable"`, 0)},

		// ---- a bare EOF inside a body ----
		{"EOF quoted inside a JSON body (chatboxai/chatbox#2114)", errors.New(`API Error: {"error":"POST predict: Post \"http://127.0.0.1:63330/completion\": EOF"}`),
			class(T, `marker "EOF"`, 0)},

		// ---- a request too large as a whole ----
		{"mistral embedding batch over its token limit (aurelio-labs/semantic-router#297)", errors.New(`MistralAPIException: Status: 400. Message: {"object":"error","message":"Too many tokens in batch. Max is 16384 got 17555","type":"invalid_request_error","param":null,"code":null}`),
			class(C, `pattern "too many tokens in the request"`, 400)},
		{"bedrock's per-day token limit stays a rate limit (minorun365/agent-book#29)", errors.New("Too many tokens per day, please wait before trying again."),
			class(R, `marker "too many tokens"`, 0)},

		// ---- a model that does not fit the GPU ----
		{"ollama runner out of GPU memory (ollama/ollama#9782)", errors.New("Error: llama runner process has terminated: CUDA error: out of memory"),
			class(P, `pattern "gpu out of memory"`, 0)},
		{"PyTorch's CUDA out of memory (vllm, text-generation-inference)", errors.New("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB"),
			class(P, `pattern "gpu out of memory"`, 0)},
		{"the Go runtime out of memory is no GPU", errors.New("fatal error: runtime: out of memory"),
			class(U, "no rule matched", 0)},

		// ---- an account that cannot pay ----
		{"together account without a credit card (Nutlope/logocreator#10)", errors.New("ERROR: Your Together AI account needs a credit card on file to use this app. Please add a credit card at: https://api.together.xyz/settings/billing"),
			account(`pattern "needs a payment method"`, 0)},
		{"an account that requires a payment method", errors.New("This model requires a payment method on file."),
			account(`pattern "payment method required"`, 0)},
		{"an unpaid account's rate limit that asks for a payment method stays a rate limit (openai 2023)", openai(429, "Rate limit reached for default-gpt-3.5-turbo in organization org-xxx on requests per min. Limit: 3 / min. Please try again in 20s. Contact us through our help center at help.openai.com if you continue to have issues. Please add a payment method to your account to increase your rate limit. Visit https://platform.openai.com/account/billing to add a payment method."),
			hinted(R, "status 429", 429, 20*time.Second)},

		// ---- refused to this caller ----
		{"openai 403 project without access to the model", openai(403, "Project `proj_IuQ8Yx` does not have access to model `gpt-4o`"),
			missing("status 403", 403)},
		{"bedrock access denied as text", errors.New("AccessDeniedException: You don't have access to the model with the specified model ID."),
			missing(`exception "accessdeniedexception"`, 0)},
		{"azure 401 access denied", errors.New("Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource."),
			account(`marker "access denied"`, 0)},
		{"bedrock account not authorized", errors.New("Your account is not authorized to invoke this API operation."),
			account(`pattern "not authorized"`, 0)},

		// ---- a 4xx of the provider's own making: its words decide ----
		{"groq 498 flex tier at capacity, words of console.groq.com/docs/errors (laravel/ai#925)", &openaiGoError{StatusCode: 498, Message: "The flex tier is at capacity and the request won't be processed. You can try again later."},
			class(O, `pattern "out of capacity"`, 498)},
		{"a 498 without words is read as a 4xx", openai(498, ""),
			class(P, "status 498", 498)},
		{"a 4xx HTTP defines decides before the words", openai(422, "The server is overloaded with validation work"),
			class(P, "status 422", 422)},

		// ---- codes of in-band errors ----
		{"openai Responses error event on a 200 stream (openai/codex#43337)", taxonomy.WithEvidence(errors.New("stream ended with an error event"), taxonomy.Evidence{Status: 200, Stream: true, InBand: true, ErrorType: "service_unavailable_error", ErrorCode: "server_is_overloaded", ErrorMessage: "Please try again."}),
			taxonomy.Class{Kind: O, Rule: `code "server_is_overloaded"`, Status: 200, Code: "server_is_overloaded"}},
		{"its type alone", taxonomy.WithEvidence(errors.New("stream ended with an error event"), taxonomy.Evidence{Status: 200, InBand: true, ErrorType: "service_unavailable_error"}),
			taxonomy.Class{Kind: O, Rule: `type "service_unavailable_error"`, Status: 200, Code: "service_unavailable_error"}},
		{"llama.cpp loading, its type on a 200 (llama.cpp server.cpp)", taxonomy.WithEvidence(errors.New("stream ended with an error event"), taxonomy.Evidence{Status: 200, InBand: true, ErrorType: "unavailable_error", ErrorMessage: "Loading model"}),
			taxonomy.Class{Kind: O, Rule: `type "unavailable_error"`, Status: 200, Code: "unavailable_error"}},

		// ---- handshakes that disagree, requests that cannot be sent ----
		{"TLS alert from the server (crypto/tls alert texts)", errors.New(`Post "https://10.0.0.5:8443/v1/chat/completions": remote error: tls: handshake failure`),
			class(P, `pattern "tls alert"`, 0)},
		{"TLS version the server refuses", errors.New(`Post "https://llm.internal/v1/chat/completions": tls: protocol version not supported`),
			class(P, `pattern "tls alert"`, 0)},
		{"a handshake that timed out stays transient (songquanpeng/one-api#278)", errors.New(`Post "https://api.openai.com/v1/chat/completions": net/http: TLS handshake timeout`),
			class(T, `marker "timeout"`, 0)},
		{"a body that does not match its length (net/http transfer.go)", errors.New(`Post "http://localhost:11434/api/chat": http: ContentLength=812 with Body length 0`),
			class(taxonomy.Programming, `pattern "body shorter than its length"`, 0)},
		{"an HTTP/1 connection broken mid-response (net/http transport.go)", errors.New(`Post "http://localhost:1234/v1/chat/completions": net/http: HTTP/1.x transport connection broken: malformed HTTP response "\x00\x00\x12\x04"`),
			class(T, `marker "transport connection broken"`, 0)},

		// ---- a local server with nothing loaded ----
		{"LM Studio without a loaded model (lmstudio-ai, 400)", openai(400, `{"error":{"message":"No models loaded. Please load a model in the developer page or use the 'lms load' command."}}`),
			missing("status 400", 400)},
		{"the same as text alone", errors.New("No models loaded. Please load a model in the developer page or use the 'lms load' command."),
			missing(`pattern "no model loaded"`, 0)},

		// ---- provider wordings that name the failure without a status ----
		{"openai 401 without a key", errors.New("You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."),
			account(`pattern "no api key"`, 0)},
		{"google PERMISSION_DENIED message", errors.New("The caller does not have permission"),
			account(`pattern "permission denied"`, 0)},
		{"gemini 403 suspended key", errors.New("Permission denied: Consumer 'api_key:AIzaSy' has been suspended."),
			account(`pattern "disabled or suspended"`, 0)},
		{"openai organization not verified for streaming", errors.New("Your organization must be verified to stream this model. Please go to: https://platform.openai.com/settings/organization/general and click on Verify Organization."),
			account(`marker "organization must be verified"`, 0)},
		{"openai organization disabled, sent as a 429", openai(429, "This organization has been disabled."),
			account(`pattern "disabled or suspended"`, 429)},
		{"an organization's rate limit is no disabled organization (openai 429)", openai(429, "Rate limit reached for gpt-4o in organization org-abc on requests per min (RPM): Limit 500, Used 500, Requested 1."),
			class(R, "status 429", 429)},
		{"openai reasoning models refuse max_tokens", errors.New("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."),
			class(P, `pattern "unsupported parameter"`, 0)},
		{"openai unrecognized argument", errors.New("Unrecognized request argument supplied: functions_v2"),
			class(P, `marker "unrecognized request argument"`, 0)},
		{"bedrock malformed request", errors.New("Malformed input request: #: extraneous key [foo] is not permitted, please reformat your input and try again."),
			class(P, `marker "malformed input request"`, 0)},
		{"bedrock on-demand throughput not supported", errors.New("Invocation of model ID anthropic.claude-3-opus with on-demand throughput isn't supported. Retry your request with the ID or ARN of an inference profile that contains this model."),
			class(P, `pattern "not supported"`, 0)},
		{"ollama model without tools", errors.New(`{"error":"registry.ollama.ai/library/gemma:latest does not support tools"}`),
			class(P, `pattern "model does not support"`, 0)},
		{"bedrock invalid model identifier", errors.New("ValidationException: The provided model identifier is invalid."),
			missing(`exception "validationexception"`, 0)},
		{"the same message alone", errors.New("The provided model identifier is invalid."),
			missing(`pattern "invalid model"`, 0)},
		{"a model the endpoint does not serve", errors.New(`{"error":{"message":"Model llama-3 is not supported","type":"invalid_request_error"}}`),
			missing(`pattern "model not supported"`, 0)},
		{"gemini payload over the request limit", errors.New("Request payload size exceeds the limit: 20971520 bytes."),
			class(C, `pattern "payload too large"`, 0)},
		{"anthropic image over its size limit", errors.New("messages.1.content.0.image.source.base64: image exceeds 5 MB maximum: 6000000 bytes > 5242880 bytes"),
			class(P, `pattern "image too large"`, 0)},
		{"hugging face monthly credits used up, sent as a 402", errors.New("You have exceeded your monthly included credits for Inference Providers. Subscribe to PRO to get 20x more monthly included credits."),
			account(`pattern "credits used up"`, 0)},
		{"AWS ThrottlingException documentation", errors.New("Your request rate is too high. Reduce the frequency of requests."),
			class(R, `marker "request rate is too high"`, 0)},
		{"hugging face model too busy", errors.New("Model too busy, unable to get response in less than 60 second(s)"),
			class(O, `marker "server busy"`, 0)},
		{"google UNAVAILABLE message", errors.New("The service is currently unavailable."),
			class(O, `pattern "service is unavailable"`, 0)},
		{"google DEADLINE_EXCEEDED message", errors.New("Deadline expired before operation could complete."),
			class(T, `marker "deadline expired"`, 0)},
		{"bedrock InternalServerException", errors.New("The system encountered an unexpected error during processing. Try your request again."),
			class(T, `marker "try your request again"`, 0)},
		{"ollama CLI without a server", errors.New("Error: could not connect to ollama app, is it running?"),
			class(T, `pattern "could not connect"`, 0)},
		{"go resolver, a DNS server that failed", errors.New(`Post "https://api.openai.com/v1/chat/completions": dial tcp: lookup api.openai.com on 127.0.0.53:53: server misbehaving`),
			class(T, `marker "server misbehaving"`, 0)},

		// ---- routes that come and go ----
		{"ENETUNREACH from net", fmt.Errorf("Post %q: %w", "https://api.openai.com/v1/chat/completions", opError("connect", syscall.ENETUNREACH)),
			class(T, "network unreachable", 0)},
		{"EHOSTUNREACH from net", opError("connect", syscall.EHOSTUNREACH),
			class(T, "network unreachable", 0)},
		{"ECONNABORTED from net", opError("read", syscall.ECONNABORTED),
			class(T, "connection aborted", 0)},
		{"network unreachable as text", errors.New(`Post "https://api.openai.com/v1/chat/completions": dial tcp 104.18.6.192:443: connect: network is unreachable`),
			class(T, `marker "network is unreachable"`, 0)},
		{"no route to host as text", errors.New(`Post "http://10.0.0.7:11434/api/chat": dial tcp 10.0.0.7:11434: connect: no route to host`),
			class(T, `marker "no route to host"`, 0)},
	}
}
