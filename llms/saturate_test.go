package llms_test

import (
	"errors"
	"math"
	"testing"

	"github.com/resilientgo/resilient/internal/scripted"
	"github.com/resilientgo/resilient/run"
)

// A response reporting the largest token count a client can hold spends
// the budget: the count saturates instead of wrapping around, and the next
// request is refused.
func TestHugeTokenCountsSpendTheBudget(t *testing.T) {
	for _, info := range []map[string]any{
		{"PromptTokens": int64(math.MaxInt64), "CompletionTokens": 10},
		{"PromptTokens": uint64(1) << 63, "CompletionTokens": uint64(1) << 63},
		{"InputTokens": math.MaxInt, "OutputTokens": 1, "CacheReadInputTokens": math.MaxInt},
	} {
		ctx := run.New(t.Context(), run.TokenBudget(1000))
		m := mustWrap(t, scripted.New(generationInfo(info)))
		if _, err := m.GenerateContent(ctx, hello()); err != nil {
			t.Fatal(err)
		}
		if _, err := m.GenerateContent(ctx, hello()); !errors.Is(err, run.ErrUsageLimit) {
			t.Errorf("%v: the call after got %v, want the token budget's refusal (usage %+v)", info, err, run.From(ctx).Usage())
		}
	}
}
