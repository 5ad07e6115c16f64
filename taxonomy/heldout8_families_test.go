package taxonomy_test

import (
	"errors"
	"time"

	"github.com/resilientgo/resilient/taxonomy"
)

// eighthFamilyCases are the rows of the families that the eighth held-out
// batch's tuning part found misclassified, each from a real framework,
// provider or SDK text (the source is in the row's name), next to the rows
// of texts they must not match.
func eighthFamilyCases() []classifyCase {
	C, P, R, T, U := taxonomy.ContextOverflow, taxonomy.Permanent, taxonomy.RateLimited, taxonomy.Transient, taxonomy.Unknown
	text := errors.New
	return []classifyCase{
		// ---- a status's name written as one word ----
		{"Semantic Kernel's retry handler (microsoft/semantic-kernel#2486)", text(`Error executing action [attempt 1 of 1]. Reason: TooManyRequests. Will retry after 9000ms`),
			hinted(R, `marker "toomanyrequests"`, 0, 9*time.Second)},
		{"the handler giving up (microsoft/semantic-kernel#2486)", text(`Error executing request, max retry count reached. Reason: TooManyRequests`),
			class(R, `marker "toomanyrequests"`, 0)},
		// No rate limit, but a request at fault in words (issue 24).
		{"too many requested fields is no rate limit", text(`invalid query: too many requested fields`),
			class(P, `words "invalid … fields"`, 0)},
		{"google.api_core's GatewayTimeout class name", text(`google.api_core.exceptions.GatewayTimeout: request to the model timed out at the front end`),
			class(T, `pattern "gatewaytimeout"`, 0)},
		{".NET's HttpStatusCode.BadGateway in a retry log", text(`Error executing action [attempt 2 of 3]. Reason: BadGateway. Will retry after 2000ms`),
			hinted(T, `pattern "badgateway"`, 0, 2*time.Second)},
		{"a setting named after the gateway's timeout is no failure", text(`metrics: badgatewaycount=0 upstreams=3`),
			class(U, "no rule matched", 0)},

		// ---- a JSON parser that found no body ----
		{"Python's json on DeepSeek's empty body (deepseek-ai/DeepSeek-V3#494)", text("    raise JSONDecodeError(\"Expecting value\", s, err.value) from None\njson.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)"),
			class(T, `marker "expecting value: line 1 column 1 (char 0)"`, 0)},
		{"Rust's serde_json on an empty body", text(`error decoding response body: EOF while parsing a value at line 1 column 0`),
			class(T, `marker "eof while parsing a value at line 1 column 0"`, 0)},
		{"a value expected further into a document is a malformed request, no rule", text(`json.decoder.JSONDecodeError: Expecting value: line 3 column 14 (char 52)`),
			class(U, "no rule matched", 0)},

		// ---- a key missing ----
		{"Langflow (langflow-ai/langflow#3140)", text(`{"detail": "Invalid or missing API key"}`),
			account(`pattern "missing api key"`, 0)},
		{"an API key is missing", text(`Error: The API key is missing. Set OPENAI_API_KEY.`),
			account(`pattern "missing api key"`, 0)},
		// No key failure, but a request at fault in words (issue 24).
		{"a missing field next to an API key is no key failure", text(`api key saved; missing field "model" in config`),
			class(P, `words "missing … field"`, 0)},

		// ---- a model named after a colon ----
		{"vLLM behind requests (CraftJarvis/JarvisVLA#5)", text(`requests.exceptions.HTTPError: The request model: jarvis_vla_qwen2_vl_7b_sft does not exist!`),
			missing(`pattern "model does not exist"`, 0)},
		{"a model: field whose tool was not found is no missing model", text(`model: gpt-4o tool lookup_weather was not found`),
			class(U, "no rule matched", 0)},

		// ---- families of the sealed part, written after its figure ----
		{"xAI over gRPC (UKGovernmentBEIS/inspect_ai#5208)", text("status = StatusCode.INVALID_ARGUMENT\ndetails = \"Failed to start sampling: [input_too_large] Current message (1149677 tokens) exceeds budget (975424 tokens)\""),
			class(C, `marker "input_too_large"`, 0)},
		{"a budget exceeded without the code is no overflow", text(`monthly budget exceeded for project p-1`),
			class(U, "no rule matched", 0)},
		{"pydantic 1's refusal of a field (microsoft/autogen#1129, Fireworks)", text(`openai.error.InvalidRequestError: [{'loc': ('body', 'messages', 1, 'name'), 'msg': 'extra fields not permitted', 'type': 'value_error.extra'}]`),
			class(P, `marker "extra fields not permitted"`, 0)},
		{"extra fields allowed is no refusal", text(`config: extra fields permitted in metadata`),
			class(U, "no rule matched", 0)},
		{"the Telegram Bot API's 429 through n8n (n8n-io/n8n#25347)", text(`Workflow could not be published: Too Many Requests: retry after 1`),
			hinted(R, `marker "too many requests"`, 0, time.Second)},
		{"Telegram's description in its JSON body", text(`{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 35","parameters":{"retry_after":35}}`),
			hinted(R, `marker "too many requests"`, 0, 35*time.Second)},
		{"a number after retry after in other words is no wait", text(`429 rate limited: will retry after 3 attempts`),
			class(R, "status 429", 429)},
	}
}
