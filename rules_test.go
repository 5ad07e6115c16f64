package resilient_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/taxonomy"
)

// TestOptionsFollowOneRule drives the rule stated on resilient.Option
// through the wrappers most users make: a later option overrides an
// earlier one; a 0 that cannot work is refused with the option's name; 0
// allows none; a negative number is refused, and nothing is sent.
func TestOptionsFollowOneRule(t *testing.T) {
	s := faultserver.New(faultserver.Reply("Order 4471 shipped."))
	t.Cleanup(s.Close)
	llm := openaiAgainst(t, s)

	noThenOwn := resilient.Model(llm, resilient.Middleware(middleware.NoBreaker()), resilient.CircuitBreaker(3, time.Second))
	ownThenNo := resilient.Model(llm, resilient.CircuitBreaker(3, time.Second), resilient.Middleware(middleware.NoBreaker()))
	if noThenOwn.Breaker() == nil || ownThenNo.Breaker() != nil {
		t.Errorf("the later breaker option did not win: NoBreaker then CircuitBreaker has %v, the reverse %v",
			noThenOwn.Breaker(), ownThenNo.Breaker())
	}

	if err := resilient.Model(llm, resilient.Timeout(0)).Err(); err == nil || !strings.Contains(err.Error(), "Timeout(0s): must be positive") {
		t.Errorf("Model with Timeout(0): Err() = %v, want the option named", err)
	}
	if err := resilient.Tool(lookupOrder, resilient.Timeout(0)).Err(); err == nil || !strings.Contains(err.Error(), "Timeout(0s): must be positive") {
		t.Errorf("Tool with Timeout(0): Err() = %v, want the option named", err)
	}
	if err := resilient.Model(llm, resilient.Timeout(resilient.Forever)).Err(); err != nil {
		t.Errorf("Timeout(Forever): Err() = %v", err)
	}

	model := resilient.Model(llm)
	if _, err := model.Call(resilient.NewRun(t.Context(), resilient.RequestLimit(0)), "Where is order 4471?"); !errors.Is(err, resilient.ErrUsageLimit) {
		t.Errorf("RequestLimit(0): got %v, want the request refused", err)
	}
	_, err := model.Call(resilient.NewRun(t.Context(), resilient.RetryBudget(-1)), "Where is order 4471?")
	if !errors.Is(err, resilient.ErrInvalidRun) || taxonomy.Classify(err).Kind != taxonomy.Programming ||
		!strings.Contains(err.Error(), "RetryBudget(-1): must not be negative") {
		t.Errorf("RetryBudget(-1): got %v, want a programming error naming it", err)
	}
	if n := s.Count(); n != 0 {
		t.Errorf("the provider got %d requests, want none", n)
	}
	if _, err := resilient.Tool(lookupOrder).Call(resilient.NewRun(t.Context(), resilient.ToolCallLimit(0)), "4471"); !errors.Is(err, resilient.ErrUsageLimit) {
		t.Errorf("ToolCallLimit(0): got %v, want the call refused", err)
	}
}

// TestUsageFromANilContext: UsageFrom(nil) is the zero Usage, not a panic.
func TestUsageFromANilContext(t *testing.T) {
	var ctx context.Context
	if u := resilient.UsageFrom(ctx); u != (resilient.Usage{}) || resilient.RunFrom(ctx) != nil {
		t.Errorf("UsageFrom(nil) = %+v, want the zero Usage", u)
	}
}
