package observe_test

import (
	"testing"

	"github.com/resilientgo/resilient/observe"
)

// TestReasonNames: one lowercase name per reason, fit for a log attribute
// and a metric's; the zero Reason is "ok".
func TestReasonNames(t *testing.T) {
	reasons := map[observe.Reason]string{
		0: "ok", observe.ReasonPermanent: "permanent", observe.ReasonExhausted: "exhausted",
		observe.ReasonCircuitOpen: "circuit_open", observe.ReasonCanceled: "canceled",
		observe.ReasonRetryAfterOverCap: "retry_after_over_cap", observe.ReasonBudgetSpent: "budget_spent",
		observe.ReasonDeadline: "deadline", observe.ReasonContextOverflow: "context_overflow",
		observe.ReasonUnretryable: "unretryable", observe.ReasonRejected: "rejected", observe.ReasonThrottled: "throttled",
		observe.ReasonUsageLimit: "usage_limit", observe.ReasonConcurrency: "concurrency", observe.ReasonRateLimit: "rate_limit", observe.ReasonAbandoned: "abandoned",
		observe.ReasonToolError: "tool_error", observe.ReasonFatal: "fatal", observe.ReasonInternal: "internal",
		observe.ReasonTimeout: "timeout", observe.ReasonStuck: "stuck", observe.ReasonReplayed: "replayed",
		observe.ReasonOutcomeUnknown: "outcome_unknown", observe.ReasonOutcomeUnknown + 1: "reason(23)", 200: "reason(200)",
	}
	for r, want := range reasons {
		if got := r.String(); got != want {
			t.Errorf("Reason(%d).String() = %q, want %q", r, got, want)
		}
		if got, want := r.Answered(), r == 0 || r == observe.ReasonReplayed; got != want {
			t.Errorf("%v.Answered() = %v, want %v", r, got, want)
		}
	}
	actions := map[observe.SharedStateAction]string{
		0: "action(0)", observe.SharedFailOpen: "fail_open", observe.SharedLocal: "local",
		observe.SharedFailClosed: "fail_closed", observe.SharedFailClosed + 1: "action(4)",
	}
	for a, want := range actions {
		if got := a.String(); got != want {
			t.Errorf("SharedStateAction(%d).String() = %q, want %q", a, got, want)
		}
	}
}
