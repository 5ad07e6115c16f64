package taxonomy_test

import (
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/resilientgo/resilient/taxonomy"
)

// heldOut is a set of real provider and transport errors, each with its
// source, written down before the rules it exercises were: the rules are not
// tuned against it. TestHeldOut reports how many it gets right, as the
// decision the middleware takes (retry, compact, stop, cancel) and as the kind.
// A row that fails is not fixed here by editing the rules for that one text;
// it is reported, and the family it belongs to is fixed with rows of its own
// in classify_test.go.
func heldOut() []heldOutRow {
	text := errors.New
	return []heldOutRow{
		{"mistral 429, continuedev/continue#6185", mistral(429, `{"object":"error","message":"Service tier capacity exceeded for this model.","type":"invalid_request_error","param":null,"code":null}`), taxonomy.RateLimited, 0},
		{"mistral TS SDK 429, raycast/extensions#31107", text(`SDKError: API error occurred: Status 429 Body: {"object":"error","message":"Rate limit exceeded","type":"rate_limited","param":null,"code":"1300","raw_status_code":429}`), taxonomy.RateLimited, 0},
		{"gemini 429 capacity, google-gemini/gemini-cli#26633", text(`{"error":{"code":429,"message":"No capacity available for model on the server","status":"RESOURCE_EXHAUSTED","details":[{"reason":"MODEL_CAPACITY_EXHAUSTED"}]}}`), taxonomy.RateLimited, 0},
		{"gemini cli quota reset, google-gemini/gemini-cli#13004", text(`[{ "error": { "code": 429, "message": "You have exhausted your capacity on this model. Your quota will reset after 8h44m7s." } }]`), taxonomy.RateLimited, 0},
		{"litellm proxy overflow, OpenHands/OpenHands#5350", text(`litellm.BadRequestError: litellm.ContextWindowExceededError: AnthropicError - {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 209303 tokens > 200000 maximum"}}`), taxonomy.ContextOverflow, 0},
		{"llama.cpp 400 overflow, ggml-org/llama.cpp#19774", openai(400, `request (4390 tokens) exceeds the available context size (4096 tokens), try increasing it`), taxonomy.ContextOverflow, 0},
		{"LM Studio old overflow, lmstudio-ai/examples#29", text(`Error: Input length 6491 exceeds context length 1500`), taxonomy.ContextOverflow, 0},
		{"LM Studio mid-generation overflow, lmstudio-bug-tracker#1024", text(`Reached context length of 32000 tokens with model (arch: gpt-oss) that does not currently support mid-generation context overflow. Try reloading with a larger context length or shortening the prompt/chat.`), taxonomy.ContextOverflow, 0},
		{"llama-cpp-python overflow, fedora-copr/logdetective-website#193", text(`Requested tokens (2285) exceed context window of 2048`), taxonomy.ContextOverflow, 0},
		{"ds4 overflow, antirez/ds4#150", openai(400, `Prompt tokens (9000) exceeds context size (8192)`), taxonomy.ContextOverflow, 0},
		{"vLLM total over length, vllm-project/vllm#42474", openai(400, `This model's maximum context length is 128000 tokens. However, you requested 65535 output tokens and your prompt contains at least 62466 input tokens, for a total of at least 128001 tokens.`), taxonomy.ContextOverflow, 0},
		{"gemini 2.5 overflow, BerriAI/litellm#18282", googleai(400, `The input token count exceeds the maximum number of tokens allowed (1048576).`, nil), taxonomy.ContextOverflow, 0},
		{"groq 413 TPM request too large, HunorLaczko/ha-groq-cloud-api#27", openai(413, `Request too large for model llama-3.1-8b-instant in organization org_xxx service tier on_demand on tokens per minute (TPM): Limit 6000, Requested 12328, please reduce your message size and try again. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing`), taxonomy.ContextOverflow, 0},
		{"groq 429 TPD with billing link, console.groq.com docs", openai(429, `Rate limit reached for model llama-3.3-70b-versatile in organization org_abc service tier on_demand on tokens per day (TPD): Limit 100000, Used 99500, Requested 1200. Please try again in 12m3.5s. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing`), taxonomy.RateLimited, 0},
		{"opencode gateway 429, anomalyco/opencode#34886", text(`HTTP 429: Error from provider (Console Go): Provider rate limit exceeded`), taxonomy.RateLimited, 0},
		{"opencode gateway 503, anomalyco/opencode#34886", text(`HTTP 503: Inference is temporarily unavailable`), taxonomy.Overloaded, 0},
		{"openrouter in-band 429, BerriAI/litellm#8448", text(`{'message': 'Provider returned error', 'code': 429, 'metadata': {'raw': 'error code: 1015', 'provider_name': 'Kluster'}}`), taxonomy.RateLimited, 0},
		{"bedrock boto3 TPD, minorun365/agent-book#29", text(`An error occurred (ThrottlingException) when calling the Converse operation (reached max retries: 4): Too many tokens per day, please wait before trying again.`), taxonomy.RateLimited, 0},
		{"claude code bedrock 429, Ivy-Interactive/Ivy-Tendril#1756", text(`API Error: Request rejected (429) - Too many tokens per day, please wait before trying again.`), taxonomy.RateLimited, 0},
		{"net/http client timeout while waiting for connection", text(`Post "https://api.openai.com/v1/chat/completions": net/http: request canceled while waiting for connection (Client.Timeout exceeded while awaiting headers)`), taxonomy.Transient, 0},
		{"tls unknown authority text", text(`Post "https://api.anthropic.com/v1/messages": tls: failed to verify certificate: x509: certificate signed by unknown authority`), taxonomy.Permanent, 0},
		{"tls hostname text", text(`Post "https://10.0.0.5/v1/chat/completions": tls: failed to verify certificate: x509: certificate is valid for ingress.local, not 10.0.0.5`), taxonomy.Permanent, 0},
		{"x509 expired text", text(`x509: certificate has expired or is not yet valid: current time 2025-01-01T00:00:00Z is after 2024-12-31T23:59:59Z`), taxonomy.Permanent, 0},
		{"json into struct field text", text(`json: cannot unmarshal array into Go struct field ChatCompletionResponse.choices.message.content of type string`), taxonomy.Programming, 0},
		{"url parse colon text", text(`parse "localhost:11434/api/chat": first path segment in URL cannot contain colon`), taxonomy.Programming, 0},
		{"unsupported scheme text", text(`Post "ollama:11434/api/chat": unsupported protocol scheme "ollama"`), taxonomy.Programming, 0},
		{"litellm rate limit, docs.litellm.ai exception mapping", text(`litellm.RateLimitError: RateLimitError: OpenAIException - Error code: 429 - {'error': {'message': 'Rate limit reached for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Used 29000, Requested 2000.'}}`), taxonomy.RateLimited, 0},
		{"litellm router no deployments, BerriAI/litellm#2493", text(`No deployments available for selected model, Try again in 60 seconds. Passed model=gpt-4o. pre-call-checks=False, allowed_model_region=n/a`), taxonomy.RateLimited, 0},
		{"cloudflare 522 page title", text(`<title>api.example.com | 522: Connection timed out</title>`), taxonomy.Transient, 0},
		{"envoy upstream request timeout", text(`upstream request timeout`), taxonomy.Transient, 0},
		{"envoy no healthy upstream 503", huggingface(503, `no healthy upstream`), taxonomy.Overloaded, 0},
		{"client timeout flattened deadline", text(`Post "https://api.groq.com/openai/v1/chat/completions": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`), taxonomy.Transient, 0},
		{"read connection timed out", text(`read tcp 192.168.1.5:54321->104.18.7.192:443: read: connection timed out`), taxonomy.Transient, 0},
		{"http2 client connection lost", text(`http2: client connection lost`), taxonomy.Transient, 0},
		{"anthropic python 529", text(`Error code: 529 - {'type': 'error', 'error': {'type': 'overloaded_error', 'message': 'Overloaded'}}`), taxonomy.Overloaded, 0},
		{"cohere trial key 429, docs.cohere.com rate limits", text(`status_code: 429, body: {'message': "You are using a Trial key, which is limited to 10 API calls / minute. You can continue to use the Trial key for free or upgrade to a Production key with higher rate limits at 'https://dashboard.cohere.com/api-keys'."}`), taxonomy.RateLimited, 0},
		{"azure call rate limit pricing tier", openai(429, `Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-08-01-preview have exceeded call rate limit of your current AIServices S0 pricing tier. Please retry after 86400 seconds. Please contact Azure support service if you would like to further increase the default rate limit.`), taxonomy.RateLimited, 0},
		{"together TGI overflow", text("Input validation error: `inputs` tokens + `max_new_tokens` must be <= 8193. Given: 8000 `inputs` tokens and 512 `max_new_tokens`"), taxonomy.ContextOverflow, 0},
		{"deepseek overflow", openai(400, `This model's maximum context length is 65536 tokens. However, you requested 70000 tokens (70000 in the messages, 0 in the completion). Please reduce the length of the messages or completion.`), taxonomy.ContextOverflow, 0},
		{"anthropic not_found_error text", text(`{"type":"error","error":{"type":"not_found_error","message":"model: claude-3-5-sonnet-2024"}}`), taxonomy.Permanent, 0},
		{"gemini model not found 404 text", text(`models/gemini-1.0-pro is not found for API version v1beta, or is not supported for generateContent.`), taxonomy.Permanent, 0},
		{"bedrock invalid model id", text(`ValidationException: The provided model identifier is invalid.`), taxonomy.Permanent, 0},
		{"bedrock access denied", text(`AccessDeniedException: You don't have access to the model with the specified model ID.`), taxonomy.Permanent, 0},
		{"bedrock model not ready", text(`ModelNotReadyException: Model is not ready for inference. Wait and try your request again.`), taxonomy.Overloaded, 0},
		{"anthropic max_tokens over the model's output limit", text(`Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: 64000 > 32000, which is the maximum allowed number of output tokens for claude-opus-4-20250514"}}`), taxonomy.Permanent, 0},
		{"go-openai 503 overloaded", text(`error, status code: 503, status: 503 Service Unavailable, message: The engine is currently overloaded, please try again later`), taxonomy.Overloaded, 0},
		{"go-openai 500", text(`error, status code: 500, status: 500 Internal Server Error, message: The server had an error processing your request. Sorry about that!`), taxonomy.Transient, 0},
		{"mistral 503 capacity, BerriAI/litellm#25078", mistral(503, `{"object":"error","message":"Service tier capacity exceeded for this model.","type":"service_tier_capacity_exceeded","param":null,"code":"3505"}`), taxonomy.Overloaded, 0},
		{"localai model load failure over grpc unknown", text(`could not load model: rpc error: code = Unknown desc = failed loading model`), taxonomy.Permanent, 0},
		{"ollama in-band not found via wrap", fmt.Errorf("ollama: %w", text(`model "llama3.2" not found, try pulling it first`)), taxonomy.Permanent, 0},
		// Relabelled with the third batch: a request over the account's
		// long-context entitlement passes once it is smaller, so it is an
		// overflow, like a request over a per-minute token limit.
		{"anthropic long context requires extra usage, anthropics/claude-code#44863", anthropicStatus(429, `{"type":"error","error":{"type":"rate_limit_error","message":"Extra usage is required for long context requests."}}`), taxonomy.ContextOverflow, 0},
		// A second batch, gathered after the family rules were written and
		// classified once, as it came.
		{"gemini-cli#15745 nested 503", text(`[API Error: {"error":{"message":"{\n \"error\": {\n \"code\": 503,\n \"message\": \"The model is overloaded. Please try again later.\",\n \"status\": \"UNAVAILABLE\"\n }\n}\n","code":503,"status":"Service Unavailable"}}]`), taxonomy.Overloaded, 0},
		{"cline#440 together 503", text(`503 server is overloaded.`), taxonomy.Overloaded, 0},
		{"ollama#15934 cloud 503", text(`Ollama error 503 Service Unavailable: {"error":"Server overloaded, please retry shortly (ref: aaa65c70-cfa0-446b-86f1-4ab0e2deb9e4)"}`), taxonomy.Overloaded, 0},
		{"gemini-cli#5191 got status UNAVAILABLE", text(`[API Error: got status: UNAVAILABLE. {"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}]`), taxonomy.Overloaded, 0},
		{"gemini-cli#12831 python genai 503", text(`google.genai.errors.ServerError: 503 UNAVAILABLE. {'error': {'code': 503, 'message': 'The model is overloaded. Please try again later.', 'status': 'UNAVAILABLE'}}`), taxonomy.Overloaded, 0},
		{"Codex-Manager#23 400 no body", text(`API Error: 400 status code (no body)`), taxonomy.Permanent, 0},
		{"coder/aibridge#56 anthropic overflow body", text(`{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 205351 tokens > 200000 maximum"},"request_id":"req_011CV5J4YZo4J3KLTDZgDN7S"}`), taxonomy.ContextOverflow, 0},
		{"anthropic-sdk-typescript#711 in-band api_error", text(`data: {"error":{"code":"api_error","message":"Internal server error","param":null,"type":"invalid_request_error"}}`), taxonomy.Transient, 0},
		{"claude-code#52414 ECONNRESET", text(`API Error: Unable to connect to API (ECONNRESET)`), taxonomy.Transient, 0},
		{"claude-code#52414 429 body", text(`Error: 429 {"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed your account's rate limit. Please try again later."},"request_id":"req_011CaHHT41FETT5MSd38E7fq"}`), taxonomy.RateLimited, 0},
		{"agents-at-scale-ark#1346 stream cut mid-JSON", text(`agent default/code-reviewer execution failed: unexpected end of JSON input`), taxonomy.Transient, 0},
		{"j178/chatgpt#44 go-openai quota", text(`error, status code: 429, message: You exceeded your current quota, please check your plan and billing details.`), taxonomy.Permanent, 0},
		{"openai/codex#1597 stream disconnected", text(`stream error: stream disconnected before completion: Your input exceeds the context window of this model`), taxonomy.ContextOverflow, 0},
		{"Fabric#1140 anthropic 404", text(`Messages stream error, type: not_found_error, message: Not Founderror, status code: 404, message: anthropic api error type: not_found_error, message: Not Found`), taxonomy.Permanent, 0},
		{"claude-code#51824 stream idle timeout", text(`API Error: Stream idle timeout - partial response received`), taxonomy.Transient, 0},
		{"claude-code#51824 axios 403", text(`AxiosError: Request failed with status code 403`), taxonomy.Permanent, 0},
		{"claude-code#7043 envoy 503", text(`API Error (503 upstream connect error or disconnect/reset before headers. reset reason: remote connection failure, transport failure reason: delayed connect error: Connection refused)`), taxonomy.Overloaded, 0},
		{"anthropic-sdk-typescript#298 401", text(`Error: 401 {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`), taxonomy.Permanent, 0},
	}
}

