package taxonomy_test

import (
	"errors"

	"github.com/resilientgo/resilient/taxonomy"
)

// fifthFamilyCases are the rows of the families that the fifth held-out
// batch's tuning part found misclassified (and its sealed part, once its
// figure was taken), each from a real provider, runner, gateway, SDK or
// framework text (the source is in the row's name), next to the rows of
// texts they must not match.
func fifthFamilyCases() []classifyCase {
	P, R, O, T, U := taxonomy.Permanent, taxonomy.RateLimited, taxonomy.Overloaded, taxonomy.Transient, taxonomy.Unknown
	text := errors.New
	return []classifyCase{
		// ---- a runner with no free slot ----
		{"ollama's llm busy (ollama/ollama#4159)", text(`{"error":"unexpected server status: llm busy - no slots available"}`),
			class(O, `marker "server busy"`, 0)},
		{"ollama-python's no slots (ollama/ollama#4545)", text(`ollama._types.ResponseError: no slots available after 10 retries`),
			class(O, `pattern "no free slot"`, 0)},
		{"a busy_ setting is no busy server", text(`gpu busy_percent=87 reported by the runner`),
			class(U, "no rule matched", 0)},
		{"slots counted, none missing", text(`slots: 3 of 4 in use`),
			class(U, "no rule matched", 0)},

		// ---- a gateway's upstream that failed ----
		{"OpenCode's gateway (anomalyco/opencode#37231)", text(`Error from provider (Console Go): Upstream request failed`),
			class(T, `marker "upstream request failed"`, 0)},
		{"sub2api's error event, its type (Wei-Shaw/sub2api#2857)", text(`event: error data: {"error":{"type":"upstream_error","message":"Upstream request failed"}}`),
			class(T, `type "upstream_error"`, 0)},
		{"an upstream error with its status: the status decides", text(`upstream error: 429 Too Many Requests`),
			class(R, "status 429", 429)},
		{"a gateway's upstream that refused to pay: the status decides (Alishahryar1/free-claude-code#772)", text(`Upstream provider OPENROUTER returned HTTP 402.`),
			account("status 402", 402)},
		{"an upstream that failed to build is no gateway", text(`the upstream repository failed to build`),
			class(U, "no rule matched", 0)},
		{"a bare upstream failed names no call", text(`upstream failed`),
			class(U, "no rule matched", 0)},

		// ---- the status where other clients write it ----
		{".NET's HttpRequestException, a 404 (dotnet/runtime, net_http_message_not_success_statuscode)", text(`Response status code does not indicate success: 404 (Not Found).`),
			missing("status 404", 404)},
		{".NET's HttpRequestException, a 503", text(`Response status code does not indicate success: 503 (Service Unavailable).`),
			class(O, "status 503", 503)},
		{"Python's print of a pair (acheong08/ChatGPT#447)", text(`('Response code error: ', 524)`),
			class(T, "status 524", 524)},
		{"a count before a bracket is no status", text(`read 4096 bytes (buffer full)`),
			class(U, "no rule matched", 0)},
		{"a number in brackets after no reason phrase is no status", text(`kept 404 (cached) entries`),
			class(U, "no rule matched", 0)},
		{"a response code of success is no failure", text(`response code 200 after 3 tries`),
			class(U, "no rule matched", 0)},

		// ---- a credential named a token ----
		{"Cohere's invalid api token (cohere-ai/notebooks#6)", text(`CohereError: invalid api token`),
			account(`pattern "invalid token"`, 0)},
		{"an expired access token", text(`access token expired`),
			account(`pattern "invalid token"`, 0)},
		{"a token count is no credential", text(`invalid token count: expected 3, got 4`),
			class(U, "no rule matched", 0)},
		{"a JSON parse error is no credential", text(`SyntaxError: Unexpected token < in JSON at position 0`),
			class(U, "no rule matched", 0)},

		// ---- a body that is a reason phrase ----
		{"FastAPI's default 404 (ChatGPTNextWeb/NextChat#3581)", text(`{"detail": "Not Found"}`),
			missing("status 404", 404)},
		{"Starlette's default detail for a 405 (HTTPException: the status's phrase)", text(`{"detail":"Method Not Allowed"}`),
			class(P, "status 405", 405)},
		{"a phrase inside a longer message names no status", text(`{"detail": "Not Found in cache, refreshing"}`),
			class(U, "no rule matched", 0)},
		{"a phrase outside a body member names no status", text(`lookup: not found`),
			class(U, "no rule matched", 0)},

		// ---- a conversation the chat format does not take ----
		{"Perplexity's alternation (serac-labs/serac#53)", text(`After the (optional) system message(s), user or tool message(s) should alternate with assistant message(s).`),
			class(P, `pattern "roles must alternate"`, 0)},
		{"a Hugging Face chat template's (Mistral tokenizer_config chat_template)", text(`jinja2.exceptions.TemplateError: Conversation roles must alternate user/assistant/user/assistant/...`),
			class(P, `pattern "roles must alternate"`, 0)},
		{"an alternate URL is no alternation", text(`retry with an alternate base URL`),
			class(U, "no rule matched", 0)},

		// ---- found by the sealed part, once its figure was taken ----
		{"aiohttp's ClientConnectorError (easychen/openai-api-proxy#17)", text(`ClientConnectorError: Cannot connect to host api.openai.com:443 ssl`),
			class(T, `pattern "could not connect"`, 0)},
		{"a connector is no connection", text(`cannot connector: unknown type "sqlite"`),
			class(U, "no rule matched", 0)},
		{"OpenRouter's relayed failure after a client's words (campfirein/byterover-cli#43)", text(`ERROR: Error in OpenRouter API call (Attempt 1/3): 400 Provider returned error`),
			class(P, "status 400", 400)},
		{"OpenRouter's relayed 529 (a client's test of OpenRouter's relay)", text(`API Error: 529 Provider returned error`),
			class(O, "status 529", 529)},
		{"a longer number before the words is no status", text(`retried 1400 provider returned error`),
			class(U, "no rule matched", 0)},

		// ---- Cohere's validation errors ----
		{"Cohere's invalid request (kwaroran/Risuai#504)", text(`{"message":"invalid request: message must be at least 1 token long or tool results must be specified."}`),
			class(P, `pattern "invalid request:"`, 0)},
		{"an invalid request id is no invalid request", text(`invalid request id abc123 in the log line`),
			class(U, "no rule matched", 0)},
	}
}
