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
	C, P, R, U := taxonomy.ContextOverflow, taxonomy.Permanent, taxonomy.RateLimited, taxonomy.Unknown
	text := errors.New
	return []classifyCase{
		// ---- Gemini's RetryInfo in Python's repr ----
		{"google-genai's ClientError (llmsresearch/paperbanana#10)", text(`google.genai.errors.ClientError: 429 RESOURCE_EXHAUSTED. {'error': {'code': 429, 'status': 'RESOURCE_EXHAUSTED', 'details': [{'@type': 'type.googleapis.com/google.rpc.RetryInfo', 'retryDelay': '59s'}]}}`),
			hinted(R, "status 429", 429, 59*time.Second)},
		{"a fractional retryDelay in the repr (googleapis/python-genai#2044)", text(`429 RESOURCE_EXHAUSTED. {'error': {'code': 429, 'details': [{'@type': 'type.googleapis.com/google.rpc.RetryInfo', 'retryDelay': '4.5s'}]}}`),
			hinted(R, "status 429", 429, 4500*time.Millisecond)},
		{"retryDelay with mixed quotes is no hint", text(`429 RESOURCE_EXHAUSTED. {'retryDelay": '59s'}`),
			hinted(R, "status 429", 429, 59*time.Second)},
		{"a retryDelay without a unit is no hint", text(`429 RESOURCE_EXHAUSTED. {'retryDelay': '59'}`),
			class(R, "status 429", 429)},

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
			class(C, `pattern "expected maxlength"`, 0)},
		{"another field's length constraint is a bad request", text(`ValidationException: 1 validation error detected: Value at 'modelId' failed to satisfy constraint: Member must have length less than or equal to 2048`),
			class(P, `exception "validationexception"`, 0)},
		{"Bedrock's malformed input without sizes stays a bad request", text(`ValidationException: Malformed input request: #: required key [messages] not found, please reformat your input and try again.`),
			class(P, `exception "validationexception"`, 0)},

		// ---- content filtering and tool schemas ----
		{"Anthropic's output filter without a status (anthropics/claude-code#61565)", text(`Error: {"type":"error","error":{"details":null,"type":"invalid_request_error","message":"Output blocked by content filtering policy"},"request_id":"req_011CbJJYbhxmN3uwLeQ87QhJ"}`),
			class(P, `marker "content filtering policy"`, 0)},
		{"OpenAI's schema refusal (alibaba/spring-ai-alibaba#4576)", text(`{"error":{"message":"Invalid schema for function 'sendEmailTool': schema must be a JSON Schema of 'type: \"object\"', got 'type: \"string\"'.","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}`),
			class(P, `pattern "invalid tool schema"`, 0)},
		{"DeepSeek's schema refusal through a proxy (farion1231/cc-switch#5490)", text(`cause: Invalid schema for function 'codex_app__automation_update': schema must be a JSON Schema of 'type: "object"', got 'type: null'.`),
			class(P, `pattern "invalid tool schema"`, 0)},
		{"a tool's own schema check is no refusal of the request", text(`tool output did not match the response schema for tool x`),
			class(U, "no rule matched", 0)},

		// ---- a limit per month ----
		{"Cohere's trial key per month (cohere-ai/cohere-developer-experience#199)", text(`status_code: 429, body: {'message': "You are using a Trial key, which is limited to 1000 API calls / month. You can continue to use the Trial key for free or upgrade to a Production key"}`),
			class(P, `pattern "limit per month"`, 429)},
		{"a monthly limit with a retry hint is a rate limit", text(`429 monthly limit: requests per month exhausted, please try again in 30s`),
			hinted(R, `pattern "limit per month" that lifts by itself`, 429, 30*time.Second)},
		{"Cohere's trial key per minute stays a rate limit (cohere-ai/cohere-python#325)", text(`status_code: 429, body: {'message': "You are using a Trial key, which is limited to 10 API calls / minute."}`),
			class(R, "status 429", 429)},
		{"OpenRouter's limit per day stays a rate limit (Gitlawb/openclaude#1549)", text(`429 {"error":{"message":"Rate limit exceeded: free-models-per-day-high-balance.","type":"rate_limit_error","code":"429"}}`),
			class(R, "status 429", 429)},
	}
}
