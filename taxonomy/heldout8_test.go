package taxonomy_test

import (
	"errors"
	"time"

	"github.com/resilientgo/resilient/taxonomy"
)

// The eighth held-out batch: provider errors as the agent frameworks and
// tools between a program and its provider surface them (LangChain and
// LangChain.js, CrewAI and LiteLLM, AutoGen, Semantic Kernel and Kernel
// Memory, the Vercel AI SDK, Dify's plugins, n8n, Flowise, Langflow, Aider,
// Cline, Roo Code, Continue, MemGPT, Home Assistant, Zed), over OpenAI,
// Azure, Anthropic, Gemini, Bedrock, Groq, Together, Fireworks, DeepSeek,
// DashScope, OpenRouter, xAI, Ollama, vLLM, FastChat and LM Studio. Each row
// names the GitHub issue where a user pasted the text. It was gathered in
// one pass, after the seventh batch's families were final; rows whose text
// was already in a table were dropped before the first run, and the kind and
// the hint of each row were written down from what the error means before
// Classify was run on it. Every third row, by its place in the list, is
// sealed (splitBatch); TestHeldOut prints the sealed part's misses only when
// RESILIENT_HELDOUT_UNSEAL=1, so that its figure can be taken blind.
func eighthBatch() []heldOutRow {
	text := errors.New
	return []heldOutRow{
		// ---- rate limits and exhausted quotas through frameworks ----
		{"shrutikapoor08/learning-ai#4 (LangChain.js)", text("429 You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.\n\nTroubleshooting URL: https://js.langchain.com/docs/troubleshooting/errors/MODEL_RATE_LIMIT/\n"), taxonomy.Permanent, 0},
		{"QwenLM/qwen-code#220 (ModelScope)", text(`API Error: OpenAI API error: 429 status code (no body)`), taxonomy.RateLimited, 0},
		{"strnad/CrewAI-Studio#40 (LiteLLM)", text(`Error during LLM call: litellm.RateLimitError: RateLimitError: OpenAIException - Error code: 429 - {'error': {'message': 'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.', 'type': 'insufficient_quota', 'param': None, 'code': 'insufficient_quota'}}`), taxonomy.Permanent, 0},
		{"crewAIInc/crewAI#3434 (Gemini per-minute quota through LiteLLM)", text("ERROR:root:LiteLLM call failed: litellm.RateLimitError: litellm.RateLimitError: VertexAIException - {\n  \"error\": {\n    \"code\": 429,\n    \"message\": \"You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.\",\n    \"status\": \"RESOURCE_EXHAUSTED\",\n    \"details\": [\n      {\n        \"@type\": \"type.googleapis.com/google.rpc.QuotaFailure\",\n        \"violations\": [\n          {\n            \"quotaMetric\": \"generativelanguage.googleapis.com/generate_content_paid_tier_input_token_count\",\n            \"quotaId\": \"GenerateContentPaidTierInputTokensPerModelPerMinute\","), taxonomy.RateLimited, 0},
		{"n8n-io/n8n#23778 (Gemini through LangChain.js)", text("The service is receiving too many requests from you\n[GoogleGenerativeAI Error]: Error fetching from https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent: [429 Too Many Requests] You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits. To monitor your current usage, head to: https://ai.dev/usage?tab=rate-limit. * Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 5, model: gemini-2.5-flash Please retry in 12.013647075s. [{\"@type\":\"type.googleapis.com/google.rpc.Help\",\"links\":[{\"description\":\"Learn more about Gemini API quotas\",\"url\":\"https://ai.google.dev/gemini-api/docs/rate-limits\"}]},{\"@type\":\"type.googleapis.com/google.rpc.QuotaFailure\",\"violations\":[{\"quotaMetric\":\"generativelanguage.googleapis.com/generate_content_free_tier_requests\",\"quotaId\":\"GenerateRequestsPerMinutePerProjectPerModel-FreeTier\",\"quotaDimensions\":{\"location\":\"global\",\"model\":\"gemini-2.5-flash\"},\"quotaValue\":\"5\"}]},{\"@type\":\"type.googleapis.com/google.rpc.RetryInfo\",\"retryDelay\":\"12s\"}]"), taxonomy.RateLimited, 12013647075 * time.Nanosecond},
		{"n8n-io/n8n#25347", text(`Workflow could not be published: Too Many Requests: retry after 1`), taxonomy.RateLimited, time.Second},
		{"n8n-io/n8n#19619", text("Problem in node ‘Transcribe a recording‘\nThe service is receiving too many requests from you"), taxonomy.RateLimited, 0},
		{"diffbot/code-gpt-docs#27", text(`OpenAI API Response was: Error: Request failed with status code 429. More information about this error: https://www.codegpt.co/docs/tutorial-basics/api_errors`), taxonomy.RateLimited, 0},
		{"langgenius/dify#22376 (DashScope through Dify's plugin)", text(`[ERROR]plugin langgenius/tongyi:0.0.33: invalid character 'R' looking for beginning of value status: original response: Rate limit exceeded (429). Response: {"status_code": 429, "request_id": "4ab35fe8-0909-9934-bd34-f4bef2f4eeae", "code": "Throttling.RateQuota", "message": "Requests rate limit exceeded, please try again later.", "output": null, "usage": null}`), taxonomy.RateLimited, 0},
		{"langgenius/dify#18378 (an API gateway's limit per IP)", text(`[openai_api_compatible] Error: PluginInvokeError: {"args":{"description":"[models] Error: API request failed with status code 429: {\"error_msg\":\"The throttling threshold has been reached: policy ip over ratelimit,limit:5,time:1 minute\",\"error_code\":\"APIG.0308\",\"request_id\":\"914a39d68c290da3e187f827f7e1b771\"}\n"},"error_type":"InvokeError","message":"[models] Error: API request failed with status cod`), taxonomy.RateLimited, 0},
		{"langgenius/dify#12142 (DashScope)", text(`Request: https://dashscope.aliyuncs.com/api/v1/services/aigc/multimodal-generation/generation failed, status: 429, message: Requests rate limit exceeded, please try again later.`), taxonomy.RateLimited, 0},
		{"microsoft/semantic-kernel#2486", text(`Throttling: Too many requests, HTTP status: 429`), taxonomy.RateLimited, 0},
		{"microsoft/semantic-kernel#2486 (its retry handler's log)", text(`Error executing action [attempt 1 of 1]. Reason: TooManyRequests. Will retry after 9000ms`), taxonomy.RateLimited, 9 * time.Second},
		{"BerriAI/litellm#589 (Bedrock)", text(`Error occurred: An error occurred (throttlingException) when calling the InvokeModelWithResponseStream operation: Too many requests, please wait before trying again. You have sent too many requests.  Wait before trying again.`), taxonomy.RateLimited, 0},
		{"aws/fmeval#124 (Bedrock)", text(`ThrottlingException: An error occurred (ThrottlingException) when calling the InvokeModel operation (reached max retries: 10): Too many requests, please wait before trying again. You have sent too many requests.  Wait before trying again`), taxonomy.RateLimited, 0},

		// ---- overloads, outages and broken responses ----
		{"anthropics/anthropic-sdk-python#757 (typographic quotes)", text(`{“type”:“error”,“error”:{“details”:null,“type”:“overloaded_error”,“message”:“Overloaded”}}`), taxonomy.Overloaded, 0},
		{"tatookan/comfyui_ssl_gemini_EXP#6", text(`API调用错误: 503 UNAVAILABLE. {'error': {'code': 503, 'message': 'Deadline expired before operation could complete.', 'status': 'UNAVAILABLE'}}`), taxonomy.Overloaded, 0},
		{"google-gemini/gemini-cli#11196", text("[API Error: [{\n    \"error\": {\n      \"code\": 503,\n      \"message\": \"The service is currently unavailable.\",\n      \"errors\": [\n        {\n          \"message\": \"The service is currently unavailable.\",\n          \"domain\": \"global\",\n          \"reason\": \"backendError\"\n        }\n      ],\n      \"status\": \"UNAVAILABLE\"\n    }\n  }\n  ]]"), taxonomy.Overloaded, 0},
		{"vercel/ai#4664 (Gemini's cache API)", text(`[GoogleGenerativeAI Error]: Error fetching from https://generativelanguage.googleapis.com/v1beta/cachedContents: [503 Service Unavailable] The service is currently unavailable.. The service may be experiencing high load or maintenance. Please try again later`), taxonomy.Overloaded, 0},
		{"google/generative-ai-docs#314 (gRPC could not reach Google)", text(`google.api_core.exceptions.ServiceUnavailable: 503 failed to connect to all addresses; Last error: UNKNOWN: ipv4:142.251.42.234:443: TCP handshake shutdown`), taxonomy.Transient, 0},
		{"microsoft/autogen#815 (FastChat's busy page as a 400)", text(`openai.BadRequestError: Error code: 400 - {'object': 'error', 'message': '**NETWORK ERROR DUE TO HIGH TRAFFIC. PLEASE REGENERATE OR`), taxonomy.Overloaded, 0},
		{"microsoft/autogen#2702", text(`openai.InternalServerError: Error code: 500 - {'error': {'message': 'The model produced invalid content. Consider modifying your prompt if you are seeing this error persistently.', 'type': 'model_error', 'param': None, 'code': None}}`), taxonomy.Transient, 0},
		{"microsoft/kernel-memory#275", text(`One or more errors occurred. (Response status code does not indicate success: 500 (Internal Server Error).)`), taxonomy.Transient, 0},
		{"xiaoY233/Chat2API#33 (DeepSeek)", text(`测试失败，错误：http status code: 503, error message: No available account for model: DeepSeek-R1-Search`), taxonomy.Overloaded, 0},
		{"deepseek-ai/DeepSeek-V3#494 (an empty body while the API was under attack)", text("    raise JSONDecodeError(\"Expecting value\", s, err.value) from None\njson.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)"), taxonomy.Transient, 0},
		{"deepseek-ai/DeepSeek-V3#494 (Roo Code)", text(`Unexpected API Response: The language model did not provide any assistant messages. This may indicate an issue with the API or the model's output.`), taxonomy.Transient, 0},
		{"langchain-ai/langchain#11694 (a stream cut inside its JSON)", text(`APIError: HTTP code 200 from API ("{\"rate_limit_usage\": {\)`), taxonomy.Transient, 0},

		// ---- connection failures named by a framework ----
		{"Aider-AI/aider#2812", text(`litellm.APIError: APIError: OpenAIException - Connection error.`), taxonomy.Transient, 0},
		{"Aider-AI/aider#3018 (OpenRouter)", text(`litellm.APIError: APIError: OpenrouterException - Connection error.`), taxonomy.Transient, 0},
		{"BerriAI/litellm#32898 (Ollama)", text(`APIConnectionError: litellm.APIConnectionError: OllamaException - [WinError 10061] No connection could be made because the target machine actively refused it`), taxonomy.Transient, 0},

		// ---- credentials ----
		{"FlowiseAI/Flowise#5776", text(`401 Invalid model key or Incorrect local model configuration.`), taxonomy.Permanent, 0},
		{"FlowiseAI/Flowise#192", text(`Error: Request failed with status code 401`), taxonomy.Permanent, 0},
		{"iflow-ai/iflow-cli#68", text(`API Error: generate data error: Invalid API key provided`), taxonomy.Permanent, 0},
		{"langflow-ai/langflow#3816", text(`Error: 403 Forbidden - {"detail":"An API key must be passed as query or header"}`), taxonomy.Permanent, 0},
		{"langflow-ai/langflow#3140", text(`{"detail": "Invalid or missing API key"}`), taxonomy.Permanent, 0},
		{"assafelovic/gpt-researcher#1108 (Fireworks with a placeholder key)", text(`AuthenticationError: Error code: 401 - {'error': {'message': 'Incorrect API key provided: dummy_key. You can find your API key at https://platform.openai.com/account/api-keys.', 'type': 'invalid_request_error', 'param': None, 'code': 'invalid_api_key'}}`), taxonomy.Permanent, 0},
		{"chatchat-space/Langchain-Chatchat#1512 (a proxy's 403 page, retried by LangChain)", text(`WARNING: Retrying langchain.chat_models.openai.acompletion_with_retry.<locals>._completion_with_retry in 4.0 seconds as it raised APIError: HTTP code 403 from API (<html><title>403: Forbidden</title><body>403: Forbidden</body></html>).`), taxonomy.Permanent, 0},

		// ---- context overflow ----
		{"cline/cline#3120 (xAI)", text(`400 "This model's maximum prompt length is 131072 but the request contains 136973 tokens."`), taxonomy.ContextOverflow, 0},
		{"UKGovernmentBEIS/inspect_ai#5208 (xAI over gRPC)", text("status = StatusCode.INVALID_ARGUMENT\ndetails = \"Failed to start sampling: [input_too_large] Current message (1149677 tokens) exceeds budget (975424 tokens)\""), taxonomy.ContextOverflow, 0},
		{"OpenHands/OpenHands#1902 (Groq)", text(`Error while running the agent: GroqException - Error code: 400 - {'error': {'message': 'Please reduce the length of the messages or completion.', 'type': 'invalid_request_error', 'param': 'messages', 'code': 'context_length_exceeded'}}`), taxonomy.ContextOverflow, 0},
		{"Niek/chatgpt-web#525", text(`Error: 400 - This model's maximum context length has been exceeded. Please reduce the length of the messages.`), taxonomy.ContextOverflow, 0},
		{"chenyme/grok2api#693", text("HTTP 400\nThis model's maximum prompt length is 500000 but the request contains 907154 tokens."), taxonomy.ContextOverflow, 0},
		{"AstrBotDevs/AstrBot#1", text(`openai.error.InvalidRequestError: This model's maximum context length is 4097 tokens, however you requested 4569 tokens (3545 in your prompt; 1024 for the completion). Please reduce your prompt; or completion length.`), taxonomy.ContextOverflow, 0},

		// ---- invalid requests ----
		{"HELPMEEADICE/doge-code#5 (DeepSeek)", text(`API Error: OpenAI compatible request failed with status 400: {"error":{"message":"Invalid max_tokens value, the valid range of max_tokens is [1, 8192]","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}`), taxonomy.Permanent, 0},
		{"Alishahryar1/free-claude-code#955 (Groq)", text("Upstream provider GROQ returned HTTP 400.\n  Category: invalid_request_error\n  Mapped message: Invalid request sent to provider.\n\n  Upstream error:\n  {\"message\":\"max_completion_tokens must be less than or equal to 40960, the maximum value for max_completion_tokens is\n  less than the context_window for this model\",\"type\":\"invalid_request_error\",\"param\":\"max_completion_tokens\"}"), taxonomy.Permanent, 0},
		{"QwenLM/Qwen3-VL#238 (vLLM, an empty message)", text(`openai.BadRequestError: Error code: 400 - {'object': 'error', 'message': '', 'type': 'BadRequestError', 'param': None, 'code': 400}`), taxonomy.Permanent, 0},
		{"justlovemaki/AIClient2API#497", text(`{"error":{"message":"Request failed with status code 400","type":"invalid_request_error","code":"invalid_request_error"}}`), taxonomy.Permanent, 0},
		{"ymichael/open-codex#15 (Gemini through an OpenAI client)", text(`OpenAI rejected the request. Error details: Status: 400, Code: unknown, Type: unknown, Message: 400 status code (no body).`), taxonomy.Permanent, 0},
		{"GoogleCloudPlatform/firebase-extensions#731 (Genkit)", text(`Error: [GoogleGenerativeAI Error]: Error fetching from https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent: [400 Bad Request] `), taxonomy.Permanent, 0},
		{"microsoft/autogen#5532 (Together's chat template)", text("Error code: 400 - {'id': '9116d04209b7edca', 'error': {'message': 'Template error: (unknown path) [Line 77, Column 31]\\n  Error: Unable to call `raise_exception`, which is undefined or falsey', 'type': 'invalid_request_error', 'param': 'messages', 'code': None}}"), taxonomy.Permanent, 0},
		{"microsoft/autogen#1129 (Fireworks)", text(`openai.error.InvalidRequestError: [{'loc': ('body', 'messages', 1, 'name'), 'msg': 'extra fields not permitted', 'type': 'value_error.extra'}]`), taxonomy.Permanent, 0},
		{"evalstate/fast-agent#122 (OpenRouter)", text(`Error: Error code: 404 - {'error': {'message': 'No endpoints found that support tool use. To learn more about provider routing, visit: https://openrouter.ai/docs/provider-routing', 'code': 404}}`), taxonomy.Permanent, 0},
		{"bobrware/bobrchat#60 (Vercel AI SDK, OpenRouter)", text(`Error [AI_APICallError]: No endpoints found that support tool use. To learn more about provider routing, visit: https://openrouter.ai/docs/guides/routing/provider-selection`), taxonomy.Permanent, 0},
		{"zed-industries/zed#36094 (OpenRouter)", text(`Failed to connect to OpenRouter API: 404 Not Found {"error":{"message":"No endpoints found that support the provided 'tool_choice' value. To learn more about provider routing, visit: https://openrouter.ai/docs/provider-routing","code":404}`), taxonomy.Permanent, 0},
		{"dnakov/anon-kode#2 (OpenRouter)", text(`API Error: 404 No endpoints found that support tool use. To learn more about provider routing, visit: https://openrouter.ai/docs/provider-routing`), taxonomy.Permanent, 0},
		{"Kilo-Org/kilocode#9006 (OpenRouter, no status)", text(`No endpoints found that support tool use. Try disabling "question". To learn more about provider routing, visit: https://openrouter.ai/docs/guides/routing/provider-selection`), taxonomy.Permanent, 0},

		// ---- models missing or unable to run ----
		{"home-assistant/core#139085 (Ollama)", text(`Unexpected error talking to Ollama server: model requires more system memory (7.3 GiB) than is available (6.0 GiB) (status code: 500)`), taxonomy.Permanent, 0},
		{"ollama/ollama#460", text(`ValueError: Ollama call failed with status code 400. Details: stat /Users/satyam7166/.ollama/models/manifests/registry.ollama.ai/library/llama2/13b: no such file or directory`), taxonomy.Permanent, 0},
		{"chatchat-space/Langchain-Chatchat#4925 (Ollama)", text(`openai request error: Error code: 404 - {'error': {'message': 'model "qwen:7b" not found, try pulling it first', 'type': 'api_error', 'param': None, 'code': None}}`), taxonomy.Permanent, 0},
		{"ollama/ollama#2203 (MemGPT)", text(`Exception: API call got non-200 response code (code=404, msg={"error":"model 'codellama:7b-instruct-q6_K' not found, try pulling it first"}) for address: http://127.0.0.1:63321/api/generate. Make sure that the ollama API server is running and reachable at http://127.0.0.1:63321/api/generate.`), taxonomy.Permanent, 0},
		{"ollama/ollama#503", text(`404 Client Error: Not Found for url: https://ollama.ai/api/models`), taxonomy.Permanent, 0},
		{"vllm-project/vllm#3486", text("{\"object\":\"error\",\"message\":\"The model `Qwen1.5-14B-Chat-GPTQ-Int8` does not exist.\",\"type\":\"NotFoundError\",\"param\":null,\"code\":404}"), taxonomy.Permanent, 0},
		{"BerriAI/litellm#3142", text(`Exception raised= Error code: 400 - {'error': {'message': "400: {'error': 'Invalid model name passed in model=Lite-GPT-12'}", 'type': 'None', 'param': 'None', 'code': 400}}`), taxonomy.Permanent, 0},
		{"CraftJarvis/JarvisVLA#5 (vLLM)", text(`requests.exceptions.HTTPError: The request model: jarvis_vla_qwen2_vl_7b_sft does not exist!`), taxonomy.Permanent, 0},
		{"lmstudio-ai/lmstudio-bug-tracker#1170", text("🥲 Failed to load the model\n\nError loading model.\n\n(Exit code: 6). Please check settings and try loading the model again."), taxonomy.Permanent, 0},
	}
}

func eighthTuning() []heldOutRow { return splitBatch(eighthBatch(), false) }
func eighthSealed() []heldOutRow { return splitBatch(eighthBatch(), true) }
