package faultserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

// wire renders the bodies of one reply in the format of one request. The
// shapes follow what langchaingo v0.1.14's clients parse:
// openaiclient/chat.go, anthropicclient/messages.go and
// ollamaclient/ollamaclient.go; Gemini's follow google.golang.org/genai
// v1.77.0 (GenerateContentResponse in types.go, the stream's data: lines in
// api_client.go, APIError in errors.go).
type wire struct {
	format  Format
	model   string
	id      string
	now     time.Time
	prompt  int  // prompt token count reported in usage
	usage   bool // OpenAI stream: send the usage chunk
	streams bool // the reply is a stream
	embed   bool // an embeddings request: replies are vectors
	inputs  []string
}

func newWire(r *Request) *wire {
	w := &wire{
		format: r.Format,
		model:  r.model(),
		// Whole seconds: RFC 3339 timestamps of Ollama's lines then keep one
		// width, so a reply cut in half (TruncatedJSON) is cut at the same
		// place every time, rather than wherever the trimmed nanoseconds put it.
		now:     time.Now().Truncate(time.Second),
		prompt:  len(r.Body)/4 + 1,
		usage:   r.Format == OpenAI && r.includeUsage(),
		streams: r.streamed(),
		embed:   r.Embeddings,
	}
	if w.embed {
		w.inputs = r.Inputs()
	}
	n := strconv.Itoa(r.Index + 1)
	switch r.Format {
	case OpenAI:
		w.id = "chatcmpl-fault" + n
		if w.model == "" && w.embed {
			w.model = "text-embedding-ada-002"
		} else if w.model == "" {
			w.model = "gpt-4o-mini"
		}
	case Anthropic:
		w.id = "msg_fault" + n
		if w.model == "" {
			w.model = "claude-3-5-haiku-latest"
		}
	case Ollama:
		if w.model == "" {
			w.model = "llama3.2"
		}
	case Gemini:
		w.id = "resp-fault" + n
		if w.model == "" {
			w.model = "gemini-2.0-flash"
		}
	}
	return w
}

// requestIDHeader returns the name of the header carrying the provider's
// request id, or "" when the provider sends none.
func (w *wire) requestIDHeader() string {
	switch w.format {
	case OpenAI:
		return "X-Request-Id"
	case Anthropic:
		return "Request-Id"
	}
	return ""
}

// contentType returns the Content-Type of a success reply.
func (w *wire) contentType(stream bool) string {
	switch {
	case stream && w.format == Ollama:
		return "application/x-ndjson"
	case stream:
		return "text/event-stream; charset=utf-8"
	}
	return "application/json; charset=utf-8"
}

// full returns the non-streamed success body for st, a reply or tool calls,
// or vectors for an embeddings request.
func (w *wire) full(st Step) []byte {
	if w.embed {
		return w.vectors(st)
	}
	text := st.text()
	out := outputTokens(st)
	switch w.format {
	case OpenAI:
		msg := obj{{"role", "assistant"}, {"content", text}, {"refusal", nil}}
		finish := "stop"
		if st.kind == kindToolCalls {
			msg = obj{{"role", "assistant"}, {"content", nil}, {"tool_calls", w.openaiToolCalls(st.calls, false)}, {"refusal", nil}}
			finish = "tool_calls"
		}
		return marshal(obj{
			{"id", w.id},
			{"object", "chat.completion"},
			{"created", w.now.Unix()},
			{"model", w.model},
			{"choices", []any{obj{{"index", 0}, {"message", msg}, {"logprobs", nil}, {"finish_reason", finish}}}},
			{"usage", w.openaiUsage(out)},
			{"system_fingerprint", "fp_faultserver"},
		})
	case Anthropic:
		content := []any{obj{{"type", "text"}, {"text", text}}}
		stop := "end_turn"
		if st.kind == kindToolCalls {
			content = nil
			for _, c := range st.calls {
				content = append(content, obj{{"type", "tool_use"}, {"id", c.ID}, {"name", c.Name}, {"input", jsonObject(c.Arguments)}})
			}
			stop = "tool_use"
		}
		return marshal(obj{
			{"id", w.id},
			{"type", "message"},
			{"role", "assistant"},
			{"model", w.model},
			{"content", content},
			{"stop_reason", stop},
			{"stop_sequence", nil},
			{"usage", obj{{"input_tokens", w.prompt}, {"output_tokens", out}}},
		})
	case Gemini:
		return marshal(w.geminiChunk(w.geminiParts(text, st.calls), "STOP", out))
	default:
		return append(marshal(w.ollamaFinal(text, st.calls, out)), '\n')
	}
}

