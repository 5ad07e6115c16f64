package taxonomy_test

import (
	"errors"
	"time"

	"github.com/resilientgo/resilient/taxonomy"
)

// The sixteenth held-out batch, gathered for a first-sight measure of the
// classifier after the fifteenth, as another sealed check: nothing in it has
// been fitted to. It holds 52 errors, taken only from repositories whose
// owners' names start with n to z or a digit (another collector took a to m
// at the same time), from sources that neither the tables, the development
// set, the llms tests nor the tenth to fifteenth batches cite (two rows come
// from repositories an earlier batch cites for another issue, with texts
// found nowhere in them: llxprt-code and vLLM). It covers clients in many
// languages and shells (.NET with System.Text.Json, a live-captions
// translator in C#, Unity in C#, openai-java's OkHttp log, a DashScope
// client in Java, a Java plugin for Ghidra, Dart and Flutter with Dio and
// chat_gpt_sdk, PHP with Prism, Guzzle, neuron-ai and Symfony AI, Elixir
// with instructor_ex, Emacs Lisp with ellama, elisa and tabby-mode, a C++
// OBS plugin over curl, Go programs with go-openai and plandex, a Rust agent
// through an Extism plugin, Node's openai client, Python with anyio,
// transformers and llama_index), editor and chat tools (Obsidian, twinny,
// Tabby, a VS Code provider for DeepSeek, SiYuan, WeChat and Telegram bots,
// a Chinese desktop chat client, translators, llxprt-code, codel), clouds
// and hosts (Gemini's OpenAI-compatible and native APIs, DashScope's
// arrears, an OpenAI policy termination, SiliconFlow's frequency limit, the
// OpenCode Go gateway, OpenAI's Assistants API), local servers (Ollama,
// LM Studio, llama.cpp's tokenizer, a crashed vLLM engine, Ray Serve's load
// shedding) and network failures (connect timeouts, an empty reply, an
// unexpected EOF, a Unity SSL handshake). Each row names the GitHub issue
// where the text was pasted, taken as pasted (surrounding noise and stack
// frames trimmed, JSON and wrapping kept as is). It was gathered in one pass
// by a collector who does not write rules and has not read the classifier's
// rules: each candidate's thread was checked against every source a test of
// taxonomy or llms cites (the earlier batches included, with and without the
// owner's name), and its text, or the same text with other numbers or names,
// against the tables, and dropped if found. The kind and the hint of each row
// were written down from what the error means, following docs/testing.md's
// conventions (a 429 or 503 that says the service is short of capacity is
// overloaded; a quota or window that refills is a rate limit, its hint the
// wait it announces clamped to MaxWaitHint, none for a wall-clock reset or a
// client's own backoff; a spending cap, a spent balance, billing, a model
// the runtime cannot serve or a TLS verification failure is permanent
// whatever its status; the caller's own abort is canceled; a bug in the
// calling code is programming). Classify was first run on it at daa212e,
// when the batch was sealed, and at each landing of the session after it; it
// was registered at c513e2f with the figure it had there as its floor
// (TestHeldOut, docs/testing.md). No rule had been fitted to it.
func sixteenthBatch() []heldOutRow {
	text := errors.New
	return []heldOutRow{
		// ---- rate limits and windows that refill: PHP's own exception, a plandex tree with a wait in words, plan usage, a Chinese hint, bare 429s, retries exhausted ----
		{"prism-php/prism#677 (PHP, Prism over Gemini)", text(`Prism\Prism\Exceptions\PrismRateLimitedException

  You hit a provider rate limit. Details: []`), taxonomy.RateLimited, 0},
		{"plandex-ai/plandex#123 (Go, plandex's nested error tree over OpenAI's TPM limit)", text(`🚨 Server error
  → Error starting reply stream
    → Error, status code
      → 429, message
        → Rate limit reached for gpt-4o in organization xxxxxxxxxx on tokens per min (TPM)
          → Limit 30000, Used 23193, Requested 15447. Please try again in 17.28s. Visit https://platform.openai.com/account/rate-limits to learn more.`), taxonomy.RateLimited, 17280 * time.Millisecond},
		{"robotlearning123/gpt2agent#70 (an agent's plan usage window)", text(`UsageLimitError: You've hit your limit`), taxonomy.RateLimited, 0},
		{"ThinkInAIXYZ/deepchat#522 (DeepChat over SiliconFlow, Chinese hint)", text(`错误可能原因： 请求速度过快，被服务商限制了访问频率`), taxonomy.RateLimited, 0},
		{"narinluangrath/chatgpt-tui#1 (a terminal UI, axios)", text(`An error occurred while calling OpenAI API Error: Request failed with status code 429`), taxonomy.RateLimited, 0},
		{"timkmecl/codegpt#2 (a VS Code extension printing an object)", text(`[ERROR] 429 [object Object]`), taxonomy.RateLimited, 0},
		{"symgraph/GhidrAssist#60 (Java, a Ghidra plugin over Anthropic, its own retries spent on 429s)", text(`Rate limit exceeded maximum retry attempts.`), taxonomy.RateLimited, 0},

		// ---- overloaded: a model overloaded under a Unity wrapper, a Rust plugin's provider error, Ray Serve shedding load ----
		{"srcnalt/OpenAI-Unity#61 (Unity, C#)", text(`Error Message: That model is currently overloaded with other requests. You can retry your request, or contact us through our help center at help.openai.com if the error persists. (Please include the request ID 5afba5db32f54f11340d57aebeaf640d in your message.)
Error Type: server_error`), taxonomy.Overloaded, 0},
		{"querymt/querymt#731 (Rust, an Extism stream-parser plugin over OpenAI)", text(`2026-07-17T16:07:49.168755Z ERROR extism::plugin: call to chat_stream_parser_parse returned with error message: {"payload":{"type":"provider_error","message":"Our servers are currently overloaded. Please try again later."}} plugin="68c9af02-582d-4825-bd4f-82c02a7ed127"`), taxonomy.Overloaded, 0},
		{"ray-project/ray#52624 (Ray Serve, a replica's queue full)", text(`(ServeReplica:default:Parent pid=366594) WARNING 2025-04-25 23:33:15,376 default_Parent alg5lde8 cfd6ec2d-a3f8-49d5-9728-3f7f6ca8f58b -- Request dropped due to backpressure (num_queued_requests=1, max_queued_requests=1).`), taxonomy.Overloaded, 0},

		// ---- context overflow: llama.cpp's tokenizer, an agent SDK over a proxy, transformers, an agent's own words, a client's projection ----
		{"PromtEngineer/localGPT#441 (llama-cpp-python)", text(`llama_tokenize_with_model: too many tokens`), taxonomy.ContextOverflow, 0},
		{"openai/openai-agents-python#111 (the Agents SDK over an OpenAI-compatible server)", text(`Error getting response: Error code: 400 - {'error': {'message': 'This request exceeds the context size limit. Please reduce the size of the prompt and try again.', 'type': 'invalid_request_error', 'param': None, 'code': None}}`), taxonomy.ContextOverflow, 0},
		{"yeyupiaoling/Chinese-LLM-Chat#3 (transformers generate)", text(`Input length of input_ids is 2400, but max_length is set to 2048. This can lead to unexpected behavior. You should consider increasing max_new_tokens.`), taxonomy.ContextOverflow, 0},
		{"semanser/codel#73 (codel, Go, the agent's own message)", text(`My prompt is too long and I can't process it. What should I do next?`), taxonomy.ContextOverflow, 0},
		{"vybestack/llxprt-code#522 (llxprt-code, the client's projection after compression)", text(`✕ [API Error: Request would exceed the 121000 token context window even after
  compression (projected 127891 tokens including system prompt and a 65536 token
  completion budget). Reduce earlier history or lower maxOutputTokens.]`), taxonomy.ContextOverflow, 0},

		// ---- permanent: models the runtime cannot serve, invalid requests, keys, wrong endpoints, arrears, a policy ban, a spent Gemini quota ----
		{"s-kostyaev/elisa#6 (Emacs, llm over Ollama, a model the runtime cannot load)", text("llm-request-sync-raw-output: LLM request failed with code 400: Bad Request (additional information: {\"error\":\"llama runner: failed to load model '/usr/share/ollama/.ollama/models/blobs/sha256:970aa74c0a90ef7482477cf803618e776e173c007bf957f635f1015bfcfef0e6': this model may be incompatible with your version of Ollama. If you previously pulled this model, try updating it by running `ollama pull nomic-embed-text:latest`\"})"), taxonomy.Permanent, 0},
		{"webbrain-one/webbrain#3031 (the OpenCode Go gateway, a missing session header)", text(`Failed: opencode-go error 400: {"type":"error","error":{"type":"MissingSessionID","message":"Error from provider (Console Go): Request is missing x-opencode-session and cannot be routed efficiently. Please see https://opencode.ai/docs/go/#where-can-i-use-it"}}`), taxonomy.Permanent, 0},
		{"openai/openai-java#609 (openai-java's OkHttp log, Gemini's OpenAI-compatible API)", text(`<-- 400 https://generativelanguage.googleapis.com/v1beta/openai/chat/completions (40ms)
[{"error": {"code": 400, "message": "Invalid JSON payload received. Unknown name \"seed\": Cannot find field.", "status": "INVALID_ARGUMENT", "details": [{"@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": [{"description": "Invalid JSON payload received. Unknown name \"seed\": Cannot find field."}]}]}}]`), taxonomy.Permanent, 0},
		{"VicBilibily/GCMP#26 (a VS Code provider, DeepSeek's Anthropic API in thinking mode)", text(`[DeepSeek-V3.2 (Thinking mode)] Anthropic API haulage is called failure: 400 {"error":{"message":"Missing thinking block in the assistant message at message index 11. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}`), taxonomy.Permanent, 0},
		{"nhaouari/obsidian-textgenerator-plugin#121 (Obsidian)", text(`Error: Request failed, status 401`), taxonomy.Permanent, 0},
		{"vijayk1989/TheStoryNexusTauriApp#17 (LM Studio's server log, a path it does not serve)", text(`[ERROR]  Unexpected endpoint or method. (GET /models). Returning 200 anyway`), taxonomy.Permanent, 0},
		{"SakiRinn/LiveCaptions-Translator#24 (C#, over Ollama)", text(`[Translation Failed] HTTP Error - NotFound`), taxonomy.Permanent, 0},
		{"tencentmusic/supersonic#1572 (Java, the DashScope SDK, an account in arrears)", text(`com.alibaba.dashscope.exception.ApiException: {"statusCode":400,"message":"Access denied, please make sure your account is in good standing.","code":"Arrearage","isJson":true,"requestId":"8af536f9-6b8b-93b5-bb5f-1597a3f65db4"}`), taxonomy.Permanent, 0},
		{"siyuan-note/siyuan#7731 (Go, go-openai, a base URL without /v1)", text(`E 2023/03/21 11:29:03 openai.go:64: create chat completion failed: error, status code: 404, message: Invalid URL (POST /chat/completions)`), taxonomy.Permanent, 0},
		{"small-tou/wechat-ai-summarize-bot#35 (a WeChat bot, Chinese label)", text(`总结失败：Request failed with status code 401`), taxonomy.Permanent, 0},
		{"twinnydotdev/twinny#173 (twinny, VS Code)", text(`Fetch error: Error: Server responded with status code: 404`), taxonomy.Permanent, 0},
		{"VRSEN/agency-swarm#12 (the Assistants API, a thread with a run still active)", text(`An error occurred: Error code: 400 - {'error': {'message': "Can't add messages to thread_mCP3xPaOBOdrCUIULuxV9BBH while a run run_AZmY4LpOuxQmjU6jmhShBRLB is active.", 'type': 'invalid_request_error', 'param': None, 'code': None}}`), taxonomy.Permanent, 0},
		{"tbxark/ChatGPT-Telegram-Workers#95 (a Telegram bot on Workers, an account terminated)", text(`OpenAI API 错误
> Your access was terminated due to violation of our policies, please check your email for more information. If you believe this is in error and would like to appeal, please contact support@openai.com.}`), taxonomy.Permanent, 0},
		{"neuron-core/neuron-ai#259 (PHP, Guzzle, Gemini's quota spent)", text("Client error: `POST https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent` resulted in a `429 Too Many Requests` response:\n{\n  \"error\": {\n    \"code\": 429,\n    \"message\": \"You exceeded your current quota, please check your plan and billing deta (truncated...)"), taxonomy.Permanent, 0},
		{"symfony/ai#587 (PHP, Symfony AI over Gemini, a 400 then an empty result)", text(`[2025-09-15T12:50:20.653464+00:00] http_client.INFO: Response: "400 https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent" 0.077596 seconds {"http_code":400,"url":"https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent","total_time":0.077596} []
[2025-09-15T12:50:20.653939+00:00] app.ERROR: Chatbot process failed {"exception":"[object] (Symfony\\AI\\Platform\\Exception\\RuntimeException(code: 0): Response does not contain any content. at /var/www/symfony/vendor/symfony/ai-platform/src/Bridge/Gemini/Gemini/ResultConverter.php:59)"} []`), taxonomy.Permanent, 0},

		// ---- transient: stream ends, timeouts in many words, connections refused or emptied, 500s from local servers, a dead engine ----
		{"plandex-ai/plandex#275 (Go, plandex)", text(`🚨 Stream error
  → Unexpected EOF`), taxonomy.Transient, 0},
		{"redevrx/chat_gpt_sdk#15 (Flutter, chat_gpt_sdk over Dio, the SDK's zero connect timeout)", text(`DioError [connection timeout]: The request connection took longer than 0:00:00.000000. It was aborted.`), taxonomy.Transient, 0},
		{"YorkieDev/LMStudioWebUI#8 (a web UI for LM Studio)", text(`Error: Unable to connect to the LM Studio server. Please check the address and try again.`), taxonomy.Transient, 0},
		{"zyddnys/manga-image-translator#352 (a translator's batch over OpenAI)", text(`ERROR: [batch] Exception: openai servers did not respond quickly enough.`), taxonomy.Transient, 0},
		{"zylon-ai/private-gpt#1704 (llama_index under PrivateGPT)", text(`llama_index.core.chat_engine.types - Encountered exception writing response to history: timed out`), taxonomy.Transient, 0},
		{"xnli/chatDocuments#1 (Chinese label)", text(`LLM 响应失败: timeout`), taxonomy.Transient, 0},
		{"ToryPan/ChatGPT_WeChat#5 (a WeChat official account bot, Chinese)", text(`请求超时，请稍后再试！`), taxonomy.Transient, 0},
		{"Shishir435/ollama-client#366 (a browser extension, Ollama's 500)", text(`OLC-PROVIDER-HTTP: Ollama server error (500)
Ollama at http://localhost:11434 returned an error while generating a response with model "gemma3:1b". Check its server logs and configuration.`), taxonomy.Transient, 0},
		{"TabbyML/tabby#3696 (Tabby, its completion model unreachable)", text(`Unreachable: Failed to connect to the completion model.`), taxonomy.Transient, 0},
		{"openai/openai-node#148 (Node, openai v3 on axios, macOS errno)", text(`Error: connect ETIMEDOUT 104.18.6.192:443
    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1157:16) {
  errno: -60,
  code: 'ETIMEDOUT',
  syscall: 'connect',
  address: '104.18.6.192',
  port: 443,`), taxonomy.Transient, 0},
		{"neuron-core/neuron-ai#418 (PHP, cURL 52 under Anthropic)", text(`Network error during POST messages: cURL error 52: Empty reply from server (see https://curl.haxx.se/libcurl/c/libcurl-errors.html) for https://api.anthropic.com/v1/messages`), taxonomy.Transient, 0},
		{"sunsvip/ChatGPTForUnity#1 (Unity, UnityWebRequest, Chinese label)", text(`ChatGPT请求失败：Unable to complete SSL connection`), taxonomy.Transient, 0},
		{"vllm-project/vllm#5060 (vLLM, the engine loop dead under a server)", text(`vllm.engine.async_llm_engine.AsyncEngineDeadError: Background loop has errored already.`), taxonomy.Transient, 0},

		// ---- canceled: the caller's own cancel scope ----
		{"rag-web-ui/rag-web-ui#68 (FastAPI over Ollama, anyio's cancel scope)", text(`asyncio.exceptions.CancelledError: Cancelled by cancel scope 7fd1354545d0`), taxonomy.Canceled, 0},

		// ---- programming: bugs in the calling code or the client library ----
		{"s-kostyaev/ellama#50 (Emacs, ellama over the llm library)", text(`error in process filter: llm-request-callback-in-buffer: Wrong number of arguments: (2 . 2), 1`), taxonomy.Programming, 0},
		{"ragnard/tabby-mode#6 (Emacs, tabby-mode)", text(`error in process filter: Symbol's value as variable is void: callback`), taxonomy.Programming, 0},
		{"tryAGI/OpenAI#169 (.NET, a generated client's required properties)", text(`System.Text.Json.JsonException: JSON deserialization for type 'tryAGI.OpenAI.CreateChatCompletionResponse' was missing required properties including: 'id', 'choices', 'created', 'model'.`), taxonomy.Programming, 0},
		{"twinnydotdev/twinny#315 (twinny, VS Code's extension host)", text(`2024-09-13 15:12:48.851 [error] [Extension Host] Error parsing JSON: TypeError: Cannot read properties of undefined (reading '0')`), taxonomy.Programming, 0},
		{"redevrx/chat_gpt_sdk#39 (Flutter, chat_gpt_sdk's cast when a stream is cancelled)", text(`[VERBOSE-2:dart_vm_initializer.cc(41)] Unhandled Exception: type 'HttpException' is not a subtype of type 'DioError' in type cast`), taxonomy.Programming, 0},
		{"thmsmlr/instructor_ex#78 (Elixir, instructor_ex with no clause for Gemini's blocked answer)", text(`** (FunctionClauseError) no function clause matching in Instructor.Adapters.Gemini.parse_response_for_mode/2

    The following arguments were given to Instructor.Adapters.Gemini.parse_response_for_mode/2:`), taxonomy.Programming, 0},

		// ---- unknown: nothing in the text says what went wrong ----
		{"royshil/obs-urlsource#63 (C++, an OBS plugin over curl)", text(`HTTP response code said error`), taxonomy.Unknown, 0},
		{"yazinsai/srt-ai#1 (a subtitle translator)", text(`Error during translation: [Error: OpenAI API returned an error]`), taxonomy.Unknown, 0},
	}
}

func sixteenthTuning() []heldOutRow { return splitBatch(sixteenthBatch(), false) }
func sixteenthSealed() []heldOutRow { return splitBatch(sixteenthBatch(), true) }
