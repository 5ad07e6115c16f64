package resilientotel_test

import (
	"testing"

	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/taxonomy"
)

// A model call that a run's usage limit stopped is recorded with that
// reason as its error.type, as a tool call's is, not as canceled: the
// caller did not give up.
func TestARunLimitStopIsItsOwnErrorType(t *testing.T) {
	h := newHarness(t)
	target := observe.Target{Name: "openai/gpt-4o", Operation: observe.OperationChat, Provider: "openai", Model: "gpt-4o"}
	ctx := h.obs.Start(t.Context(), observe.Start{Target: target})
	h.obs.Observe(ctx, observe.CallEnd{Target: target, Attempts: 1,
		Reason: observe.ReasonUsageLimit, Class: taxonomy.Class{Kind: taxonomy.Canceled, Rule: "usage limit"}})
	const base = "gen_ai.operation.name=chat,gen_ai.provider.name=openai,gen_ai.request.model=gpt-4o"
	if durations := counts(h.metrics(t), "gen_ai.client.operation.duration"); durations["error.type=usage_limit,"+base] != 1 {
		t.Errorf("durations: got %v, want one with error.type usage_limit", durations)
	}
}
