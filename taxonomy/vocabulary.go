package taxonomy

import "strings"

// The vocabulary is what the evidence reader (reader.go) maps names and
// words to. It has two parts, each entry citing at least two independent
// sources (different providers, SDKs, wrappers or standards) beside it, so
// that no entry is fitted to one message:
//
//   - terms: error names, as whole phrases. An HTTP reason phrase, a gRPC
//     canonical code, a provider's or an SDK's error type or code, an
//     exception class: "Bad Request", "INVALID_ARGUMENT", "invalid_request_error",
//     "InvalidParameter", "BadRequestError", "NotFoundException" all reach
//     their term through the same normalisation (nameWords);
//   - senses: single words and the concepts they carry ("invalid" says
//     the request is at fault, "parameter" names a part of a request),
//     which the reader combines within a clause or a name (see clue).

// A meaning is what a term or a clue says about a failure.
type meaning struct {
	kind    Kind
	missing bool // Class.ModelMissing
	account bool // Class.AccountFailure
	rank    int  // precedence among the names of one text: lower decides (see nameRank)
}

// The ranks of meanings among the names found in one text, most specific
// first: when a text names several failures (an SDK's generic error around
// a provider's code, a wrapper's class around the cause), the most
// specific one decides, and among equals the innermost (the last written).
// A request too large, a missing model or a refused key say more than
// "bad request"; a client fault says more than a rate limit; a rate limit
// or an overload says more than a dropped connection, which a wrapper
// reports for every failure it does not recognise.
const (
	rankOverflow = iota
	rankAccount
	rankFault
	rankProgramming
	rankCanceled
	rankRateLimit
	rankOverloaded
	rankTransient
)

func mean(kind Kind) meaning {
	m := meaning{kind: kind}
	switch kind {
	case ContextOverflow:
		m.rank = rankOverflow
	case Permanent:
		m.rank = rankFault
	case Programming:
		m.rank = rankProgramming
	case Canceled:
		m.rank = rankCanceled
	case RateLimited:
		m.rank = rankRateLimit
	case Overloaded:
		m.rank = rankOverloaded
	default:
		m.rank = rankTransient
	}
	return m
}

func (m meaning) accountFailure() meaning {
	m.account, m.rank = true, rankAccount
	return m
}

func (m meaning) modelMissing() meaning {
	m.missing, m.account, m.rank = true, true, rankAccount
	return m
}

// A term is an error name in normalised form (nameWords joined by "_"),
// what it means, and where it comes from.
type term struct {
	name    string
	means   meaning
	sources string // at least two, separated by "; "
}

