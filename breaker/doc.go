// Package breaker holds the health of one protected target (a model, a
// provider account, a tool): a circuit breaker that opens after a run of
// counted failures, fails fast while open, lets one probe through when
// half-open, and may be held open for as long as a provider asked
// ([Breaker.HoldOpen]); beside it, the retry throttle that stops retries
// while most recent attempts of the target failed ([Breaker.AllowsRetry]).
//
// A pipeline (package middleware) asks its breaker before each attempt
// ([Breaker.TryAcquire]) and reports what the attempt said about the
// target ([Breaker.Record]); package resilientredis shares a breaker's
// state among the replicas of a service. Changes of state reach observers
// as observe.BreakerChange events. The state machine is failsafe-go's.
//
// # Concurrency
//
// A [Breaker] is safe for concurrent use and may be shared by several
// pipelines.
package breaker
