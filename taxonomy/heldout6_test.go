package taxonomy_test

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/taxonomy"
)

// The sixth held-out batch: real errors of the providers the earlier batches
// were thin on (Bedrock through its SDKs, Vertex's Anthropic models,
// Hugging Face's inference API and TGI, NVIDIA NIM, Azure AI Foundry,
// Cloudflare Workers AI, Moonshot/Kimi, Qwen/DashScope, Zhipu GLM, MiniMax,
// Baidu ERNIE, SiliconFlow), errors inside streams (Anthropic's error
// event, OpenAI's error chunk and Responses API failure, Gemini's finish
// reasons), Go's transport as typed errors (url.Error around net.OpError
// and os.SyscallError, DNS, proxies, TLS alerts) and langchaingo v0.1.14's
// own wrappings (its ernie and cloudflare clients, its *llms.Error mapper),
// each row naming the GitHub issue where a user pasted it, or for a typed
// error the source whose shape it copies. It was gathered in one pass,
// after the fifth batch's families were final, the kind of each row written
// down from what the error means before Classify was run on it. Every
// third row, by its place in the list, is sealed (splitBatch).
func sixthBatch() []heldOutRow {
	text := errors.New
	const chatURL = "https://api.openai.com/v1/chat/completions"
	dial := func(errno syscall.Errno) error {
		return &net.OpError{Op: "dial", Net: "tcp", Addr: &net.TCPAddr{IP: net.IPv4(104, 18, 7, 192), Port: 443}, Err: os.NewSyscallError("connect", errno)}
	}
	// ernie is langchaingo's ernie client for a body that carries an error
	// code with a 200 (erniellm.go).
	ernie := func(code int, msg string) error {
		return fmt.Errorf("%w, error_code:%v, erro_msg:%v, id:%v", errors.New("has error code"), code, msg, "as-7p2hb0fz3k")
	}
	// cloudflare is langchaingo's cloudflare client for a status over 299
	// (cloudflareclient/api.go): the whole body after "error: ".
	cloudflare := func(code int, msg string) error {
		return fmt.Errorf("error: %s", fmt.Sprintf(`{"result":null,"success":false,"errors":[{"code":%d,"message":"%s"}],"messages":[]}`, code, msg))
	}
	return []heldOutRow{
		// ---- rate limits ----
		{"posit-dev/positron#7844", text(`{"name":"ThrottlingException","$fault":"client","$metadata":{"httpStatusCode":429,"requestId":"<REQUEST_ID>","attempts":3,"totalRetryDelay":787}}`), taxonomy.RateLimited, 0},
		{"awslabs/agent-evaluation#64", text(`EventStreamError: An error occurred (throttlingException) when calling the InvokeAgent operation: Your request rate is too high. Reduce the frequency of requests.`), taxonomy.RateLimited, 0},
		{"google-gemini/gemini-cli#14831", googleai(429, "Resource exhausted. Please try again later. Please refer to https://cloud.google.com/vertex-ai/generative-ai/docs/error-code-429 for more details.", nil), taxonomy.RateLimited, 0},
		{"QwenLM/qwen-code#882", text(`[API Error: 429 status code (no body)]`), taxonomy.RateLimited, 0},
		{"hawkxtreme/mini-ai-1c#23 (DashScope's per-minute token limit, can1357/oh-my-pi#8476)", text(`API error 429 Too Many Requests: {"error":{"code":"insufficient_quota","message":"You exceeded your current quota, please check your plan and billing details. For details, see: https://help.aliyun.com/zh/model-studio/error-code#token-limit","param":null,"type":"insufficient_quota"},"request_id":""}`), taxonomy.RateLimited, 0},
		{"aptdnfapt/qwen-code-oai-proxy#14", text(`{"error":{"message":"Request failed with status code 429","type":"api_error","code":500}}`), taxonomy.RateLimited, 0},
		{"harry0703/MoneyPrinterTurbo#339", text(`RateLimitError: Error code:429 {error:{ message': "Your account ? request reached max request: 3, please try again after 1 seconds', 'type': 'rate limit reached error'}}`), taxonomy.RateLimited, time.Second},
		{"wangbang79408854/flutter_ocr#5 (Baidu's error 18)", text(`{"returnCode":-1,"returnMsg":"SDKERROR","errorCode":18,"errorMsg":"[18] Open api qps request limit reached"}`), taxonomy.RateLimited, 0},
		{"PaddlePaddle/ERNIE-SDK#107", text(`APIError: 访问过于频繁，请稍候再试`), taxonomy.RateLimited, 0},
		{"Felix3322/PotPlayer_ChatGPT_Translate#62", text(`API Error: You exceeded your current requests list.`), taxonomy.RateLimited, 0},
		{"Alishahryar1/free-claude-code#30", text(`Error code: 429 - {'status': 429, 'title': 'Too Many Requests'}`), taxonomy.RateLimited, 0},
		{"QuantumNous/new-api#6619", text(`Agent failed before reply: ResourceExhausted: Worker local total request limit reached (33/32).`), taxonomy.RateLimited, 0},
		{"continuedev/continue#9800", text(`"Tokens per minute limit exceeded - too many tokens processed."`), taxonomy.RateLimited, 0},
		{"1Panel-dev/MaxKB#2240", text(`Client error '429 Too Many Requests' for url 'https://open.bigmodel.cn/api/paas/v4/chat/completions' For more information check: https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/429`), taxonomy.RateLimited, 0},
		{"vanna-ai/vanna#177", text(`MistralAPIStatusException: Cannot stream response. Status: 429`), taxonomy.RateLimited, 0},
		{"openai/codex#18540", text(`exceeded retry limit, last status: 429 Too Many Requests, request id: 1ba6afca-2649-45cf-99fa-2a38d5a815db`), taxonomy.RateLimited, 0},
		{"lmstudio-ai/lmstudio-bug-tracker#1771", text(`Api error with status 429. URL: https://search.lmstudio.ai/v1/hf-proxy/api/models`), taxonomy.RateLimited, 0},
		{"microsoft/copilot-camp#551", text(`400 An error occurred when calling Azure OpenAI: Server responded with status 429. Error message: {"error":{"code":"429","message": "Rate limit is exceeded. Try again in 2 seconds."}}`), taxonomy.RateLimited, 2 * time.Second},
		{"jasonacox/TinyLLM#17", text(`Error code: 429 - {'error': {'message': "litellm.RateLimitError: AzureException RateLimitError - Error code: 429 - {'error': {'code': '429', 'message': 'Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2023-05-15 have exceeded token rate limit of your current AIServices S0 pricing tier. Please retry after 86400 seconds. Please contact Azure support service if you would like to further increase the default rate limit.'}}\nReceived Model Group=azure-gpt-4o-mini\nAvailable Model Group Fallbacks=None", 'type': 'throttling_error', 'param': None, 'code': '429'}}`), taxonomy.RateLimited, 0},
		{"Azure-Samples/azure-search-openai-demo#177", text(`Error: Rate limit is exceeded. Try again in 30 seconds.`), taxonomy.RateLimited, 30 * time.Second},
		{"dyad-sh/dyad#1469", text("AI_RetryError: Failed after 3 attempts. Last error: You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_input_token_count, limit: 250000\nPlease retry in 30.638054576s."), taxonomy.RateLimited, 30638054576 * time.Nanosecond},
		{"stackblitz/bolt.new#8589", text(`Failed after 3 attempts. Last error: This request would exceed the rate limit for your organization (a22cf6e6-a940-4fff-8c4c-1580816ac7be) of 1,000,000 input tokens per minute. For details, refer to: https://docs.anthropic.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later.`), taxonomy.RateLimited, 0},
		{"langchaingo ernie, Baidu's error 18 (flutter_ocr#5)", ernie(18, "Open api qps request limit reached"), taxonomy.RateLimited, 0},
		{"langchaingo openai, Azure's message of Azure-Samples/azure-search-openai-demo#177", openai(429, "Rate limit is exceeded. Try again in 30 seconds."), taxonomy.RateLimited, 30 * time.Second},
		{"langchaingo *llms.Error from googleai.MapError, the cause gemini-cli#14831's", lcllms.NewError(lcllms.ErrCodeRateLimit, "googleai", "Rate limit or quota exceeded").WithCause(googleai(429, "Resource exhausted. Please try again later.", nil)), taxonomy.RateLimited, 0},

		// ---- overloads, busy servers, models loading ----
		{"darko-mesaros/bedrust#47", text(`Error: Can't invoke. Reason: Bedrock is unable to process your request.`), taxonomy.Overloaded, 0},
		{"aws-samples/foundation-model-benchmarking-tool#247", text(`litellm.APIConnectionError: Bad response code, expected 200: {'status_code': 400, 'headers': {':exception-type': 'serviceUnavailableException', ':content-type': 'application/json', ':message-type': 'exception'}, 'body': b'{"message":"Bedrock is unable to process your request."}'}`), taxonomy.Overloaded, 0},
		{"Aider-AI/aider#2359", text(`httpx.HTTPStatusError: Server error '503 Service Unavailable' for url 'https://bedrock-runtime.us-west-2.amazonaws.com/model/us.anthropic.claude-3-5-sonnet-20241022-v2:0/converse'`), taxonomy.Overloaded, 0},
		{"AWS SDK event stream exception, message of danny-avila/LibreChat#4217", bedrockException(0, "ServiceUnavailableException", "Bedrock is unable to process your request."), taxonomy.Overloaded, 0},
		{"anthropics/anthropic-sdk-go#200", text(`received error while streaming: {"type":"error","error":{"details":null,"type":"overloaded_error","message":"Overloaded"} }`), taxonomy.Overloaded, 0},
		{"mito-ds/mito#1842", text(`Anthropic completion error: {'error': "There was an error accessing the Anthropic API: {'type': 'error', 'error': {'details': None, 'type': 'overloaded_error', 'message': 'Overloaded'}}"}`), taxonomy.Overloaded, 0},
		{"langgenius/dify#7122", text(`[vertex_ai] Error: {'type': 'error', 'error': {'details': None, 'type': 'overloaded_error', 'message': 'Overloaded'}}`), taxonomy.Overloaded, 0},
		{"anthropics/claude-code#5932", text(`API Error: 500 {"type":"error","error":{"type":"api_error","message":"Overloaded"}}`), taxonomy.Overloaded, 0},
		{"anthropics/claude-code#13990", text(`API Error: Repeated 529 Overloaded errors`), taxonomy.Overloaded, 0},
		{"MoonshotAI/MoonshotAI-Cookbook#16", text(`error: {"error":{"message":"The engine is currently overloaded, please try again later","type":"engine_overloaded_error"}}`), taxonomy.Overloaded, 0},
		{"MoonshotAI/kimi-code#3176", text(`429 The engine is currently overloaded`), taxonomy.Overloaded, 0},
		{"huggingface/transformers#32665", text(`{"error":"Model meta-llama/Llama-2-13b-chat is currently loading","estimated_time":20.0}`), taxonomy.Overloaded, 0},
		{"huggingface/unity-api#18", text(`Attempted request to https://api-inference.huggingface.co/models/distilbert-base-cased-distilled-squad failed: HTTP/1.1 503 Service Unavailable - {"error":"Model distilbert-base-cased-distilled-squad is currently loading","estimated_time":20.0}`), taxonomy.Overloaded, 0},
		{"BerriAI/litellm#1242", text(`litellm.exceptions.APIError: HuggingfaceException - response is not in expected format - [{'error': 'Model echarlaix/tiny-random-mistral is currently loading', 'estimated_time': 20.0}]`), taxonomy.Overloaded, 0},
		{"nat/openplayground#63", text(`ERROR:server.lib.inference:Error: Request failed: 503 Service Unavailable`), taxonomy.Overloaded, 0},
		{"langchaingo huggingface, body of huggingface/transformers#11904", huggingface(503, `{"error":"Model Matthieu/stsb-xlm-r-multilingual is currently loading","estimated_time":44.49033436}`), taxonomy.Overloaded, 0},
		{"langchaingo anthropic 500, message of anthropics/claude-code#8104", anthropicStatus(500, "Overloaded"), taxonomy.Overloaded, 0},
		{"genai APIError 503, message of liuw1535/antigravity2api-nodejs#140", genaiAPIError{Code: 503, Message: "No capacity available for model claude-opus-4-5-thinking on the server", Status: "UNAVAILABLE", Details: []map[string]any{{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "MODEL_CAPACITY_EXHAUSTED", "domain": "cloudcode-pa.googleapis.com"}}}, taxonomy.Overloaded, 0},
		{"langchaingo cloudflare, Workers AI's 3040 (developers.cloudflare.com/workers-ai/platform/errors)", cloudflare(3040, "No more data centers to forward the request to"), taxonomy.Overloaded, 0},
		{"langchaingo ernie client 503 (ernieclient.go)", fmt.Errorf("%w: %d", errors.New("completion API returned unexpected status code"), 503), taxonomy.Overloaded, 0},

		// ---- server errors inside streams ----
		{"sashabaranov/go-openai#396", text(`data: {"error":{"message":"The server experienced an error while processing your request. We apologize for the inconvenience!", "type":"server_error", "param":null,"code":null)}`), taxonomy.Transient, 0},
		{"Wei-Shaw/sub2api#6714", text(`event: response.failed data: {"response":{"background":false,"completed_at":null,"created_at":1788705731,"error":{"code":"server_error","message":"An error occurred while processing your request. You can retry your request, or contact us through our help center at help.openai.com if the error persists. Please include the request ID 05db48fb-224e-4ff7-8266-b72865ef4f1f in your message."},"id":"resp_063267f17b884c17016a9d7bc35cd087d08e7435b254028a95","object":"response","status":"failed"},"sequence_number":5,"type":"response.failed"}`), taxonomy.Transient, 0},
		{"dongri/openai-api-rs#159 (realtime response.done)", text(`{"error":{"code":null,"message":"The server had an error while processing your request. Sorry about that! Please contact us through our help center at help.openai.com if the error persists. (include session ID in your message: sess_BPCNZdLMHo8ERhJi0qgtq). We recommend you retry your request.","type":"server_error"},"type":"failed"}`), taxonomy.Transient, 0},
		{"continuedev/continue#11241", text(`"model runner has unexpectedly stopped, this may be due to resource limitations or an internal error, check ollama server logs for details"`), taxonomy.Transient, 0},
		{"ollama/ollama#8689", text(`Error LLama runner process has terminated: %!w(<nil>)`), taxonomy.Transient, 0},
		{"AWS SDK ModelErrorException (bedrockruntime types/errors.go)", bedrockException(424, "ModelErrorException", "The request failed due to an error while processing the model."), taxonomy.Transient, 0},
		{"langchaingo cloudflare, Workers AI's 3007 (developers.cloudflare.com/workers-ai/platform/errors)", cloudflare(3007, "Request timeout"), taxonomy.Transient, 0},

		// ---- dropped connections, DNS, proxies ----
		{"reVrost/go-openrouter#9", text(`failed to read chat completion stream: http2: response body closed`), taxonomy.Transient, 0},
		{"j178/chatgpt#44", text(`error: Unexpected EOF, Please try again`), taxonomy.Transient, 0},
		{"openai/plugins-quickstart#13", text(`java.io.IOException: unexpected end of stream on https://api.openai.com/...`), taxonomy.Transient, 0},
		{"Significant-Gravitas/AutoGPT#3823", text(`OSError: [Errno 101] Network is unreachable`), taxonomy.Transient, 0},
		{"anasfik/openai#149", text(`SocketException: Failed host lookup: 'api.openai.com' (OS Error: Host sconosciuto. , errno = 11001)`), taxonomy.Transient, 0},
		{"LLM-Red-Team/kimi-free-api#165", text(`{"code": -1000, "message": "getaddrinfo EAI_AGAIN kimi.moonshot.cn", "data": null}`), taxonomy.Transient, 0},
		{"rawandahmad698/PyChatGPT#84", text(`tls_client.exceptions.TLSClientExeption: failed to do request: Get "https://chat.openai.com/auth/login": dial tcp [::1]:8080: connect: connection refused`), taxonomy.Transient, 0},
		{"869413421/chatgpt-web#35", text(`An error occurred in the request，Post "https://api.openai.com/v1/chat/completions": proxyconnect tcp: dial tcp 127.0.0.1:10809: connectex: No connection could be made because the target machine actively refused it.`), taxonomy.Transient, 0},
		{"whyiyhw/chatgpt-wechat#28", text(`openai client req ing fail:Post "https://api.openai.com/v1/chat/completions": socks connect tcp 127.0.0.1:7890->api.openai.com:443: dial tcp 127.0.0.1:7890: connect: connection refused`), taxonomy.Transient, 0},
		{"Go net/http: a dial that timed out (net.OpError, os.SyscallError ETIMEDOUT)", postErr(chatURL, dial(syscall.ETIMEDOUT)), taxonomy.Transient, 0},
		{"Go net/http: a host that is down (EHOSTDOWN)", postErr(chatURL, dial(syscall.EHOSTDOWN)), taxonomy.Transient, 0},
		{"Go net/http: a proxy that refused the dial (transport.go proxyconnect, chatgpt-web#35)", postErr(chatURL, &net.OpError{Op: "proxyconnect", Net: "tcp", Err: &net.OpError{Op: "dial", Net: "tcp", Addr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 10809}, Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}}), taxonomy.Transient, 0},
		{"Go net/http: a corporate proxy's 502 to CONNECT (transport.go)", postErr(chatURL, errors.New("Bad Gateway")), taxonomy.Transient, 0},
		{"Go net: a DNS lookup that timed out (net.DNSError IsTimeout)", postErr(chatURL, &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "i/o timeout", Name: "api.openai.com", Server: "127.0.0.53:53", IsTimeout: true}}), taxonomy.Transient, 0},
		{"Go net/http: a reset mid-stream in langchaingo openai's reader", fmt.Errorf("error reading streaming response: %w", &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}), taxonomy.Transient, 0},
		{"Go net/http: the server closed an idle connection (transport.go errServerClosedIdle)", postErr(chatURL, errors.New("http: server closed idle connection")), taxonomy.Transient, 0},
		{"Go net/http: a body cut short under langchaingo anthropic", anthropic(fmt.Errorf("send request: %w", postErr("https://api.anthropic.com/v1/messages", io.ErrUnexpectedEOF))), taxonomy.Transient, 0},
		{"Go net/http: an attempt's own deadline under mistral's stream reader", fmt.Errorf("error reading stream response: %w", context.DeadlineExceeded), taxonomy.Transient, 0},

		// ---- canceled ----
		{"langchaingo *llms.Error canceled around the caller's cancel (errors.go)", lcllms.NewError(lcllms.ErrCodeCanceled, "openai", "request cancelled").WithCause(context.Canceled), taxonomy.Canceled, 0},

		// ---- context overflow ----
		{"aws-samples/bedrock-chat#95", text(`[ERROR] EventStreamError: An error occurred (validationException) when calling the InvokeModelWithResponseStream operation: Input is too long for requested model.`), taxonomy.ContextOverflow, 0},
		{"aws-samples/assessment-generator#2", text(`{"errorType":"ValidationException","errorMessage":"Input is too long for requested model.","name":"ValidationException","$fault":"client","$metadata":{"httpStatusCode":400,"requestId":"16fb0962-139d-4c70-ba9c-602d9630e854","attempts":1,"totalRetryDelay":0}}`), taxonomy.ContextOverflow, 0},
		{"h2oai/h2ogpt#373", text("thread exception: (<class 'text_generation.errors.ValidationError'>, ValidationError('Input validation error: `inputs` must have less than 2048 tokens. Given: 2222'), <traceback object at 0x7f10f8ef1d40>)"), taxonomy.ContextOverflow, 0},
		{"meta-llama/llama#1103", text("HfHubHTTPError: 422 Client Error: Unprocessable Entity for url: https://api-inference.huggingface.co/models/meta-llama/Llama-2-7b-chat-hf (Request ID: gPxf6Ns0plH9zveHLZP_A)\n\nInput validation error: `inputs` must have less than 4096 tokens. Given: 4545\nMake sure 'text-generation' task is supported by the model."), taxonomy.ContextOverflow, 0},
		{"barun-saha/slide-deck-ai#44", text("huggingface_hub.errors.ValidationError: Input validation error: `inputs` tokens + `max_new_tokens` must be <= 32768. Given: X `inputs` tokens and Y `max_new_tokens`"), taxonomy.ContextOverflow, 0},
		{"alejandro-ao/ask-multiple-pdfs#34", text("ValueError: Error raised by inference API: Input validation error: `inputs` must have less than 1024 tokens. Given: 1062"), taxonomy.ContextOverflow, 0},
		{"langchaingo huggingface 422, TGI's body (huggingface/text-generation-inference#695)", huggingface(422, "{\"error\":\"Input validation error: `inputs` must have less than 1024 tokens. Given: 1168\",\"error_type\":\"validation\"}"), taxonomy.ContextOverflow, 0},
		{"langchaingo *llms.Error token limit (errors_mapper.go), the cause vllm's 400", lcllms.NewError(lcllms.ErrCodeTokenLimit, "openai", "This model's maximum context length is 8192 tokens.").WithCause(openai(400, "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens.")), taxonomy.ContextOverflow, 0},
		{"langchaingo cloudflare, Workers AI's 3006 (developers.cloudflare.com/workers-ai/platform/errors)", cloudflare(3006, "Request is too large"), taxonomy.ContextOverflow, 0},

		// ---- balance, quota, account ----
		{"continuedev/continue#11823 (Zhipu)", text(`429 余额不足或无可用资源包,请充值。`), taxonomy.Permanent, 0},
		{"FoundationAgents/OpenManus#438 (SiliconFlow)", text(`API error: Error code: 403 - {'code': 30011, 'message': 'The selected model requires paid balance. Your paid balance is insufficient. Please top up and try again.', 'data': None}`), taxonomy.Permanent, 0},
		{"TiaraBasori/OpenCode2API#5", text(`Error: 401: {"message":"Insufficient balance. Manage your billing here: https://***.ai/***/***/***","type":"CreditsError","param":"","code":null}`), taxonomy.Permanent, 0},
		{"QuantumNous/new-api#6929", text(`unexpected status 403 Forbidden: CC Switch local proxy failed while handling Codex endpoint /responses. Provider: DeepSeek; model: glm-5.1; upstream_status: HTTP 403; cause: 用户额度不足, 剩余额度: ＄-0.000002 (request id: 202608190933135792535838268d9d6rhgZmzsh), url: http://127.0.0.1:15721/v1/responses`), taxonomy.Permanent, 0},
		{"MoonshotAI/Kimi-K2#5", text(`403 {"error":{"message":"Your account xx> is not active, organization <xx> exceeded current quota, please check your plan and billing details","type":"exceeded_current_quota_error"}}`), taxonomy.Permanent, 0},
		{"anomalyco/opencode#24462", text(`Error code: 429 - {"error": {"message": "Error from provider: Provider returned error", "code": 429, "metadata": {"raw": "{\"error\":{\"message\":\"Your account org-446a70bb2cc542e3960c0b7f05e4e0e1 <ak-f817m9q3k3wi11gjwbgi> is suspended due to insufficient balance, please recharge your account or check your plan and billing details\",\"type\":\"exceeded_current_quota_error\"}}"}}}`), taxonomy.Permanent, 0},
		{"modelscope/modelscope#1691 (MiniMax)", text(`Error code: 429 - {'error': {'http_code': '429', 'message': 'insufficient balance (1008)', 'type': 'insufficient_balance_error'}, 'request_id': 'xxxx'}`), taxonomy.Permanent, 0},
		{"MiniMax-AI/MiniMax-M2#62", text(`API Error: 500 {"type":"error","error":{"type":"api_error","message":"insufficient balance (1008)"},"request_id":"05997465cd2ee4bd50b24b216c911b75"}`), taxonomy.Permanent, 0},
		{"NousResearch/hermes-agent#16680 (MiniMax)", text(`Error: HTTP 500: insufficient balance (1008)`), taxonomy.Permanent, 0},
		{"Gitlawb/openclaude#1554", text(`API Error: 402 {"error":{"message":"Free quota used (30 requests / 5h). Resets at 10:00 UTC. Top up for unlimited access at https://gitlawb.com/opengateway/credits.","type":"insufficient_quota","code":"free_quota_exceeded"}}`), taxonomy.Permanent, 0},
		{"watson-developer-cloud/news-intelligence#26", text(`Status: 400, Message: {"code": 400, "error": "daily-transaction-limit-exceeded"}`), taxonomy.Permanent, 0},
		{"langchaingo cloudflare, Workers AI's 3036 (developers.cloudflare.com/workers-ai/platform/errors)", cloudflare(3036, "You have used up your daily free allocation of 10,000 neurons. Please upgrade to Cloudflare's Workers Paid plan if you would like to continue usage."), taxonomy.Permanent, 0},

		// ---- model missing, unsupported, invalid requests ----
		{"Alishahryar1/free-claude-code#1021 (NVIDIA NIM)", text(`{"status":404,"title":"Not Found","detail":"Function '23d4f03a-b8a6-4adb-a183-7daa083a09cc': Not found for account 'Qawmu2vUw3rdcREnubcAVqe1c55nUTb1hCogKQx4BCA'"}`), taxonomy.Permanent, 0},
		{"egoist/chatwise-releases#1009 (Vertex)", text(`Vertex AI (cus_vertex) provider error: claude-sonnet-4 is not supported in the streamGenerateContent API. { "error": { "code": 400, "message": "claude-sonnet-4 is not supported in the streamGenerateContent API.", "status": "FAILED_PRECONDITION" } }`), taxonomy.Permanent, 0},
		{"BerriAI/litellm#12063 (Vertex Anthropic)", text(`litellm.proxy.proxy_server.anthropic_response(): Exception occured - Client error '400 Bad Request' for url 'https://europe-west1-aiplatform.googleapis.com/v1/projects/project_id/locations/europe-west1/publishers/anthropic/models/claude-sonnet-4@20250514:streamRawPredict'`), taxonomy.Permanent, 0},
		{"tombii/better-ccflare#47 (Vertex Anthropic)", text("API Error: 400 {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"Unexpected value(s) `oauth-2025-04-20` for the `anthropic-beta` header. Please consult our documentation at docs.anthropic.com or try again without the header.\"},\"request_id\":\"req_vrtx_011CX6sWnm678g4YPRps1ESQ\"}"), taxonomy.Permanent, 0},
		{"aptdnfapt/qwen-code-oai-proxy#14", text(`{"error":{"code":"invalid_parameter_error","message":"bad request","param":null,"type":"invalid_request_error"},"request_id":"f2ce8b99-3d8"}`), taxonomy.Permanent, 0},
		{"google-gemini/deprecated-generative-ai-js#124", text(`GoogleGenerativeAIError: [400 Bad Request] * GenerateContentRequest.contents[3].parts: contents.parts must not be empty`), taxonomy.Permanent, 0},
		{"ollama/ollama#5958", text(`Error: llama runner process has terminated: error loading model: unable to allocate backend buffer`), taxonomy.Permanent, 0},
		{"langchaingo googleai (vertex), message of egoist/chatwise-releases#1009", googleai(400, "claude-sonnet-4 is not supported in the streamGenerateContent API.", nil), taxonomy.Permanent, 0},
		{"langchaingo cloudflare, Workers AI's 5007 (developers.cloudflare.com/workers-ai/platform/errors)", cloudflare(5007, "No such model @cf/meta/llama-4-scout or task"), taxonomy.Permanent, 0},
		{"langchaingo *llms.Error authentication from OpenAIErrorMapper (errors_mapper.go)", lcllms.OpenAIErrorMapper().WrapError(openai(401, "Incorrect API key provided: sk-abc***. You can find your API key at https://platform.openai.com/account/api-keys.")), taxonomy.Permanent, 0},

		// ---- safety and recitation ----
		{"google/generative-ai-docs#257", text(`StopCandidateException: finish_reason: RECITATION`), taxonomy.Permanent, 0},
		{"google-gemini/deprecated-generative-ai-js#138", text(`[GoogleGenerativeAI Error]: Candidate was blocked due to RECITATION`), taxonomy.Permanent, 0},
		{"langchaingo *llms.Error content filter from GoogleAIErrorMapper (errors_mapper.go)", lcllms.NewError(lcllms.ErrCodeContentFilter, "googleai", "Content blocked by safety filter").WithCause(errors.New("blocked: candidate finish reason SAFETY")), taxonomy.Permanent, 0},

		// ---- proxies and TLS that a retry does not fix ----
		{"golang/go#49897 (transport.go: a CONNECT answered 407)", postErr(chatURL, errors.New("Proxy Authentication Required")), taxonomy.Permanent, 0},
		{"Go crypto/tls: a server's handshake_failure alert (net.OpError remote error, tls.AlertError)", postErr(chatURL, &net.OpError{Op: "remote error", Err: tls.AlertError(40)}), taxonomy.Permanent, 0},
		{"Go crypto/tls: HTTPS to a plain HTTP port (tls.RecordHeaderError)", postErr("https://localhost:11434/api/chat", tls.RecordHeaderError{Msg: "first record does not look like a TLS handshake"}), taxonomy.Permanent, 0},
	}
}

// sixthTuning and sixthSealed split the sixth batch by place: every third
// row is sealed.
func sixthTuning() []heldOutRow { return splitBatch(sixthBatch(), false) }
func sixthSealed() []heldOutRow { return splitBatch(sixthBatch(), true) }
