package faultserver

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Format is a provider wire format. The server picks it per request from the
// path: /v1/chat/completions and /v1/embeddings are [OpenAI], /v1/messages
// is [Anthropic], /api/chat and /api/embed are [Ollama],
// /v1beta/models/{model}:generateContent and :streamGenerateContent (or
// under /v1) are [Gemini].
//
// A Format is a plain value and safe for concurrent use.
type Format int

// The wire formats the server speaks.
const (
	OpenAI    Format = iota + 1 // OpenAI chat completions: JSON, or SSE with data: [DONE]
	Anthropic                   // Anthropic messages: JSON, or SSE events ending in message_stop
	Ollama                      // Ollama chat: NDJSON lines ending in done:true
	Gemini                      // Gemini generateContent: JSON, or SSE chunks (no end marker: the last has a finishReason)
)

// String returns "openai", "anthropic", "ollama" or "gemini".
func (f Format) String() string {
	switch f {
	case OpenAI:
		return "openai"
	case Anthropic:
		return "anthropic"
	case Ollama:
		return "ollama"
	case Gemini:
		return "gemini"
	}
	return "Format(" + strconv.Itoa(int(f)) + ")"
}

// Request is one request the server received and answered with a step of its
// script. [Server.Requests] returns copies, so a Request may be read and
// modified freely by its holder; it is not safe for concurrent modification.
type Request struct {
	// Index is the position of the request in arrival order, starting at 0.
	// Requests take the steps of the script in Index order: with an
	// unchanged script, request i gets step i, or the last step once the
	// script is exhausted.
	Index int
	// Method and Path are those of the HTTP request, e.g. "POST" and
	// "/v1/chat/completions".
	Method, Path string
	// Header holds the request headers (Authorization, x-api-key, ...).
	Header http.Header
	// Body is the raw request body.
	Body []byte
	// Stream reports whether the body asked for a streamed reply
	// ("stream":true). langchaingo's ollama client leaves the field out of
	// non-streaming calls; the real Ollama server then streams anyway, and so
	// does this server, so an Ollama reply is NDJSON lines unless the body
	// says "stream":false explicitly. A Gemini request asks for a stream by
	// its path (:streamGenerateContent).
	Stream bool
	// Format is the wire format chosen from Path.
	Format Format
	// Embeddings is true for a request to an embeddings endpoint
	// (/v1/embeddings, /api/embed); [Request.Inputs] returns its texts.
	Embeddings bool
	// Time is when the request arrived, on the time package's clock (fake
	// time inside a testing/synctest bubble).
	Time time.Time
	// InputTokens and OutputTokens are the token counts that the reply
	// reported in its usage fields (prompt_tokens and completion_tokens,
	// input_tokens and output_tokens, prompt_eval_count and eval_count;
	// input only for embeddings), recorded before the reply was written.
	// They are 0 for a reply that reported none or was not sent whole: an
	// error, a broken or stalled reply, an OpenAI stream that did not ask
	// for usage. Their sums over [Server.Requests] are what a client that
	// adds up the usage it was told should find.
	InputTokens, OutputTokens int

	// streamSet reports whether the body had a "stream" field at all.
	streamSet bool
}

// MessageCount returns the number of entries in the body's "messages" array:
// the conversation the client sent. Anthropic carries its system prompt
// outside that array, OpenAI and Ollama inside it. It returns 0 when the body
// has no such array or is not JSON.
func (r Request) MessageCount() int {
	var body struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if json.Unmarshal(r.Body, &body) != nil {
		return 0
	}
	return len(body.Messages)
}

// model returns the "model" field of the body, or for Gemini the model
// its path names; "" when there is none.
func (r *Request) model() string {
	if r.Format == Gemini {
		_, rest, _ := strings.Cut(r.Path, "/models/")
		model, _, _ := strings.Cut(rest, ":")
		return model
	}
	var body struct {
		Model string `json:"model"`
	}
	_ = json.Unmarshal(r.Body, &body)
	return body.Model
}

// streamed reports whether the reply to r is a stream: "stream":true, or for
// Ollama any body that does not say "stream":false.
func (r *Request) streamed() bool {
	if r.Embeddings {
		return false // embeddings are never streamed
	}
	if r.Format == Gemini {
		return strings.HasSuffix(r.Path, ":streamGenerateContent")
	}
	return r.Stream || (r.Format == Ollama && !r.streamSet)
}

// includeUsage reports whether an OpenAI streaming request asked for the
// final usage chunk (stream_options.include_usage, which langchaingo sets).
func (r *Request) includeUsage() bool {
	var body struct {
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
	}
	_ = json.Unmarshal(r.Body, &body)
	return body.StreamOptions.IncludeUsage
}

// clone returns a deep copy of r.
func (r Request) clone() Request {
	r.Header = r.Header.Clone()
	r.Body = append([]byte(nil), r.Body...)
	return r
}

// parseStream reads the "stream" field of a request body.
func parseStream(body []byte) (stream, set bool) {
	var b struct {
		Stream *bool `json:"stream"`
	}
	if json.Unmarshal(body, &b) != nil || b.Stream == nil {
		return false, false
	}
	return *b.Stream, true
}
