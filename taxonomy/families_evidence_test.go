package taxonomy_test

import (
	"errors"
	"time"

	"github.com/resilientgo/resilient/taxonomy"
)

// evidenceFamilyCases are the rows of the evidence reader and its
// vocabulary (issue 24): each piece of evidence it reads, with a real
// text from the tuning part of the development set (devset_test.go) or
// a shape its sources document, next to the texts it must not read so.
func evidenceFamilyCases() []classifyCase {
	text := errors.New
	P, R, O, T, C, U, G := taxonomy.Permanent, taxonomy.RateLimited, taxonomy.Overloaded, taxonomy.Transient, taxonomy.ContextOverflow, taxonomy.Unknown, taxonomy.Programming
	return []classifyCase{
		// ---- a status in more printed shapes ----
		{"after an exception's name ending in Exception (Spring AI)", text(`org.springframework.ai.retry.NonTransientAiException: 400 - Bad Request`),
			class(P, "status 400", 400)},
		{"DashScope's status in angle brackets", text(`HTTP 400: <400> InternalError.Algo.InvalidParameter: Range of input length should be [1, 258048]`),
			class(C, `words "input … range"`, 400)},
		{"a CDN page's heading (CloudFront)", text("<HTML><HEAD><TITLE>ERROR: The request could not be satisfied</TITLE></HEAD><BODY>\n<H1>403 ERROR</H1>\n<H2>The request could not be satisfied.</H2>\nRequest blocked."),
			account("status 403", 403)},
		{"error and a status after it", text(`getting author editions: returned error 403: {"data":null}`),
			account("status 403", 403)},
		{"a status member of a body", text(`{"meta":{"requests":0,"status":403,"message":"The provided API key has been banned"}}`),
			account(`pattern "disabled or suspended"`, 403)},
		{"a status member of a problem body (RFC 9457)", text(`{"type":"about:blank","title":"Quota","status":429,"detail":"slow down"}`),
			class(R, "status 429", 429)},
		{"an error number longer than a status is none", text(`error 40300: quota table locked`),
			class(U, "no rule matched", 0)},
		{"a count of errors is no status", text(`found 3 errors in 12 files`),
			class(U, "no rule matched", 0)},
		// A relay's envelope writes its own status around a provider's
		// failure of the server: the provider's code decides.
		{"a relay's 400 around a server's failure", text(`litellm.APIConnectionError: Bad response code, expected 200: {'status_code': 400, 'headers': {':exception-type': 'serviceUnavailableException'}, 'body': b'{"message":"Bedrock is unable to process your request."}'}`),
			class(O, `exception "serviceunavailableexception"`, 400)},

		// ---- names: exception classes, types and codes, status names ----
		{"LangChain4j's InvalidRequestException", text(`dev.langchain4j.exception.InvalidRequestException: null`),
			class(P, `name "InvalidRequestException" (invalid_request)`, 0)},
		{"Qianfan's InvalidArgumentError", text("qianfan.errors.InvalidArgumentError: The provided model `ERNIE-3.5-128K` is not in the list of supported models."),
			class(P, `name "InvalidArgumentError" (invalid_argument)`, 0)},
		{"google.api_core's InvalidArgument", text(`google.api_core.exceptions.InvalidArgument: request contains an invalid argument.`),
			class(P, `name "InvalidArgument" (invalid_argument)`, 0)},
		{"Tencent Cloud's RequestLimitExceeded", text("tencentcloud.common.exception.tencent_cloud_sdk_exception.TencentCloudSDKException: [TencentCloudSDKException] code:RequestLimitExceeded message:您当前每秒请求 `6` 次，超过了每秒频率上限 `5`，请稍后重试。"),
			class(R, `name "RequestLimitExceeded" (request_limit_exceeded)`, 0)},
		{"httpx's RemoteProtocolError", text(`httpx.RemoteProtocolError: peer closed connection without sending complete message body (incomplete chunked read)`),
			class(T, `name "RemoteProtocolError" (remote_protocol)`, 0)},
		{"Java's NullPointerException", text(`java.lang.NullPointerException: Cannot invoke "okhttp3.ResponseBody.byteStream()" because the return value of "retrofit2.Response.body()" is null`),
			class(G, `name "NullPointerException" (null_pointer)`, 0)},
		{"a gRPC status name in capitals", text(`io.grpc.StatusException: RESOURCE_EXHAUSTED: ResourceExhausted`),
			class(R, `marker "resource_exhausted"`, 0)},
		{"the innermost of two names of one rank decides", text(`InternalError.Algo.InvalidParameter: the batch`),
			class(P, `name "InvalidParameter" (invalid_parameter)`, 0)},
		{"a client fault outranks a server's name", text(`InvalidParameter.Algo.InternalError: the batch`),
			class(P, `name "InvalidParameter" (invalid_parameter)`, 0)},
		{"a code member in the vocabulary's words", text(`{"error": {"code": "MissingParameter", "message": "The request failed. Request id: 0217", "type": "BadRequest"}}`),
			class(P, `type "MissingParameter" (missing_parameter)`, 0)},
		{"a reason phrase as a type (vLLM)", text(`{"object":"error","message":"[{'type': 'missing', 'loc': ('body',)}]","type":"Bad Request"}`),
			class(P, `type "Bad Request" (bad_request)`, 0)},
		{"a dotted code read by its segments (DashScope)", text(`{"code": "AccessDenied.Unpurchased", "message": "Access to model denied."}`),
			account(`type "AccessDenied.Unpurchased" (access_denied)`, 0)},
		{"a key refused, by the words of its code", text(`{"error": {"errorType": "InvalidProviderAPIKey"}, "provider": "doubao"}`),
			account(`type "InvalidProviderAPIKey" (credential refused)`, 0)},
		{"an SDK's generic class says nothing", text(`openai.APIError: something odd happened`),
			class(U, "no rule matched", 0)},
		{"a generic HttpException says nothing", text(`retrofit2.HttpException: see the log`),
			class(U, "no rule matched", 0)},
		{"a word of prose in capitals is no name", text(`PLEASE READ THE DOCUMENTATION`),
			class(U, "no rule matched", 0)},
		{"a body type with no meaning says nothing", text(`{"error": {"message": "odd", "type": "requests"}}`),
			class(U, "no rule matched", 0)},

		// ---- a parameter a server refuses, whatever its status ----
		{"llama.cpp's 500 for a parameter it does not take", text(`{"code":500,"message":"Unsupported param: tools","type":"server_error"}`),
			class(P, `words "unsupported … param"`, 500)},
		{"llama.cpp's server_error for a flag it lacks", text(`'message': 'tools param requires --jinja flag', 'type': 'server_error'}}`),
			class(P, `words "requires … param"`, 0)},
		{"a 500 that names no parameter stays a server failure", text(`{"code":500,"message":"Internal error while loading the tools","type":"server_error"}`),
			class(T, "status 500", 500)},

		// ---- an overflow in other words ----
		{"a batch over its maximum (SiliconFlow)", text(`input batch size 473 > maximum allowed batch size 64`),
			class(C, `words "input … maximum"`, 0)},
		{"a range of input lengths (ragflow)", text(`ERROR: Range of input length should be [1, 30000]`),
			class(C, `words "input … range"`, 0)},
		{"more tokens than a batch holds (LLamaSharp)", text(`System.ArgumentException: Input contains more tokens than configured batch size (Parameter 'batch')`),
			class(C, `words "input … more"`, 0)},
		{"a prompt too big for the cache (llama-box)", text(`error: input prompt is too big compared to KV size, please increase KV size`),
			class(C, `words "input … big"`, 0)},
		{"a batch not larger than its bound (DashScope)", text(`<400> InternalError.Algo.InvalidParameter: Value error, batch size is invalid, it should not be larger than 10.: input.contents`),
			class(C, `words "batch … larger"`, 400)},
		{"a lower bound is no overflow", text(`Role must be user or assistant and Content length must be greater than 0`),
			class(P, `words "must … role"`, 0)},
		{"a maximum of retries is no size", text(`reached max retries: 4 while sending 1200 tokens`),
			class(U, "no rule matched", 0)},
		{"a comparison with the size after it is no overflow", text(`the summary is longer than the input it summarizes`),
			class(U, "no rule matched", 0)},

		// ---- words of a request at fault, of a key refused, of a cap ----
		{"a request not valid (Semantic Kernel)", text(`Error: Microsoft.SemanticKernel.AI.AIException: Invalid request: The request is not valid`),
			class(P, `pattern "invalid request:"`, 0)},
		{"a message that must be odd (Baidu ERNIE)", text(`{'error_code': 336003, 'error_msg': 'the length of messages must be an odd number'}`),
			class(P, `words "must … messages"`, 0)},
		{"an input error in a wrapper's words (AI SDK)", text(`APICallError [AI_APICallError]: invalid input error`),
			class(P, `words "invalid … input"`, 0)},
		{"a decoder's position is no fault of the request", text(`SyntaxError: Unexpected token < in JSON at position 0: invalid value`),
			class(U, "no rule matched", 0)},
		{"a request id is no part of the request", text(`invalid request id abc123 in the log line`),
			class(U, "no rule matched", 0)},
		{"a key not authenticated (DeepInfra)", text(`Not authenticated: the api key was not accepted`),
			account(`words "credential refused"`, 0)},
		{"a usage limit reached (Codex)", text(`The usage limit has been reached`),
			class(R, `words "limit reached"`, 0)},
		{"an endpoint not found (Volcengine)", text(`https://ark.cn-beijing.volces.com/api/v3/chat/completions not found, verify your API base.`),
			missing(`words "not found"`, 0)},
		{"a connection lost (Portkey)", text(`{"body": {"html-message": "Network connection lost."}}`),
			class(T, `words "connection broken"`, 0)},
		{"a body cut early (Python ssl)", text(`[SSL: UNEXPECTED_EOF_WHILE_READING] EOF occurred in violation of protocol (_ssl.c:1007)`),
			class(T, `name "UNEXPECTED_EOF_WHILE_READING" (connection broken)`, 0)},

		// ---- an OS error number where the text is localised ----
		{"ECONNRESET by its number (Dart)", text(`SocketException: Verbindung vom Kommunikationspartner zurückgesetzt (OS Error: errno = 104), address = api.openai.com, port = 41764`),
			class(T, `errno 104 (ECONNRESET)`, 0)},
		{"WSAECONNREFUSED by its number (Python on Windows)", text(`[WinError 10061] 由于目标计算机积极拒绝，无法连接。`),
			class(T, `errno 10061 (WSAECONNREFUSED)`, 0)},
		{"an error number of no network failure", text(`OSError: [Errno 2] No such file or directory: 'prompt.txt'`),
			class(U, "no rule matched", 0)},

		// ---- Chinese clues ----
		{"a parameter wrong (Zhipu)", text(`{"error":{"code":"1210","message":"API 调用参数有误，请检查文档。"}}`),
			class(P, `words "参数 … 有误/非法/错误"`, 0)},
		{"a usage cap reached (Zhipu)", text(`"message": "[1308][已达到 5 小时的使用上限。您的限额将在 2026-08-24 00:09:21 重置。]`),
			class(R, `words "上限"`, 0)},
		{"a connection the remote host closed (Windows in Chinese)", text(`java.io.IOException: 远程主机强迫关闭了一个现有的连接。`),
			class(T, `words "强迫关闭"`, 0)},
		{"a cap alone is no limit reached", text(`上限设置已保存`),
			class(U, "no rule matched", 0)},

		// ---- waits in words and in members ----
		{"a wait in hours and minutes (GitHub Copilot)", text(`Sorry, your request was rate-limited. Please wait 587 hours 33 minutes before trying again.`),
			hinted(R, `marker "rate-limit"`, 0, taxonomy.MaxWaitHint)},
		{"a wait in words (Tencent)", text(`{"code":30104,"message":"Request limit reached. Please retry after one minute."}`),
			hinted(R, `words "limit reached"`, 0, time.Minute)},
		{"an approximate wait", text(`rate limited, try again in ~5s`),
			hinted(R, `marker "rate limit"`, 0, 5*time.Second)},
		{"a wait of hours, minutes and seconds joined by and", text(`Too many requests. Come back in 1 hour and 30 minutes.`),
			hinted(R, `marker "too many requests"`, 0, 90*time.Minute)},
		{"a retry_after member in seconds (Discord, Telegram)", text(`{"message": "You are being rate limited.", "retry_after": 64.57, "global": false}`),
			hinted(R, `marker "rate limit"`, 0, 64570*time.Millisecond)},
		{"a retry_after_ms member", text(`{"error": "rate limited", "retry_after_ms": 1500}`),
			hinted(R, `marker "rate limit"`, 0, 1500*time.Millisecond)},
		{"a wait that names no unit is none", text(`rate limited: please wait 3 more turns`),
			class(R, `marker "rate limit"`, 0)},
		{"waited is no wait asked for", text(`rate limited: waited 30 seconds already`),
			class(R, `marker "rate limit"`, 0)},
	}
}
