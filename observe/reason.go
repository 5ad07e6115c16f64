package observe

import "strconv"

// Reason says why a call stopped.
type Reason uint8

// The reasons a call stops.
const (
	// ReasonPermanent: the latest failure was permanent or a programming
	// error; the same request would fail the same way.
	ReasonPermanent Reason = iota + 1
	// ReasonExhausted: every attempt allowed for the failure's kind was made.
	ReasonExhausted
	// ReasonCircuitOpen: the circuit breaker is open; no request was sent.
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
	// retried (see middleware.Unretryable); Error.Detail says why.
	ReasonUnretryable
	// ReasonRejected: a policy added with middleware.Policies or the middleware.RateLimit
	// limiter rejected the attempt.
	ReasonRejected
	// ReasonThrottled: most recent attempts of the target failed, so the
	// breaker's retry throttle allowed no retry.
	ReasonThrottled
	// ReasonUsageLimit: a usage limit of the run (tokens, requests, tool
	// calls) refused the call; the error is a *run.UsageLimitError.
	ReasonUsageLimit
	// ReasonConcurrency: the target's concurrency limit (middleware.MaxConcurrent)
	// had no free slot within the wait allowed; no request was sent.
	ReasonConcurrency
	// ReasonAbandoned: too many attempts of the target were abandoned and
	// have not returned yet (middleware.MaxAbandoned): its client is hung,
	// so no request was sent until some return.
	ReasonAbandoned
)

var reasonText = [...]string{
	ReasonPermanent:         "failed permanently",
	ReasonExhausted:         "failed after %d attempts",
	ReasonCircuitOpen:       "circuit open",
	ReasonCanceled:          "canceled",
	ReasonRetryAfterOverCap: "retry-after over the cap",
	ReasonBudgetSpent:       "retry budget spent",
	ReasonDeadline:          "deadline exceeded",
	ReasonContextOverflow:   "context overflow",
	ReasonUnretryable:       "not retryable",
	ReasonRejected:          "rejected by a policy",
	ReasonThrottled:         "retries throttled",
	ReasonUsageLimit:        "usage limit",
	ReasonConcurrency:       "concurrency limit",
	ReasonAbandoned:         "abandoned attempts",
}

// String returns the reason's short name, e.g. "circuit open".
func (r Reason) String() string {
	if r == ReasonExhausted {
		return "exhausted"
	}
	if int(r) < len(reasonText) && r != 0 {
		return reasonText[r]
	}
	return "reason(" + strconv.Itoa(int(r)) + ")"
}
