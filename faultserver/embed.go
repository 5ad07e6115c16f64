package faultserver

import (
	"encoding/json"
	"hash/fnv"
	"net/http"
	"strconv"
)

// EmbeddingDimensions is the length of every vector the server returns.
const EmbeddingDimensions = 8

// Vector returns the vector the server answers for text: EmbeddingDimensions
// numbers in [-1, 1) that depend on the text alone, so that a test can check
// that every text got its own vector, in order.
func Vector(text string) []float32 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(text))
	x := h.Sum64()
	v := make([]float32, EmbeddingDimensions)
	for i := range v {
		x = splitmix64(x)
		v[i] = float32(x>>40)/(1<<23) - 1 // 24 bits: exact in a float32
	}
	return v
}

// splitmix64 is one step of the SplitMix64 generator: it spreads the
// hash's bits over each dimension.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// WrongVectorCount is a successful embeddings reply carrying delta vectors
// more than the request had inputs (fewer when delta is negative, none
// below zero): the inputs' own vectors, in order, the extra ones derived
// from "extra 0", "extra 1", ... langchaingo's openai client returns the
// vectors with the error "unexpected length of response"; its ollama
// client, which sends one input per request, returns "no response" for a
// reply without a vector and "not all input got embedded" for one with two.
// On a chat endpoint it is an empty reply.
func WrongVectorCount(delta int) Step {
	return Step{kind: kindVectors, delta: delta}
}

// BatchTooLarge is an embeddings request rejected as too large as a whole,
// which a smaller batch fixes: OpenAI 400 "Requested 453357 tokens, max
// 300000 tokens per request" with type and code "max_tokens_per_request".
// Ollama has no such limit (and langchaingo's client sends one input per
// request): it gets its answer to an input too long, 400 "the input length
// exceeds the context length". Anthropic, which has no embeddings endpoint,
// gets its 413 "request_too_large".
func BatchTooLarge() Step {
	return Step{kind: kindStatus, errs: [4]apiError{
		{status: http.StatusBadRequest, typ: "max_tokens_per_request", code: "max_tokens_per_request",
			message: "Requested 453357 tokens, max 300000 tokens per request"},
		anthropicTooLarge,
		{status: http.StatusBadRequest, message: ollamaInputTooLong},
		geminiTooLarge,
	}}
}

// TooManyInputs is an embeddings request with more inputs than the
// deployment accepts, as Azure OpenAI words it: 400 "Too many inputs. The
// max number of inputs is 16. ..." with type "invalid_request_error" and no
// code. Ollama gets the same answer as for [BatchTooLarge].
func TooManyInputs() Step {
	return Step{kind: kindStatus, errs: [4]apiError{
		{status: http.StatusBadRequest, message: "Too many inputs. The max number of inputs is 16.  We hope to increase the number of inputs per request soon. Please contact us through an Azure support request at: https://go.microsoft.com/fwlink/?linkid=2213926 for further questions."},
		anthropicTooLarge,
		{status: http.StatusBadRequest, message: ollamaInputTooLong},
		geminiTooLarge,
	}}
}

// anthropicTooLarge is Anthropic's answer to a request over its size limit
// (it has no embeddings endpoint: this is for a chat request given the step).
var anthropicTooLarge = apiError{status: http.StatusRequestEntityTooLarge, message: "Request exceeds the maximum allowed number of bytes."}

// ollamaInputTooLong is Ollama's answer to an input longer than the
// model's context, chat and embeddings alike.
const ollamaInputTooLong = "the input length exceeds the context length"

// embedOverflow is what an embeddings endpoint says when one input is
// longer than the model accepts, where it differs from the chat wording:
// OpenAI 400 "Invalid 'input': maximum context length is 8192 tokens."
var embedOverflow = [4]apiError{
	{status: http.StatusBadRequest, message: "Invalid 'input': maximum context length is 8192 tokens."},
	{status: http.StatusBadRequest, message: "prompt is too long: 210000 tokens > 200000 maximum"},
	{status: http.StatusBadRequest, message: ollamaInputTooLong},
	{status: http.StatusBadRequest, message: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)."},
}

// geminiTooLarge is Gemini's answer to a request over its size limit (this
// server has no Gemini embeddings endpoint: this is for a chat request
// given the step).
var geminiTooLarge = apiError{status: http.StatusBadRequest, message: "Request payload size exceeds the limit: 20971520 bytes."}

// Inputs returns the texts an embeddings request asked vectors for: its
// "input" field, a string or an array of strings (langchaingo's openai
// client sends an array, its ollama client one string per request). It
// returns nil when the body has no such field.
func (r Request) Inputs() []string {
	var body struct {
		Input json.RawMessage `json:"input"`
	}
	if json.Unmarshal(r.Body, &body) != nil || len(body.Input) == 0 {
		return nil
	}
	var one string
	if json.Unmarshal(body.Input, &one) == nil {
		return []string{one}
	}
	var many []string
	if json.Unmarshal(body.Input, &many) == nil {
		return many
	}
	return nil
}

// inputTokens is the token count reported for the inputs of an embeddings
// request: a quarter of each input's bytes, plus one.
func (w *wire) inputTokens() int {
	tokens := 0
	for _, in := range w.inputs {
		tokens += len(in)/4 + 1
	}
	return tokens
}

// vectors returns the success body of an embeddings request: one vector
// per input, plus or minus the delta of a [WrongVectorCount] step.
func (w *wire) vectors(st Step) []byte {
	n := max(len(w.inputs)+st.delta, 0)
	vecs := make([][]float32, n)
	for i := range vecs {
		if i < len(w.inputs) {
			vecs[i] = Vector(w.inputs[i])
		} else {
			vecs[i] = Vector("extra " + strconv.Itoa(i-len(w.inputs)))
		}
	}
	tokens := w.inputTokens()
	if w.format == Ollama {
		return marshal(obj{
			{"model", w.model},
			{"embeddings", vecs},
			{"total_duration", 1000000},
			{"load_duration", 1000},
			{"prompt_eval_count", tokens},
		})
	}
	data := make([]any, len(vecs))
	for i, v := range vecs {
		data[i] = obj{{"object", "embedding"}, {"index", i}, {"embedding", v}}
	}
	return marshal(obj{
		{"object", "list"},
		{"data", data},
		{"model", w.model},
		{"usage", obj{{"prompt_tokens", tokens}, {"total_tokens", tokens}}},
	})
}