// outputTokens is the output token count reported for a reply: one per
// chunk, ten per tool call.
func outputTokens(st Step) int { return len(st.chunks) + 10*len(st.calls) }

// reported returns the token counts that the whole reply to st reports in its
// usage fields, and false when it reports none (an OpenAI stream that did
// not ask for the usage chunk). An embeddings reply reports input tokens
// only.
func (w *wire) reported(st Step) (input, output int, reported bool) {
	switch {
	case w.embed:
		return w.inputTokens(), 0, true
	case w.streams && w.format == OpenAI && !w.usage:
		return 0, 0, false
	}
	return w.prompt, outputTokens(st), true
}

// frames returns the stream of a reply split in three: the events before
// the first chunk, one frame per chunk (or per tool call), and the events
// that end the stream. Each frame is written and flushed on its own.
func (w *wire) frames(st Step) (head, body, tail []string) {
	out := outputTokens(st)
	calls := st.kind == kindToolCalls
	switch w.format {
	case OpenAI:
		for i, c := range st.chunks {
			delta := obj{{"content", c}}
			if i == 0 {
				delta = obj{{"role", "assistant"}, {"content", c}}
			}
			body = append(body, w.openaiChunk(delta, nil))
		}
		finish := "stop"
		if calls {
			for i, c := range st.calls {
				delta := obj{{"tool_calls", []any{w.openaiToolCall(i, c, true)}}}
				if i == 0 {
					delta = obj{{"role", "assistant"}, {"content", nil}, {"tool_calls", []any{w.openaiToolCall(i, c, true)}}}
				}
				body = append(body, w.openaiChunk(delta, nil))
			}
			finish = "tool_calls"
		}
		tail = append(tail, w.openaiChunk(obj{}, finish))
		if w.usage {
			tail = append(tail, "data: "+string(marshal(obj{
				{"id", w.id},
				{"object", "chat.completion.chunk"},
				{"created", w.now.Unix()},
				{"model", w.model},
				{"choices", []any{}},
				{"usage", w.openaiUsage(out)},
			}))+"\n\n")
		}
		tail = append(tail, "data: [DONE]\n\n")
	case Anthropic:
		head = append(head, sse("message_start", obj{
			{"type", "message_start"},
			{"message", obj{
				{"id", w.id},
				{"type", "message"},
				{"role", "assistant"},
				{"model", w.model},
				{"content", []any{}},
				{"stop_reason", nil},
				{"stop_sequence", nil},
				{"usage", obj{{"input_tokens", w.prompt}, {"output_tokens", 1}}},
			}},
		}))
		stop := "end_turn"
		if calls {
			for i, c := range st.calls {
				body = append(body, sse("content_block_start", obj{
					{"type", "content_block_start"},
					{"index", i},
					{"content_block", obj{{"type", "tool_use"}, {"id", c.ID}, {"name", c.Name}, {"input", obj{}}}},
				})+sse("content_block_delta", obj{
					{"type", "content_block_delta"},
					{"index", i},
					{"delta", obj{{"type", "input_json_delta"}, {"partial_json", string(jsonObject(c.Arguments))}}},
				})+sse("content_block_stop", obj{{"type", "content_block_stop"}, {"index", i}}))
			}
			stop = "tool_use"
		} else {
			head = append(head,
				sse("content_block_start", obj{{"type", "content_block_start"}, {"index", 0}, {"content_block", obj{{"type", "text"}, {"text", ""}}}}),
				sse("ping", obj{{"type", "ping"}}))
			for _, c := range st.chunks {
				body = append(body, sse("content_block_delta", obj{
					{"type", "content_block_delta"},
					{"index", 0},
					{"delta", obj{{"type", "text_delta"}, {"text", c}}},
				}))
			}
			tail = append(tail, sse("content_block_stop", obj{{"type", "content_block_stop"}, {"index", 0}}))
		}
		tail = append(tail,
			sse("message_delta", obj{
				{"type", "message_delta"},
				{"delta", obj{{"stop_reason", stop}, {"stop_sequence", nil}}},
				{"usage", obj{{"output_tokens", out}}},
			}),
			sse("message_stop", obj{{"type", "message_stop"}}))
	case Gemini:
		for _, c := range st.chunks {
			body = append(body, "data: "+string(marshal(w.geminiChunk(w.geminiParts(c, nil), "", -1)))+"\r\n\r\n")
		}
		if calls {
			body = append(body, "data: "+string(marshal(w.geminiChunk(w.geminiParts("", st.calls), "", -1)))+"\r\n\r\n")
		}
		tail = append(tail, "data: "+string(marshal(w.geminiChunk(w.geminiParts("", nil), "STOP", out)))+"\r\n\r\n")
	default:
		for _, c := range st.chunks {
			body = append(body, w.ollamaLine(obj{{"role", "assistant"}, {"content", c}}))
		}
		if calls {
			body = append(body, w.ollamaLine(obj{{"role", "assistant"}, {"content", ""}, {"tool_calls", ollamaToolCalls(st.calls)}}))
		}
		tail = append(tail, string(marshal(w.ollamaFinal("", nil, out)))+"\n")
	}
	return head, body, tail
}