// terms are the names of failures that clients, SDKs, providers and
// standards share. A name is matched by its longest suffix that is a term,
// so that a provider's prefix does not hide it (ArkBadRequestError is
// bad_request, ResourceNotFoundException is not_found).
var terms = []term{
	// HTTP's reason phrases (RFC 9110), which SDKs reuse as class names.
	{"bad_request", mean(Permanent), `RFC 9110 400 "Bad Request"; openai-python BadRequestError; Spring WebClientResponseException$BadRequest; Volcengine Ark type "BadRequest"`},
	{"unauthorized", mean(Permanent).accountFailure(), `RFC 9110 401 "Unauthorized"; .NET HttpStatusCode.Unauthorized; google.api_core.exceptions.Unauthorized`},
	{"payment_required", mean(Permanent).accountFailure(), `RFC 9110 402 "Payment Required"; .NET HttpStatusCode.PaymentRequired`},
	{"forbidden", mean(Permanent).accountFailure(), `RFC 9110 403 "Forbidden"; google.api_core.exceptions.Forbidden; .NET HttpStatusCode.Forbidden`},
	{"not_found", mean(Permanent).modelMissing(), `RFC 9110 404 "Not Found"; gRPC NOT_FOUND; openai-python NotFoundError; Anthropic not_found_error; AWS ResourceNotFoundException`},
	{"method_not_allowed", mean(Permanent), `RFC 9110 405 "Method Not Allowed"; google.api_core.exceptions.MethodNotAllowed`},
	{"request_timeout", mean(Transient), `RFC 9110 408 "Request Timeout"; AWS RequestTimeoutException`},
	{"conflict", mean(Transient), `RFC 9110 409 "Conflict"; openai-python ConflictError`},
	{"payload_too_large", mean(ContextOverflow), `RFC 9110 413 "Content Too Large" (formerly "Payload Too Large"); .NET HttpStatusCode.RequestEntityTooLarge`},
	{"request_entity_too_large", mean(ContextOverflow), `RFC 7231 413 "Request Entity Too Large"; .NET HttpStatusCode.RequestEntityTooLarge; nginx's 413 page`},
	{"unprocessable_entity", mean(Permanent), `RFC 9110 422 "Unprocessable Content" (formerly "Unprocessable Entity"); openai-python UnprocessableEntityError; anthropic-sdk-python UnprocessableEntityError`},
	{"too_many_requests", mean(RateLimited), `RFC 6585 429 "Too Many Requests"; .NET HttpStatusCode.TooManyRequests; google.api_core.exceptions.TooManyRequests; Cohere TooManyRequestsError`},
	{"internal_server", mean(Transient), `RFC 9110 500 "Internal Server Error"; openai-python InternalServerError; .NET HttpStatusCode.InternalServerError`},
	{"bad_gateway", mean(Transient), `RFC 9110 502 "Bad Gateway"; google.api_core.exceptions.BadGateway; .NET HttpStatusCode.BadGateway`},
	{"service_unavailable", mean(Overloaded), `RFC 9110 503 "Service Unavailable"; google.api_core.exceptions.ServiceUnavailable; AWS ServiceUnavailableException`},
	{"gateway_timeout", mean(Transient), `RFC 9110 504 "Gateway Timeout"; google.api_core.exceptions.GatewayTimeout; .NET HttpStatusCode.GatewayTimeout`},

	// gRPC's canonical codes (google.rpc.Code), as gRPC clients, Google's
	// APIs ("status": "INVALID_ARGUMENT") and google.api_core name them.
	{"cancelled", mean(Canceled), `gRPC CANCELLED; google.api_core.exceptions.Cancelled; Python asyncio CancelledError`},
	{"canceled", mean(Canceled), `gRPC Go codes.Canceled; axios CanceledError; .NET OperationCanceledException`},
	{"invalid_argument", mean(Permanent), `gRPC INVALID_ARGUMENT; google.api_core.exceptions.InvalidArgument; Gemini "status": "INVALID_ARGUMENT"; Qianfan InvalidArgumentError`},
	{"deadline_exceeded", mean(Transient), `gRPC DEADLINE_EXCEEDED; google.api_core.exceptions.DeadlineExceeded; Go context.DeadlineExceeded`},
	{"permission_denied", mean(Permanent).accountFailure(), `gRPC PERMISSION_DENIED; google.api_core.exceptions.PermissionDenied; openai-python PermissionDeniedError`},
	{"resource_exhausted", mean(RateLimited), `gRPC RESOURCE_EXHAUSTED; google.api_core.exceptions.ResourceExhausted; Gemini 429 "status": "RESOURCE_EXHAUSTED"`},
	{"failed_precondition", mean(Permanent), `gRPC FAILED_PRECONDITION; google.api_core.exceptions.FailedPrecondition; Gemini 400 "User location is not supported"`},
	{"aborted", mean(Transient), `gRPC ABORTED; google.api_core.exceptions.Aborted`},
	{"out_of_range", mean(Permanent), `gRPC OUT_OF_RANGE; google.api_core.exceptions.OutOfRange`},
	{"unimplemented", mean(Programming), `gRPC UNIMPLEMENTED; google.api_core.exceptions.MethodNotImplemented`},
	{"not_implemented", mean(Programming), `Python NotImplementedError; .NET NotImplementedException; RFC 9110 501 "Not Implemented"`},
	{"internal", mean(Transient), `gRPC INTERNAL; DashScope and Volcengine "InternalError"; ruby http-2 HTTP2::Error::InternalError`},
	{"unavailable", mean(Overloaded), `gRPC UNAVAILABLE; Gemini 503 "status": "UNAVAILABLE"; google-genai "503 UNAVAILABLE"`},
	{"unauthenticated", mean(Permanent).accountFailure(), `gRPC UNAUTHENTICATED; google.api_core.exceptions.Unauthenticated`},

	// Providers' and SDKs' own type names, shared by several of them.
	{"invalid_request", mean(Permanent), `OpenAI and Anthropic type invalid_request_error; openai-python 0.x InvalidRequestError; LangChain4j InvalidRequestException`},
	{"invalid_parameter", mean(Permanent), `Volcengine Ark code InvalidParameter; DashScope code InvalidParameter; Tencent Cloud InvalidParameter; Qwen invalid_parameter_error`},
	{"missing_parameter", mean(Permanent), `Volcengine Ark code MissingParameter; Tencent Cloud MissingParameter; AWS MissingParameter`},
	{"validation", mean(Permanent), `AWS ValidationException; Hugging Face TEI "error_type": "Validation"; pydantic ValidationError`},
	{"authentication", mean(Permanent).accountFailure(), `Anthropic authentication_error; openai-python AuthenticationError; LiteLLM AuthenticationError`},
	{"permission", mean(Permanent).accountFailure(), `Anthropic permission_error; Azure "PermissionDenied"`},
	{"access_denied", mean(Permanent).accountFailure(), `AWS AccessDeniedException; DashScope AccessDenied; Volcengine AccessDenied`},
	{"rate_limit", mean(RateLimited), `Anthropic rate_limit_error; openai-python RateLimitError; openai-php RateLimitException`},
	{"rate_limited", mean(RateLimited), `Mistral type rate_limited; Replicate "rate_limited"`},
	{"rate_limit_exceeded", mean(RateLimited), `OpenAI code rate_limit_exceeded; Tencent Cloud LimitExceeded.RateLimitExceeded`},
	{"throttling", mean(RateLimited), `AWS ThrottlingException; DashScope code Throttling.RateQuota; LiteLLM throttling_error`},
	{"request_limit_exceeded", mean(RateLimited), `Tencent Cloud RequestLimitExceeded; AWS RequestLimitExceeded`},
	{"limit_exceeded", mean(RateLimited), `Tencent Cloud LimitExceeded; AWS LimitExceededException`},
	{"usage_limit_reached", mean(RateLimited), `OpenAI Codex usage_limit_reached; jcode usage_limit_reached`},
	{"overloaded", mean(Overloaded), `Anthropic overloaded_error; OpenAI engine_overloaded; Moonshot engine_overloaded_error`},
	{"server", mean(Transient), `OpenAI type server_error; google-genai ServerError; Python requests "500 Server Error"`},
	{"timed_out", mean(Transient), `Chromium net::ERR_TIMED_OUT and net::ERR_CONNECTION_TIMED_OUT; curl CURLE_OPERATION_TIMEDOUT "Operation timed out"; Python socket.timeout "timed out"`},
	{"timeout", mean(Transient), `openai-python APITimeoutError; Python asyncio TimeoutError; Java SocketTimeoutException; httpx ReadTimeout`},
	{"connection", mean(Transient), `openai-python APIConnectionError; Python requests ConnectionError; LiteLLM APIConnectionError`},
	{"connect", mean(Transient), `httpx ConnectError; aiohttp ClientConnectorError`},
	{"connection_reset", mean(Transient), `Python ConnectionResetError; Go syscall.ECONNRESET "connection reset by peer"`},
	{"connection_refused", mean(Transient), `Python ConnectionRefusedError; Java ConnectException "Connection refused"`},
	{"remote_disconnected", mean(Transient), `Python http.client.RemoteDisconnected; urllib3 ProtocolError("Connection aborted.", RemoteDisconnected)`},
	{"remote_protocol", mean(Transient), `httpx RemoteProtocolError; httpcore RemoteProtocolError`},
	{"context_window_exceeded", mean(ContextOverflow), `LiteLLM ContextWindowExceededError; Azure and Cerebras code context_window_exceeded`},
	{"context_length_exceeded", mean(ContextOverflow), `OpenAI code context_length_exceeded; Groq code context_length_exceeded`},
	{"request_too_large", mean(ContextOverflow), `Anthropic request_too_large; OpenAI "Request too large for ..."`},
	{"input_too_large", mean(ContextOverflow), `xAI [input_too_large]; llama.cpp "input is too large to process"`},
	{"invalid_token", mean(Permanent).accountFailure(), `RFC 6750 error="invalid_token"; ERNIE Bot SDK erniebot.errors.InvalidTokenError; Baidu error 110 "Access token invalid or no longer valid"`},
	{"content_filter", mean(Permanent), `OpenAI and Azure code content_filter; Azure "content_filter" finish reason`},
	// A client that dereferenced nothing: the same call fails the same way
	// until its code changes. Two runtimes name the one fault.
	{"null_pointer", mean(Programming), `Java NullPointerException (LangChain4j's Ollama client); .NET NullReferenceException`},
	{"null_reference", mean(Programming), `.NET NullReferenceException; Java NullPointerException`},
}

