package taxonomy_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/resilientgo/resilient/taxonomy"
)

// class, missing, account and hinted are the answers the family tables
// expect: a kind decided by a rule, a model missing, an account failure, a
// wait the text asked for.
func class(kind taxonomy.Kind, rule string, status int) taxonomy.Class {
	return taxonomy.Class{Kind: kind, Rule: rule, Status: status}
}

// missing is a model missing, which is an account failure too: another
// deployment may have the model.
func missing(rule string, status int) taxonomy.Class {
	return taxonomy.Class{Kind: taxonomy.Permanent, Rule: rule, Status: status, ModelMissing: true, AccountFailure: true}
}

// account is an account failure: the caller's key, account, quota or
// billing refused the request, which another account may serve.
func account(rule string, status int) taxonomy.Class {
	return taxonomy.Class{Kind: taxonomy.Permanent, Rule: rule, Status: status, AccountFailure: true}
}

func hinted(kind taxonomy.Kind, rule string, status int, wait time.Duration) taxonomy.Class {
	return taxonomy.Class{Kind: kind, Rule: rule, Status: status, RetryAfter: wait, WaitSource: taxonomy.WaitRetryAfter}
}

// familyCases are the rows of the failure families that were misclassified
// before their rules existed, each from a real provider, runner, SDK or
// standard library text (the source is in the row's name), next to the rows
// of texts they must not match.
func familyCases() []classifyCase {
	P, R, O, T, C, U := taxonomy.Permanent, taxonomy.RateLimited, taxonomy.Overloaded, taxonomy.Transient, taxonomy.ContextOverflow, taxonomy.Unknown
	return []classifyCase{
		// ---- the HTTP client's own timeout (net/http client.go) ----
		{"net/http Client.Timeout text says canceled", errors.New(`Post "https://api.openai.com/v1/chat/completions": net/http: request canceled (Client.Timeout exceeded while awaiting headers)`),
			class(T, `marker "client.timeout exceeded"`, 0)},
		{"net/http Client.Timeout on a deadline", errors.New(`Post "https://api.groq.com/openai/v1/chat/completions": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`),
			class(T, `marker "client.timeout exceeded"`, 0)},
		{"net/http request canceled without a client timeout stays canceled", errors.New(`Post "https://api.openai.com/v1/chat/completions": net/http: request canceled`),
			class(taxonomy.Canceled, `marker "request cancelled"`, 0)},
		{"net/http body read canceled by the caller stays canceled", errors.New(`error reading streaming response: context canceled (Client.Timeout or context cancellation while reading body)`),
			class(taxonomy.Canceled, `marker "context canceled"`, 0)},

		// ---- billing and account states, whatever 4xx carries them ----
		{"openai 429 billing_not_active (Chanzhaoyu/chatgpt-web#1273)", openai(429, "Your account is not active, please check your billing details on our website."),
			account(`pattern "account is not active"`, 429)},
		{"openai 429 billing_not_active in a proxy's JSON text", errors.New(`ChatGPT error 429: {"error": {"message": "Your account is not active, please check your billing details on our website.", "type": "billing_not_active", "param": null, "code": null}}`),
			account(`marker "billing_not_active"`, 429)},
		{"xAI 429 credits or monthly spending limit (continuedev/continue#10373)", errors.New(`429 "Your team 16f2151a-40f4-4a80-8ad0-cae00c27e8dd has either used all available credits or reached its monthly spending limit. To continue making API requests, please purchase more credits or raise your spending limit."`),
			account(`pattern "credits used up"`, 429)},
		{"xAI 403 credits through a CLI proxy (Anantys-oss/koan#2412)", errors.New(`API error (status 403 Forbidden): permission-denied: Your team deadb-a58d-46ca-80a1-beefbeef has either used all available credits or reached its monthly spending limit. To continue making API requests, please purchase more credits or raise your spending limit.`),
			account(`pattern "credits used up"`, 403)},
		{"xAI spending limit alone", openai(429, "Your team has reached its monthly spending limit. Raise your spending limit to continue."),
			account(`pattern "spending limit reached"`, 429)},
		{"anthropic 400 specified API usage limits (anthropics/claude-code#38035)", anthropicStatus(400, `{"type":"error","error":{"type":"invalid_request_error","message":"You have reached your specified API usage limits. You will regain access on 2026-04-01 at 00:00 UTC."}}`),
			account(`pattern "spending limit reached"`, 400)},
		{"deepseek 402 Insufficient Balance (continuedev/continue#9942)", openai(402, "Insufficient Balance"),
			account(`pattern "insufficient balance"`, 402)},
		{"openrouter insufficient credits text", errors.New(`{"error":{"message":"Insufficient credits. Add more using https://openrouter.ai/credits","code":402}}`),
			account(`pattern "insufficient balance"`, 402)},
		{"grok run out of credits (Wei-Shaw/sub2api#4069)", errors.New(`Grok Responses API returned 403: {"code":"***","error":"You have run out of credits or need a Grok subscription."}`),
			account(`pattern "credits used up"`, 403)},
		{"go-openai 429 insufficient_quota: HTTPStatusCode field, Type field", &goOpenAIError{Code: "insufficient_quota", Message: "You exceeded your current quota, please check your plan and billing details.", Type: "insufficient_quota", HTTPStatus: "429 Too Many Requests", HTTPStatusCode: 429},
			taxonomy.Class{Kind: P, Rule: `marker "exceeded your current quota"`, Status: 429, Code: "insufficient_quota", AccountFailure: true}},
		// Rate limits that mention billing, tiers, upgrades or trial keys stay rate limits.
		{"groq 429 TPD with an upgrade link to the billing page", openai(429, "Rate limit reached for model `llama-3.3-70b-versatile` in organization `org_01` service tier `on_demand` on tokens per day (TPD): Limit 100000, Used 99812, Requested 1571. Please try again in 22m35.808s. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing"),
			taxonomy.Class{WaitSource: taxonomy.WaitRetryAfter, Kind: R, Rule: "status 429", Status: 429, RetryAfter: 22*time.Minute + 35808*time.Millisecond}},
		{"groq TPD text without status", errors.New("Rate limit reached for model `llama-3.3-70b-versatile` in organization `org_01` service tier `on_demand` on tokens per day (TPD): Limit 100000, Used 99812, Requested 1571. Please try again in 22m35.808s. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing"),
			taxonomy.Class{WaitSource: taxonomy.WaitRetryAfter, Kind: R, Rule: `marker "rate limit"`, RetryAfter: 22*time.Minute + 35808*time.Millisecond}},
		{"cohere 429 trial key (docs.cohere.com rate limits)", errors.New(`status_code: 429, body: {'message': "You are using a Trial key, which is limited to 10 API calls / minute. You can continue to use the Trial key for free or upgrade to a Production key with higher rate limits at 'https://dashboard.cohere.com/api-keys'."}`),
			class(R, "status 429", 429)},
		{"openrouter free-model daily limit that mentions credits", errors.New(`{"error":{"message":"Rate limit exceeded: free-models-per-day. Add 10 credits to unlock 1000 free model requests per day","code":429}}`),
			class(R, "status 429", 429)},
		{"a 5xx whose body mentions a quota is the provider failing", openai(503, "You exceeded your current quota, please check your plan and billing details."),
			class(O, "status 503", 503)},

		// ---- local runners that cannot load the model ----
		{"ollama 500 model requires more system memory (continuedev/continue#11767)", ollamaStatusError{StatusCode: 500, ErrorMessage: "model requires more system memory (5.3 GiB) than is available (3.3 GiB)"},
			class(P, `pattern "requires more memory than is available"`, 500)},
		{"ollama CLI text (ollama/ollama#10920)", errors.New("Error: model requires more system memory (164.8 GiB) than is available (13.4 GiB)"),
			class(P, `pattern "requires more memory than is available"`, 0)},
		{"ollama runner cannot allocate its buffer (ollama/ollama#5941)", ollamaStatusError{StatusCode: 500, ErrorMessage: "llama runner process has terminated: error loading model: unable to allocate backend buffer"},
			class(P, `pattern "error loading model: out of memory"`, 500)},
		{"LM Studio guardrail (lmstudio-bug-tracker#1038)", openai(400, "Error: Model loading was stopped due to insufficient system resources. Under the current settings, this model requires approximately 273.25 GB of memory, and continuing to load it would likely overload your system and cause it to freeze."),
			class(P, `pattern "insufficient resources to load the model"`, 400)},
		{"LM Studio not enough resources (lmstudio-bug-tracker#1562)", errors.New("Not enough resources to load the model with the current settings"),
			class(P, `pattern "insufficient resources to load the model"`, 0)},
		{"ollama 500 runner crash without a memory word stays transient", ollamaStatusError{StatusCode: 500, ErrorMessage: "llama runner process has terminated: exit status 2"},
			class(T, "status 500", 500)},
		{"memory in an unrelated 400 is not a load failure", openai(400, "Invalid 'messages[1].content': the memory tool requires more input."),
			class(P, "status 400", 400)},

		// ---- TLS and certificates (crypto/tls, crypto/x509 and their texts) ----
		{"x509 hostname mismatch typed", postErr("https://10.0.0.5/v1/chat/completions", &tls.CertificateVerificationError{Err: x509.HostnameError{Certificate: &x509.Certificate{DNSNames: []string{"ingress.local"}}, Host: "10.0.0.5"}}),
			class(P, "tls certificate", 0)},
		{"x509 expired typed, without the tls wrapper", x509.CertificateInvalidError{Reason: x509.Expired, Detail: "current time 2025-01-01T00:00:00Z is after 2024-12-31T23:59:59Z"},
			class(P, "tls certificate", 0)},
		{"x509 unknown authority text", errors.New(`Post "https://llm.internal.example/v1/chat/completions": tls: failed to verify certificate: x509: certificate signed by unknown authority`),
			class(P, `marker "x509: "`, 0)},
		{"x509 legacy Common Name text", errors.New(`Get "https://gateway.local/v1/models": x509: certificate relies on legacy Common Name field, use SANs instead`),
			class(P, `marker "x509: "`, 0)},
		{"python ssl verify failed text", errors.New("[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1006)"),
			class(P, `marker "certificate verify failed"`, 0)},
		{"https to a plain HTTP port", errors.New(`Post "https://127.0.0.1:11434/api/chat": http: server gave HTTP response to HTTPS client`),
			class(P, `marker "server gave http response to https client"`, 0)},
		{"TLS handshake timeout stays transient", errors.New(`Post "https://api.openai.com/v1/chat/completions": net/http: TLS handshake timeout`),
			class(T, `marker "timeout"`, 0)},

		// ---- building or decoding the request inside the client ----
		{"json into Go struct field typed", fmt.Errorf("decode response: %w", unmarshalTypeError()),
			class(taxonomy.Programming, "json type mismatch", 0)},
		{"json into Go struct field text", errors.New("json: cannot unmarshal string into Go struct field ChatCompletionResponse.choices of type []openai.ChatCompletionChoice"),
			class(taxonomy.Programming, `pattern "json: cannot unmarshal into a Go type"`, 0)},
		{"json cannot marshal a func typed", marshalError(),
			class(taxonomy.Programming, "json type mismatch", 0)},
		{"json syntax error stays a malformed body", jsonSyntaxError(`{"choices": [`),
			class(U, "malformed response body", 0)},
		{"invalid base URL typed (url.Parse)", newRequestError("127.0.0.1:11434/api/chat"),
			class(taxonomy.Programming, "invalid url", 0)},
		{"invalid base URL text", errors.New(`parse "://api.openai.com/v1": missing protocol scheme`),
			class(taxonomy.Programming, `pattern "invalid url"`, 0)},
		{"unsupported protocol scheme typed, empty scheme", &url.Error{Op: "Post", URL: "/v1/chat/completions", Err: errors.New(`unsupported protocol scheme ""`)},
			class(taxonomy.Programming, `marker "unsupported protocol scheme"`, 0)},
		{"a provider's JSON parse complaint is not the client's", errors.New("We could not parse the JSON body of your request."),
			class(U, "no rule matched", 0)},
		{"failed to parse a field is not a URL", errors.New(`failed to parse "tool_calls": unexpected token`),
			class(U, "no rule matched", 0)},

		// ---- context overflow as local servers and other providers word it ----
		{"LM Studio context overflow (lmstudio-bug-tracker#546)", openai(400, "Trying to keep the first 111490 tokens when context the overflows. However, the model is loaded with context length of only 32768 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input."),
			class(C, `pattern "context length of only"`, 400)},
		{"LM Studio overflow in-band, no status", errors.New("Trying to keep the first 14538 tokens when context the overflows."),
			class(C, `marker "when context the overflows"`, 0)},
		{"llama.cpp 400 exceed_context_size_error (oobabooga/textgen#7257)", openai(400, `{"error":{"code":400,"message":"the request exceeds the available context size. try increasing the context size or enable context shift","type":"exceed_context_size_error","n_prompt_tokens":14429,"n_ctx":8192}}`),
			class(C, `marker "exceed_context_size_error"`, 400)},
		{"llama.cpp 500 exceed_context_size_error (ggml-org/llama.cpp#15780)", openai(500, `{"error":{"code":500,"message":"the request exceeds the available context size. try increasing the context size or enable context shift","type":"exceed_context_size_error","n_prompt_tokens":1407,"n_ctx":256}}`),
			class(C, `marker "exceed_context_size_error"`, 500)},
		{"llama.cpp 500 context size has been exceeded (ggml-org/llama.cpp#19774)", openai(500, `{"error":{"code":500,"message":"Context size has been exceeded.","type":"server_error"}}`),
			class(C, `pattern "context size exceeded"`, 500)},
		{"llama.cpp 400 through the transport (ggml-org/llama.cpp#17284)", taxonomy.WithEvidence(openai(400, "the request exceeds the available context size, try increasing it"), taxonomy.Evidence{Status: 400, ErrorType: "exceed_context_size_error", ErrorMessage: "the request exceeds the available context size, try increasing it"}),
			taxonomy.Class{Kind: C, Rule: `pattern "exceeds the context length"`, Status: 400, Code: "exceed_context_size_error"}},
		{"llama.cpp in-band type on a 200", taxonomy.WithEvidence(errors.New("no response"), taxonomy.Evidence{Status: 200, ErrorType: "exceed_context_size_error"}),
			taxonomy.Class{Kind: C, Rule: `type "exceed_context_size_error"`, Status: 200, Code: "exceed_context_size_error"}},
		{"vLLM max_tokens too large (stepfun-ai/Step-Audio-R1#3)", openai(400, "'max_tokens' or 'max_completion_tokens' is too large: 32000. This model's maximum context length is 32768 tokens and your request has 1200 input tokens (32000 > 32768 - 1200)."),
			class(C, `marker "maximum context length"`, 400)},
		{"vLLM decoder prompt longer than the model length", openai(400, "The decoder prompt (length 9000) is longer than the maximum model length of 8192. Make sure that `max_model_len` is no smaller than the number of text tokens."),
			class(C, `pattern "maximum prompt length"`, 400)},
		{"fireworks prompt too long, model maximum context length", openai(400, "The prompt is too long: 140000, model maximum context length: 131072"),
			class(C, `marker "maximum context length"`, 400)},
		{"xAI maximum prompt length", openai(400, "This model's maximum prompt length is 131072 but the request contains 135000 tokens."),
			class(C, `pattern "maximum prompt length"`, 400)},
		{"bedrock ValidationException overflow: wording before the code", bedrockException(400, "ValidationException", "Input is too long for requested model."),
			taxonomy.Class{Kind: C, Rule: `pattern "prompt or input is too long"`, Status: 400, Code: "ValidationException"}},
		{"a name that is too long is not an overflow", openai(400, "Invalid 'tools[0].function.name': string too long. Expected a string with maximum length 64, but got a string with length 80 instead."),
			class(P, "status 400", 400)},
		{"a 429 that asks to reduce the prompt is a rate limit", anthropicStatus(429, "input length exceeds the context length allowed per minute for your organization"),
			class(R, "status 429", 429)},

		// ---- typed SDK errors, read before their text ----
		{"bedrock ThrottlingException (ErrorCode, HTTPStatusCode)", bedrockException(429, "ThrottlingException", "Too many tokens per day, please wait before trying again."),
			taxonomy.Class{Kind: R, Rule: `code "ThrottlingException"`, Status: 429, Code: "ThrottlingException"}},
		{"bedrock ServiceUnavailableException", bedrockException(503, "ServiceUnavailableException", "Bedrock is unable to process your request."),
			taxonomy.Class{Kind: O, Rule: `code "ServiceUnavailableException"`, Status: 503, Code: "ServiceUnavailableException"}},
		{"bedrock ModelNotReadyException on a 429: the code wins", bedrockException(429, "ModelNotReadyException", "Model is not ready for inference. Wait and try your request again."),
			taxonomy.Class{Kind: O, Rule: `code "ModelNotReadyException"`, Status: 429, Code: "ModelNotReadyException"}},
		{"bedrock ModelTimeoutException", bedrockException(408, "ModelTimeoutException", "Model has timed out in processing the request."),
			taxonomy.Class{Kind: T, Rule: `code "ModelTimeoutException"`, Status: 408, Code: "ModelTimeoutException"}},
		{"bedrock InternalServerException", bedrockException(500, "InternalServerException", "The server encountered an internal error."),
			taxonomy.Class{Kind: T, Rule: `code "InternalServerException"`, Status: 500, Code: "InternalServerException"}},
		{"bedrock ValidationException", bedrockException(400, "ValidationException", "Malformed input request: #: extraneous key [foo] is not permitted, please reformat your input and try again."),
			taxonomy.Class{Kind: P, Rule: `code "ValidationException"`, Status: 400, Code: "ValidationException"}},
		{"bedrock AccessDeniedException", bedrockException(403, "AccessDeniedException", "You don't have access to the model with the specified model ID."),
			taxonomy.Class{Kind: P, Rule: `code "AccessDeniedException"`, Status: 403, Code: "AccessDeniedException", ModelMissing: true, AccountFailure: true}},
		{"bedrock ResourceNotFoundException: the model is missing", bedrockException(404, "ResourceNotFoundException", "Could not resolve the foundation model from the provided model identifier."),
			taxonomy.Class{Kind: P, Rule: `code "ResourceNotFoundException"`, Status: 404, Code: "ResourceNotFoundException", ModelMissing: true, AccountFailure: true}},
		{"bedrock ServiceQuotaExceededException: resubmit later", bedrockException(400, "ServiceQuotaExceededException", "Your request exceeds the service quota for your account. You can resubmit your request later."),
			taxonomy.Class{Kind: R, Rule: `code "ServiceQuotaExceededException"`, Status: 400, Code: "ServiceQuotaExceededException"}},
		{"bedrock stream exception without a response status", bedrockException(0, "ModelStreamErrorException", "An error occurred while streaming the response. Retry your request."),
			taxonomy.Class{Kind: T, Rule: `code "ModelStreamErrorException"`, Code: "ModelStreamErrorException"}},
		{"go-openai RequestError 502 with an HTML body", &goOpenAIRequestError{HTTPStatus: "502 Bad Gateway", HTTPStatusCode: 502, Err: errors.New("invalid character '<' looking for beginning of value"), Body: []byte("<html>")},
			class(T, "status 502", 502)},
		{"go-openai APIError 503", &goOpenAIError{Message: "The engine is currently overloaded, please try again later", Type: "server_error", HTTPStatus: "503 Service Unavailable", HTTPStatusCode: 503},
			taxonomy.Class{Kind: O, Rule: "status 503", Status: 503, Code: "server_error"}},
		{"openai-go 429 insufficient_quota: code in a field, text hides it", &openaiGoError{Code: "insufficient_quota", Type: "insufficient_quota", Message: "You exceeded your current quota, please check your plan and billing details.", StatusCode: 429},
			taxonomy.Class{Kind: P, Rule: `code "insufficient_quota"`, Status: 429, Code: "insufficient_quota", AccountFailure: true}},
		{"openai-go 429 with Retry-After-Ms in the response", &openaiGoError{Code: "rate_limit_exceeded", Type: "tokens", Message: "Rate limit reached", StatusCode: 429, Response: &http.Response{Header: http.Header{"Retry-After-Ms": {"1500"}}}},
			taxonomy.Class{WaitSource: taxonomy.WaitRetryAfter, Kind: R, Rule: `code "rate_limit_exceeded"`, Status: 429, Code: "rate_limit_exceeded", RetryAfter: 1500 * time.Millisecond}},
		{"openai-go 400 overflow: the hidden message is read", &openaiGoError{Type: "invalid_request_error", Message: openaiOverflow, StatusCode: 400},
			taxonomy.Class{Kind: C, Rule: `marker "maximum context length"`, Status: 400, Code: "invalid_request_error"}},
		{"openai-go text alone", errors.New("OpenAI API error: 429 Too Many Requests"),
			class(R, "status 429", 429)},
		{"anthropic-sdk-go 529 (StatusCode field)", newAnthropicSDKError(529, nil, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`),
			class(O, "status 529", 529)},
		{"anthropic-sdk-go 429 with x-should-retry false in the response", newAnthropicSDKError(429, http.Header{"X-Should-Retry": {"false"}, "Retry-After": {"20"}}, `{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}`),
			taxonomy.Class{WaitSource: taxonomy.WaitRetryAfter, Kind: P, Rule: "status 429; x-should-retry: false", Status: 429, RetryAfter: 20 * time.Second}},
		{"anthropic-sdk-go text alone: the status after the URL", errors.New(`POST "https://bedrock-runtime.us-west-2.amazonaws.com/v1/messages": 400 Bad Request {"message":"The maximum tokens you requested exceeds the model limit of 32768"}`),
			class(P, "status 400", 400)},
		{"a quoted JSON number is not a status", errors.New(`upstream replied {"n_prompt_tokens": 500, "detail": "bad"}`),
			class(U, "no rule matched", 0)},

		// ---- a provider code written in the text ----
		{"anthropic-sdk-go body without its status", errors.New(`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`),
			class(O, `type "overloaded_error"`, 0)},
		{"python SDK dict body", errors.New(`anthropic.InternalServerError: {'type': 'error', 'error': {'type': 'overloaded_error', 'message': 'Overloaded'}}`),
			class(O, `type "overloaded_error"`, 0)},
		{"gemini JSON status member", errors.New(`{"error": {"code": 429, "message": "Quota exceeded for quota metric", "status": "RESOURCE_EXHAUSTED"}}`),
			class(R, "status 429", 429)},
		{"boto3 exception name", errors.New("An error occurred (AccessDeniedException) when calling the Converse operation: User is not authorized to perform: bedrock:InvokeModel"),
			account(`exception "accessdeniedexception"`, 0)},
		{"smithy GenericAPIError text", errors.New("api error ModelNotReadyException: Model is not ready for inference."),
			class(O, `exception "modelnotreadyexception"`, 0)},
		{"a type member at the very start", errors.New(`"type": "overloaded_error"`),
			class(O, `type "overloaded_error"`, 0)},
		{"an exception name after a bare Exception", errors.New("Exception: ThrottlingException: slow down"),
			class(R, `exception "throttlingexception"`, 0)},
		{"an exception name with a z in it", errors.New("UnrecognizedClientException: The security token included in the request is invalid."),
			account(`exception "unrecognizedclientexception"`, 0)},
		{"a type member without a colon is not read", errors.New(`"type" "overloaded_error" was the type`),
			class(O, `marker "overloaded"`, 0)},
		{"an unquoted type value is not read", errors.New(`"type": overloaded_error`),
			class(O, `marker "overloaded"`, 0)},
		{"an unclosed type value is not read", errors.New(`"type": "overloaded_error`),
			class(O, `marker "overloaded"`, 0)},
		// The type is in the vocabulary (issue 24): invalid_request_error
		// is OpenAI's and Anthropic's type of a request at fault.
		{"an invalid_request_error type by itself is a request at fault", errors.New(`{"type": "invalid_request_error", "detail": "java.lang.NullPointerException"}`),
			class(P, `type "invalid_request_error" (invalid_request)`, 0)},
		{"a member ending in type is not a type", errors.New(`{"content_type": "overloaded_error"}`),
			class(O, `marker "overloaded"`, 0)},
		{"a status decides before a type in the text", openai(400, `{"type":"error","error":{"type":"overloaded_error"}}`),
			class(P, "status 400", 400)},

		// ---- StatusCode fields of other types ----
		{"StatusCode string is not read", stringStatusError{StatusCode: "503"},
			class(U, "no rule matched", 0)},
		{"StatusCode float64 is not read", floatStatusError{StatusCode: 503},
			class(U, "no rule matched", 0)},
		{"StatusCode uint16 is read", unsignedStatusError{StatusCode: 503},
			class(O, "status 503", 503)},
		{"StatusCode int64 is read", &int64StatusError{StatusCode: 429},
			class(R, "status 429", 429)},
		{"StatusCode out of range is not a status", int64StatusError{StatusCode: 1 << 40},
			class(U, "no rule matched", 0)},
		{"StatusCode negative is not a status", int64StatusError{StatusCode: -429},
			class(U, "no rule matched", 0)},
		{"a typed nil with a StatusCode field", (*int64StatusError)(nil),
			class(taxonomy.Programming, "error method panicked", 0)},
		{"canceled wins over a typed 429", errors.Join(&int64StatusError{StatusCode: 429}, context.Canceled),
			class(taxonomy.Canceled, "context canceled", 0)},
	}
}

// unmarshalTypeError is the real error of decoding a string where the
// client's struct holds a slice.
func unmarshalTypeError() error {
	var resp struct {
		Choices []struct{ Index int } `json:"choices"`
	}
	return json.Unmarshal([]byte(`{"choices": "none"}`), &resp)
}

// marshalError is the real error of encoding a request holding a func.
func marshalError() error {
	_, err := json.Marshal(map[string]any{"callback": func() {}})
	return err
}

// newRequestError is http.NewRequest's error for a base URL without a scheme.
func newRequestError(rawURL string) error {
	_, err := http.NewRequest(http.MethodPost, rawURL, nil)
	return err
}
