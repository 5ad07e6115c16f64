package taxonomy_test

import (
	"errors"
	"net/http"
	"time"

	"github.com/resilientgo/resilient/taxonomy"
)

// moreFamilyCases are the rows of the families that the third held-out
// batch found misclassified, each from a real provider, runner, SDK or
// client text (the source is in the row's name), next to the rows of texts
// they must not match.
func moreFamilyCases() []classifyCase {
	P, R, O, T, C, U := taxonomy.Permanent, taxonomy.RateLimited, taxonomy.Overloaded, taxonomy.Transient, taxonomy.ContextOverflow, taxonomy.Unknown
	X, G := taxonomy.Canceled, taxonomy.Programming
	const tooLarge = `pattern "request larger than the rate limit"`
	return []classifyCase{
		// ---- a request larger than a limit of the account: only a smaller one passes ----
		{"groq 413 request too large for the TPM limit (elizaOS/eliza#4040)", openai(413, "Request too large for model `llama-3.1-8b-instant` in organization `org_01` service tier `on_demand` on tokens per minute (TPM): Limit 6000, Requested 6294, please reduce your message size and try again."),
			class(C, tooLarge, 413)},
		{"groq 413 through openai-go, code rate_limit_exceeded: the size wins over the code", &openaiGoError{Code: "rate_limit_exceeded", Type: "tokens", StatusCode: 413, Message: "Request too large for model `llama-3.3-70b-versatile` in organization `org_01` service tier `on_demand` on tokens per minute (TPM): Limit 12000, Requested 14137, please reduce your message size and try again."},
			taxonomy.Class{Kind: C, Rule: tooLarge, Status: 413, Code: "rate_limit_exceeded"}},
		{"limits written with commas and colons", errors.New("Request too large for gpt-4o on tokens per min (TPM): Limit: 30,000, Requested: 342,389."),
			class(C, tooLarge, 0)},
		{"groq 429 TPM within the limit stays a rate limit (crewAIInc/crewAI#494)", openai(429, "Rate limit reached for model `llama3-70b-8192` in organization `org_123` on tokens per minute (TPM): Limit 5000, Used 5747, Requested ~4251. Please try again in 59.977s."),
			hinted(R, "status 429", 429, 59977*time.Millisecond)},
		{"a requested count without a limit is no size limit", errors.New("upstream said: requested 9000 tokens"),
			class(U, "no rule matched", 0)},
		{"anthropic 429 long context needs extra usage (anthropics/claude-code#42616)", newAnthropicSDKError(429, nil, `{"type":"error","error":{"type":"rate_limit_error","message":"Extra usage is required for long context requests."}}`),
			class(C, `pattern "long context needs extra usage"`, 429)},
		{"a context that is required is no size limit", errors.New("tool call failed: a context is required for long-running tasks"),
			class(U, "no rule matched", 0)},

		// ---- context overflow in more words ----
		{"llama.cpp input too large to process (ggml-org/llama.cpp#9544)", errors.New("Input is too large to process. Either enable context shift or increase context length."),
			class(C, `pattern "prompt or input is too large"`, 0)},
		{"an input image too large is no overflow", openai(400, "The input image is too large: 21 MB, maximum 20 MB"),
			class(P, "status 400", 400)},
		{"TGI inputs must have less than n tokens (h2oai/h2ogpt#373)", errors.New("Input validation error: `inputs` must have less than 2048 tokens. Given: 2222"),
			class(C, `pattern "inputs must have less than n tokens"`, 0)},
		{"LM Studio mid-generation overflow (lmstudio-bug-tracker#1024)", errors.New("Reached context length of 32000 tokens with model (arch: gpt-oss) that does not currently support mid-generation context overflow. Try reloading with a larger context length or shortening the prompt/chat."),
			class(C, `pattern "reached the context length"`, 0)},
		{"context overflow in so many words", errors.New("generation stopped: context overflow"),
			class(C, `marker "context overflow"`, 0)},
		{"reaching a retry limit is no overflow", errors.New("reached the maximum number of retries"),
			class(U, "no rule matched", 0)},

		// ---- a local runner that cannot load the model ----
		{"LocalAI could not load model, gRPC Unavailable inside (mudler/LocalAI#3007)", errors.New("could not load model: rpc error: code = Unavailable desc = error reading from server: EOF"),
			class(P, `pattern "could not load the model"`, 0)},
		{"LocalAI could not load model, gRPC Canceled inside is not the caller's", errors.New("failed to load model with internal loader: could not load model: rpc error: code = Canceled desc = "),
			class(P, `pattern "could not load the model"`, 0)},
		{"LocalAI failed loading model (mudler/LocalAI#1664)", errors.New(`failed loading model {"error":{"code":500,"message":"could not load model: rpc error"}}`),
			class(P, `pattern "could not load the model"`, 500)},

		// ---- the caller gave up ----
		{"fetch AbortError (google-gemini/gemini-cli#23509)", errors.New("AbortError: The user aborted a request."),
			class(X, `pattern "request aborted"`, 0)},
		{"TypeScript SDK APIUserAbortError (anthropics/claude-code#2132)", errors.New("API Error: Request was aborted."),
			class(X, `pattern "request aborted"`, 0)},
		{"python asyncio CancelledError (wandb/openui#158)", errors.New("asyncio.exceptions.CancelledError"),
			class(X, `pattern "cancelled error"`, 0)},
		{"python connection aborted is the network's (OpenRouterTeam/openrouter-examples#2)", errors.New("Error communicating with OpenAI: ('Connection aborted.', RemoteDisconnected('Remote end closed connection without response'))"),
			class(T, `marker "connection aborted"`, 0)},
		{"axios ECONNABORTED is a client timeout", errors.New("ECONNABORTED: timeout of 60000ms exceeded"),
			class(T, `pattern "econnreset"`, 0)},

		// ---- a base URL without a usable protocol ----
		{"httpx missing protocol (langchain-ai/langchain#22951)", errors.New("httpx.UnsupportedProtocol: Request URL is missing an 'http://' or 'https://' protocol."),
			class(G, `pattern "url without a usable protocol"`, 0)},
		{"httpx unsupported protocol (BerriAI/litellm#9477)", errors.New("litellm.APIConnectionError: OllamaException - Request URL has an unsupported protocol 'ttp://'.."),
			class(G, `pattern "url without a usable protocol"`, 0)},
		{"node only HTTP(S) (SillyTavern/SillyTavern#2220)", errors.New("TypeError: Only HTTP(S) protocols are supported"),
			class(G, `pattern "url without a usable protocol"`, 0)},
		{"an HTTP/2 PROTOCOL_ERROR is the stream's", errors.New("stream error: stream ID 1; PROTOCOL_ERROR; received from peer"),
			class(T, `marker "stream error"`, 0)},

		// ---- the model is missing or retired ----
		{"gemini model not found for API version (google-gemini-php/client#77)", errors.New("models/gemini-pro is not found for API version v1, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods."),
			missing(`pattern "model not found"`, 0)},
		{"groq model decommissioned (bklieger-groq/stockbot-on-groq#59)", errors.New("Error: The model `llama3-70b-8192` has been decommissioned and is no longer supported. Please refer to https://console.groq.com/docs/deprecations for a recommendation on which model to use instead."),
			missing(`pattern "model decommissioned"`, 0)},
		{"a decommissioned server is no missing model", errors.New("the server was decommissioned"),
			class(U, "no rule matched", 0)},
		{"vLLM model does not exist, text alone", errors.New("The model `qwen2.5-72b` does not exist."),
			missing(`pattern "model does not exist"`, 0)},
		{"a file that does not exist is no missing model", errors.New("open /models/config.json: the file does not exist"),
			class(U, "no rule matched", 0)},
		{"ollama model was not found (continuedev/continue#12740)", errors.New(`The model "llama3.1:8b" was not found. To download it, run ` + "`ollama run llama3.1:8b`."),
			missing(`pattern "model not found"`, 0)},
		{"a tool that was not found is no missing model", errors.New("the model called a tool that was not found: search_web"),
			class(U, "no rule matched", 0)},
		{"azure DeploymentNotFound text (microsoft/azure-openai-in-a-day-workshop#8)", errors.New("The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again."),
			missing(`pattern "deployment does not exist"`, 0)},
		{"azure DeploymentNotFound code in JSON (chatboxai/chatbox#646)", errors.New(`{"error":{"code":"DeploymentNotFound","message":"The API deployment for this resource does not exist."}}`),
			taxonomy.Class{Kind: P, Rule: `type "deploymentnotfound"`, ModelMissing: true, AccountFailure: true}},
		{"openrouter no endpoints found (anomalyco/opencode#1558)", errors.New("No endpoints found for moonshotai/kimi-k2."),
			missing(`pattern "no endpoints found"`, 0)},
		{"groq 400 decommissioned (go-openai shape): the status decides, the text says the model is missing", &goOpenAIError{Code: "model_decommissioned", Type: "invalid_request_error", HTTPStatus: "400 Bad Request", HTTPStatusCode: 400, Message: "The model `gemma2-9b-it` has been decommissioned and is no longer supported."},
			taxonomy.Class{Kind: P, Rule: "status 400", Status: 400, Code: "invalid_request_error", ModelMissing: true, AccountFailure: true}},
		{"groq model_decommissioned code (openai-go shape)", &openaiGoError{Code: "model_decommissioned", Type: "invalid_request_error", StatusCode: 400, Message: "The model `mixtral-8x7b-32768` has been decommissioned and is no longer supported."},
			taxonomy.Class{Kind: P, Rule: `code "model_decommissioned"`, Status: 400, Code: "model_decommissioned", ModelMissing: true, AccountFailure: true}},
		{"vLLM NotFoundError type (vllm-project/vllm#3485)", errors.New(`{"object":"error","message":"The model ` + "`Qwen1.5-14B-Chat-GPTQ-Int8`" + ` does not exist.","type":"NotFoundError","param":null,"code":404}`),
			taxonomy.Class{Kind: P, Rule: "status 404", Status: 404, ModelMissing: true, AccountFailure: true}},
		{"gemini NOT_FOUND status in JSON", errors.New(`{"error": {"code": 404, "message": "Requested entity was not found.", "status": "NOT_FOUND"}}`),
			taxonomy.Class{Kind: P, Rule: "status 404", Status: 404, ModelMissing: true, AccountFailure: true}},

		// ---- a request the model cannot serve as asked ----
		{"anthropic max_tokens over the output limit (OpenHands/OpenHands#11090)", errors.New("AnthropicError: max_tokens: 1000000 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4-20250514"),
			class(P, `pattern "max_tokens over the output limit"`, 0)},
		{"bedrock maximum tokens over the model limit", errors.New("The maximum tokens you requested exceeds the model limit of 32768"),
			class(P, `pattern "max_tokens over the output limit"`, 0)},
		{"gemini user location not supported (google-gemini/gemini-cli#1993)", errors.New("[API Error: User location is not supported for the API use. (Status: FAILED_PRECONDITION)]"),
			account(`pattern "location not supported"`, 0)},
		{"gemini FAILED_PRECONDITION in JSON", errors.New(`{"error": {"code": 400, "message": "User location is not supported for the API use.", "status": "FAILED_PRECONDITION"}}`),
			account("status 400", 400)},
		{"gemini INVALID_ARGUMENT in JSON", errors.New(`{"error":{"code":400,"message":"Request contains an invalid argument.","status":"INVALID_ARGUMENT"}}`),
			class(P, "status 400", 400)},
		{"a region briefly unavailable is no unsupported location", errors.New("the region is temporarily not available"),
			class(U, "no rule matched", 0)},
		{"dns no such host in text", errors.New(`Post "https://api.openai.con/v1/chat/completions": dial tcp: lookup api.openai.con: no such host`),
			class(taxonomy.Transient, `pattern "name not resolved"`, 0)},

		// ---- safety blocks ----
		{"gemini candidate blocked due to SAFETY (sparticleinc/chatgpt-google-summary-extension#196)", errors.New("[GoogleGenerativeAI Error]: Candidate was blocked due to SAFETY"),
			class(P, `pattern "blocked for safety"`, 0)},
		{"gemini prompt was blocked (google-gemini/deprecated-generative-ai-python#126)", errors.New("ValueError: The `response.parts` quick accessor only works for a single candidate, but none were returned. Check the `response.prompt_feedback` to see if the prompt was blocked."),
			class(P, `pattern "blocked for safety"`, 0)},
		{"finish_reason SAFETY", errors.New("google.generativeai.types.generation_types.StopCandidateException: finish_reason: SAFETY"),
			class(P, `pattern "finish reason safety"`, 0)},
		{"a request blocked by a firewall is not a safety block", errors.New("Sorry, you have been blocked"),
			class(U, "no rule matched", 0)},

		// ---- rate limits in more words ----
		{"gemini quota exceeded for quota metric (google-gemini/deprecated-generative-ai-python#206)", errors.New("Quota exceeded for quota metric 'Generate Content API requests per minute' and limit 'GenerateContent request limit per minute for a region' of service 'generativelanguage.googleapis.com'"),
			class(R, `marker "quota exceeded for"`, 0)},
		{"cerebras tokens per minute limit exceeded (continuedev/continue#9800)", errors.New("Tokens per minute limit exceeded - too many tokens processed."),
			class(R, `pattern "per minute limit exceeded"`, 0)},
		{"bedrock too many tokens, text alone", errors.New("Too many tokens, please wait before trying again."),
			class(R, `marker "too many tokens"`, 0)},
		{"litellm no deployments available (BerriAI/litellm#3646)", errors.New("No deployments available for selected model, Try again in 60 seconds. Passed model=gpt-4o."),
			hinted(R, `marker "no deployments available"`, 0, time.Minute)},
		{"litellm throttling_error type", errors.New(`{'message': 'AzureException RateLimitError', 'type': 'throttling_error', 'param': None}`),
			class(R, `type "throttling_error"`, 0)},

		// ---- the provider short of capacity ----
		{"chat-ui currently pulling the model (huggingface/chat-ui#1363)", errors.New("Error: Currently pulling model from Ollama, please try again later."),
			class(O, `pattern "currently pulling the model"`, 0)},
		{"a model warming up", errors.New("The model is warming up, please retry shortly"),
			class(O, `marker "warming up"`, 0)},
		{"currently pulling without a model is not the model", errors.New("currently pulling the image, please wait"),
			class(U, "no rule matched", 0)},
		{"cloudflare workers ai capacity temporarily exceeded", errors.New("3040: Capacity temporarily exceeded, please try again."),
			class(O, `pattern "out of capacity"`, 0)},
		{"bedrock too many connections (onyx-dot-app/onyx#6368)", errors.New(`{"message":"Too many connections, please wait before trying again."}`),
			class(O, `marker "too many connections"`, 0)},
		{"bedrock unable to process (darko-mesaros/bedrust#47)", errors.New("Error: Can't invoke. Reason: Bedrock is unable to process your request."),
			class(O, `marker "unable to process your request"`, 0)},
		{"envoy no healthy upstream", errors.New("no healthy upstream"),
			class(O, `marker "no healthy upstream"`, 0)},

		// ---- transport texts of other runtimes ----
		{"node read ECONNRESET (whatwewant/chatgpt-for-chatbot-feishu#52)", errors.New("request to https://api.openai.com/v1/chat/completions failed, reason: read ECONNRESET"),
			class(T, `pattern "econnreset"`, 0)},
		{"node connect ETIMEDOUT", errors.New("connect ETIMEDOUT 104.18.6.192:443"),
			class(T, `marker "etimedout"`, 0)},
		{"node EAI_AGAIN", errors.New("getaddrinfo EAI_AGAIN api.anthropic.com"),
			class(T, `marker "eai_again"`, 0)},
		{"node socket hang up", errors.New("FetchError: request to https://api.openai.com/v1/chat/completions failed, reason: socket hang up"),
			class(T, `marker "socket hang up"`, 0)},
		{"windows connection forcibly closed", errors.New("ConnectionResetError(10054, 'An existing connection was forcibly closed by the remote host')"),
			class(T, `marker "forcibly closed by the remote host"`, 0)},
		{"reconnecting is no ECONNRESET", errors.New("please reconnect your account"),
			class(U, "no rule matched", 0)},
		{"http2 client connection lost (Wei-Shaw/sub2api#7268)", errors.New(`Post "https://api.example.com/v1/responses": http2: client connection lost`),
			class(T, `pattern "http2 connection lost"`, 0)},
		{"a body cut mid-JSON (agents-at-scale-ark#1346)", errors.New("agent default/code-reviewer execution failed: unexpected end of JSON input"),
			class(T, `marker "unexpected end of json input"`, 0)},
		{"gemini internal error without a status", errors.New("An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting"),
			class(T, `pattern "an internal error occurred"`, 0)},

		// ---- the status where the clients of other languages write it ----
		{"openai-node 429 quota, status first (continuedev/continue#9500)", errors.New("429 You exceeded your current quota, please check your plan and billing details."),
			account(`marker "exceeded your current quota"`, 429)},
		{"anthropic TypeScript SDK error with the status first", errors.New(`Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"messages: at least one message is required"}}`),
			class(P, "status 400", 400)},
		{"claude code API Error (503 ...) (anthropics/claude-code#562)", errors.New("API Error (503 Too many connections, please wait before trying again.)"),
			class(O, "status 503", 503)},
		{"gemini-openai-proxy [500 Internal Server Error] (zuisong/gemini-openai-proxy#63)", errors.New("Error: [500 Internal Server Error] An internal error has occurred."),
			class(T, "status 500", 500)},
		{"openai-python 0.x HTTP code 502 (stanfordnlp/dspy#203)", errors.New("openai.error.APIError: HTTP code 502 from API (<html><head><title>502 Bad Gateway</title></head></html>)"),
			class(T, "status 502", 502)},
		{"google-genai status and reason mid-text (google-gemini/cookbook#425)", errors.New("Error with Client #685962: 503 UNAVAILABLE. {'error': {'code': 503, 'message': 'The model is overloaded.'}}"),
			class(O, "status 503", 503)},
		{"a count first is not a status", errors.New("500 tokens were dropped from the prompt"),
			class(U, "no rule matched", 0)},
		{"a count after an error name is not a status", errors.New("Error: 413 tokens dropped"),
			class(U, "no rule matched", 0)},
		{"a longer number before a reason phrase is not a status", errors.New("service on port 4040 not found"),
			class(U, "no rule matched", 0)},
		{"a status glued to a word is not a status", errors.New("route v2503 unavailable"),
			class(U, "no rule matched", 0)},
		{"a status with headers", &fakeGoogleAPIError{Code: 429, Message: "Resource has been exhausted (e.g. check quota).", Header: http.Header{"Retry-After": {"3"}}},
			hinted(R, "status 429", 429, 3*time.Second)},
	}
}