// A concept is what a word says on its own. The reader gathers the
// concepts of each clause, and of each name, and reads their combinations
// (see concepts.clue).
type concept uint64

const (
	cFault         concept = 1 << iota // the request is wrong as written: invalid, unsupported, missing, required, must
	cPart                              // a part of a request that can be wrong: parameter, field, value, body, role
	cParam                             // a part that is a parameter, an option or a flag
	cKey                               // a key: with cKeyKind, a credential
	cKeyKind                           // what kind of key: api, access, secret
	cCredential                        // a credential by itself: credentials, signature, apikey
	cRefused                           // a credential or an account refused: banned, revoked, suspended
	cSize                              // what the size of a request is counted in: tokens, length, batch, input
	cCeiling                           // a maximum the size is compared with: maximum, exceeds, range
	cCompare                           // a comparison: larger, greater, more, less
	cLess                              // "less": a comparison whose bound is a ceiling even after "must be"
	cToo                               // "too", before cBig
	cBig                               // long, large, big
	cMinimum                           // a lower bound: "at least"
	cOutput                            // the output's own limit (max_tokens), which compacting the prompt does not fix
	cRate                              // a rate or a window: rate, minute, frequency
	cUsage                             // an allowance: usage, daily
	cLimit                             // a limit
	cReached                           // reached, exceeded, hit
	cLink                              // a connection or its carrier: connection, socket, peer
	cBreak                             // what befell it: reset, refused, closed, lost
	cEOF                               // a stream that ended early
	cNot                               // "not", which negates the next word
	cNegatable                         // valid, supported, allowed, permitted: faults once negated
	cFound                             // "found": with "not", a missing thing
	cAuthenticated                     // "authenticated": with "not", a refused caller
	cMust                              // must, should: with "be" before a comparison, a bound
	cBe                                // "be"
	cThan                              // "than", "compared": what makes a comparison of "more", "larger"
	cField                             // a field of the request with a length of its own: a name, an image, an id
	cTime                              // a deadline or a timeout: "context deadline exceeded" is no size
	cParse                             // parsing a text: a decoder's error says where it stopped, not what the request got wrong
	cDay                               // a day: a daily cap that no retry outlives
	cAttempt                           // an attempt: "max retries" counts attempts, no size
	cWhere                             // an endpoint: a resource, a URL, a path, a page
	cNotFound                          // "not found" (made by add)
	cCompared                          // a size compared with a bound: "input ... more tokens than" (made by add)
	cTooBig                            // a size "too long", "too large", "too big" (made by add)
	cOutputLimit                       // "maximum tokens", "max tokens": the output limit in words (made by add)
	cMax                               // "max", "maximum": before "tokens", the output's limit
	cRequest                           // "request": before "id", an identifier
	cAccount                           // an account or what bills it: account, organization, plan
	cRefill                            // an allowance given back: replenished, resets, renews
	cAlert                             // a TLS alert: "alert"
	cTLS                               // TLS or SSL by name: ssl, tls, sslv3, tlsv1
	cCapacity                          // what a server has room for: capacity, slot, slots
	cShort                             // short of something: insufficient, exhausted
	cDecode                            // decoding a reply into a client's types: deserialize, unmarshal
	cFailed                            // "failed": with a credential, a refused one
)

// A wordSense is a word and the concepts it carries, with where the word
// is used so.
type wordSense struct {
	word     string
	concepts concept
	sources  string // at least two, separated by "; "
}

