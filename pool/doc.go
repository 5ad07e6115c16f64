// Package pool routes the attempts of a call over the members of a pool:
// interchangeable targets (deployments of one model in other regions,
// under other accounts, on other servers), each with its own circuit
// breaker, retry throttle, rate limiter and concurrency limit.
//
// A [Pool] holds what is known of each [Member]: its gates, the attempts
// it has in flight, its latency and health, a cooldown after a wait hint,
// an account failure that took it out of rotation, and which member each
// run or [Sticky] key stuck to. Its [Picker] is the strategy that chooses
// among the members ready for an attempt, each strategy a type of its own:
// [LeastInFlight] (the default), [RoundRobin], [LowestLatency]. The pool
// chooses in one pass over its members, each member's state read once,
// under one lock; no sort.
//
// Package middleware builds a pool from its Members option, starts a
// [Route] for each call and asks it for a member once per attempt
// ([Route.TryTake]); it decides what a refusal or a failure means for the
// call (retry elsewhere, wait for a cooldown, fail fast). Most programs use a pool through package resilient (resilient.Pool)
// or llms and read it through [Pool.Members].
package pool
