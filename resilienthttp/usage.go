package resilienthttp

import (
	"bytes"
	"encoding/json"
)

// usage is the token usage a response reports, read from its JSON body or
// from the events of its stream. Streams repeat counts that grow (Anthropic's
// message_delta, Gemini's usageMetadata on every chunk), so each count keeps
// the largest value seen: a response that reports its usage once is read
// the same way.
type usage struct {
	input, output int
}

// usageFields are the counts of the usage objects of OpenAI's chat
// completions (prompt_tokens, completion_tokens), OpenAI's responses and
// Anthropic's messages (input_tokens, output_tokens, with Anthropic's
// cache reads and writes reported apart from input_tokens).
type usageFields struct {
	PromptTokens        int `json:"prompt_tokens"`
	CompletionTokens    int `json:"completion_tokens"`
	InputTokens         int `json:"input_tokens"`
	OutputTokens        int `json:"output_tokens"`
	CacheReadTokens     int `json:"cache_read_input_tokens"`
	CacheCreationTokens int `json:"cache_creation_input_tokens"`
}

// usageDoc finds usage where the providers put it:
//
//	{"usage": {...}}                      OpenAI chat completion or its last stream chunk, Anthropic message or message_delta
//	{"message": {"usage": {...}}}         Anthropic message_start
//	{"response": {"usage": {...}}}        OpenAI responses: response.completed
//	{"usageMetadata": {...}}              Gemini, every chunk
//	{"prompt_eval_count", "eval_count"}   Ollama
type usageDoc struct {
	Usage   *usageFields `json:"usage"`
	Message *struct {
		Usage *usageFields `json:"usage"`
	} `json:"message"`
	Response *struct {
		Usage *usageFields `json:"usage"`
	} `json:"response"`
	UsageMetadata *struct {
		PromptTokenCount     int `json:"promptTokenCount"`
		CandidatesTokenCount int `json:"candidatesTokenCount"`
		ThoughtsTokenCount   int `json:"thoughtsTokenCount"`
	} `json:"usageMetadata"`
	PromptEvalCount int `json:"prompt_eval_count"`
	EvalCount       int `json:"eval_count"`
}

// read adds what a JSON object reports. Objects that cannot hold usage are
// rejected by a byte search before any decoding.
func (u *usage) read(obj []byte) {
	if !bytes.Contains(obj, []byte("usage")) && !bytes.Contains(obj, []byte("eval_count")) {
		return
	}
	var doc usageDoc
	if json.Unmarshal(obj, &doc) != nil {
		return
	}
	for _, f := range []*usageFields{doc.Usage, messageUsage(&doc), responseUsage(&doc)} {
		if f != nil {
			u.add(f.PromptTokens+f.InputTokens+f.CacheReadTokens+f.CacheCreationTokens, f.CompletionTokens+f.OutputTokens)
		}
	}
	if m := doc.UsageMetadata; m != nil {
		// Thinking tokens are billed as output.
		u.add(m.PromptTokenCount, m.CandidatesTokenCount+m.ThoughtsTokenCount)
	}
	u.add(doc.PromptEvalCount, doc.EvalCount)
}

func messageUsage(d *usageDoc) *usageFields {
	if d.Message == nil {
		return nil
	}
	return d.Message.Usage
}

func responseUsage(d *usageDoc) *usageFields {
	if d.Response == nil {
		return nil
	}
	return d.Response.Usage
}

func (u *usage) add(input, output int) {
	u.input = max(u.input, input)
	u.output = max(u.output, output)
}