// inBand returns the in-band error event of a stream, or the 200 body of a
// non-streamed reply that carries an error object.
func (w *wire) inBand(errType, message string) string {
	switch w.format {
	case OpenAI:
		e := string(marshal(obj{{"error", obj{{"message", message}, {"type", errType}, {"param", nil}, {"code", nil}}}}))
		if w.streams {
			return "data: " + e + "\n\n"
		}
		return e
	case Anthropic:
		e := obj{{"type", "error"}, {"error", obj{{"type", errType}, {"message", message}}}}
		if w.streams {
			return sse("error", e)
		}
		return string(marshal(e))
	case Gemini:
		e := string(marshal(obj{{"error", obj{{"code", geminiCode(errType)}, {"message", message}, {"status", errType}}}}))
		if w.streams {
			return "data: " + e + "\r\n\r\n"
		}
		return e
	default:
		return string(marshal(obj{{"error", message}})) + "\n"
	}
}

// geminiCode is the HTTP status Gemini pairs with an error status name in
// an error object; 500 for a name it does not have.
func geminiCode(status string) int {
	for code, name := range geminiStatus {
		if name == status {
			return code
		}
	}
	return http.StatusInternalServerError
}

// geminiStatus maps an HTTP status to the gRPC status name Gemini sends
// with it in an error object.
var geminiStatus = map[int]string{
	http.StatusBadRequest:          "INVALID_ARGUMENT",
	http.StatusUnauthorized:        "UNAUTHENTICATED",
	http.StatusForbidden:           "PERMISSION_DENIED",
	http.StatusNotFound:            "NOT_FOUND",
	http.StatusConflict:            "ABORTED",
	http.StatusTooManyRequests:     "RESOURCE_EXHAUSTED",
	499:                            "CANCELLED",
	http.StatusInternalServerError: "INTERNAL",
	http.StatusNotImplemented:      "UNIMPLEMENTED",
	http.StatusServiceUnavailable:  "UNAVAILABLE",
	http.StatusGatewayTimeout:      "DEADLINE_EXCEEDED",
}

