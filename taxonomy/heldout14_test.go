package taxonomy_test

import (
	"errors"
	"time"

	"github.com/resilientgo/resilient/taxonomy"
)

// The fourteenth held-out batch, gathered for a first-sight measure of the
// classifier after the thirteenth, as another sealed check: nothing in it has
// been fitted to. It holds 77 errors, all from repositories whose owner's name
// begins with a letter from a to m, from sources that neither the tables, the
// development set, the llms tests, nor the tenth to thirteenth batches cite:
// agent frameworks and their providers (goose in Rust over Databricks, Mastra's
// pino logs, Letta and MemGPT, smolagents and the Hugging Face course, agno,
// LiveKit's Realtime plugin, LangChain.js's tracer, LangChain4j over OkHttp,
// Spring AI Alibaba on WebFlux, Koog in Kotlin, the Elixir LangChain over Mint,
// RubyLLM, a Rust agent's SSE decoder, Python pipelines such as GraphRAG,
// LightRAG, ApeRAG's Celery workers and GPT Researcher with Voyage AI), editor
// and terminal clients (avante.nvim and parrot.nvim printing Lua tables and
// curl calls, Obsidian Copilot, Zotero GPT and Aria, an IntelliJ plugin,
// JetBrains Junie, Continue's old Python server, Copilot CLI and the GitHub
// app, Amazon Q and Kiro CLIs in Rust, Claude Code, Kimi Code, InstructLab's
// chat), app code in Dart and Flutter (maid's Mistral client, NativeTavern, Dio
// 2 and 4, FlutterFire's AI Logic), .NET (Betalgo.OpenAI), Java (chatgpt-java
// over OkHttp), Go (Reasonix's own Chinese wording, a Copilot extension,
// Kronk's in-band server errors), iOS (AFNetworking's NSURLErrorDomain),
// browser fetch (Ant Design X, a header Chromium refuses to send), local
// servers and models (ctransformers, a ComfyUI video model's text encoder,
// text-embeddings-inference, LM Studio behind AnythingLLM), gateways and relays
// (a company gateway's byte limit, a Cursor BYOK adapter, a Claude Code proxy,
// chatanywhere, a Tengine 401 page, nginx behind Cloudflare), Bedrock through
// boto3, Jina through Dify, and network and TLS failures (undici and node-fetch
// behind TLS-inspecting proxies, a handshake cut by a proxy, aiohttp's
// ClientOSError, dart:io, DNS in Netty and Java). Each row names the GitHub
// issue or pull request where the text was pasted, taken as pasted (surrounding
// noise and stack frames trimmed, JSON, Lua tables and terminal wrapping kept
// as is). It was gathered in one pass by a collector who does not write rules
// and has not read the classifier's rules: each candidate's thread was checked
// against every source a test of taxonomy or llms, docs/testing.md or an
// earlier batch cites, and its text, or the same text with other numbers or
// names, against the tables, and dropped if found; a few rows whose provider
// sentence is already in the tables are kept for a wrapper or shape the tables
// lack, and say so in the manifest (batch14.md). The kind and the hint of each
// row were written down from what the error means, following docs/testing.md's
// conventions (a 429 or 503 that says the service is short of capacity is
// overloaded; a quota or window that refills is a rate limit, its hint the wait
// it announces clamped to MaxWaitHint, none when the reset is a wall-clock time
// or a client's own backoff; a spending cap, an exhausted quota, a quota per
// day, a model the runtime cannot serve or a TLS verification failure is
// permanent whatever its status; the caller's own abort is canceled).
// Classify was first run on it at daa212e, when the batch was sealed, and at
// each landing of the session after it; it was registered at c513e2f with
// the figure it had there as its floor (TestHeldOut, docs/testing.md). No rule
// had been fitted to it.
func fourteenthBatch() []heldOutRow {
	text := errors.New
	return []heldOutRow{
		// ---- rate limits and windows that refill: per-minute caps in several wordings, a workspace limit, bare throttling, a client's own wait, an account without a card, a window in hours ----
		{"Azure-Samples/computer-use#24 (Azure OpenAI computer-use sample, its own wait)", text(`Rate limit exceeded. Waiting for 10 seconds.`), taxonomy.RateLimited, 0},
		{"esengine/DeepSeek-Reasonix#2387 (Reasonix, Go, its own Chinese wording of DeepSeek's 429)", text(`DeepSeek 并发超限（429）：Rate limit reached for TPM。账号在跑的请求超过上限（v4-pro 500、v4-flash 2500，账号下所有 API key 累加）。通常是同一账号开了多个 Reasonix 进程，或者并行 subagent 一次发太多。等几秒重试、减少并行，或在 https://platform.deepseek.com 申请扩容。`), taxonomy.RateLimited, 0},
		{"aaif-goose/goose#2764 (goose, Rust, Databricks' workspace limit printed as a serde_json value)", text(`WARN goose::providers::databricks: Rate limit exceeded (attempt 1/6): Some(Object {"error_code": String("REQUEST_LIMIT_EXCEEDED"), "message": String("REQUEST_LIMIT_EXCEEDED: Exceeded workspace rate limit for databricks-claude-3-7-sonnet. Please use a provisioned throughput Foundation Model APIs endpoint for a higher rate limit.")}). Retrying after backoff...`), taxonomy.RateLimited, 0},
		{"Azure-Samples/graphrag-accelerator#55 (GraphRAG's rate-limiting wrapper on Azure OpenAI, its own retry log)", text(`WARNING:graphrag.llm.base.rate_limiting_llm:Process failed to invoke LLM 1/10 attempts. Cause: rate limit exceeded, will retry. Recommended sleep for 0 seconds. Follow recommendation? True`), taxonomy.RateLimited, 0},
		{"avante-corp/avante.nvim#2865 (avante.nvim, OpenAI's per-minute limit printed as a Lua table)", text(`Error: {
  code = "rate_limit_exceeded",
  message = "Rate limit reached for gpt-4o-mini in organization org-[redacted] on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s. Visit https://platform.openai.com/account/rate-limits to learn more. You can increase your rate limit by adding a payment method to your account at https://platform.openai.com/account/billing.",
  param = vim.NIL,
  type = "requests"
}`), taxonomy.RateLimited, 20 * time.Second},
		{"aws/amazon-q-developer-cli#517 (Amazon Q CLI, the AWS SDK for Rust's bare throttling)", text(`error: unhandled error (ThrottlingException)`), taxonomy.RateLimited, 0},
		{"HKUDS/nanobot#4959 (nanobot, Python, its own retry log around a provider's per-minute request cap)", text(`2026-07-16 20:52:33 | WARNING | - | LLM transient error (attempt 1/3), retrying in 25s: error: {'message': 'requests limit reached: too many requests per minute for this model.'}`), taxonomy.RateLimited, 0},
		{"assafelovic/gpt-researcher#1148 (GPT Researcher, Voyage AI's Python client, the reduced limits of an account without a card)", text(`voyageai.error.RateLimitError: You have not yet added your payment method in the billing page and will have reduced rate limits of 3 RPM and 10K TPM.  Please add your payment method in the billing page (https://dash.voyageai.com/billing/payment-methods) to unlock our standard rate limits (https://docs.voyageai.com/docs/rate-limits).  Even with payment methods entered, the free tokens (200M tokens for Voyage series 3) will still apply. See our pricing docs (https://docs.voyageai.com/docs/pricing) for the free tokens for your model.`), taxonomy.RateLimited, 0},
		{"github/copilot-cli#2696 (Copilot CLI, a window on premium model requests, the wait in hours, clamped; terminal wrapping kept)", text(`✗ Sorry, you've hit a rate limit that restricts the number of Copilot model requests you can make within a specific time 
  period. Please try again in 58 hours. Please review our Terms of Service 
  (https://docs.github.com/site-policy/github-terms/github-terms-of-service). (Request ID: E942:3A5438:35DBCE:3F8F3D:69DD984`), taxonomy.RateLimited, taxonomy.MaxWaitHint},

		// ---- overloaded: the provider short of capacity, in Lua, Ruby and Rust wrappers, a model still loading, a service busy ----
		{"avante-corp/avante.nvim#1000 (avante.nvim, Anthropic's overload printed as a Lua table)", text(`Error: {
  error = {
    details = vim.NIL,
    message = "Overloaded",
    type = "overloaded_error"
  },
  type = "error"
}`), taxonomy.Overloaded, 0},
		{"aws/amazon-q-developer-cli#3913 (Kiro CLI, the service busy, its own backoff)", text(`Service is busy, retrying in 2s...
  WARNING: Retry #2, retrying within 10.0s..
  Service is busy, retrying in 4s...`), taxonomy.Overloaded, 0},
		{"IntelligenzaArtificiale/Free-Auto-GPT#21 (LangChain's Hugging Face Hub wrapper, a model still loading on the inference API)", text(`RuntimeError: The model is currently loading, please re-run the query.`), taxonomy.Overloaded, 0},
		{"crmne/ruby_llm#63 (RubyLLM, Ruby, Anthropic's overload inside a stream, printed as a Ruby hash)", text(`{"type" => "error", "error" => {"details" => nil, "type" => "overloaded_error", "message" => "Overloaded"}}`), taxonomy.Overloaded, 0},
		{"GCWing/OpenBitFun#380 (BitFun, Rust, Zhipu's in-stream busy event that the SSE decoder cannot type)", text("Dialog execution failed\nAI client error: Stream processing error: SSE Parsing Error: missing field `type` at line 1 column 88, data: {\"error\":{\"code\":\"1305\",\"message\":\"该模型当前访问量过大，请您稍后再试\"},\"request_id\":\"20260410100425fab0cd73dea74cc3\"}"), taxonomy.Overloaded, 0},

		// ---- context overflow: a prompt, a document, a chunk or a batch over a ceiling, in many wordings, some in-band or in a client's own words ----
		{"AIAnytime/Zephyr-7B-beta-RAG-Demo#3 (ctransformers, a local GGUF model's context)", text(`Number of tokens (2662) exceeded maximum context length (512).`), taxonomy.ContextOverflow, 0},
		{"leookun/cursor-byok#129 (a Cursor BYOK adapter, GLM through an OpenAI-style provider, a numeric code)", text(`openai adapter status=400 body={"code":20015,"message":"number of input tokens (204703) has exceeded max_prompt_tokens (202752) limit.","data":null}`), taxonomy.ContextOverflow, 0},
		{"aaif-goose/goose#903 (goose, its own words after truncating three times)", text(`Error: Context length exceeds limits even after multiple attempts to truncate.`), taxonomy.ContextOverflow, 0},
		{"aaif-goose/goose#11171 (goose behind a company gateway, a request over the gateway's byte limit)", text(`Request failed: Bad request (400): Server received a request which exceeds maximum allowed content length. RequestSize(bytes): 34021227, Limit(bytes): 33554432.`), taxonomy.ContextOverflow, 0},
		{"letta-ai/letta#1322 (MemGPT/Letta, its own check before a local model's call)", text(`Exception: Request exceeds maximum context length (9161 > 8192 tokens)`), taxonomy.ContextOverflow, 0},
		{"letta-ai/letta#1086 (MemGPT against text-embeddings-inference, a chunk over the embedder's limit)", text("TypeError: Got back an unexpected payload from text embedding function, response=\n{'message': 'Input validation error: `inputs` must have less than 512 tokens. Given: 646', 'code': 413, 'type': 'Validation'}"), taxonomy.ContextOverflow, 0},
		{"aws-samples/amazon-bedrock-workshop#136 (boto3, Titan embeddings on Bedrock, a document over the embedder's limit)", text(`ValidationException: An error occurred (ValidationException) when calling the InvokeModel operation: 400 Bad Request: Too many input tokens. Max input tokens: 8192, request input token count: 9875`), taxonomy.ContextOverflow, 0},
		{"kijai/ComfyUI-CogVideoXWrapper#204 (ComfyUI's CogVideoX wrapper, a prompt over the text encoder's token cap)", text(`!!! Exception during processing !!! Prompt is too long, max tokens supported is 226 or less, got 303`), taxonomy.ContextOverflow, 0},
		{"ardanlabs/kronk#862 (Kronk, a Go local model server, an overflow sent in-band as a server_error event)", text(`data: {"error":{"code":"server_error","message":"start-slot: imc decode: imc: failed to decode extension tokens at pos 16384: unable to process request: the context window is full. Please reduce the input size or increase the context window","type":"server_error"}}`), taxonomy.ContextOverflow, 0},
		{"langgenius/dify-official-plugins#1997 (Dify's Jina plugin, an embedding batch over Jina's item cap)", text(`[models] Bad Request Error, [RID: ec422fa8b74c3c20b493406ac1388555] Validation error: 'body -> jina-embeddings-v4' Each input list can contain at most 512 items.. Field errors: : Invalid value`), taxonomy.ContextOverflow, 0},

		// ---- permanent: requests at fault, parameters refused, credentials refused, blocked APIs, caps spent, certificates not verified, content filtered ----
		{"Mobile-Artificial-Intelligence/maid#672 (maid, Dart, mistralai_client)", text(`MistralAIClientException({
  "uri": "https://api.mistral.ai/v1/chat/completions",
  "method": "POST",
  "code": 400,
  "message": "Unsuccessful response",
  "body": {
    "object": "error",
    "message": "Assistant message must have either content or tool_calls, but not both.",
    "type": "invalid_request_error",
    "param": null,
    "code": null
  }
})`), taxonomy.Permanent, 0},
		{"JetBrains/junie#39 (Junie, xAI refusing a reasoning parameter)", text(`● xAI: 400 Bad Request: Model grok-4-1-fast-reasoning does not support parameter reasoningEffort.`), taxonomy.Permanent, 0},
		{"miaoxworld/NativeTavern#83 (NativeTavern, Dart on iOS, xAI refusing a penalty parameter)", text(`Exception: Stream error: Exception: HTTP 400
Model xxx does not support parameter presencePenalty.`), taxonomy.Permanent, 0},
		{"aaif-goose/goose#1161 (goose, Databricks' Llama endpoint refusing tool calls, a 400 that invites a retry)", text(`Request failed: Request failed with status: 400 Bad Request. Message: Error: Model response did not respect the required format. Please consider retrying or using a more straightforward prompt.`), taxonomy.Permanent, 0},
		{"agno-agi/agno#2569 (agno, Python, an OpenAI-compatible server refusing the developer role, Rich's wrapping kept)", text(`ERROR    API status error from OpenAI API: Error code: 400 - {'error': {'message': 'Your request is not valid!', 'details': 'The
         following errors were detected during validation.\n - The input field is required.\n - Role developer not supported.\n',
         'data': {}, 'validationErrors': [{'message': 'The input field is required.', 'members': ['input']}, {'message': 'Role
         developer not supported.', 'members': ['$.messages[0]']}]}}`), taxonomy.Permanent, 0},
		{"huggingface/smolagents#1141 (smolagents, a dedicated Hugging Face endpoint's 400)", text(`Error while generating or parsing output:
(Request ID: Q2Xdfw)

Bad request:
Bad Request: Invalid state`), taxonomy.Permanent, 0},
		{"firebase/flutterfire#17501 (FlutterFire, Firebase AI Logic, the API blocked for an older project)", text(`Requests to this API firebasevertexai.googleapis.com method google.firebase.vertexai.v1beta.GenerativeService.GenerateContent are blocked.`), taxonomy.Permanent, 0},
		{"dzhng/deep-research#99 (deep-research, the AI SDK on Node, a certificate chain it cannot verify; frames trimmed)", text(`    cause: Error: unable to verify the first certificate
        at TLSSocket.onConnectSecure (node:_tls_wrap:1679:34) {
      code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'
    },
    url: 'http://localhost:8080/v1/chat/completions',`), taxonomy.Permanent, 0},
		{"aliasrobotics/cai#111 (CAI, Python, OpenAI through LiteLLM, a tool call left unanswered)", text(`Error: litellm.BadRequestError: OpenAIException - An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_jJATmoUduQWxi4tRwcQjsodM`), taxonomy.Permanent, 0},
		{"livekit/agents#2358 (LiveKit Agents, OpenAI Realtime over a websocket, the session's time cap)", text(`[2025-05-20 07:49:03,436] 1313 livekit.plugins.openai.realtime - ERROR - OpenAI S2S error {'type': 'error', 'event_id': 'event_BZC0diqUciYtBOplwd5i9', 'error': {'type': 'invalid_request_error', 'code': 'session_expired', 'message': 'Your session hit the maximum duration of 30 minutes.', 'param': None, 'event_id': None}}`), taxonomy.Permanent, 0},
		{"michelle-avery/custom-conversation#21 (a Home Assistant conversation agent, Gemini's OpenAI endpoint, a free tier's daily quota spent, with a retry delay)", text(`Error talking to OpenAI: Error code: 429 - [{'error': {'code': 429, 'message': 'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.', 'status': 'RESOURCE_EXHAUSTED', 'details': [{'@type': 'type.googleapis.com/google.rpc.QuotaFailure', 'violations': [{'quotaMetric': 'generativelanguage.googleapis.com/generate_content_free_tier_requests', 'quotaId': 'GenerateRequestsPerDayPerProjectPerModel-FreeTier', 'quotaDimensions': {'location': 'global', 'model': 'gemini-2.5-pro-exp'}, 'quotaValue': '25'}]}, {'@type': 'type.googleapis.com/google.rpc.Help', 'links': [{'description': 'Learn more about Gemini API quotas', 'url': 'https://ai.google.dev/gemini-api/docs/rate-limits'}]}, {'@type': 'type.googleapis.com/google.rpc.RetryInfo', 'retryDelay': '28s'}]}}]`), taxonomy.Permanent, 28 * time.Second},
		{"MuiseDestiny/zotero-gpt#239 (Zotero GPT, a relay's Tengine 401 page)", text(`HTTP POST
https://api.chatanywhere.com.cn
/v1/chat/completions failed with status code 401: <!DOCTYPE HTML
PUBLIC "-//IETF//DTD HTML
2.0//EN"> <html> <head> <title > 401
Authorization Required </title> </head> <body> <h1>401
Authorization Required </h1 > <p> This server could not verify that you are authorized to access the document requested. <hr/> Powered by Tengine</body> </html>`), taxonomy.Permanent, 0},
		{"chatanywhere/GPT_API_free#207 (Zotero GPT through the chatanywhere relay, a null message content, quotes as pasted)", text(`HTTP POST https://api.chatanywhere.tech/v1/chat/completions failed with status code 400:{“error”:{“message”:“Invalid value for ‘content’: expected a string, got null.”,“type”:“invalid_request_error”,“param”:“messages.[2].content”,“code”:null}}`), taxonomy.Permanent, 0},
		{"lifan0127/ai-research-assistant#182 (Aria in Zotero 7, LangChain.js, an nginx 405 page behind Cloudflare; headers trimmed)", text(`{
  "status": 405,
  "attemptNumber": 1,
  "retriesLeft": 6,
  "name": "Error",
  "message": "405 <html>\r\n<head><title>405 Not Allowed</title></head>\r\n<body>\r\n<center><h1>405 Not Allowed</h1></center>\r\n<hr><center>nginx/1.29.1</center>`), taxonomy.Permanent, 0},
		{"aws/amazon-q-developer-cli#1736 (Amazon Q CLI, Rust, a monthly allowance spent under a ThrottlingException)", text(`Amazon Q is having trouble responding right now: 
   0: unhandled error (ThrottlingException)
   1: service error
   2: unhandled error (ThrottlingException)
   3: Error { code: "ThrottlingException", message: "Maximum com.amazon.aws.codewhisperer.streaming.GenerateAssistantResponse reached for this month.", aws_request_id: "07cbc552-87b6-47c6-a224-a0dec8dbb9fb" }

Location:
   /private/tmp/788abf33-519d-4264-918b-e563eeb425ff/crates/q_chat/src/lib.rs:1015`), taxonomy.Permanent, 0},
		{"copilot-extensions/rag-extension#2 (a Copilot extension in Go, GitHub's embeddings endpoint refusing the batch)", text(`failed to execute agent: error generating datasets: error creating embedding for file data/xxx.md: error fetching embeddings: unexpected status code: 400`), taxonomy.Permanent, 0},
		{"MoonshotAI/kimi-code#1952 (Kimi Code, the provider's content filter on the reply, its own log)", text(`[2026-07-20T09:54:10.581Z] Session turn failed: Error: provider.filtered: Provider safety policy blocked the response.`), taxonomy.Permanent, 0},
		{"microsoft/azurechat#509 (Azure Chat on Node's undici behind a TLS-inspecting proxy; frames trimmed)", text(`TypeError: fetch failed
    at node:internal/deps/undici/undici:13178:13
    at process.processTicksAndRejections (node:internal/process/task_queues:95:5) {
  [cause]: Error: self-signed certificate in certificate chain
      at TLSSocket.onConnectSecure (node:_tls_wrap:1674:34) {
    code: 'SELF_SIGNED_CERT_IN_CHAIN'`), taxonomy.Permanent, 0},
		{"krishnaik06/Complete-Langchain-Tutorials#2 (LangChain's HuggingFaceHub wrapper, the Inference API refusing the token)", text(`ValueError: Error raised by inference API: Authorization header is correct, but the token seems invalid`), taxonomy.Permanent, 0},
		{"anthropics/claude-code#67939 (Claude Code on a subscription, the account's monthly spend cap)", text(`You've hit your monthly spend limit · raise it at claude.ai/settings/usage`), taxonomy.Permanent, 0},

		// ---- transient: connections reset or closed, TLS handshakes cut, DNS, timeouts, 5xx, streams ended early, in many runtimes ----
		{"brainlid/langchain#42 (Elixir LangChain over Req and Finch, Mint's socket closed)", text(`%Mint.TransportError{reason: :closed}`), taxonomy.Transient, 0},
		{"coskuncay/flutter_chatgpt_api#9 (Flutter, Dio 4, its own receive timeout)", text(`Unhandled Exception: DioError [DioErrorType.receiveTimeout]: Receiving data timeout[5000ms]`), taxonomy.Transient, 0},
		{"alibaba/spring-ai-alibaba#1289 (Spring AI Alibaba on WebFlux, Reactor Netty's connection closed)", text(`org.springframework.web.reactive.function.client.WebClientRequestException: Connection prematurely closed BEFORE response`), taxonomy.Transient, 0},
		{"didalgolab/ai-intellij-plugin#30 (an IntelliJ plugin on Spring WebClient, Netty's resolver)", text(`Failed to resolve 'api.openai.com' [A(1)] after 2 queries`), taxonomy.Transient, 0},
		{"mastra-ai/mastra#11322 (Mastra, pino's log of a provider's api_error mid-response)", text(`ERROR [2025-12-20 23:50:52.040 -0800] (DeepLedger): Error in agent stream
    runId: "21af44ee-642c-44ff-ab6f-97094a95d121"
    error: {
      "message": "An unexpected error occurred while processing the response",
      "name": "Error",
      "type": "api_error"
    }`), taxonomy.Transient, 0},
		{"huggingface/agents-course#72 (smolagents in the agents course, the serverless API's 500, terminal wrapping kept)", text(`Error in generating model output:
500 Server Error: Internal Server Error for url:
https://api-inference.huggingface.co/models/Qwen/Qwen2.5-Coder-32B-Instruct/v1/c
hat/completions (Request ID: G6mL--)`), taxonomy.Transient, 0},
		{"github/copilot-cli#3679 (Copilot CLI with BYOK Azure OpenAI, throttling retried away in its own words)", text(`Request failed due to a transient API error. Retrying....
Request failed due to a transient API error. Retrying....
Request failed due to a transient API error. Retrying....
Request failed due to a transient API error. Retrying....
Request failed due to a transient API error. Retrying....

Failed to get response from the AI model; retried 5 times (total retry wait time: 0.15 seconds).`), taxonomy.Transient, 0},
		{"Chanzhaoyu/chatgpt-web#319 (chatgpt-web on Node, node-fetch, the TLS handshake cut)", text(`request to https://api.openai.com/v1/chat/completions failed, reason: Client network socket disconnected before secure TLS connection was established`), taxonomy.Transient, 0},
		{"Grt1228/chatgpt-java#149 (chatgpt-java over OkHttp through a proxy)", text(`javax.net.ssl.SSLHandshakeException: Remote host terminated the handshake`), taxonomy.Transient, 0},
		{"Grt1228/chatgpt-java#190 (chatgpt-java, OkHttp's logging interceptor)", text(`c.u.chatgpt.interceptor.OpenAILogger     : OkHttp-------->:<-- HTTP FAILED: javax.net.ssl.SSLHandshakeException: Remote host closed connection during handshake`), taxonomy.Transient, 0},
		{"betalgo/openai#209 (Betalgo.OpenAI, .NET, a stream cut in the middle)", text(`System.IO.IOException: The response ended prematurely.`), taxonomy.Transient, 0},
		{"Azure-Samples/graphrag-accelerator#153 (GraphRAG's indexer log, openai-python's connection error; the stack trimmed)", text(`{
      'type': 'error',
      'data': 'Error Invoking LLM',
      'cause': 'Connection error.',`), taxonomy.Transient, 0},
		{"HKUDS/LightRAG#2604 (LightRAG over Ollama, its own worker timeout)", text(`TimeoutError: C[9/23]: chunk-935b24b43adbaf3ff35468f85a0a9603: LLM func: Worker execution timeout after 0s`), taxonomy.Transient, 0},
		{"ai-dev-2024/Antigravity-Claude-Code-Proxy#1 (a Claude Code proxy's 500 around its own failed fetch)", text(`RESPONSE CODE: 500

RESPONSE BODY:
{
  "type": "error",
  "error": {
    "type": "api_error",
    "message": "fetch failed"
  }
}`), taxonomy.Transient, 0},
		{"github/app#3386 (the GitHub app's chat, a 408 after its own retries)", text(`Execution failed: Error: Failed to get response from the AI model; retried 5 times (total retry wait time: 30.23 seconds) (Request-ID 16AF:205ED6:4E41C7A:5C6B622:6A95A654) Last error: 408 Timed out reading request body. Try again, or use a smaller request size.`), taxonomy.Transient, 0},
		{"Integration-Automation/ReEdgeGPT#135 (ReEdgeGPT, a Python Copilot client on aiohttp, the socket reset on macOS)", text(`aiohttp.client_exceptions.ClientOSError: [Errno 54] Connection reset by peer`), taxonomy.Transient, 0},
		{"continuedev/continue#640 (Continue's old Python server on aiohttp, a remote llama.cpp server dropping the upload)", text(`aiohttp.client_exceptions.ClientOSError:[Errno None] Can not write request body for http://x.x.x.x: 8080/completion`), taxonomy.Transient, 0},
		{"cfug/dio#476 (Dio 2 on Flutter, dart:io's connection closed before the response headers)", text(`DioError [DioErrorType.DEFAULT]: HttpException: Connection closed before full header was received, uri = http://jz1666.com/gateway.do?_url=/mgr/proprietor-audit/page&userType=PARTNER&apiChannel=app`), taxonomy.Transient, 0},
		{"AFNetworking/AFNetworking#2801 (AFNetworking on iOS, Foundation's lost connection)", text(`Error: Error Domain=NSURLErrorDomain Code=-1005 "The network connection was lost." UserInfo=0x1740faa80 {NSUnderlyingError=0x17004a830 "The network connection was lost.", NSErrorFailingURLStringKey=URL, NSErrorFailingURLKey=URL, _kCFStreamErrorDomainKey=4, _kCFStreamErrorCodeKey=-4, NSLocalizedDescription=The network connection was lost.}`), taxonomy.Transient, 0},
		{"langchain4j/langchain4j#1360 (LangChain4j over OkHttp on a company network, the demo host not resolved; frames trimmed)", text(`Caused by: java.net.UnknownHostException: langchain4j.dev
              at java.base/java.net.InetAddress$CachedAddresses.get(InetAddress.java:948)
              at okhttp3.Dns$Companion$DnsSystem.lookup(Dns.kt:49)`), taxonomy.Transient, 0},
		{"langchain-ai/langchainjs#3858 (LangChain.js's verbose tracer, ChatOpenAI's axios adapter after 163 s)", text(`[llm/error] [1:llm:ChatOpenAI] [163.61s] LLM run errored with error: "Network Error"`), taxonomy.Transient, 0},

		// ---- canceled: the caller's own stop, Ctrl+C or coroutine cancel ----
		{"ant-design/x#1222 (Ant Design X useXChat, the user's stop during a stream, the browser's words)", text(`BodyStreamBuffer was aborted`), taxonomy.Canceled, 0},
		{"instructlab/instructlab#357 (InstructLab's chat, the user's Ctrl+C while waiting on the model, before the fix)", text(`>>> sing a song
^CUnknown error
Executing chat failed with: API issue found while executing chat:
Unknown error: <class 'KeyboardInterrupt'>`), taxonomy.Canceled, 0},
		{"hyperledger-iroha/iroha-java#389 (the Iroha Kotlin client on Ktor, a call ended by its own subscription's cancelAndJoin; frames trimmed)", text(`Caused by: java.util.concurrent.CancellationException: StandaloneCoroutine was cancelled
		at io.ktor.client.engine.UtilsKt$attachToUserJob$cleanupHandler$1.invoke(Utils.kt:97)
		at io.ktor.client.engine.UtilsKt$attachToUserJob$cleanupHandler$1.invoke(Utils.kt:95)`), taxonomy.Canceled, 0},

		// ---- programming: calls the client cannot make ----
		{"logancyang/obsidian-copilot#672 (Obsidian Copilot on mobile, a header the browser's fetch refuses to send)", text(`Error: Model request failed: Connection error. Cause: TypeError: Failed to execute 'fetch' on 'Window': Failed to read the 'headers' property from 'RequestInit': String contains non ISO-8859-1 code point.`), taxonomy.Programming, 0},
		{"avante-corp/avante.nvim#2263 (avante.nvim, curl unable to read the request body it was handed)", text(`Error: {
  exit = 26,
  message = "post https://api.anthropic.com/v1/messages - curl error exit_code=26 stderr={ \"curl: option -d: error encountered when reading a file\", \"curl: try 'curl --help' or 'curl --manual' for more information\" }",
  stderr = "{ \"curl: option -d: error encountered when reading a file\", \"curl: try 'curl --help' or 'curl --manual' for more information\" }"
}`), taxonomy.Programming, 0},
		{"JetBrains/koog#1405 (Koog, Kotlin, a serialization library the client was not built against)", text(`Receiver class ai.koog.prompt.executor.clients.openai.models.OpenAIChatCompletionRequest$$serializer does not define or inherit an implementation of the resolved method 'abstract kotlinx.serialization.KSerializer[] typeParametersSerializers()'`), taxonomy.Programming, 0},

		// ---- unknown: nothing in the text says what went wrong ----
		{"mastra-ai/mastra#7940 (Mastra, an error serialised as an empty object)", text(`ERROR [2025-10-04 20:54:43.646 +0300] (Mastra): Error in agent stream
    runId: "financialAgent"
    error: {}`), taxonomy.Unknown, 0},
		{"apecloud/ApeRAG#886 (ApeRAG's Celery worker over LiteLLM, a failure with no words)", text(`[2025-05-30 18:49:58,283: ERROR/ForkPoolWorker-9] LLM function failed after 6743.67s: 
[2025-05-30 18:49:58,284: WARNING/ForkPoolWorker-9] limit_async: Error in decorated function: LLM completion failed: 
[2025-05-30 18:49:58,289: ERROR/ForkPoolWorker-9] LiteLLM Error: Unknown error
NoneType: None`), taxonomy.Unknown, 0},
		{"frankroeder/parrot.nvim#90 (parrot.nvim, a curl call that failed with no reason given)", text(`An error occured calling curl .. --no-buffer --silent -H accept: application/json -H content-type: application/json -d {"messages":[{"content":"You
 are a versatile AI assistant with capabilities\nextending to general knowledge and coding support. When engaging\nwith users, please adhere to the
 following guidelines to ensure\nthe highest quality of interaction:\n\n- Admit when unsure by saying 'I don't know.'\n- Ask for clarification when
 needed.\n- Use first principles thinking to analyze queries.\n- Start with the big picture, then focus on details.\n- Apply the Socratic method to
 enhance understanding.\n- Include all necessary code in your responses.\n- Stay calm and confident with each task.","role":"system"},{"content":"W
hat is the most populous county in the usa?","role":"user"}],"top_p":1,"model":"gpt-4o","temperature":1.1,"stream":true} https://api.openai.com/v1/
chat/completions -H authorization: Bearer [my token omitted]`), taxonomy.Unknown, 0},
		{"ItzCrazyKns/Vane#52 (Perplexica on Node, a reply from Ollama's address that is no JSON)", text(`error: Error loading Ollama models: SyntaxError: Unexpected token p in JSON at position 4`), taxonomy.Unknown, 0},
		{"lm-sys/FastChat#3711 (Chatbot Arena's web UI, a failure dialog that names nothing)", text(`Error
Something went wrong. Please refresh and try again.`), taxonomy.Unknown, 0},
		{"Mintplex-Labs/anything-llm#471 (AnythingLLM's chat mode over LM Studio, the UI's own words for a failed call)", text(`Could not respond to message`), taxonomy.Unknown, 0},
	}
}

func fourteenthTuning() []heldOutRow { return splitBatch(fourteenthBatch(), false) }
func fourteenthSealed() []heldOutRow { return splitBatch(fourteenthBatch(), true) }
