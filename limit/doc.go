// Package limit bounds how much a target is asked: a rate limiter
// ([Limiter], and [LocalLimiter] for one process) spaces attempts so that
// callers stay under a provider's limit instead of discovering it through
// 429s, and a concurrency limit ([Semaphore], and [Bulkhead] for one
// process) bounds the attempts in flight at once. A limiter that will not
// admit an attempt in time returns [ErrLimited]; a semaphore with no free
// slot returns a *[ConcurrencyError], which matches [ErrConcurrency].
//
// The pipeline (package middleware) asks them before each attempt;
// package resilientredis shares both among the replicas of a service.
//
// # Concurrency
//
// Implementations must be safe for concurrent use; those of this package
// are.
package limit