// geminiParts returns the parts of a Gemini content: one text part, or a
// functionCall part per tool call.
func (w *wire) geminiParts(text string, calls []ToolCall) []any {
	if len(calls) == 0 {
		return []any{obj{{"text", text}}}
	}
	parts := make([]any, 0, len(calls))
	for _, c := range calls {
		parts = append(parts, obj{{"functionCall", obj{{"id", c.ID}, {"name", c.Name}, {"args", jsonObject(c.Arguments)}}}})
	}
	return parts
}

// geminiChunk is a GenerateContentResponse: a whole reply, or one chunk of
// a stream. finish is the candidate's finishReason ("" for none: a chunk
// before the last); out < 0 reports the prompt's tokens alone, as Gemini's
// chunks before the last do.
func (w *wire) geminiChunk(parts []any, finish string, out int) obj {
	candidate := obj{{"content", obj{{"parts", parts}, {"role", "model"}}}}
	if finish != "" {
		candidate = append(candidate, kv{"finishReason", finish})
	}
	candidate = append(candidate, kv{"index", 0})
	usage := obj{{"promptTokenCount", w.prompt}, {"totalTokenCount", w.prompt}}
	if out >= 0 {
		usage = obj{{"promptTokenCount", w.prompt}, {"candidatesTokenCount", out}, {"totalTokenCount", w.prompt + out}}
	}
	return obj{
		{"candidates", []any{candidate}},
		{"usageMetadata", usage},
		{"modelVersion", w.model},
		{"responseId", w.id},
	}
}

// errorBody returns the Content-Type and body of an error-status step.
func (w *wire) errorBody(st Step) (status int, contentType string, body []byte) {
	e := st.errs[w.format-1]
	if w.embed && st.embedErrs != nil {
		e = st.embedErrs[w.format-1]
	}
	switch {
	case e.empty:
		return e.status, "", nil
	case e.html != "":
		return e.status, "text/html", []byte(e.html)
	}
	typ := firstNonEmpty(st.typ, e.typ, defaultType(w.format, e.status))
	switch w.format {
	case OpenAI:
		code := firstNonEmpty(st.code, e.code, defaultCode(e.status))
		return e.status, "application/json; charset=utf-8", marshal(obj{{"error", obj{
			{"message", e.message},
			{"type", typ},
			{"param", nullable(e.param)},
			{"code", nullable(code)},
		}}})
	case Anthropic:
		return e.status, "application/json", marshal(obj{{"type", "error"}, {"error", obj{{"type", typ}, {"message", e.message}}}})
	case Gemini:
		return e.status, "application/json; charset=UTF-8", marshal(obj{{"error", obj{
			{"code", e.status},
			{"message", e.message},
			{"status", typ},
		}}})
	default:
		return e.status, "application/json; charset=utf-8", marshal(obj{{"error", e.message}})
	}
}

// defaultType returns the error type a provider usually sends with status.
func defaultType(f Format, status int) string {
	switch f {
	case OpenAI:
		switch {
		case status == http.StatusTooManyRequests:
			return "requests"
		case status >= 500:
			return "server_error"
		}
		return "invalid_request_error"
	case Anthropic:
		switch status {
		case http.StatusBadRequest:
			return "invalid_request_error"
		case http.StatusUnauthorized:
			return "authentication_error"
		case http.StatusForbidden:
			return "permission_error"
		case http.StatusNotFound:
			return "not_found_error"
		case http.StatusRequestEntityTooLarge:
			return "request_too_large"
		case http.StatusTooManyRequests:
			return "rate_limit_error"
		case http.StatusServiceUnavailable, 529:
			return "overloaded_error"
		}
		if status >= 500 {
			return "api_error"
		}
		return "invalid_request_error"
	case Gemini:
		if name, ok := geminiStatus[status]; ok {
			return name
		}
		if status >= 500 {
			return "INTERNAL"
		}
		return "INVALID_ARGUMENT"
	}
	return ""
}

