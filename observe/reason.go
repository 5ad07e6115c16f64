package observe

import "strconv"

// Reason says why a call ended: the one vocabulary that the final error of
// a pipeline (middleware.Error), the events ([GaveUp], [Refusal],
// [CallEnd]), the log lines and the metrics share, each reason with one
// sentinel for errors.Is (see middleware.Error). The zero Reason is none:
// the call was answered.
type Reason uint8

// The reasons a call ends. The first ones stop a pipeline's call (and refuse
// an attempt, for those a [Refusal] reports); the last ones end a tool call
// at the boundary where the model reads its outcome.
const (
	// ReasonPermanent: the latest failure was permanent or a programming
	// error; the same request would fail the same way.
	ReasonPermanent Reason = iota + 1
	// ReasonExhausted: every attempt allowed for the failure's kind was made.
	ReasonExhausted
	// ReasonCircuitOpen: the circuit breaker is open; no request was sent
	// (for a tool, the run ends).
	ReasonCircuitOpen
	// ReasonCanceled: the caller's context was canceled or its deadline passed.
	ReasonCanceled
	// ReasonRetryAfterOverCap: the provider asked for a wait longer than the
	// pipeline's RetryAfterCap.
	ReasonRetryAfterOverCap
	// ReasonBudgetSpent: the run's retry budget was spent.
	ReasonBudgetSpent
	// ReasonDeadline: the call's MaxDuration passed, or the next wait would
	// pass it or the caller's deadline.
	ReasonDeadline
	// ReasonContextOverflow: the request exceeds the model's context window
	// and could not be repaired.
	ReasonContextOverflow
	// ReasonUnretryable: the protected function said the failure must not be
	// retried (see middleware.Unretryable); the error's Detail says why.
	ReasonUnretryable
	// ReasonRejected: a failsafe-go policy added with middleware.Policies
	// rejected the attempt.
	ReasonRejected
	// ReasonThrottled: most recent attempts of the target failed, so the
	// breaker's retry throttle allowed no retry.
	ReasonThrottled
	// ReasonUsageLimit: a usage limit of the run (tokens, requests, tool
	// calls) refused the call; the error is a *run.UsageLimitError. A tool
	// call so refused ends the run.
	ReasonUsageLimit
	// ReasonConcurrency: the target's concurrency limit had no free slot
	// within the wait allowed; no request was sent.
	ReasonConcurrency
	// ReasonRateLimit: the target's client-side rate limiter (package
	// limit) would not admit the attempt in time; no request was sent.
	ReasonRateLimit
	// ReasonAbandoned: too many attempts of the target were abandoned and
	// have not returned yet (middleware.MaxAbandoned): its client is hung,
	// so no request was sent until some return.
	ReasonAbandoned
	// ReasonToolError: the tool returned a taxonomy.ToolError; the model
	// reads its text and may correct its call.
	ReasonToolError
	// ReasonFatal: the tool returned a taxonomy.FatalToolError: the run ends.
	ReasonFatal
	// ReasonInternal: the tool failed internally or panicked; the model
	// reads only its name and the failure's type.
	ReasonInternal
	// ReasonTimeout: the tool ran out of time; the model reads that it
	// timed out.
	ReasonTimeout
	// ReasonStuck: the model repeated the same tool call too often: the run
	// ends.
	ReasonStuck
	// ReasonReplayed: an idempotent tool answered a repeated call from its
	// store without running: the call was answered.
	ReasonReplayed
	// ReasonOutcomeUnknown: the same idempotent tool call hung past its
	// claim's lifetime, so whether it took effect is unknown: the run ends.
	ReasonOutcomeUnknown
)

var reasonNames = [...]string{
	0:                       "ok",
	ReasonPermanent:         "permanent",
	ReasonExhausted:         "exhausted",
	ReasonCircuitOpen:       "circuit_open",
	ReasonCanceled:          "canceled",
	ReasonRetryAfterOverCap: "retry_after_over_cap",
	ReasonBudgetSpent:       "budget_spent",
	ReasonDeadline:          "deadline",
	ReasonContextOverflow:   "context_overflow",
	ReasonUnretryable:       "unretryable",
	ReasonRejected:          "rejected",
	ReasonThrottled:         "throttled",
	ReasonUsageLimit:        "usage_limit",
	ReasonConcurrency:       "concurrency",
	ReasonRateLimit:         "rate_limit",
	ReasonAbandoned:         "abandoned",
	ReasonToolError:         "tool_error",
	ReasonFatal:             "fatal",
	ReasonInternal:          "internal",
	ReasonTimeout:           "timeout",
	ReasonStuck:             "stuck",
	ReasonReplayed:          "replayed",
	ReasonOutcomeUnknown:    "outcome_unknown",
}

// String returns the reason's lowercase name, fit for a log attribute or
// a metric's: "circuit_open", "tool_error"; "ok" for the zero Reason.
func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return "reason(" + strconv.Itoa(int(r)) + ")"
}

// Answered reports whether a call that ended for r was answered: r is
// none, or [ReasonReplayed].
func (r Reason) Answered() bool { return r == 0 || r == ReasonReplayed }