// senses are the words whose concepts the reader combines: lowercase
// ASCII words, as they stand between non-word characters; a word joined
// by underscores ("prompt_tokens") is read as its parts unless it is a
// sense of its own ("max_tokens").
var senses = []wordSense{
	// A fault of the request.
	{"invalid", cFault, `OpenAI "Invalid 'max_tokens'"; Volcengine Ark "InvalidParameter"; Hugging Face TEI "Input validation error"`},
	{"incorrect", cFault, `OpenAI "Incorrect API key provided"; Zhipu "Invalid API parameter"`},
	{"illegal", cFault, `Java IllegalArgumentException; Ollama "illegal base64 data"`},
	{"malformed", cFault, `Bedrock "Malformed input request"; Go net/http "malformed HTTP response"`},
	{"unsupported", cFault, `OpenAI "Unsupported parameter"; llama.cpp "Unsupported param: tools"`},
	{"unrecognized", cFault, `OpenAI "Unrecognized request argument supplied"; Gemini "Unrecognized field"`},
	{"unknown", cFault, `OpenAI "Unknown parameter"; Go encoding/json "unknown field"`},
	{"missing", cFault, `Volcengine Ark "missing one or multiple required parameters"; Langflow "missing API key"`},
	{"required", cFault, `Anthropic "Field required"; OpenAI "'messages' is a required property"`},
	{"requires", cFault, `llama.cpp "tools param requires --jinja flag"; OpenAI "requires a 'tool_call_id'"`},
	{"must", cFault | cMust, `Baidu ERNIE "the length of messages must be an odd number"; Hugging Face TEI "must have less than 512 tokens"`},
	{"should", cMust, `DashScope "batch size is invalid, it should not be larger than 10"; DashScope "Range of input length should be"`},
	{"expected", cFault, `OpenAI "Expected a value <= 4096"; Fireworks "expected a DeepSeek model ID"`},
	{"expecting", cFault, `Python json "Expecting ',' delimiter"; Python json "Expecting property name enclosed in double quotes"`},
	{"blank", cFault, `Baidu ERNIE "function_call's name can't be blank"; Rails "can't be blank"`},
	{"empty", cFault, `OpenAI "'content' cannot be empty"; Anthropic "text content blocks must be non-empty"`},
	{"wrong", cFault, `Azure "wrong API endpoint"; Moonshot "wrong parameter"`},
	{"be", cBe, `Baidu ERNIE "must be an odd number"; Qwen "must be greater than 0"`},
	// The parts of a request.
	{"parameter", cPart | cParam, `OpenAI "Unsupported parameter"; Zhipu "Invalid API parameter"`},
	{"parameters", cPart | cParam, `Volcengine Ark "One or more parameters specified in the request are not valid"; Volcengine Ark "required parameters"`},
	{"param", cPart | cParam, `llama.cpp "Unsupported param: tools"; llama.cpp "tools param requires --jinja flag"; OpenAI "param"`},
	{"params", cPart | cParam, `JSON-RPC "Invalid params"; Qwen "invalid params"`},
	{"argument", cPart | cParam, `gRPC "Request contains an invalid argument"; OpenAI "Unrecognized request argument"`},
	{"arguments", cPart | cParam, `Qianfan "try using the endpoint arguments"; OpenAI "Invalid 'tools[0].function.arguments'"`},
	{"flag", cPart | cParam, `llama.cpp "requires --jinja flag"; Go flag "flag provided but not defined"`},
	{"option", cPart | cParam, `Ollama "invalid option"; Go flag "unknown option"`},
	{"options", cPart | cParam, `Ollama "invalid options"; OpenAI "stream_options"`},
	{"field", cPart | cParam, `Anthropic "Field required"; Go encoding/json "unknown field"`},
	{"fields", cPart | cParam, `pydantic 1 "extra fields not permitted"; Gemini "Cannot find field"`},
	{"value", cPart, `OpenAI "Expected a value <= 4096"; Gemini "Invalid value at 'tools[0]'"`},
	{"property", cPart, `OpenAI "is a required property"; JSON Schema "additional property"`},
	{"input", cPart | cSize, `Mistral "Extra inputs are not permitted"; Hugging Face TEI "inputs must have less than 512 tokens"`},
	{"inputs", cPart | cSize, `pydantic "Extra inputs are not permitted"; Hugging Face TGI "inputs tokens + max_new_tokens"`},
	{"body", cPart, `Volcengine Ark "could not parse the JSON body of your request"; vLLM "'loc': ('body',)"`},
	{"json", cPart, `Volcengine Ark "the JSON body of your request"; Anthropic "invalid JSON"`},
	{"schema", cPart, `OpenAI "Invalid schema for function"; DeepSeek "schema must be a JSON Schema"`},
	{"request", cPart | cRequest, `Cohere "invalid request:"; Semantic Kernel "The request is not valid"`},
	{"role", cPart, `Qwen "Role must be user or assistant"; Perplexity "roles must alternate"`},
	{"messages", cPart | cSize, `Baidu ERNIE "the length of messages must be an odd number"; Zhipu "messages 参数非法"`},
	{"content", cPart, `Qwen "Content length must be greater than 0"; OpenAI "'content' is required"`},
	{"name", cPart, `Baidu ERNIE "function_call's name can't be blank"; OpenAI "Invalid 'tools[0].function.name'"`},
	{"format", cPart, `OpenAI "Invalid image format"; Anthropic "invalid format"`},
	{"delimiter", cPart, `Python json "Expecting ',' delimiter"; Rust serde "expected ',' or '}'"`},
	{"model", cPart, `Qianfan "The provided model is not in the list of supported models"; OpenAI "Invalid model"`},
	// Credentials and their refusal.
	{"key", cKey, `OpenAI "Incorrect API key provided"; Volcengine Ark "The API key or AK/SK in the request is missing or invalid"`},
	{"api", cKeyKind, `OpenAI "API key"; Gemini "API key not valid"`},
	{"access", cKeyKind, `AWS "The security token ... access key"; Azure "Access denied due to invalid subscription key"`},
	{"secret", cKeyKind, `Baidu Qianfan "secret key"; AWS "secret access key"`},
	{"subscription", cKeyKind, `Azure "invalid subscription key"; Azure APIM "Ocp-Apim-Subscription-Key"`},
	{"apikey", cCredential, `Lobe "InvalidProviderAPIKey" (split to api, key); Google "API_KEY_INVALID"; Node openai "OPENAI_API_KEY"`},
	{"credentials", cCredential, `Google "Could not load the default credentials"; AWS "Unable to locate credentials"`},
	{"credential", cCredential, `Baidu Qianfan SDK "no enough credential found"; iFlytek Spark "HMAC signature cannot be verified: fail to retrieve credential"; Azure Identity "DefaultAzureCredential failed to retrieve a token"`},
	{"auth", cCredential | cAuthenticated, `iFlytek Spark "AppIdNoAuthError"; Docker "no basic auth credentials"`},
	{"authentication", cCredential, `Azure "Authentication failed"; Redis "NOAUTH Authentication required"`},
	{"authorization", cCredential, `NVIDIA NIM "Authorization failed"; Hugging Face "Invalid authorization header"`},
	{"certification", cCredential, `Baidu Qianfan error 14 "IAM Certification failed"; Baidu BCE "IAM certification failed"`},
	{"bearer", cKeyKind, `Qianfan v2 "(bearer token)"; RFC 6750 "Bearer" tokens`},
	{"failure", cFailed, `Tencent Cloud "AuthFailure.SignatureFailure" (tencentcloud-sdk-go common v1.3.212 errors/errors.go prints it as Code=...); AWS EC2 "AuthFailure: AWS was not able to validate the provided access credentials"`},
	{"failed", cFailed, `NVIDIA NIM "Authorization failed"; Baidu Qianfan "IAM Certification failed"; Azure "Authentication failed"`},
	{"signature", cCredential, `AWS InvalidSignatureException; Tencent Cloud AuthFailure.SignatureFailure`},
	{"authenticated", cAuthenticated, `DeepInfra "Not authenticated"; FastAPI HTTPBearer "Not authenticated"`},
	{"banned", cRefused, `uwaterloo "The provided API key has been banned"; Gemini "Consumer has been banned"`},
	{"revoked", cRefused, `OpenAI "API key has been revoked"; Anthropic "This API key has been revoked"`},
	{"expired", cRefused, `AWS ExpiredTokenException "The security token included in the request is expired"; Cohere "Access token expired"`},
	{"suspended", cRefused, `Gemini "Consumer 'api_key:...' has been suspended"; OpenAI "account has been suspended"`},
	{"disabled", cRefused, `OpenAI "This organization has been disabled"; Google "API key ... has been disabled"`},
	// The size of a request and its maximum.
	{"prompt", cSize, `Anthropic "prompt is too long"; vLLM "Input prompt (9000 tokens) is too long"`},
	{"tokens", cSize, `SiliconFlow "length of prompt_tokens (68957) must be less than max_seq_len"; Voyage AI "The max allowed tokens per submitted batch"`},
	{"token", cSize, `Gemini "The input token count exceeds the maximum"; OpenAI "maximum context length is 8192 tokens"`},
	{"batch", cSize, `SiliconFlow "input batch size 473 > maximum allowed batch size 64"; DashScope "batch size is invalid, it should not be larger than 10"`},
	{"context", cSize, `Ollama "input length exceeds the context length"; llama.cpp "exceeds the available context size"`},
	{"sequence", cSize, `Volcengine "exceed max_sequence_length"; Hugging Face "sequence length is longer than the specified maximum"`},
	{"seq", cSize, `SiliconFlow "max_seq_len"; Volcengine "max_sequence_length"`},
	{"kv", cSize, `llama-box "input prompt is too big compared to KV size"; llama.cpp "KV cache is full"`},
	{"maximum", cCeiling | cMax, `Gemini "exceeds the maximum number of tokens allowed"; SiliconFlow "maximum allowed batch size"`},
	{"max", cCeiling | cMax, `Voyage AI "The max allowed tokens per submitted batch"; OpenAI "max 300000 tokens per request"`},
	{"exceed", cCeiling, `llama-cpp-python "Requested tokens (2285) exceed context window"; Volcengine "exceed max_sequence_length"`},
	{"exceeds", cCeiling, `Jackson "String value length exceeds the maximum allowed"; Gemini "The input token count exceeds the maximum"`},
	{"exceeded", cCeiling | cReached, `llama.cpp "Context size has been exceeded"; Tencent Cloud RequestLimitExceeded; alphaXiv "Usage limit has been exceeded"`},
	{"range", cCeiling, `DashScope "Range of input length should be [1, 258048]"; ragflow "Range of input length should be [1, 30000]"`},
	{"allowed", cCeiling | cNegatable, `SiliconFlow "maximum allowed batch size 64"; Jackson "exceeds the maximum allowed"; Qwen "are not allowed to be"`},
	{"larger", cCompare, `DashScope "it should not be larger than 10"; SGLang "larger than the model's context length"`},
	{"greater", cCompare, `LM Studio "greater than the context length"; Qwen "must be greater than 0"`},
	{"longer", cCompare, `SGLang "is longer than the model's context length"; vLLM "longer than the maximum model length"`},
	{"bigger", cCompare, `Hugging Face "bigger than the maximum"; Cloudflare "bigger than the limit"`},
	{"more", cCompare, `LLamaSharp "Input contains more tokens than configured batch size"; Ollama "requires more system memory"`},
	{"less", cCompare | cLess, `Hugging Face TEI "must have less than 32000 characters"; SiliconFlow "must be less than max_seq_len"`},
	{"than", cThan, `LLamaSharp "more tokens than configured batch size"; DashScope "should not be larger than 10"`},
	{"compared", cThan, `llama-box "too big compared to KV size"; LM Studio "compared to the context length"`},
	{"too", cToo, `Anthropic "prompt is too long"; llama.cpp "input is too large to process"`},
	{"long", cBig, `Anthropic "prompt is too long"; Bedrock "Input is too long for requested model"`},
	{"large", cBig, `llama.cpp "input is too large to process"; Cloudflare "Request is too large"`},
	{"big", cBig, `llama-box "input prompt is too big compared to KV size"; Rust hyper "message head is too large"`},
	{"least", cMinimum, `Cohere "message must be at least 1 token long"; JSON Schema "at least 1 item"`},
	{"output", cOutput, `Anthropic "maximum allowed number of output tokens"; Gemini "max output tokens"`},
	{"completion", cOutput, `OpenAI "at most 4096 completion tokens"; OpenAI "max_completion_tokens"`},
	{"max_tokens", cOutput, `Anthropic "max_tokens: 64000 > 32000"; OpenAI "max_tokens is too large"`},
	{"max_new_tokens", cOutput, `Hugging Face TGI "max_new_tokens"; Together "max_new_tokens"`},
	{"max_completion_tokens", cOutput, `OpenAI "max_completion_tokens"; Azure OpenAI "max_completion_tokens"`},
	// What is no size of the request: a field with a length of its own,
	// a deadline, a decoder's position.
	{"image", cField, `Anthropic "image exceeds 5 MB maximum"; OpenAI "The input image is too large"`},
	{"tool", cField, `OpenAI "tool name length exceeds the maximum length of 64"; Gemini "tools[0].function_declarations"`},
	{"function", cField, `OpenAI "Invalid 'tools[0].function.name': string too long"; Gemini "function_declarations"`},
	{"file", cField, `OpenAI "File is too large"; Anthropic "file exceeds the maximum size"`},
	{"deadline", cTime, `Go "context deadline exceeded"; gRPC DEADLINE_EXCEEDED "Deadline expired before operation could complete"`},
	{"syntax", cParse, `protobuf "proto: syntax error (line 1:1)"; Go encoding/json SyntaxError "invalid character"`},
	{"line", cParse, `Python json "Expecting value: line 3 column 14 (char 52)"; serde_json "EOF while parsing a value at line 1 column 0"`},
	{"position", cParse, `JavaScript JSON.parse "Unexpected token < in JSON at position 0"; Jackson "at [Source: ...; line: 1, column: 2]"`},
	{"column", cParse, `Python json "Expecting ',' delimiter: line 1 column 45"; serde_json "at line 1 column 0"`},
	{"retries", cAttempt, `boto3 "(reached max retries: 4)"; urllib3 "Max retries exceeded with url"`},
	{"attempts", cAttempt, `LangChain4j "Exception was thrown on attempt 1 of 3"; AWS SDK "exceeded maximum number of attempts, 3"`},
	{"day", cDay, `OpenAI "tokens per day (TPD)"; OpenRouter "free-models-per-day"`},
	{"quota", cUsage, `Gemini "Quota exceeded for metric: ..._input_token_count, limit: 250000"; OpenAI "You exceeded your current quota"`},
	{"daily", cDay | cUsage, `Baidu error 17 "Open api daily request limit reached"; Gemini "You have exhausted your daily quota"`},
	{"resource", cWhere, `Azure OpenAI 404 "Resource not found"; AWS ResourceNotFoundException`},
	{"endpoint", cWhere, `Volcengine "/chat/completions not found, verify your API base"; Azure "wrong API endpoint"`},
	{"url", cWhere, `OpenAI "Invalid URL (POST /v1/chat/completion)"; httpx "Request URL is missing an 'http://' or 'https://' protocol"`},
	{"page", cWhere, `Go net/http "404 page not found"; Ollama "404 page not found"`},
	// Rates and allowances.
	{"rate", cRate, `OpenAI "Rate limit reached"; Tencent Cloud "RateLimitExceeded"`},
	{"minute", cRate, `OpenAI "tokens per min (TPM)"; Tencent Ad "Please retry after one minute"`},
	{"frequency", cRate, `AWS "Reduce the frequency of requests"; Baidu "request frequency"`},
	{"usage", cUsage, `OpenAI Codex "The usage limit has been reached"; alphaXiv "Usage limit has been exceeded"`},
	{"limit", cLimit, `Tencent Ad "Request limit reached"; OpenAI Codex "The usage limit has been reached"`},
	{"reached", cReached, `Tencent Ad "Request limit reached"; Forge "You've reached your daily limit"`},
	{"hit", cReached, `Claude Code "You've hit your limit"; Cursor "You've hit your usage limit"`},
	// Connections and what befell them.
	{"connection", cLink, `Portkey "Network connection lost."; httpx "peer closed connection without sending complete message body"`},
	{"transport", cLink, `grpc-go "transport is closing" (its README: the connection the RPC is using was closed); .NET "Unable to read data from the transport connection"; Go net/http "HTTP/1.x transport connection broken"`},
	{"closing", cBreak, `grpc-go "transport is closing" and "grpc: the client connection is closing"; aiohttp ClientConnectionResetError "Cannot write to closing transport"`},
	{"socket", cLink, `Dart SocketException; Node "socket hang up"`},
	{"peer", cLink, `Dart "Connection reset by peer"; httpx "peer closed connection"`},
	{"network", cLink, `Portkey "Network connection lost"; OpenAI "network error"`},
	{"reset", cBreak | cRefill, `Dart "Connection reset by peer"; Python ConnectionResetError; Gemini "Your quota will reset after 8h44m7s"`},
	{"stream", cLink, `OkHttp "okhttp3.internal.http2.StreamResetException: stream was reset: PROTOCOL_ERROR"; Bun "HTTP2StreamReset"; curl "HTTP/2 stream 1 was not closed cleanly"`},
	{"refused", cBreak, `Java "Connection refused"; Windows "the target machine actively refused it"`},
	{"closed", cBreak, `httpx "peer closed connection"; Windows "forcibly closed by the remote host"`},
	{"lost", cBreak, `Portkey "Network connection lost."; Go "http2: client connection lost"`},
	{"aborted", cBreak, `Python "('Connection aborted.', ...)"; Windows WSAECONNABORTED "An established connection was aborted"`},
	{"disconnected", cBreak, `Python RemoteDisconnected; aiohttp "Server disconnected"`},
	{"eof", cEOF, `Python ssl "EOF occurred in violation of protocol"; Go "unexpected EOF"; serde_json "EOF while parsing"`},
	// Negation and the words it makes faults of.
	{"not", cNot, `Semantic Kernel "The request is not valid"; Volcengine "not found, verify your API base"`},
	{"found", cFound, `Volcengine "not found, verify your API base"; Ollama "model not found"`},
	{"valid", cNegatable, `Volcengine Ark "are not valid"; Semantic Kernel "The request is not valid"`},
	{"supported", cNegatable, `Qianfan "is not in the list of supported models"; Gemini "is not supported for generateContent"`},
	{"permitted", cNegatable, `Mistral "Extra inputs are not permitted"; pydantic 1 "extra fields not permitted"`},
	{"no", cNot, `iFlytek Spark "AppIdNoAuthError" (no auth); Baidu Qianfan SDK "no enough credential found"; Xinference "No available slot found for the model"; Gemini "No capacity available for model"`},
	{"enough", cNegatable, `Baidu Qianfan SDK "no enough credential found"; LM Studio "Not enough resources to load the model"`},
	{"set", cNegatable, `free-claude-code's proxy "NVIDIA_NIM_API_KEY is not set"; openai-go v3.99.0 internal/requestconfig/requestconfig.go "requestconfig: base url is not set"`},
	// A caller's account and what befalls it.
	{"account", cAccount, `Volcengine Ark "Your account ... has reached the set inference limit ... the model service has been paused"; OpenAI "Your account is not active"; OpenAI "account has been deactivated"`},
	{"organization", cAccount, `OpenAI "This organization has been disabled"; Anthropic "Your organization has been disabled"`},
	{"paused", cRefused, `Volcengine Ark "the model service has been paused"; Azure OpenAI "The deployment ... has been paused"`},
	{"deactivated", cRefused, `OpenAI "This account has been deactivated"; Anthropic "Your organization has been deactivated"`},
	// An allowance that comes back by itself.
	{"replenished", cRefill, `Azure API Management quota-by-key "Quota will be replenished in 00:00:05"; Google Cloud "quota will be replenished"`},
	{"resets", cRefill, `MiniMax "5-hour usage limit reached ... resets at 2026-05-15T15:00:00Z"; OpenAI Codex "Your usage limit resets in"`},
	{"renews", cRefill, `GitHub Copilot "Your monthly quota renews on"; Cursor "your usage renews"`},
	// TLS alerts: the two sides of a handshake cannot agree, and will not
	// the next time either.
	{"alert", cAlert, `OpenSSL "sslv3 alert handshake failure" (SSL alert number 40); Python ssl "[SSL: TLSV1_ALERT_PROTOCOL_VERSION] tlsv1 alert protocol version"; Go crypto/tls "remote error: tls: handshake failure"`},
	{"ssl", cTLS, `OpenSSL "SSL routines:ssl3_read_bytes:sslv3 alert handshake failure"; Python ssl "[SSL: TLSV1_ALERT_PROTOCOL_VERSION]"`},
	{"sslv3", cTLS, `OpenSSL "sslv3 alert handshake failure"; OpenSSL "sslv3 alert bad certificate"`},
	{"tls", cTLS, `Go crypto/tls "remote error: tls: bad certificate"; OpenSSL "tls_process_server_certificate"`},
	{"tlsv1", cTLS, `Python ssl "tlsv1 alert protocol version"; OpenSSL "tlsv1 alert unknown ca"`},
	// A server out of room for the request: it may have room soon.
	{"capacity", cCapacity, `Gemini "No capacity available for model"; AWS SageMaker InsufficientCapacityError; Google Cloud Code MODEL_CAPACITY_EXHAUSTED`},
	{"slot", cCapacity, `Xinference "No available slot found for the model"; llama.cpp "no slot available"`},
	{"slots", cCapacity, `Ollama "llm busy - no slots available"; llama.cpp "all slots are busy"`},
	{"insufficient", cShort, `AWS SageMaker InsufficientCapacityError; AWS EC2 InsufficientInstanceCapacity`},
	{"exhausted", cShort, `Google Cloud Code MODEL_CAPACITY_EXHAUSTED; gRPC RESOURCE_EXHAUSTED`},
	// A client decoding the reply into its types.
	{"deserialize", cDecode, `async-openai "failed to deserialize api response: error:missing field ` + "`status`" + `"; smithy-go (aws-sdk-go-v2 credentials v1.20.13 endpointcreds/internal/client/middleware.go) "failed to deserialize json response"`},
	{"unmarshal", cDecode, `Go encoding/json "json: cannot unmarshal string into Go struct field"; go-openai "error, unmarshal"`},
}

