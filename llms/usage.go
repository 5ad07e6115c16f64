package llms

import (
	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/internal/sat"
)

// The keys under which langchaingo v0.1.14's clients report token usage in
// a choice's GenerationInfo, in order of preference:
//
//	openai (and compatible), ollama, googleai  PromptTokens / CompletionTokens
//	anthropic                                  InputTokens / OutputTokens
//	bedrock (every provider), googleai         input_tokens / output_tokens
//
// mistral and cohere report none. Anthropic's InputTokens leaves out the
// prompt tokens read from or written to its cache, which it reports apart
// (CacheReadInputTokens, CacheCreationInputTokens): they are added, so that
// input tokens mean the whole prompt for every provider, as OpenAI's
// PromptTokens do (its PromptCachedTokens are a part of them, not added).
var (
	inputKeys  = [...]string{"PromptTokens", "InputTokens", "input_tokens"}
	outputKeys = [...]string{"CompletionTokens", "OutputTokens", "output_tokens"}
	cacheKeys  = [...]string{"CacheReadInputTokens", "CacheCreationInputTokens"}
)

// usageOf returns the input and output tokens a response reports, 0 and 0
// when it reports none. Clients repeat the usage of the whole response in
// every choice, so the first choice that reports any is read, not the sum.
func usageOf(resp *lcllms.ContentResponse) (input, output int) {
	if resp == nil {
		return 0, 0
	}
	for _, c := range resp.Choices {
		if c == nil {
			continue
		}
		in, key, inOK := firstCount(c.GenerationInfo, inputKeys[:])
		out, _, outOK := firstCount(c.GenerationInfo, outputKeys[:])
		if !inOK && !outOK {
			continue
		}
		if key == "InputTokens" {
			for _, k := range cacheKeys {
				if n, ok := count(c.GenerationInfo[k]); ok {
					in = sat.Add(in, n)
				}
			}
		}
		return in, out
	}
	return 0, 0
}

// firstCount returns the first of keys whose value is a non-negative
// count, and that key.
func firstCount(info map[string]any, keys []string) (int, string, bool) {
	for _, k := range keys {
		if n, ok := count(info[k]); ok {
			return n, k, true
		}
	}
	return 0, "", false
}

// count reads a token count of any integer or float type the clients use.
func count(v any) (int, bool) {
	var n int64
	switch v := v.(type) {
	case int:
		n = int64(v)
	case int32:
		n = int64(v)
	case int64:
		n = v
	case uint32:
		n = int64(v)
	case uint64:
		n = int64(min(v, 1<<62))
	case float64:
		if !(v >= 0) { // negative or NaN
			return 0, false
		}
		n = int64(min(v, 1<<62))
	default:
		return 0, false
	}
	if n < 0 {
		return 0, false
	}
	return int(n), true
}
