package faultserver

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Step is one scripted response. Build it with a constructor ([Reply],
// [RateLimited], [DropStream], ...) and adjust it with its methods, which
// return modified copies:
//
//	faultserver.RateLimited("7").After(2 * time.Second)
//
// The same Step renders in whichever wire format the request used. The zero
// Step is a successful reply with empty text.
//
// A Step is an immutable value: it is safe for concurrent use and may appear
// in several scripts.
type Step struct {
	kind   kind
	chunks []string   // reply text, one element per streamed chunk; the frames of kindRawStream, kindRawStall
	calls  []ToolCall // kindToolCalls

	errs      [4]apiError // kindStatus, indexed by Format-1
	typ, code string      // WithType, WithCode overrides

	inBandType, inBandMessage string       // kindInBandError
	body                      string       // kindMalformed, kindRaw
	rawStatus                 int          // kindRaw
	rawType                   string       // kindRaw: Content-Type
	delta                     int          // kindVectors: vectors more than inputs
	embedErrs                 *[4]apiError // kindStatus on an embeddings endpoint, when the wording differs

	header http.Header
	delay  time.Duration
	fn     func(*Request) Step // kindFunc
}

type kind int

const (
	kindReply kind = iota
	kindToolCalls
	kindStatus
	kindHangUp
	kindDropStream
	kindNoEndMarker
	kindInBandError
	kindStall
	kindMalformed
	kindTruncatedJSON
	kindFunc
	kindVectors
	kindRaw
	kindRawStream
	kindRawStall
	kindReset
)

// apiError is an error response in one wire format. An empty typ or code is
// filled in from the status when the response is written.
type apiError struct {
	status                    int
	typ, code, param, message string
	empty                     bool // send no body at all
	html                      string
}

// ToolCall is one tool call in a [ReplyToolCalls] step. It is a plain value,
// safe for concurrent use.
type ToolCall struct {
	// ID is the call id, e.g. "call_1" (OpenAI) or "toolu_1" (Anthropic).
	ID string
	// Name is the name of the tool to call.
	Name string
	// Arguments is the JSON object of arguments, e.g. `{"q":"weather"}`.
	// OpenAI carries it as a string, so invalid JSON reaches the client
	// as is (a model emitting broken arguments); Anthropic carries an
	// object, so arguments that are not a JSON object are sent as {}.
	Arguments string
}

// Reply is a successful answer with the given text. A streamed reply sends
// the text in chunks split before each space ("Hello big world" is "Hello",
// " big", " world"), then the format's stop marker: finish_reason "stop" and
// data: [DONE] (OpenAI), stop_reason "end_turn" and message_stop
// (Anthropic), done:true (Ollama). On an embeddings endpoint it is one
// vector per input ([Vector]), whatever the text.
func Reply(text string) Step {
	return Step{kind: kindReply, chunks: splitWords(text)}
}

// ReplyChunks is a successful answer whose text is the concatenation of
// chunks. A streamed reply sends exactly these chunks, one event each; see
// [Reply].
func ReplyChunks(chunks ...string) Step {
	return Step{kind: kindReply, chunks: slices.Clone(chunks)}
}

// ReplyToolCalls is a successful answer that asks for tool calls: OpenAI
// tool_calls with finish_reason "tool_calls", Anthropic tool_use blocks with
// stop_reason "tool_use". Ollama gets message.tool_calls as the real server
// sends them; langchaingo's ollama client ignores them, so it returns an
// empty text.
func ReplyToolCalls(calls ...ToolCall) Step {
	return Step{kind: kindToolCalls, calls: slices.Clone(calls)}
}

// Status is an HTTP error with the provider's error body:
//
//	OpenAI     {"error":{"message":..,"type":..,"param":null,"code":..}}
//	Anthropic  {"type":"error","error":{"type":..,"message":..}}
//	Ollama     {"error":"message"}
//	Gemini     {"error":{"code":..,"message":..,"status":..}}
//
// The error type and code follow the status unless set with [Step.WithType]
// and [Step.WithCode]. OpenAI: 429 is type "requests" with code
// "rate_limit_exceeded", 401 is "invalid_request_error" with code
// "invalid_api_key", other 4xx are "invalid_request_error" and 5xx
// "server_error". Anthropic: 400 "invalid_request_error", 401
// "authentication_error", 403 "permission_error", 404 "not_found_error",
// 413 "request_too_large", 429 "rate_limit_error", 503 and 529
// "overloaded_error", other 5xx "api_error". Gemini: the status's gRPC
// name (400 "INVALID_ARGUMENT", 429 "RESOURCE_EXHAUSTED", 503
// "UNAVAILABLE"...).
func Status(code int, message string) Step {
	e := apiError{status: code, message: message}
	return Step{kind: kindStatus, errs: [4]apiError{e, e, e, e}}
}

// RateLimited is a 429 with the providers' rate-limit bodies and, unless
// retryAfter is "", a Retry-After header with that value (seconds or an
// HTTP date). OpenAI: type "requests", code "rate_limit_exceeded";
// Anthropic: "rate_limit_error"; Ollama: "rate limit exceeded"; Gemini:
// "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota).".
func RateLimited(retryAfter string) Step {
	openai := "Rate limit reached for gpt-4o-mini in organization org-test on requests per min (RPM): Limit 3, Used 3, Requested 1."
	if _, err := strconv.Atoi(retryAfter); err == nil {
		openai += " Please try again in " + retryAfter + "s."
	}
	openai += " Visit https://platform.openai.com/account/rate-limits to learn more."
	s := Step{kind: kindStatus, errs: [4]apiError{
		{status: http.StatusTooManyRequests, message: openai},
		{status: http.StatusTooManyRequests, message: "This request would exceed your organization's rate limit of 50 requests per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase."},
		{status: http.StatusTooManyRequests, message: "rate limit exceeded"},
		{status: http.StatusTooManyRequests, message: "Resource has been exhausted (e.g. check quota)."},
	}}
	if retryAfter != "" {
		s = s.WithRetryAfter(retryAfter)
	}
	return s
}

// Overloaded is a 529 in the formats that have one. Anthropic: type "overloaded_error",
// message "Overloaded"; OpenAI: type "server_error", "The server is
// overloaded or not ready yet."; Ollama: "server busy, please try again.
// maximum pending requests exceeded". Gemini, which never sends a 529,
// gets its own overload: 503 "UNAVAILABLE", "The model is overloaded.
// Please try again later.".
func Overloaded() Step {
	const status = 529
	return Step{kind: kindStatus, errs: [4]apiError{
		{status: status, typ: "server_error", message: "The server is overloaded or not ready yet."},
		{status: status, typ: "overloaded_error", message: "Overloaded"},
		{status: status, message: "server busy, please try again.  maximum pending requests exceeded"},
		{status: http.StatusServiceUnavailable, message: "The model is overloaded. Please try again later."},
	}}
}

// ServerError is a 500 with an empty body. OpenAI and Anthropic report the
// bare status; langchaingo's ollama client reports success with empty text.
func ServerError() Step {
	e := apiError{status: http.StatusInternalServerError, empty: true}
	return Step{kind: kindStatus, errs: [4]apiError{e, e, e, e}}
}

// BadGateway is a 502 with nginx's HTML error page, as a proxy in front of
// the provider sends it.
func BadGateway() Step {
	e := apiError{status: http.StatusBadGateway, html: nginxBadGateway}
	return Step{kind: kindStatus, errs: [4]apiError{e, e, e, e}}
}

// ContextOverflow is a 400 with each provider's context-length wording:
// OpenAI "This model's maximum context length is 128000 tokens. However,
// your messages resulted in 130000 tokens. Please reduce the length of the
// messages." (code "context_length_exceeded"), Anthropic "prompt is too
// long: 210000 tokens > 200000 maximum", Ollama "input length exceeds the
// context length", Gemini "The input token count (1200000) exceeds the
// maximum number of tokens allowed (1048576).". On an embeddings endpoint it says that an input is too
// long: OpenAI "Invalid 'input': maximum context length is 8192 tokens.",
// Ollama "the input length exceeds the context length".
func ContextOverflow() Step {
	return Step{kind: kindStatus, errs: [4]apiError{
		{status: http.StatusBadRequest, code: "context_length_exceeded", param: "messages",
			message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens. Please reduce the length of the messages."},
		{status: http.StatusBadRequest, message: "prompt is too long: 210000 tokens > 200000 maximum"},
		{status: http.StatusBadRequest, message: "input length exceeds the context length"},
		{status: http.StatusBadRequest, message: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)."},
	}, embedErrs: &embedOverflow}
}

// InvalidAPIKey is a 401: OpenAI "Incorrect API key provided: sk-test. ..."
// (code "invalid_api_key"), Anthropic "authentication_error" "invalid
// x-api-key", Ollama "unauthorized"; Gemini answers a 400
// "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.".
func InvalidAPIKey() Step {
	return Step{kind: kindStatus, errs: [4]apiError{
		{status: http.StatusUnauthorized, code: "invalid_api_key",
			message: "Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys."},
		{status: http.StatusUnauthorized, message: "invalid x-api-key"},
		{status: http.StatusUnauthorized, message: "unauthorized"},
		{status: http.StatusBadRequest, message: "API key not valid. Please pass a valid API key."},
	}}
}

// QuotaExceeded is an exhausted account: OpenAI 429 type and code
// "insufficient_quota", "You exceeded your current quota, please check your
// plan and billing details."; Anthropic 400 "invalid_request_error", "Your
// credit balance is too low to access the Anthropic API. Please go to Plans
// & Billing to upgrade or purchase credits."; Ollama (which has no billing)
// 429 "quota exceeded"; Gemini 429 "RESOURCE_EXHAUSTED", "You exceeded
// your current quota, please check your plan and billing details. ...".
// Unlike [RateLimited], waiting does not help.
func QuotaExceeded() Step {
	return Step{kind: kindStatus, errs: [4]apiError{
		{status: http.StatusTooManyRequests, typ: "insufficient_quota", code: "insufficient_quota",
			message: "You exceeded your current quota, please check your plan and billing details."},
		{status: http.StatusBadRequest,
			message: "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits."},
		{status: http.StatusTooManyRequests, message: "quota exceeded"},
		{status: http.StatusTooManyRequests, message: "You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits."},
	}}
}

// HangUp closes the connection without sending any response.
func HangUp() Step {
	return Step{kind: kindHangUp}
}

// DropStream sends a 200 stream with these chunks, then drops the
// connection: the chunked body is never terminated, as in a mid-stream
// disconnect. A non-streaming request gets its JSON reply cut in half
// (Content-Length of the whole body, then the connection closes), so the
// client reads an unexpected EOF either way.
func DropStream(chunks ...string) Step {
	return Step{kind: kindDropStream, chunks: slices.Clone(chunks)}
}

// NoEndMarker sends a 200 stream with these chunks and ends the body cleanly
// (close-delimited, clean EOF) without the format's end marker: no
// finish_reason and data: [DONE] (OpenAI), no message_delta and
// message_stop (Anthropic), no done:true (Ollama). A non-streaming OpenAI
// or Anthropic request gets a complete reply, since a JSON body has no end
// marker to leave out.
func NoEndMarker(chunks ...string) Step {
	return Step{kind: kindNoEndMarker, chunks: slices.Clone(chunks)}
}

// InBandError sends a 200 stream with these chunks, then an error event,
// and ends the body normally: data: {"error":{...}} (OpenAI), event: error
// with {"type":"error","error":{...}} (Anthropic), an {"error":...} line
// (Ollama, which has no error type). A non-streaming request gets a 200 whose
// JSON body is the provider's error object.
func InBandError(errType, message string, chunks ...string) Step {
	return Step{kind: kindInBandError, inBandType: errType, inBandMessage: message, chunks: slices.Clone(chunks)}
}

// Stall blocks until the client gives up (its context ends and it closes the
// connection) or the server is closed. With no chunks it sends nothing, not
// even headers. With chunks, a streaming request gets the 200 headers and
// these chunks first; a non-streaming one gets the headers only.
func Stall(chunks ...string) Step {
	return Step{kind: kindStall, chunks: slices.Clone(chunks)}
}

// Malformed is a 200 whose body is not JSON: body, or when body is "" an
// HTML page (a captive portal or proxy page served with status 200).
func Malformed(body string) Step {
	if body == "" {
		body = htmlPage
	}
	return Step{kind: kindMalformed, body: body}
}

// TruncatedJSON is a 200 whose JSON reply (the non-streaming body of
// Reply("ok"), also sent to streaming requests) is cut in half: it declares
// the whole body's Content-Length, sends half and closes the connection, so
// the client reads an unexpected EOF.
func TruncatedJSON() Step {
	return Step{kind: kindTruncatedJSON}
}

// Func is a step decided per request: fn receives a copy of the request
// (with its Index and Time) and returns the step to play. Calls to fn are
// serialized, so fn needs no locking of its own; it may call the Server's
// methods, and it should not block. A step returned by fn may itself be a
// Func. Delays and headers set on the Func step add to those of the step fn
// returns.
func Func(fn func(r *Request) Step) Step {
	return Step{kind: kindFunc, fn: fn}
}

// After returns a copy of s that waits d before it starts answering. The
// wait uses the time package, so it takes fake time inside a testing/synctest
// bubble. It ends early if the client gives up or the server is closed.
func (s Step) After(d time.Duration) Step {
	s.delay = d
	return s
}

// WithHeader returns a copy of s that adds the response header key: value,
// e.g. x-should-retry or x-ratelimit-remaining-requests. A Content-Type set
// this way replaces the step's own. It has no effect on [HangUp].
func (s Step) WithHeader(key, value string) Step {
	h := s.header.Clone()
	if h == nil {
		h = http.Header{}
	}
	h.Add(key, value)
	s.header = h
	return s
}

// WithRetryAfter returns a copy of s with the Retry-After header set to
// value: seconds ("7") or an HTTP date.
func (s Step) WithRetryAfter(value string) Step {
	h := s.header.Clone()
	if h == nil {
		h = http.Header{}
	}
	h.Set("Retry-After", value)
	s.header = h
	return s
}

// WithType returns a copy of s whose error body carries the given error type,
// e.g. "rate_limit_error" (Anthropic) or "tokens" (OpenAI), in every format
// that has one. It only affects error-status steps ([Status] and the canned
// faults built on it).
func (s Step) WithType(errType string) Step {
	s.typ = errType
	return s
}

// WithCode returns a copy of s whose OpenAI error body carries the given
// code, e.g. "insufficient_quota". Anthropic and Ollama error bodies have no
// code. It only affects error-status steps.
func (s Step) WithCode(code string) Step {
	s.code = code
	return s
}

// text returns the whole reply text of s.
func (s Step) text() string {
	return strings.Join(s.chunks, "")
}

// splitWords splits text before each space, keeping the spaces.
func splitWords(text string) []string {
	var chunks []string
	for text != "" {
		i := strings.IndexByte(text[1:], ' ')
		if i < 0 {
			chunks = append(chunks, text)
			break
		}
		chunks = append(chunks, text[:i+1])
		text = text[i+1:]
	}
	return chunks
}

const nginxBadGateway = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"

const htmlPage = "<!DOCTYPE html>\n<html>\n<head><title>Just a moment...</title></head>\n<body>\n<p>Checking your browser before accessing the site.</p>\n</body>\n</html>\n"