// words holds the concepts of each sense, built once.
var words = func() map[string]concept {
	m := make(map[string]concept, len(senses))
	for _, s := range senses {
		m[s.word] |= s.concepts
	}
	return m
}()

// concepts are the concepts of a clause or a name, gathered word by word.
type concepts struct {
	set       concept
	last      concept // the concepts of the word before
	beforeBe  concept // the concepts of the word before a "be"
	digits    bool    // the clause holds a number
	minimum   bool    // a comparison after "must be" or "should be": a lower bound ("must be greater than 0")
	comparing bool    // a size, then a comparison: "than" makes it one
	faultWord string  // the first word that says the request is at fault
	partWord  string  // the first word that names a part of the request
	sizeWord  string  // the first word a size is counted in
	limitWord string  // the first word of a ceiling or a comparison
}

// add takes the next word of the clause and its concepts.
func (cs *concepts) add(word string, c concept) {
	if c == 0 {
		// Most words carry no concept: they end what the word before
		// began, and nothing else.
		if cs.last&cRequest != 0 && word == "id" {
			// "Request id: 0217...", "invalid request id": boilerplate
			// that names the request, no part of it.
			cs.set &^= cPart
			if cs.partWord == "request" {
				cs.partWord = ""
			}
		}
		cs.last = 0
		return
	}
	switch {
	case cs.last&cNot != 0 && c&cNegatable != 0:
		// "not valid", "not supported", "not allowed", "not permitted".
		c |= cFault
	case cs.last&cNot != 0 && c&cFound != 0:
		c |= cNotFound
	case cs.last&cNot != 0 && c&cAuthenticated != 0:
		// "not authenticated": the caller is refused.
		c |= cRefused | cCredential
	case cs.last&cToo != 0 && c&cBig != 0 && cs.set&cSize != 0:
		// "input is too large", "prompt is too long".
		c |= cTooBig
	case cs.last&cKeyKind != 0 && (word == "token" || word == "tokens"):
		// "access token", "API token", "bearer token": a credential, no
		// size.
		c = cKey
	case cs.last&cMax != 0 && word == "tokens":
		// "The maximum tokens you requested": max_tokens in words, the
		// output's own limit.
		c |= cOutputLimit
	}
	if c&cCompare != 0 {
		if c&cLess == 0 && cs.last&cBe != 0 && cs.beforeBe&cMust != 0 && cs.beforeBe&cNot == 0 {
			// "must be greater than 0": a lower bound.
			cs.minimum = true
		}
		cs.comparing = cs.set&cSize != 0
	}
	if c&cThan != 0 && cs.comparing {
		c |= cCompared
	}
	if c&cBe != 0 {
		cs.beforeBe = cs.last
	}
	if c&cNot != 0 && cs.last&cMust != 0 {
		// "should not be larger than 10": the negation is the bound's.
		c |= cMust
	}
	cs.last = c
	cs.set |= c
	switch {
	case c&cFault != 0 && cs.faultWord == "":
		cs.faultWord = word
	case c&cPart != 0 && cs.partWord == "":
		cs.partWord = word
	}
	if c&cSize != 0 && cs.sizeWord == "" {
		cs.sizeWord = word
	}
	if c&(cCeiling|cCompare|cBig) != 0 && cs.limitWord == "" {
		cs.limitWord = word
	}
}

