package llms_test

import (
	"context"
	"math"
	"strings"
	"testing"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/run"
)

// usageModel answers every call with the same response, which reports its
// usage as langchaingo's openai client does, allocating nothing.
type usageModel struct{ resp *lcllms.ContentResponse }

func (m usageModel) GenerateContent(context.Context, []lcllms.MessageContent, ...lcllms.CallOption) (*lcllms.ContentResponse, error) {
	return m.resp, nil
}

func (m usageModel) Call(ctx context.Context, prompt string, options ...lcllms.CallOption) (string, error) {
	return lcllms.GenerateFromSinglePrompt(ctx, m, prompt, options...)
}

// BenchmarkRunLimits measures one model call of an agent's conversation (a
// system prompt and 12 turns, about 6 KB) under a run without limits
// (run=plain, the baseline) and under a run with a token budget, a request
// limit and a tool call limit, none of them reached (run=limits): the
// request's place taken before it is sent, its input estimated for the
// budget, the reported tokens added after it. run=none is a call without a
// run. Compare with benchrounds, base run=plain (see docs/performance.md).
func BenchmarkRunLimits(b *testing.B) {
	m, err := llms.New(usageModel{resp: &lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{{
		Content: "ok", StopReason: "stop",
		GenerationInfo: map[string]any{"PromptTokens": 1500, "CompletionTokens": 20, "TotalTokens": 1520},
	}}}})
	if err != nil {
		b.Fatal(err)
	}
	msgs := []lcllms.MessageContent{lcllms.TextParts(lcllms.ChatMessageTypeSystem, strings.Repeat("You are a careful assistant. ", 20))}
	for range 6 {
		msgs = append(msgs,
			lcllms.TextParts(lcllms.ChatMessageTypeHuman, strings.Repeat("Where is my order? ", 20)),
			lcllms.TextParts(lcllms.ChatMessageTypeAI, strings.Repeat("Let me look it up. ", 20)))
	}
	for _, run := range []struct {
		name string
		ctx  func() context.Context
	}{
		{"none", context.Background},
		{"plain", func() context.Context { return run.New(context.Background()) }},
		{"limits", func() context.Context {
			return run.New(context.Background(), run.TokenBudget(math.MaxInt),
				run.RequestLimit(math.MaxInt), run.ToolCallLimit(math.MaxInt))
		}},
	} {
		b.Run("run="+run.name, func(b *testing.B) {
			ctx := run.ctx()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := m.GenerateContent(ctx, msgs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
