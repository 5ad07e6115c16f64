// Package observe is the event seam of this library: what every layer
// reports and every observer reads. It owns the [Observer] interface and
// the set of observers a target reports to ([Observers]), the [Target] a
// call is made to, the typed events ([Event]: [AttemptEnd],
// [RetryScheduled], [GaveUp], [BreakerChange], [Refusal], [CallEnd], ...),
// the reasons a call ends ([Reason]), the states a circuit breaker reports
// ([BreakerState]), and [Log], the observer that writes the events as
// log/slog lines with the attribute keys listed at [KeyTarget], every
// value redacted.
//
// It is modelled on grpc's stats package: a leaf that the core (the
// pipeline, the breaker, the limits, the adapters) reports to and that
// integrations (resilientotel, resilientredis, resilientmcp) build on,
// importing nothing of the library but the taxonomy. Package observetest
// records events and log lines in tests.
//
// # Concurrency
//
// [Observers] is safe for concurrent use; so must every [Observer] be.
package observe
