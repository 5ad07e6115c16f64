package taxonomy_test

import (
	"errors"

	"github.com/resilientgo/resilient/taxonomy"
)

// curveFamilyCases are the rows of the families that the tuning parts of
// the eleventh, twelfth and thirteenth held-out batches missed at first
// sight (issue 24, docs/testing.md "The first-sight curve"), each fixed at
// its cause and shown with texts composed in the family's shape for other
// providers, clients and wordings (not the batches' rows), next to the
// texts it must not read so.
func curveFamilyCases() []classifyCase {
	text := errors.New
	R, O, T := taxonomy.RateLimited, taxonomy.Overloaded, taxonomy.Transient
	return []classifyCase{
		// ---- overload in words, with no status ----
		{"high traffic in words", text(`Our servers are experiencing unusually high traffic right now. Please try again shortly.`),
			class(O, `pattern "experiencing high traffic"`, 0)},
		{"heavy load in words", text(`The assistant is under heavy load, retry in a moment`),
			class(O, `pattern "under heavy load"`, 0)},
		{"high traffic under a rate limit's class name", text(`myapp.errors.RateLimitError: the inference service is experiencing high traffic`),
			class(O, `pattern "experiencing high traffic"`, 0)},
		{"a model temporarily busy", text(`The backend is temporarily busy, please resend the request.`),
			class(O, `marker "server busy"`, 0)},
		{"a provider currently overloaded", text(`upstream provider is currently overloaded; try another model`),
			class(O, `pattern "server overloaded"`, 0)},
		{"a cluster at capacity", text(`inference cluster is at full capacity`),
			class(O, `pattern "server at capacity"`, 0)},
		{"a system busy, in Chinese", text(`{"code":10013,"message":"服务器繁忙，请稍后重试"}`),
			class(O, `pattern "system busy (zh)"`, 0)},
		{"a model's load too high, in Chinese, under a server_error type", text(`{"error":{"message":"模型负载过高，请稍后再试","type":"server_error"}}`),
			class(O, `pattern "load too high (zh)"`, 0)},
		{"a model's traffic too high, in Chinese", text(`当前模型访问量过大，请稍后再试`),
			class(O, `pattern "traffic too high (zh)"`, 0)},
		{"traffic as a network's is no overload", text(`network error due to high traffic: read timed out`),
			class(T, `marker "network error"`, 0)},
		{"a user busy is no overload", text(`the user is busy elsewhere`),
			class(taxonomy.Unknown, "no rule matched", 0)},

		// ---- overload words under a 429 ----
		{"a 429 whose engine is overloaded", text(`429: {"error":{"message":"The engine is currently overloaded, please try again later","type":"engine_overloaded"}}`),
			class(O, `pattern "server overloaded"`, 429)},
		{"a 429 whose model is busy", text(`Error code: 429 - {'error': {'message': 'Model busy, retry later'}}`),
			class(O, `marker "server busy"`, 429)},
		{"a 429 whose server limits everyone", text(`HTTP 429: The server is temporarily limiting requests for all users`),
			class(O, `pattern "server limiting requests"`, 429)},
		{"a 429 whose model's traffic is too high, in Chinese", text(`API Error: 429 {"error":{"code":"1399","message":"该模型当前访问量过大，请稍后再试"}}`),
			class(O, `pattern "traffic too high (zh)"`, 429)},
		{"a 429 about the caller's usage stays a rate limit", text(`429: Rate limit reached for requests per minute. Please slow down.`),
			class(R, "status 429", 429)},
		{"a 429 whose relay's upstream load is saturated stays a rate limit", text(`Error code: 429 - {'error': {'message': '当前分组上游负载已饱和，请稍后再试'}}`),
			class(R, "status 429", 429)},
		{"a 429 about the caller being busy stays a rate limit", text(`429: you have too many requests in flight; your account is busy`),
			class(R, "status 429", 429)},
	}
}