// has reports whether the clause holds any of the concepts c.
func (cs *concepts) has(c concept) bool { return cs.set&c != 0 }

// overflow reports whether the clause says the request is over a size
// limit: a size of the request (input, prompt, tokens, context, batch,
// messages) with a ceiling and a number ("exceeds the maximum ... 4096",
// "Range of input length should be [1, 30000]"), or written before a
// comparison ("input ... more tokens than the batch size", "should not be
// larger than 10") or "too long", "too large". A lower bound ("must be
// greater than 0"), an output limit ("max_tokens", "the maximum tokens you
// requested"), a rate or a daily quota ("tokens per minute", "tokens per
// day"), attempts ("max retries: 4"), a deadline ("context deadline
// exceeded"), and a field with a length of its own (a tool's name, an
// image) are no overflow.
func (cs *concepts) overflow() bool {
	if !cs.has(cSize) || cs.minimum || cs.has(cOutput|cOutputLimit|cRate|cUsage|cDay|cAttempt|cMinimum|cField|cTime) {
		return false
	}
	return cs.has(cTooBig|cCompared) || cs.has(cCeiling) && cs.digits
}

// A clue is what the concepts of a clause or a name mean together.
type clue struct {
	words string // the words that decided, for Class.Rule
	means meaning
}

// clue reads what the concepts mean together, if anything, most specific
// first.
func (cs *concepts) clue() (clue, bool) {
	switch {
	case cs.overflow():
		return clue{cs.sizeWord + " … " + cs.limitWord, mean(ContextOverflow)}, true
	case cs.has(cNotFound) && cs.has(cWhere):
		// A resource, an endpoint, a URL, a page not found: the request
		// names what is not there. A thing not found by itself ("lookup:
		// not found", a tool not found) says nothing of the request.
		return clue{"not found", mean(Permanent).modelMissing()}, true
	case cs.credentialRefused():
		return clue{"credential refused", mean(Permanent).accountFailure()}, true
	case cs.has(cAccount) && cs.has(cRefused):
		// An account paused, deactivated, suspended: by its owner's limit
		// or by the provider, it stays so.
		return clue{"account refused", mean(Permanent).accountFailure()}, true
	case cs.has(cTLS) && cs.has(cAlert|cFault):
		// A TLS alert, or a handshake the library refuses ("wrong version
		// number": TLS spoken to a plain port), ends a handshake that the
		// next one repeats.
		return clue{"tls refused", mean(Permanent)}, true
	case cs.has(cUsage) && cs.has(cRefill):
		// A quota or an allowance that the text says comes back by itself.
		return clue{"quota refilled", mean(RateLimited)}, true
	case cs.has(cLimit) && cs.has(cReached) && !cs.has(cSize|cDay):
		// A cap reached that lifts by itself. A daily cap is left to the
		// status: no retry of this call outlives it.
		return clue{"limit reached", mean(RateLimited)}, true
	case cs.has(cDecode) && cs.has(cFault) && cs.has(cParam) && !cs.has(cParse):
		// A client that cannot decode the reply into its types ("failed to
		// deserialize ...: missing field"): the same reply fails the same
		// way until the client changes.
		return clue{"cannot decode the reply", mean(Programming)}, true
	case cs.has(cFault) && cs.has(cPart) && !cs.has(cParse):
		// A fault and a part of the request. A decoder's error ("Expecting
		// value: line 3 column 14") reads a response, not the request.
		return clue{cs.faultWord + " … " + cs.partWord, mean(Permanent)}, true
	case cs.has(cCapacity) && cs.has(cNot|cShort):
		// No slot, no capacity free: the server may have room soon.
		return clue{"no capacity", mean(Overloaded)}, true
	case cs.has(cLink) && cs.has(cBreak), cs.has(cEOF) && !cs.has(cFault):
		return clue{"connection broken", mean(Transient)}, true
	}
	return clue{}, false
}

