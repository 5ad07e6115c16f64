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
