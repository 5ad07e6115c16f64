package resilient_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
)

// runMyAgent stands for the agent a reader tests in the README's
// "Testing your own agent against faults".
func runMyAgent(ctx context.Context, model lcllms.Model) (string, error) {
	return lcllms.GenerateFromSinglePrompt(ctx, model, "Where is order 4471?")
}

// readme:begin faults
func TestAgentSurvivesAnOverloadedProvider(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := faultserver.NewInMemory(
			faultserver.RateLimited("7"), // 429 with Retry-After: 7
			faultserver.Overloaded(),     // 529
			faultserver.Reply("Order 4471 shipped."),
		)
		defer srv.Close()
		llm, _ := srv.OpenAI() // the real langchaingo client, pointed at the server
		start := time.Now()
		answer, err := runMyAgent(t.Context(), resilient.Model(llm))
		if err != nil || answer != "Order 4471 shipped." {
			t.Fatalf("got %q, %v", answer, err)
		}
		if srv.Count() != 3 || time.Since(start) < 7*time.Second {
			t.Errorf("got %d requests in %v, want 3 in at least 7 s", srv.Count(), time.Since(start))
		}
	})
}

// readme:end