// paramFault reports whether the clause says that a parameter, an option
// or a flag of the request is refused: a server sends it with a 500 as
// readily as with a 400 (llama.cpp's "Unsupported param: tools", "tools
// param requires --jinja flag"), and the same request fails the same way.
func (cs *concepts) paramFault() bool {
	return cs.has(cFault) && cs.has(cParam) && !cs.has(cParse) && !cs.overflow()
}

// credentialRefused reports whether the clause says a credential is
// refused, missing or not set: a key of a kind ("API key", "access
// token") or a credential by itself, with a fault, a refusal or "failed".
func (cs *concepts) credentialRefused() bool {
	return (cs.has(cKey) && cs.has(cKeyKind) || cs.has(cCredential)) && cs.has(cFault|cRefused|cFailed)
}

// termMeanings holds the terms by name, built once.
var termMeanings = func() map[string]meaning {
	m := make(map[string]meaning, len(terms))
	for _, t := range terms {
		m[t.name] = t.means
	}
	return m
}()

// isGeneric reports whether a word says that something failed, not what:
// the words of an SDK's base class ("APIError", "HttpException",
// "ClientException", "RuntimeException"). A name's term is looked up
// without them.
func isGeneric(w string) bool {
	switch w {
	case "error", "errors", "exception", "exceptions", "err",
		"api", "http", "https", "ai", "sdk", "base",
		"client", "service", "status", "response", "runtime":
		return true
	}
	return false
}

