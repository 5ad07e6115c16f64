package taxonomy_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/resilientgo/resilient/taxonomy"
)

// The fifth held-out batch: real errors of OpenAI, Azure OpenAI, Anthropic
// (direct and through Vertex), Gemini, Bedrock, Mistral, Cohere, Groq,
// Together, DeepSeek, OpenRouter, Fireworks, xAI, Perplexity, Cerebras,
// vLLM, LM Studio, Ollama, LiteLLM, gateways (nginx, Cloudflare) and Go's
// net/http, each row naming the GitHub issue where a user pasted it, or for
// a typed error the SDK whose shape it copies (sdk_test.go) and the issue
// its message comes from. It was gathered in one pass, after the fourth
// batch's families were final, the kind of each row written down from what
// the error means before Classify was run on it. Every third row, by its
// place in the list, is sealed (splitBatch): the rules were not tuned on the
// sealed part, and its figure is the held-out one.
func fifthBatch() []heldOutRow {
	text := errors.New
	return []heldOutRow{
		// ---- rate limits of every shape ----
		{"feder-cr/invisible_playwright_mcp#109", text(`openai.RateLimitError: Error code: 429 - {'error': {'message': 'Rate limit reached for gpt-4o-mini in organization org-xxxxxxxxx on requests per day (RPD): Limit 200, Used 200, Requested 1. Please try again in 7m12s. Visit https://platform.openai.com/account/rate-limits to learn more. You can increase your rate limit by adding a payment method to your account at https://platform.openai.com/account/billing.', 'type': 'requests', 'param': None, 'code': 'rate_limit_exceeded'}}`), taxonomy.RateLimited, 7*time.Minute + 12*time.Second},
		{"PaddlePaddle/ERNIE#1031", text(`openai.RateLimitError: Error code: 429 - {'error': {'code': 'rpm_rate_limit_exceeded', 'message': 'Rate limit reached for RPM', 'type': 'rate_limit_exceeded'}, 'id': 'as-wbx23eriqh'}`), taxonomy.RateLimited, 0},
		{"nminaya/grammar-nazi-bot#958", text("System.InvalidOperationException: Unsuccessful Cerebras API response TooManyRequests\n ---> System.Exception: {\"message\":\"Requests per minute limit exceeded - too many requests sent.\",\"type\":\"too_many_requests_error\",\"param\":\"quota\",\"code\":\"request_quota_exceeded\"}"), taxonomy.RateLimited, 0},
		{"FoundationAgents/OpenManus#746", text(`OpenAI API error: Error code: 429 - {'error': {'code': 'rate_limit_error', 'message': 'This request would exceed the rate limit for your organization of 20,000 input tokens per minute. For details, refer to: https://docs.anthropic.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase.', 'type': 'invalid_request_error', 'param': None}}`), taxonomy.RateLimited, 0},
		{"i-dot-ai/caddy-chatbot#97", text(`botocore.errorfactory.ThrottlingException: An error occurred (ThrottlingException) when calling the InvokeModel operation (reached max retries: 4): Too many requests, please wait before trying again. You have sent too many requests. Wait before trying again.`), taxonomy.RateLimited, 0},
		{"aws-samples/amazon-bedrock-client-for-mac#99", text(`Error invoking the model: ThrottlingException(properties: AWSBedrockRuntime.ThrottlingException.Properties(message: Optional("Too many tokens, please wait before trying again.")), httpResponse: Status Code: HTTP status code: 429 Date: Mon, 12 May 2025 11:11:55 GMT, Content-Type: application/json, Content-Length: 63, Connection: keep-alive, x-amzn-ErrorType: ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/, x-amzn-RequestId: ca47a5ce-e260-4824-aa0e-2e62669d5d6e, message: Optional("Too many tokens, please wait before trying again."), requestID: nil)`), taxonomy.RateLimited, 0},
		{"RooCodeInc/Roo-Code#5050", text("message: Too many tokens, please wait before trying again.\nname: ThrottlingException\n$fault: client\n$metadata: {\"httpStatusCode\":429,\"requestId\":\"158a2e26-c851-4440-9f98-e3065df1de46\",\"attempts\":3,\"totalRetryDelay\":274}\n$response: {\"statusCode\":429,\"headers\":\"[Object]\",\"body\":\"[Object]\"}"), taxonomy.RateLimited, 0},
		{"aws-samples/aws-genai-llm-chatbot#220", text(`<class 'botocore.exceptions.EventStreamError'>:An error occurred (throttlingException) when calling the InvokeModelWithResponseStream operation: Too many requests, please wait before trying again. You have sent too many requests.  Wait before trying again.`), taxonomy.RateLimited, 0},
		{"Aider-AI/aider#1912", text("litellm.RateLimitError: litellm.RateLimitError: VertexAIException - b'[{\\n  \"error\": {\\n    \"code\": 429,\\n    \"message\": \"Quota exceeded for \naiplatform.googleapis.com/online_prediction_requests_per_base_model with base mod"), taxonomy.RateLimited, 0},
		{"anthropics/anthropic-sdk-python#963", text(`anthropic.RateLimitError: Error code: 429 - {'error': {'code': 429, 'message': 'Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model with base model: anthropic-claude-sonnet-4. Please submit a quota increase request.'`), taxonomy.RateLimited, 0},
		{"anthropics/claude-code#1440", text(`API Error (429 {"error":{"code":429,"message":"Quota exceeded for aiplatform.googleapis.com/online_prediction_input_tokens_per_minute_per_base_model with base model: anthropic-claude-opus-4. Please submit a quota increase request. https://cloud.google.com/vertex-ai/docs/generative-ai/quotas-genai.","status":"RESOURCE_EXHAUSTED"}}) · Retrying in 32 seconds… (attempt 7/10)`), taxonomy.RateLimited, 0},
		{"cline/cline#651", text(`429 [{"error":{"code":429,"message":"Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model with base model: anthropic-claude-3-5-sonnet-v2. Please submit a quota increase request. https://cloud.google.com/vertex-ai/docs/generative-ai/quotas-genai.","status":"RESOURCE_EXHAUSTED"}}]`), taxonomy.RateLimited, 0},
		{"vercel/ai#2441", text(`ClientError: [VertexAI.ClientError]: got status: 429 Too Many Requests. {"error":{"code":429,"message":"Quota exceeded for aiplatform.googleapis.com/generate_content_requests_per_minute_per_project_per_base_model with base model: anthropic-claude-3-5-sonnet. Please submit a quota increase request. https://cloud.google.com/vertex-ai/docs/generative-ai/quotas-genai.","status":"RESOURCE_EXHAUSTED"}`), taxonomy.RateLimited, 0},
		{"xtekky/gpt4free#3032", text(`g4f.errors.ResponseError: Error None: You have reached the rate limit specific to this model black-forest-labs/FLUX.1-kontext-pro. The maximum rate limit for this model is 9.0 queries per minute. This limit differs from the general rate limits published at Together AI rate limits documentation (https://docs.together.ai/docs/rate-limits). For inquiries about increasing your model-specific rate limit, please contact our sales team (https://www.together.ai/forms/contact-sales)`), taxonomy.RateLimited, 0},
		{"ago19800/HomeMind#29", text("RuntimeError: Nessun provider AI disponibile: Error code: 429 - {'error': {'message': 'Rate limit reached for model `llama-3.3-70b-versatile` in organization `org_01kes94v04f9ramd2n1vj4gjnc` service tier `on_demand` on tokens per day (TPD): Limit 100000, Used 92498, Requested 10921. Please try again in 49m14.015999999s. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing', 'type': 'tokens', 'code': 'rate_limit_exceeded'}}"), taxonomy.RateLimited, 49*time.Minute + 14015999999*time.Nanosecond},
		{"OEvortex/llm4free#97", text(`Request failed (CurlError): HTTP Error 429`), taxonomy.RateLimited, 0},
		{"open-webui/computer#293", text(`{"error":{"message":"Provider returned error","code":429,"metadata":{"raw":"z-ai/glm-5.3-flash is temporarily rate-limited upstream. Please retry shortly, or add your own key to accumulate your rate limits: ...","provider_name":"BaseTen","limit_source":"upstream_provider_shared_pool","remedy_hint":"Retry shortly, add your own provider key, or route to another provider"}}}`), taxonomy.RateLimited, 0},

		// ---- overloads, busy servers ----
		{"deepseek-ai/DeepSeek-R1#204", text(`Sorry, DeepSeek’s search service is busy. Please disable search or try again in a few minutes.`), taxonomy.Overloaded, 0},
		{"ollama/ollama#4159", text(`{"error":"unexpected server status: llm busy - no slots available"}`), taxonomy.Overloaded, 0},
		{"ollama/ollama#4545", text(`ollama._types.ResponseError: no slots available after 10 retries`), taxonomy.Overloaded, 0},
		{"anthropics/claude-code#35792", text("API Error: 529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"},\"reques\n     t_id\":\"req_011CZAau32QzxDkriovTaFCB\"}"), taxonomy.Overloaded, 0},

		// ---- server errors, gateways ----
		{"anthropics/claude-code#61368", text(`Error: 500 {"type":"error","error":{"type":"api_error","message":"Internal server error"},"request_id":"req_011CbGwJbzjfDGN6vNFPYMGA"}`), taxonomy.Transient, 0},
		{"google-gemini/gemini-cli#3665", text("[API Error: {\"error\":{\"message\":\"{\\n  \\\"error\\\": {\\n    \\\"code\\\": 500,\\n    \\\"message\\\": \\\"An internal \n  error has occurred. Please retry or report in \n  https://developers.generativeai.google/guide/troubleshooting\\\",\\n    \\\"status\\\": \\\"INTERNAL\\\"\\n  \n  }\\n}\\n\",\"code\":500,\"status\":\"Internal Server Error\"}}]"), taxonomy.Transient, 0},
		{"google-gemini/deprecated-generative-ai-python#504", text(`500 An internal error has occurred`), taxonomy.Transient, 0},
		{"adcontextprotocol/adcp#4298", text(`[500 Internal Server Error] Internal error encountered.`), taxonomy.Transient, 0},
		{"EleutherAI/lm-evaluation-harness#395", text(`cohere.error.CohereAPIError: internal server error, this has been reported to our developers`), taxonomy.Transient, 0},
		{"Routstr/routstr-core#461", text(`errorMessage={"error": {"message": "Upstream request failed", "type": "upstream_error", "code": 502}, "request_id": "32c3867f-e3dc-4750-8d61-dd7cb50e25a3"}`), taxonomy.Transient, 0},
		{"Wei-Shaw/sub2api#2857", text(`event: error data: {"error":{"type":"upstream_error","message":"Upstream request failed"}}`), taxonomy.Transient, 0},
		{"anomalyco/opencode#37231", text(`Error from provider (Console Go): Upstream request failed`), taxonomy.Transient, 0},
		{"anomalyco/opencode#35163", text(`HTTP 502 Bad Gateway — Cloudflare: "The origin web server returned an invalid or incomplete response to Cloudflare."`), taxonomy.Transient, 0},
		{"etalab-ia/OpenGateLLM#116", text(`Error: 504 Server Error: Gateway Time-out for url: https://albert.api.etalab.gouv.fr/v1/chat/completions, retrying in 5 seconds...`), taxonomy.Transient, 0},
		{"etalab-ia/OpenGateLLM#116 body", text("Albert API error: <html>\n<head><title>504 Gateway Time-out</title></head>\n<body>\n<center><h1>504 Gateway Time-out</h1></center>\n<hr><center>nginx/1.27.0</center>\n</body>\n</html>"), taxonomy.Transient, 0},
		{"su-kaka/gcli2api#354", text("Chat completion request error:  <none> <!DOCTYPE html>\n<!--[if lt IE 7]> <html class=\"no-js ie6 oldie\" lang=\"en-US\"> <![endif]-->\n<!--[if IE 7]>    <html class=\"no-js ie7 oldie\" lang=\"en-US\"> <![endif]-->\n<!--[if IE 8]>    <html class=\"no-js ie8 oldie\" lang=\"en-US\"> <![endif]-->\n<!--[if gt IE 8]><!--> <html class=\"no-js\" lang=\"en-US\"> <!--<![endif]-->\n<head>\n\n<title>283892.xyz | 524: A timeout occurred</title>\n<meta charset=\"UTF-8\" />"), taxonomy.Transient, 0},
		{"acheong08/ChatGPT#447", text(`('Response code error: ', 524)`), taxonomy.Transient, 0},
		{"langgenius/dify#12276", text(`Failed to invoke tool: Request failed with status code 524 and <!DOCTYPE html> <!--[if lt IE 7]> <html class="no-js ie6 oldie" lang="en-US"> <![endif]--> <head> <title>api.dify.ai | 524: A timeout occurred</title> <meta charset="UTF-8" />`), taxonomy.Transient, 0},
		{"anthropics/claude-code#16737", text("API Error: 524 <!DOCTYPE html>\n    <!--[if lt IE 7]> <html class=\"no-js ie6 oldie\" lang=\"en-US\"> <![endif]-->\n    <head>\n\n    <title>newcli.com | 524: A timeout occurred</title>"), taxonomy.Transient, 0},

		// ---- timeouts and dropped connections ----
		{"sashabaranov/go-openai#189", text(`Completion error: Post "https://api.openai.com/v1/completions": EOF`), taxonomy.Transient, 0},
		{"acheong08/ChatGPT#593", text(`Connection broken: ConnectionResetError(104, 'Connection reset by peer')`), taxonomy.Transient, 0},
		{"OpenSecretCloud/opensecret#31", text(`{"error":{"message":"forwarding request: Post \"http://127.0.0.1:8000/v1/chat/completions\": readfrom tcp 127.0.0.1:49412->127.0.0.1:8000: write tcp 127.0.0.1:49412->127.0.0.1:8000: write: broken pipe","type":"","param":"","code":""}}`), taxonomy.Transient, 0},
		{"Exafunction/codeium#146", text(`stream error: stream ID 983; INTERNAL_ERROR; received from peer`), taxonomy.Transient, 0},
		{"davecheney/httpstat#118", text(`http2: server sent GOAWAY and closed the connection; LastStreamID=0, ErrCode=NO_ERROR, debug=""`), taxonomy.Transient, 0},
		{"kalbasit/ncps#631", text(`Head "https://nixhelm.cachix.org/xxff4dfsysra8las6jjwha52ca40kjwz.narinfo": http2: server sent GOAWAY and closed the connection; LastStreamID=1045, ErrCode=PROTOCOL_ERROR, debug=""`), taxonomy.Transient, 0},
		{"kercre123/wire-pod#184", text(`Post "https://api.openai.com/v1/completions": dial tcp: lookup api.openai.com on 192.168.1.22:53: read udp 192.168.1.22:33848->192.168.1.22:53: read: connection refused`), taxonomy.Transient, 0},
		{"jehna/humanify#366", text(`FetchError: request to https://api.openai.com/v1/chat/completions failed, reason: connect ETIMEDOUT 128.242.250.155:443`), taxonomy.Transient, 0},
		{"easychen/openai-api-proxy#17", text(`ClientConnectorError: Cannot connect to host api.openai.com:443 ssl`), taxonomy.Transient, 0},
		{"privacybydesign/irmago#606", text(`200 serverResponse: context deadline exceeded (Client.Timeout or context cancellation while reading body)`), taxonomy.Transient, 0},
		{"baconator696/Recu-Download#6", text(`Error: io.ReadAll:context deadline exceeded (Client.Timeout or context cancellation while reading body)`), taxonomy.Transient, 0},
		{"BerriAI/litellm#3279", text("{\"error\": {\"message\": \"APITimeoutError - Request timed out. \\n model: azure/chatgpt-v-2 \\n api_base: https://openai-gpt-4-test-v-1.openai.azure.com/ \\n error_str: Request timed out.\", \"type\": null, \"param\": null, \"code\": 408}}"), taxonomy.Transient, 0},
		{"BerriAI/litellm#6667", text(`litellm.exceptions.APIError: litellm.APIError: APIError: Litellm_proxyException - Connection error.`), taxonomy.Transient, 0},
		{"RUC-NLPIR/Arbor#1", text(`litellm.Timeout: APITimeoutError - Request timed out. Error_str: Request timed out. - timeout value=20.0, time taken=20.26 seconds`), taxonomy.Transient, 0},

		// ---- canceled ----
		{"anthropics/claude-code#35792 log", text(`Error: Request was aborted.`), taxonomy.Canceled, 0},

		// ---- context overflow ----
		{"evalstate/fast-agent#621", text(`deepseek request failed for model 'deepseek-chat' (code: invalid_request_error) (status=400): Error code: 400 - {'error': {'message': "This model's maximum context length is 131072 tokens. However, you requested 131134 tokens (122942 in the messages, 8192 in the completion). Please reduce the length of the messages or completion.", 'type': 'invalid_request_error', 'param': None, 'code': 'invalid_request_error'}}`), taxonomy.ContextOverflow, 0},
		{"stanford-crfm/helm#94", text(`OpenAI error: This model's maximum context length is 2049 tokens, however you requested 2054 tokens (2049 in your prompt, 5 for the completion). Please reduce your prompt or completion length.`), taxonomy.ContextOverflow, 0},
		{"anthropics/anthropic-sdk-python#938", text(`anthropic._exceptions.RequestTooLargeError: Error code: 413 - {'error': {'type': 'request_too_large', 'message': 'Request exceeds the maximum size'}}`), taxonomy.ContextOverflow, 0},
		{"anthropics/claude-code#6380", text(`API Error: 413 {"type":"error","error":{"type":"invalid_request_error","message":"Request size exceeds model context window"},"request_id":"req_011CSPcw1jaHBKxvgq8Kga6G"}`), taxonomy.ContextOverflow, 0},
		{"vllm-project/vllm#20409 comment", text(`Error Occurs: "Error code: 400 - {'object': 'error', 'message': "This model's maximum context length is 16384 tokens. However, you requested 19591 tokens (9591 in the messages, 10000 in the completion). Please reduce the length of the messages or completion. None", 'type': 'BadRequestError', 'param': None, 'code': 400}"`), taxonomy.ContextOverflow, 0},

		// ---- auth, billing, quota, permission ----
		{"mengxi-ream/read-frog#167", text(`Something went wrong: Insufficient Balance`), taxonomy.Permanent, 0},
		{"Alishahryar1/free-claude-code#772", text(`Upstream provider OPENROUTER returned HTTP 402. {"error":{"message":"Insufficient credits. This account never purchased credits. Make sure your key is on the correct account or org, and if so, purchase more at https://openrouter.ai/settings/credits","code":402}}`), taxonomy.Permanent, 0},
		{"continuedev/continue#10778", text(`400 "Incorrect API key provided: na***ys. You can obtain an API key from https://console.x.ai."`), taxonomy.Permanent, 0},
		{"openai/codex#1352", text(`OpenAI rejected the request. Error details: Status: 400, Code: unknown, Type: unknown, Message: 400 "Incorrect API key provided: sk***gA. You can obtain an API key from https://console.x.ai.". Please verify your settings and try again.`), taxonomy.Permanent, 0},
		{"continuedev/continue#10277", text(`401 status code (no body)`), taxonomy.Permanent, 0},
		{"stackblitz-labs/bolt.diy#341", text(`APICallError [AI_APICallError]: Unauthorized`), taxonomy.Permanent, 0},
		{"agent0ai/agent-zero#539", text(`Error: Error response 401 while fetching https://api.mistral.ai/v1/chat/completions: {"detail":"Unauthorized"}`), taxonomy.Permanent, 0},
		{"coolcline/CoolCline#36", text("API error occurred: Status 401 Content-Type application/json; charset=utf-8 Body \n{\n  \"message\":\"Unauthorized\",\n  \"request_id\":\"933f233947ff6d346065bb297e4a4d56\"\n}"), taxonomy.Permanent, 0},
		{"nextcloud/integration_openai#332", text("Models could not be loaded: Error in API request: Invalid API key/basic authentication:Client error: `GET https://api.mistral.ai/v1/models` resulted in a `401 Unauthorized` response:\n{\"detail\":\"Unauthorized\"}"), taxonomy.Permanent, 0},
		{"continuedev/continue#2242", text(`HTTP 401 Unauthorized from https://codestral.mistral.ai/v1/chat/completions`), taxonomy.Permanent, 0},
		{"cohere-ai/cohere-toolkit#857", text(`status_code: 401, body: {'message': 'invalid api token'}`), taxonomy.Permanent, 0},
		{"cohere-ai/notebooks#6", text(`CohereError: invalid api token`), taxonomy.Permanent, 0},
		{"langgenius/dify#2506", text(`cohere.core.api_error.ApiError: status_code: 403, body: <!doctype html><meta charset="utf-8"><meta name=viewport content="width=device-width, initial-scale=1"><title>403</title>403 Forbidden`), taxonomy.Permanent, 0},
		{"zeroclaw-labs/zeroclaw#194", text("gemini attempt 1/3: Gemini API error (400 Bad Request): {\n  \"error\": {\n    \"code\": 400,\n    \"message\": \"API key not valid. Please pass a valid API key.\",\n    \"status\": \"INVALID_ARGUMENT\",\n    \"details\": [\n      {\n        \"@type\": \"type.googleapis.com/google.rpc.ErrorInfo\",\n        \"reason\": \"API_KEY_INVALID\",\n        \"domain\": \"googleapis.com\"\n      }\n    ]\n  }\n}"), taxonomy.Permanent, 0},
		{"babaohuang/GeminiProChat#142", text(`API key not valid. Please pass a valid API key. [{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com","metadata":{"service":"generativelanguage.googleapis.com"}}]`), taxonomy.Permanent, 0},
		{"Jazee6/cloudflare-ai-web#17", text(`[GoogleGenerativeAI Error]: Error fetching from https://generativelanguage.googleapis.com/v1/models/gemini-pro:streamGenerateContent?alt=sse: [400 Bad Request] API key not valid. Please pass a valid API key. [{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com","metadata":{"service":"generativelanguage.googleapis.com"}}]`), taxonomy.Permanent, 0},
		{"Sophomoresty/gemini-web2api#90", text(`{"error": {"message": "invalid api key"}}`), taxonomy.Permanent, 0},
		{"yym68686/uni-api#41", text("Error 400 with provider vertex API key: None: [{'error': {'code': 400, 'message': 'Project `*********` is not allowed to use Publisher Model `projects/*****-*****-********-m8/locations/asia-southeast1/publishers/anthropic/models/claude-3-sonnet@20240229`', 'status': 'FAILED_PRECONDITION'}}]"), taxonomy.Permanent, 0},

		// ---- model not found, decommissioned, invalid ----
		{"atiilla/sqlmap-ai#3", text("Last error: Error code: 400 - {'error': {'message': 'The model `qwen-qwq-32b` has been decommissioned and is no longer supported. Please refer to https://console.groq.com/docs/deprecations for a recommendation on which model to use instead.', 'type': 'invalid_request_error', 'code': 'model_decommissioned'}}"), taxonomy.Permanent, 0},
		{"hex/llm-perplexity#19", text(`Error: Error code: 400 - {'error': {'message': "Invalid model 'sonar-pro-online'. Permitted models can be found in the documentation at https://docs.perplexity.ai/guides/model-cards.", 'type': 'invalid_model', 'code': 400}}`), taxonomy.Permanent, 0},
		{"FerroxLabs/wayland#603", text(`Provider error: API error 400: {"error":{"message":"Invalid model 'perplexity/sonar'. Permitted models can be found in the documentation at https://docs.perplexity.ai/docs/getting-started/models.","type":"invalid_model","code":400}}`), taxonomy.Permanent, 0},
		{"ELPROFUG0/TexTab#2", text(`Error: Error: Invalid model 'llama-3.1-sonar-small-128k-online'. Permitted models can be found in the documentation at https://docs.perplexity.ai/docs/getting-started/models.`), taxonomy.Permanent, 0},
		{"warpdotdev/warp#15107", text(`Response stream finished unexpectedly with internal error: Fireworks API error: POST "https://api.fireworks.ai/inference/v1/chat/completions": 404 Not Found {"message":"Model not found, inaccessible, and/or not deployed","param":"model","code":"NOT_FOUND","type":"error"}`), taxonomy.Permanent, 0},
		{"earendil-works/pi#4029", text(`Error: 404 {"error":{"message":"Path not found: /v1/v1/messages","param":null,"code":"NOT_FOUND","type":"error"},"request_id":"292600cd-d105-4cd8-a4c9-9fcdda791014"}`), taxonomy.Permanent, 0},
		{"huggingface/chat-ui#845", text(`404 (no body)`), taxonomy.Permanent, 0},
		{"ChatGPTNextWeb/NextChat#3581", text(`{"detail": "Not Found"}`), taxonomy.Permanent, 0},
		{"ruoccofabrizio/azure-open-ai-embeddings-qna#16", text(`InvalidRequestError: The API deployment for the resource does not exist.`), taxonomy.Permanent, 0},
		{"unoplat/unoplat-code-confluence#1080", text(`temporalio.exceptions.ApplicationError: NotFoundError: Error code: 404 - {'error': {'message': 'No endpoints found matching your data policy (Paid model training). Configure: https://openrouter.ai/settings/privacy', 'code': 404}}`), taxonomy.Permanent, 0},
		{"dnakov/anon-kode#2", text(`API Error: 404 No endpoints found that support tool use. To learn more about provider routing, visit: https://openrouter.ai/docs/provider-routing`), taxonomy.Permanent, 0},
		{"lmstudio-ai/lmstudio-bug-tracker#1078", text("🥲 Failed to load the model\n\nError loading model.\n\n(Exit code: 18446744072635810000). Unknown error. Try a different model and/or config."), taxonomy.Permanent, 0},

		// ---- invalid requests ----
		{"vllm-project/vllm#10078", text(`openai.BadRequestError: Error code: 400 - {'object': 'error', 'message': "[{'type': 'extra_forbidden', 'loc': ('body', 'max_completion_tokens'), 'msg': 'Extra inputs are not permitted', 'input': 64}]", 'type': 'BadRequestError', 'param': None, 'code': 400}`), taxonomy.Permanent, 0},
		{"serac-labs/serac#53", text(`After the (optional) system message(s), user or tool message(s) should alternate with assistant message(s).`), taxonomy.Permanent, 0},
		{"kwaroran/Risuai#504", text(`{"message":"invalid request: message must be at least 1 token long or tool results must be specified."}`), taxonomy.Permanent, 0},
		{"campfirein/byterover-cli#43", text(`ERROR: Error in OpenRouter API call (Attempt 1/3): 400 Provider returned error`), taxonomy.Permanent, 0},

		// ---- content policy, safety ----
		{"BerriAI/litellm#16231", text("litellm.BadRequestError: litellm.ContentPolicyViolationError: litellm.ContentPolicyViolationError: AzureException - The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766\nmodel=azure/gpt-4o-new-test. content_policy_fallback=None. fallbacks=None.\n"), taxonomy.Permanent, 0},
		{"openai/openai-dotnet#55", text("System.ClientModel.ClientResultException: HTTP 400 (content_filter)\nParameter: prompt\n\nThe response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry."), taxonomy.Permanent, 0},
		{"microsoft/sample-app-aoai-chatGPT#986", text(`400 litellm.BadRequestError: litellm.ContentPolicyViolationError: Azure Exception - Error code: 400`), taxonomy.Permanent, 0},

		// ---- typed errors of the SDKs, built with their shapes (sdk_test.go) around real messages ----
		{"go-openai *APIError 429 RPD, message of MSU-AI-Agents/fall-2025-course#76", &goOpenAIError{Code: "rate_limit_exceeded", Type: "requests", HTTPStatus: "429 Too Many Requests", HTTPStatusCode: 429, Message: "Rate limit reached for gpt-3.5-turbo in organization org-pR2Z3LP86Rl3jvVG0S9Kv3IT on requests per day (RPD): Limit 10000, Used 10000, Requested 1. Please try again in 8.64s. Visit https://platform.openai.com/account/rate-limits to learn more."}, taxonomy.RateLimited, 8640 * time.Millisecond},
		{"anthropic-sdk-go *Error 413, body of anthropics/claude-code#10314", newAnthropicSDKError(413, nil, `{"error":{"type":"request_too_large","message":"Request exceeds the maximum size"}}`), taxonomy.ContextOverflow, 0},
		{"anthropic-sdk-go *Error 500, body of anthropics/claude-code#61368", newAnthropicSDKError(500, nil, `{"type":"error","error":{"type":"api_error","message":"Internal server error"},"request_id":"req_011CbGwJbzjfDGN6vNFPYMGA"}`), taxonomy.Transient, 0},
		{"genai APIError 500 INTERNAL, message of google-gemini/gemini-cli#3665", genaiAPIError{Code: 500, Message: "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting", Status: "INTERNAL"}, taxonomy.Transient, 0},
		{"genai APIError 400 API_KEY_INVALID, message of cequence-io/openai-scala-client#109", genaiAPIError{Code: 400, Message: "API key not valid. Please pass a valid API key.", Status: "INVALID_ARGUMENT", Details: []map[string]any{{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID", "domain": "googleapis.com"}}}, taxonomy.Permanent, 0},
		{"openai-go *Error 402, message of continuedev/continue#10121", &openaiGoError{StatusCode: 402, Message: "Insufficient Balance", Response: &http.Response{StatusCode: 402}}, taxonomy.Permanent, 0},
		{"go-openai *RequestError 524 Cloudflare page, page of acheong08/ChatGPT#1485", &goOpenAIRequestError{HTTPStatus: "524", HTTPStatusCode: 524, Err: jsonSyntaxError("<!DOCTYPE html>"), Body: []byte(`<!DOCTYPE html><html class="no-js" lang="en-US"><head><title>api.openai.com | 524: A timeout occurred</title></head><body><span class="inline-block">A timeout occurred</span><span class="code-label">Error code 524</span></body></html>`)}, taxonomy.Transient, 0},
		{"langchaingo anthropic send canceled by the caller", anthropic(fmt.Errorf("send request: %w", postErr("https://api.anthropic.com/v1/messages", context.Canceled))), taxonomy.Canceled, 0},
		{"langchaingo openai 503 ollama busy, message of IBM/prompt-declaration-language#702", openai(503, "server busy, please try again.  maximum pending requests exceeded"), taxonomy.Overloaded, 0},
		{"openai-go *Error 429 request_quota_exceeded, body of nminaya/grammar-nazi-bot#958", &openaiGoError{Code: "request_quota_exceeded", Type: "too_many_requests_error", Param: "quota", StatusCode: 429, Message: "Requests per minute limit exceeded - too many requests sent.", Response: &http.Response{StatusCode: 429}}, taxonomy.RateLimited, 0},
		{"langchaingo openai 429 cerebras, message of nminaya/grammar-nazi-bot#958", openai(429, "Requests per minute limit exceeded - too many requests sent."), taxonomy.RateLimited, 0},
		{"langchaingo anthropic 413 overflow, message of anthropics/claude-code#6380", anthropicStatus(413, "Request size exceeds model context window"), taxonomy.ContextOverflow, 0},
		{"langchaingo openai 400 decommissioned, message of atiilla/sqlmap-ai#3", openai(400, "The model `qwen-qwq-32b` has been decommissioned and is no longer supported. Please refer to https://console.groq.com/docs/deprecations for a recommendation on which model to use instead."), taxonomy.Permanent, 0},
	}
}

// fifthTuning and fifthSealed split the fifth batch by place: every third
// row is sealed.
func fifthTuning() []heldOutRow { return splitBatch(fifthBatch(), false) }
func fifthSealed() []heldOutRow { return splitBatch(fifthBatch(), true) }