// defaultCode returns the OpenAI error code usually sent with status.
func defaultCode(status int) string {
	switch status {
	case http.StatusTooManyRequests:
		return "rate_limit_exceeded"
	case http.StatusUnauthorized:
		return "invalid_api_key"
	}
	return ""
}

func (w *wire) openaiChunk(delta obj, finish any) string {
	return "data: " + string(marshal(obj{
		{"id", w.id},
		{"object", "chat.completion.chunk"},
		{"created", w.now.Unix()},
		{"model", w.model},
		{"system_fingerprint", "fp_faultserver"},
		{"choices", []any{obj{{"index", 0}, {"delta", delta}, {"logprobs", nil}, {"finish_reason", finish}}}},
	})) + "\n\n"
}

func (w *wire) openaiUsage(out int) obj {
	return obj{{"prompt_tokens", w.prompt}, {"completion_tokens", out}, {"total_tokens", w.prompt + out}}
}

func (w *wire) openaiToolCalls(calls []ToolCall, stream bool) []any {
	var out []any
	for i, c := range calls {
		out = append(out, w.openaiToolCall(i, c, stream))
	}
	return out
}

func (w *wire) openaiToolCall(i int, c ToolCall, stream bool) obj {
	call := obj{{"id", c.ID}, {"type", "function"}, {"function", obj{{"name", c.Name}, {"arguments", c.Arguments}}}}
	if stream {
		call = append(obj{{"index", i}}, call...)
	}
	return call
}

func (w *wire) ollamaLine(msg obj) string {
	return string(marshal(obj{
		{"model", w.model},
		{"created_at", w.now.UTC().Format(time.RFC3339Nano)},
		{"message", msg},
		{"done", false},
	})) + "\n"
}

func (w *wire) ollamaFinal(text string, calls []ToolCall, out int) obj {
	msg := obj{{"role", "assistant"}, {"content", text}}
	if len(calls) > 0 {
		msg = append(msg, kv{"tool_calls", ollamaToolCalls(calls)})
	}
	return obj{
		{"model", w.model},
		{"created_at", w.now.UTC().Format(time.RFC3339Nano)},
		{"message", msg},
		{"done_reason", "stop"},
		{"done", true},
		{"total_duration", 1000000},
		{"load_duration", 1000},
		{"prompt_eval_count", w.prompt},
		{"prompt_eval_duration", 1000},
		{"eval_count", out},
		{"eval_duration", 1000},
	}
}

func ollamaToolCalls(calls []ToolCall) []any {
	var out []any
	for _, c := range calls {
		out = append(out, obj{{"function", obj{{"name", c.Name}, {"arguments", jsonObject(c.Arguments)}}}})
	}
	return out
}

// sse returns one server-sent event.
func sse(event string, data obj) string {
	return "event: " + event + "\ndata: " + string(marshal(data)) + "\n\n"
}

// jsonObject returns s if it is a JSON object, else {}.
func jsonObject(s string) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(s), &m) != nil || m == nil {
		return json.RawMessage("{}")
	}
	return json.RawMessage(s)
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// obj is a JSON object that keeps its keys in order, so bodies read like the
// providers' own.
type obj []kv

type kv struct {
	k string
	v any
}

// MarshalJSON implements json.Marshaler.
func (o obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := encode(&b, f.k); err != nil {
			return nil, err
		}
		b.WriteByte(':')
		if err := encode(&b, f.v); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// encode appends the JSON of v to b without escaping <, > and &, as the
// providers' own encoders do.
func encode(b *bytes.Buffer, v any) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1) // Encode's newline
	return nil
}

// marshal encodes v, which only holds values that always encode.
func marshal(v any) []byte {
	var b bytes.Buffer
	if err := encode(&b, v); err != nil {
		panic("faultserver: " + err.Error())
	}
	return b.Bytes()
}