// nameWords splits an error's name into lowercase words: at underscores,
// hyphens and spaces, and at the humps of CamelCase, an acronym ending
// where the next word begins ("APIConnectionError" is api, connection,
// error). It appends to buf.
func nameWords(name string, buf []string) []string {
	for _, sp := range wordSpans(name, make([][2]int, 0, len(name))) {
		buf = append(buf, strings.ToLower(name[sp[0]:sp[1]]))
	}
	return buf
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }

// nameMeaning reads an error's name ("InvalidRequestException",
// "RESOURCE_EXHAUSTED", "Bad Request", "InvalidProviderAPIKey"); lower is
// the name lowercased, byte for byte. It returns the longest suffix of
// its words, generic words left out, that is a term; or else what its
// words' concepts say together. The second result names what decided.
// ok is false when the name says nothing. The words' concepts are added
// to cs too, when it is not nil: a name's words are words of its clause.
func nameMeaning(name, lower string, cs *concepts) (means meaning, decided string, ok bool) {
	var spans [16][2]int
	ws := wordSpans(name, spans[:0])
	var own concepts
	if cs == nil {
		cs = &own
	}
	before := cs.set
	cs.set = 0
	tail := -1 // the last word that is not generic
	for k, sp := range ws {
		w := lower[sp[0]:sp[1]]
		if c, ok := sense(w); ok {
			cs.add(w, c)
		} else {
			cs.add("", 0)
		}
		if !isGeneric(w) {
			tail = k
		}
	}
	mine := *cs
	cs.set |= before
	if tail >= 0 && termTails[lower[ws[tail][0]:ws[tail][1]]] {
		// The suffixes of the specific words, longest first.
		var key [64]byte
		for first := 0; first <= tail; first++ {
			n := 0
			for k := first; k <= tail && n < len(key); k++ {
				w := lower[ws[k][0]:ws[k][1]]
				if isGeneric(w) {
					continue
				}
				if n > 0 {
					key[n] = '_'
					n++
				}
				n += copy(key[n:], w)
			}
			if m, ok := termMeanings[string(key[:n])]; ok {
				return m, string(key[:n]), true
			}
		}
	}
	if c, ok := mine.clue(); ok {
		return c.means, c.words, true
	}
	return meaning{}, "", false
}

// wordSpans appends where the words of a name are (see nameWords), as
// many as spans has room for.
func wordSpans(name string, spans [][2]int) [][2]int {
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start && len(spans) < cap(spans) {
			spans = append(spans, [2]int{start, end})
		}
		start = -1
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case isUpper(c):
			// A hump: after a lowercase letter or a digit, or the last
			// capital of an acronym before a lowercase letter.
			if start >= 0 && (isLower(name[i-1]) || isDigit(name[i-1]) ||
				isUpper(name[i-1]) && i+1 < len(name) && isLower(name[i+1])) {
				flush(i)
			}
			if start < 0 {
				start = i
			}
		case isLower(c) || isDigit(c):
			if start < 0 {
				start = i
			}
		default:
			flush(i)
		}
	}
	flush(len(name))
	return spans
}

// termTails holds the last word of every term: a name whose last specific
// word is none of them matches no term, whatever its other words.
var termTails = func() map[string]bool {
	m := map[string]bool{}
	for _, t := range terms {
		m[t.name[strings.LastIndexByte(t.name, '_')+1:]] = true
	}
	return m
}()

// senseLengths has bit n-1 set when a sense word is n bytes long, for
// each first and last letter: most words of a text are passed over
// without a lookup.
var senseLengths = func() (t [26][27]uint64) {
	for _, s := range senses {
		w := s.word
		if w[0] >= 'a' && w[0] <= 'z' && len(w) <= 64 {
			t[w[0]-'a'][lastIndex(w[len(w)-1])] |= 1 << (len(w) - 1)
		}
	}
	return t
}()

// lastIndex is the column of senseLengths of a word's last byte: its
// letter, or 26 for any other byte.
func lastIndex(c byte) int {
	if c >= 'a' && c <= 'z' {
		return int(c - 'a')
	}
	return 26
}

// sense returns the concepts of a lowercase word, if it is a sense.
func sense(w string) (concept, bool) {
	if w == "" || w[0] < 'a' || w[0] > 'z' || len(w) > 64 ||
		senseLengths[w[0]-'a'][lastIndex(w[len(w)-1])]&(1<<(len(w)-1)) == 0 {
		return 0, false
	}
	c, ok := words[w]
	return c, ok
}