// curveBodyCutCases are bodies and streams cut before their end, in
// clients' words: a retry may read the whole of the next one.
func curveBodyCutCases() []classifyCase {
	text := errors.New
	T, U := taxonomy.Transient, taxonomy.Unknown
	return []classifyCase{
		{"aiohttp's payload not completed through a wrapper", text(`litellm.APIConnectionError: ClientPayloadError - Response payload is not completed`),
			class(T, `pattern "payload not completed"`, 0)},
		{"aiohttp's transfer length not met", text(`TransferEncodingError: Not enough data to satisfy transfer length header.`),
			class(T, `marker "not enough data to satisfy transfer length"`, 0)},
		{"requests' chunked encoding error", text(`requests.exceptions.ChunkedEncodingError: ("Connection broken: IncompleteRead(0 bytes read, 512 more expected)", IncompleteRead(0 bytes read, 512 more expected))`),
			class(T, `marker "chunkedencodingerror"`, 0)},
		{"urllib3's connection broken alone", text(`urllib3.exceptions.ProtocolError: ('Connection broken: ConnectionResetError(104)')`),
			class(T, `marker "connection broken:"`, 0)},
		{"urllib3's invalid chunk length", text(`urllib3.exceptions.ProtocolError: Response ended prematurely: InvalidChunkLength(got length b'', 0 bytes read)`),
			class(T, `marker "invalidchunklength"`, 0)},
		{"node-fetch's premature close after invalid body words", text(`FetchError: Invalid response body while trying to fetch https://api.mistral.ai/v1/chat/completions: Premature close`),
			class(T, `pattern "premature close"`, 0)},
		{"Node's stream code", text(`Error [ERR_STREAM_PREMATURE_CLOSE]: Premature close`),
			class(T, `pattern "premature close"`, 0)},
		{"Node's stream code alone, as a body's code", text(`{"error":{"code":"ERR_STREAM_PREMATURE_CLOSE"}}`),
			class(T, `pattern "premature close"`, 0)},
		{"nginx's upstream closed early", text(`upstream prematurely closed connection while reading response header from upstream`),
			class(T, `pattern "premature close"`, 0)},
		{"reqwest's decode error alone", text(`Request failed: reqwest::Error { kind: Decode, source: "error decoding response body" }`),
			class(T, `pattern "error decoding response body"`, 0)},
		{"reqwest's decode error over a read", text(`error decoding response body: error reading a body from connection: unexpected end of file`),
			class(T, `pattern "error decoding response body"`, 0)},
		{"reqwest's decode error naming what did not parse is no cut", text(`error decoding response body: expected value at line 1 column 1`),
			class(U, "no rule matched", 0)},
		{"a premature word that is no close", text(`premature optimization is the root of all evil`),
			class(U, "no rule matched", 0)},
	}
}

// curveStatusCases are statuses printed in shapes the reader missed, next
// to the numbers in those shapes that are no status.
func curveStatusCases() []classifyCase {
	text := errors.New
	T, U := taxonomy.Transient, taxonomy.Unknown
	return []classifyCase{
		// aiohttp 3.x client_exceptions.py: ClientResponseError.__str__ is
		// "%s, message=%r, url=%r" % (status, message, request_info.real_url).
		{"aiohttp's ClientResponseError", text(`aiohttp.client_exceptions.ClientResponseError: 401, message='Unauthorized', url=URL('https://api.mistral.ai/v1/chat/completions')`),
			account("status 401", 401)},
		{"aiohttp's ClientResponseError with a 502", text(`Error: 502, message="Bad Gateway", url='http://localhost:8080/v1/embeddings'`),
			class(T, "status 502", 502)},
		{"aiohttp's payload error with no url is no status", text(`ClientPayloadError: 400, message='Can not decode content-encoding: br'`),
			class(U, "no rule matched", 0)},
		// Dio 4.x dio_error.dart: DioError's message for a bad response is
		// "Http status error [$statusCode]".
		{"Dio 4's status error", text(`DioError [DioErrorType.response]: Http status error [401]`),
			account("status 401", 401)},
		{"Dio 4's status error, a 500", text(`Unhandled Exception: DioError [DioErrorType.response]: Http status error [500]`),
			class(T, "status 500", 500)},
		{"a bracketed number after other words is no status", text(`retrying job [404] after a status check`),
			class(U, "no rule matched", 0)},
		{"a status before its quoted reason phrase", text(`chat completion failed: 404 "not found"`),
			missing("status 404", 404)},
		{"a status before its quoted reason phrase, single quotes", text(`upstream said 503 'Service Unavailable'`),
			class(taxonomy.Overloaded, "status 503", 503)},
		{"nginx's 503 page", text(`<html><head><title>503 Service Temporarily Unavailable</title></head><body><center><h1>503 Service Temporarily Unavailable</h1></center><hr><center>nginx</center></body></html>`),
			class(taxonomy.Overloaded, "status 503", 503)},
		{"a 503 in a relay's labels, before the phrase", text("upstream:\n503 Service temporarily unavailable (req 7f3e)\ncode: gw-503"),
			class(taxonomy.Overloaded, "status 503", 503)},
		{"a number before a quoted word that is no phrase", text(`item 404 "notebook" saved`),
			class(U, "no rule matched", 0)},
	}
}
