// Package middleware decides what to do about a failure and carries the
// decision out: it turns a [taxonomy.Class] into retry, wait, stop or fail
// fast, on failsafe-go's retry, circuit breaker and hedge policies. Both
// wrappers of this library, models (package llms) and tools (package tools),
// run on a [Pipeline].
//
// # Order
//
// A pipeline expands, first element outermost, to
//
//	retry(hedge?(policies...(limiter?(breaker(timeout(fn))))))
//
// so the timeout is per attempt, the breaker sees every attempt and fails
// fast while open, a rate limiter ([RateLimit]) spaces attempts before they
// take a breaker permit, and the retry decides on every outcome.
//
// # Decisions
//
//   - permanent, canceled and programming failures stop at once;
//   - retryable kinds retry until the call has made as many attempts as the
//     kind allows (rate_limited 5, unknown 2, the others [MaxAttempts]: 3);
//   - the wait is full jitter, uniform in [0, min(0.5s*2^(n-1), 8s)), unless
//     the provider sent Retry-After: then exactly that long, never sooner; a
//     Retry-After over the cap (60 s) is not slept on: the call fails at once
//     and the breaker is held open for the period the provider asked for;
//   - context_overflow is never retried blindly: only a function that repairs
//     its request between attempts raises its limit (llms compacts);
//   - a caller that gave up makes the call canceled, whatever the error says;
//     a backoff sleep ends at once and no attempt starts after it;
//   - an error that an inner layer of this library already gave up on is not
//     retried again: three nested layers over a failing call make 3 calls,
//     not 27;
//   - a [Run] in the context ([NewRun]) caps the retries of every model and
//     tool call of one agent run together, counts the run's usage and may
//     limit it: a call made with the [Request] option has each attempt
//     counted as a request, and refused ([ReasonUsageLimit], never retried)
//     before it takes anything from the limiter or the breaker;
//   - the circuit breaker opens after 10 consecutive failures that say
//     something about the target (not cancellations, rate limits or 4xx) and
//     probes after 10 s; while it is open a call fails fast, or with
//     [WaitWhileOpen] waits for the probe;
//   - while more than half of the target's recent attempts failed, calls
//     make no retries ([Breaker]'s retry throttle): an outage is met with
//     one request per call;
//   - a panic in the protected function is recovered and becomes a
//     programming failure ([PanicError]), so no breaker permit leaks.
//
// The final error, an *[Error], says why the call stopped and lists every
// attempt as "Type: text" with its kind, rule and the wait before it.
//
// # Events
//
// Every decision is logged through log/slog with the attribute keys listed
// at [KeyTarget]. A nil logger discards.
//
// # Concurrency
//
// Pipelines, breakers and runs are safe for concurrent use. Build a pipeline
// once per target; per call, only a small state object is allocated.
package middleware
