// Package status shows an operator the state of a program's resilience,
// and lets them act on it: an [http.Handler] ([Handler]) that lists, as
// JSON, every circuit breaker (its state, its failures, how long it stays
// open and why), every member of a pool (usable or not, health, attempts
// in flight, cooldown, suspension and the account failure behind it),
// every rate limiter and concurrency limit, and every feature sharing
// state through Redis (reachable or not, and what it does meanwhile:
// fail open, work locally, fail closed); a readiness check that fails
// while every member of a model is unusable; and, when enabled, the
// administrative actions of Resilience4j's actuator: force a breaker open
// or closed, and reset it.
//
// What it shows is what the program registers in a [Registry], by name;
// nothing registers itself, and the registry is bounded:
//
//	reg := &status.Registry{}
//	model := resilient.Pool(members)
//	reg.AddModel("chat", model)
//	reg.AddBreaker("tool:refund", refund.Breaker())
//	reg.AddSemaphore("openai", sem)
//	reg.AddShared("idempotency", store)
//	mux.Handle("/status/", http.StripPrefix("/status", status.Handler(reg, status.AllowActions())))
//
// Every text in a report goes through the library's redaction rules (the
// same as its log lines): a key, a description or an error that holds a
// credential shows "[REDACTED]" in its place.
//
// The packages it reads (breaker, limit, pool, observe) know nothing
// of it nor of net/http: each exposes a read-only snapshot (a breaker's
// Snapshot, a pool's Members, a shared feature's SharedState), and nothing
// in the module imports package status, so a program that serves no status
// page does not link it.
//
// # Concurrency
//
// A [Registry] and the [Handler] are safe for concurrent use.
package status
