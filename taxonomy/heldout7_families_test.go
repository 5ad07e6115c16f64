package taxonomy_test

import (
	"errors"
	"time"

	"github.com/resilientgo/resilient/taxonomy"
)

// seventhFamilyCases are the rows of the families that the seventh held-out
// batch's tuning part found misclassified or without their wait, each from
// a real provider or runner text (the source is in the row's name), next to
// the rows of texts they must not match. The bare X-RateLimit-Reset header
// has its rows in TestHeaderEvidence.
func seventhFamilyCases() []classifyCase {
	C, O, P, R, T, U := taxonomy.ContextOverflow, taxonomy.Overloaded, taxonomy.Permanent, taxonomy.RateLimited, taxonomy.Transient, taxonomy.Unknown
	text := errors.New
	return []classifyCase{
		// ---- Gemini's RetryInfo in Python's repr ----
		{"google-genai's ClientError (llmsresearch/paperbanana#10)", text(`google.genai.errors.ClientError: 429 RESOURCE_EXHAUSTED. {'error': {'code': 429, 'status': 'RESOURCE_EXHAUSTED', 'details': [{'@type': 'type.googleapis.com/google.rpc.RetryInfo', 'retryDelay': '59s'}]}}`),
			hinted(R, "status 429", 429, 59*time.Second)},
		{"a fractional retryDelay in the repr (googleapis/python-genai#2044)", text(`429 RESOURCE_EXHAUSTED. {'error': {'code': 429, 'details': [{'@type': 'type.googleapis.com/google.rpc.RetryInfo', 'retryDelay': '4.5s'}]}}`),
			hinted(R, "status 429", 429, 4500*time.Millisecond)},
		{"retryDelay with mixed quotes is read too", text(`429 RESOURCE_EXHAUSTED. {'retryDelay": '59s'}`),
			hinted(R, "status 429", 429, 59*time.Second)},
		{"a retryDelay without a unit is no hint", text(`429 RESOURCE_EXHAUSTED. {'retryDelay': '59'}`),
			class(R, "status 429", 429)},

		{"retryDelay as JSON inside a JSON string (RooCodeInc/Roo-Code#3883)", text(`got status: 429 Too Many Requests. {"error":{"message":"{\n \"error\": {\n \"details\": [{\n \"@type\": \"type.googleapis.com/google.rpc.RetryInfo\",\n \"retryDelay\": \"26s\"\n }]}}\n","code":429}}`),
			hinted(R, "status 429", 429, 26*time.Second)},
		{"retryDelay as genai's Go error prints its details", genaiAPIError{Code: 429, Message: "Resource exhausted.", Status: "RESOURCE_EXHAUSTED", Details: []map[string]any{{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "47s"}}},
			withCode(hinted(R, "status 429", 429, 47*time.Second), "RESOURCE_EXHAUSTED")},
		{"a retryDelayMs field is no hint", text(`429 {"retryDelayMs": 500}`),
			class(R, "status 429", 429)},

		// ---- statuses in two more places ----
		{"Dart's Dio (babakcode/flutter_gemini#44)", text(`GeminiException => This exception was thrown because the response has a status code of 503 and RequestOptions.validateStatus was configured to throw for this status code.`),
			class(O, "status 503", 503)},
		{"a status of 200 items is no failure", text(`sync finished with status of 200 items pending`),
			class(U, "no rule matched", 0)},
		{"Google's front end's page (kenvandine/gemini-desktop#11)", text("502. That’s an error.\n\nThe server encountered a temporary error and could not complete your request."),
			class(T, "status 502", 502)},
		{"the page with a plain apostrophe (mislav/hub#2602)", text("Error details: 502. That's an error. The server encountered a temporary error and could not complete your request. Please try again in 30 seconds."),
			hinted(T, "status 502", 502, 30*time.Second)},
		{"a count before that's an error is no status", text(`found 404 items. that is an error in the index`),
			class(U, "no rule matched", 0)},

		// ---- the prompt longer than the context ----
		{"SGLang (QwenLM/Qwen3#1321)", text(`{"object":"error","message":"The input (61709 tokens) is longer than the model\'s context length (40960 tokens).","type":"BadRequestError","param":null,"code":400}`),
			class(C, `pattern "longer than the context length"`, 400)},
		{"SGLang's engine (sgl-project/sglang#8096)", text(`ValueError: The input (85050 tokens) is longer than the model's context length (32768 tokens).`),
			class(C, `pattern "longer than the context length"`, 0)},
		{"LM Studio (lmstudio-ai/lmstudio-bug-tracker#2205)", text(`The number of tokens to keep from the initial prompt is greater than the context length. Try to load the model with a larger context length, or provide a shorter input`),
			class(C, `pattern "longer than the context length"`, 0)},
		{"a text longer than the context it summarizes is no overflow", text(`summary check failed: the summary is longer than the context it summarizes`),
			class(U, "no rule matched", 0)},
		{"Bedrock's maxLength (ryanadoty/Amazon-Bedrock-Amazon-RDS-POC#9)", text(`ValidationException: An error occurred (ValidationException) when calling the InvokeModel operation: Malformed input request: expected maxLength: 42000, actual: 46735, please reformat your input and try again.`),
			class(C, `pattern "expected maxlength"`, 0)},
		{"Bedrock's embeddings maxLength (autogluon/autogluon-rag#50)", text(`Malformed input request: #/texts/1: expected maxLength: 2048, actual: 2449, please reformat your input and try again.`),
			class(C, `pattern "expected maxlength"`, 0)},
		{"Bedrock's body constraint (langchain-aws#419)", text(`ValidationException: An error occurred (ValidationException) when calling the InvokeModel operation: 1 validation error detected: Value at 'body' failed to satisfy constraint: Member must have length less than or equal to 25000000`),
			class(C, `pattern "body over its length constraint"`, 0)},
		{"another field's length constraint is a bad request", text(`ValidationException: 1 validation error detected: Value at 'modelId' failed to satisfy constraint: Member must have length less than or equal to 2048`),
			class(P, `exception "validationexception"`, 0)},
		{"Bedrock's malformed input without sizes stays a bad request", text(`ValidationException: Malformed input request: #: required key [messages] not found, please reformat your input and try again.`),
			class(P, `exception "validationexception"`, 0)},

		{"SGLang's maximum allowed length (sgl-project/sglang#4048)", text(`Input length (160062 tokens) exceeds the maximum allowed length (59862 tokens).`),
			class(C, `pattern "input exceeds the maximum length"`, 0)},
		{"a prompt length over the maximum", text(`error: prompt length exceeds max length`),
			class(C, `pattern "input exceeds the maximum length"`, 0)},
		{"a field's length over its maximum is no overflow", text(`tool name length exceeds the maximum length of 64`),
			class(U, "no rule matched", 0)},
		{"llama.cpp's kept prompt over the window (anomalyco/opencode#11141)", text(`Cannot truncate prompt with n_keep (15028) >= n_ctx (7424)`),
			class(C, `marker "cannot truncate prompt"`, 0)},

		// ---- content filtering and tool schemas ----
		{"Anthropic's output filter without a status (anthropics/claude-code#61565)", text(`Error: {"type":"error","error":{"details":null,"type":"invalid_request_error","message":"Output blocked by content filtering policy"},"request_id":"req_011CbJJYbhxmN3uwLeQ87QhJ"}`),
			class(P, `marker "content filtering policy"`, 0)},
		{"OpenAI's schema refusal (alibaba/spring-ai-alibaba#4576)", text(`{"error":{"message":"Invalid schema for function 'sendEmailTool': schema must be a JSON Schema of 'type: \"object\"', got 'type: \"string\"'.","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}`),
			class(P, `pattern "invalid tool schema"`, 0)},
		{"DeepSeek's schema refusal through a proxy (farion1231/cc-switch#5490)", text(`cause: Invalid schema for function 'codex_app__automation_update': schema must be a JSON Schema of 'type: "object"', got 'type: null'.`),
			class(P, `pattern "invalid tool schema"`, 0)},
		{"a tool's own schema check is no refusal of the request", text(`tool output did not match the response schema for tool x`),
			class(U, "no rule matched", 0)},

		{"a Chinese provider's unsafe content (NousResearch/hermes-agent#59306)", text(`抱歉，您的请求包含不安全内容，已被系统拦截。`),
			class(P, `pattern "unsafe content (zh)"`, 0)},
		{"sensitive content (zh)", text(`输入内容包含敏感内容，请修改后重试`),
			class(P, `pattern "unsafe content (zh)"`, 0)},
		{"content alone (zh) is no refusal", text(`内容为空`),
			class(U, "no rule matched", 0)},
		{"images only for some models (roboflow/awesome-openai-vision-api-experiments#11)", text(`ValueError: Invalid content type. image_url is only supported by certain models.`),
			class(P, `pattern "only supported by certain models"`, 0)},
		{"only supported by the caller's plan is no model limit", text(`batch mode is only supported by certain plans`),
			class(U, "no rule matched", 0)},

		// ---- a limit per month ----
		{"Cohere's trial key per month (cohere-ai/cohere-developer-experience#199)", text(`status_code: 429, body: {'message': "You are using a Trial key, which is limited to 1000 API calls / month. You can continue to use the Trial key for free or upgrade to a Production key"}`),
			account(`pattern "limit per month"`, 429)},
		{"a monthly limit with a retry hint is a rate limit", text(`429 monthly limit: requests per month exhausted, please try again in 30s`),
			hinted(R, `pattern "limit per month" that lifts by itself`, 429, 30*time.Second)},
		{"Cohere's trial key per minute stays a rate limit (cohere-ai/cohere-python#325)", text(`status_code: 429, body: {'message': "You are using a Trial key, which is limited to 10 API calls / minute."}`),
			class(R, "status 429", 429)},
		{"OpenRouter's limit per day stays a rate limit (Gitlawb/openclaude#1549)", text(`429 {"error":{"message":"Rate limit exceeded: free-models-per-day-high-balance.","type":"rate_limit_error","code":"429"}}`),
			class(R, "status 429", 429)},
	}
}

// withCode sets the provider's code a class carries.
func withCode(c taxonomy.Class, code string) taxonomy.Class {
	c.Code = code
	return c
}