// A heldOutRow is a real error with its source, the kind it should get and
// the wait hint it carries (0 when it carries none).
type heldOutRow struct {
	source string
	err    error
	want   taxonomy.Kind
	hint   time.Duration
}

// decision is what the middleware does with a kind.
func decision(k taxonomy.Kind) string {
	switch k {
	case taxonomy.ContextOverflow:
		return "compact"
	case taxonomy.Canceled:
		return "cancel"
	case taxonomy.Permanent, taxonomy.Programming:
		return "stop"
	}
	return "retry"
}

// TestHeldOut reports the accuracy on each held-out set (go test -run
// TestHeldOut -v lists the misses): as the decision the middleware takes,
// as the kind, and as the wait hints read. It fails if the decisions of a
// set fall below 80 %, under the figures reported in docs/testing.md: a
// guard against a rule change that breaks whole families, not a target to
// tune against. A batch registered before any rule was fitted to it (the
// ninth) carries its first-sight figure as its floor instead: it reports how
// the rules meet errors they have never seen, and fails only if a change
// makes them meet it worse.
func TestHeldOut(t *testing.T) {
	sets := []struct {
		name string
		rows []heldOutRow
		// sealed sets print their figures only, not their misses, unless
		// RESILIENT_HELDOUT_UNSEAL=1: a sealed part's figure is taken blind,
		// once the rules tuned on its batch's other part are final.
		sealed bool
	}{
		{"first and second", heldOut(), false},
		{"third, tuning", thirdTuning(), false},
		{"third, sealed", thirdSealed(), false},
		{"fourth, tuning", fourthTuning(), false},
		{"fourth, sealed", fourthSealed(), false},
		{"fifth, tuning", fifthTuning(), false},
		{"fifth, sealed", fifthSealed(), false},
		{"sixth, tuning", sixthTuning(), false},
		{"sixth, sealed", sixthSealed(), false},
		{"seventh, tuning", seventhTuning(), false},
		{"seventh, sealed", seventhSealed(), true},
		{"eighth, tuning", eighthTuning(), false},
		{"eighth, sealed", eighthSealed(), true},
		{"ninth, tuning", ninthTuning(), false},
		{"ninth, sealed", ninthSealed(), true},
		{"tenth, tuning", tenthTuning(), false},
		{"tenth, sealed", tenthSealed(), true},
		{"eleventh, tuning", eleventhTuning(), false},
		{"eleventh, sealed", eleventhSealed(), true},
		{"twelfth, tuning", twelfthTuning(), false},
		{"twelfth, sealed", twelfthSealed(), true},
		{"thirteenth, tuning", thirteenthTuning(), false},
		{"thirteenth, sealed", thirteenthSealed(), true},
		{"fourteenth, tuning", fourteenthTuning(), false},
		{"fourteenth, sealed", fourteenthSealed(), true},
		{"fifteenth, tuning", fifteenthTuning(), false},
		{"fifteenth, sealed", fifteenthSealed(), true},
		{"sixteenth, tuning", sixteenthTuning(), false},
		{"sixteenth, sealed", sixteenthSealed(), true},
		{"dev, tuning", splitBatch(devSet(), false), false},
		{"dev, check", splitBatch(devSet(), true), true},
	}
	// firstSight holds the floor, in percent of decisions, of each set
	// registered before any rule was fitted to it: its first-sight figure
	// rounded down (docs/testing.md), in place of 80 %. The ninth batch's
	// was taken at 9e91fb6: 40 of 53 and 16 of 26; the tenth's with the
	// evidence reader at 2d22cf2: 50 of 56 and 23 of 27. The eleventh,
	// twelfth and thirteenth were registered at eb6d048 with the figures
	// they had at first sight there (no rule has been fitted to them): 40 of
	// 43 and 19 of 21, 51 of 59 and 25 of 29, 50 of 56 and 24 of 27. The
	// fourteenth to sixteenth were registered at c513e2f with their figures
	// there (the rules and the token model had never been fitted to them): 45
	// of 52 and 20 of 25, 29 of 32 and 13 of 15, 30 of 35 and 15 of 17.
	firstSight := map[string]int{"ninth, tuning": 75, "ninth, sealed": 60, "tenth, tuning": 89, "tenth, sealed": 85,
		"eleventh, tuning": 93, "eleventh, sealed": 90, "twelfth, tuning": 86, "twelfth, sealed": 86,
		"thirteenth, tuning": 89, "thirteenth, sealed": 88,
		"fourteenth, tuning": 86, "fourteenth, sealed": 80, "fifteenth, tuning": 90, "fifteenth, sealed": 86,
		"sixteenth, tuning": 85, "sixteenth, sealed": 88}
	unseal := os.Getenv("RESILIENT_HELDOUT_UNSEAL") == "1"
	for _, set := range sets {
		t.Run(set.name, func(t *testing.T) {
			rows := set.rows
			logf := t.Logf
			if set.sealed && !unseal {
				logf = func(string, ...any) {} // the figure below, no misses
			}
			decisions, kinds, hints, hinted := 0, 0, 0, 0
			for _, r := range rows {
				got := taxonomy.Classify(r.err)
				if decision(got.Kind) == decision(r.want) {
					decisions++
				} else {
					logf("decision miss: %s: got %v, want %v", r.source, got, r.want)
				}
				if got.Kind == r.want {
					kinds++
				} else if decision(got.Kind) == decision(r.want) {
					logf("kind miss: %s: got %v, want %v", r.source, got, r.want)
				}
				if r.hint > 0 {
					hinted++
					if got.RetryAfter == r.hint {
						hints++
					} else {
						logf("hint miss: %s: got %v, want %v", r.source, got.RetryAfter, r.hint)
					}
				}
			}
			t.Logf("held-out %s: %d rows, decisions %d (%.1f %%), kinds %d (%.1f %%), hints %d of %d", set.name, len(rows),
				decisions, 100*float64(decisions)/float64(len(rows)), kinds, 100*float64(kinds)/float64(len(rows)), hints, hinted)
			floor, ok := firstSight[set.name]
			if !ok {
				floor = 80
			}
			if decisions*100 < len(rows)*floor {
				t.Errorf("held-out decisions %d of %d, want at least %d %%", decisions, len(rows), floor)
			}
		})
	}
}
