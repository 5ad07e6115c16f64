// Package resilientotel exports what the resilience middleware does as
// OpenTelemetry traces and metrics: how many attempts a call took, which
// kinds of failures each provider returns, how long Retry-After held a
// call, when a breaker opened, how often a fallback answered, which tools
// fail and how. It is an observer of the library's typed events
// (observe.Observer), kept in a package of its own so that programs that
// do not import it link no OpenTelemetry.
//
//	obs := resilientotel.New() // the global tracer and meter providers
//	model := resilient.Model(llm, resilient.Observe(obs))
//	lookup := resilient.Tool(orderLookup, resilient.Observe(obs))
//
// The observer uses only the OpenTelemetry API; the program sets up the SDK
// and its exporters (OTLP, Prometheus, stdout) as usual.
//
// # Traces
//
// A model call is one span, named and attributed by the OpenTelemetry GenAI
// conventions: "chat gpt-4o", with gen_ai.operation.name,
// gen_ai.provider.name, gen_ai.request.model, gen_ai.usage.input_tokens and
// gen_ai.usage.output_tokens when the provider reports usage,
// resilient.attempts when it took more than one attempt, and on failure
// error.type (the failure's kind: rate_limited, overloaded, transient...)
// and resilient.reason (why the call stopped); no error.type means
// success, as in the GenAI conventions. The call across its fallbacks is
// one span. Each attempt is a child span,
// "resilient.attempt", with resilient.target (the model or fallback it
// went to) and resilient.attempt (its number); a failed attempt carries
// error.type and resilient.rule (the classifier rule that decided) and,
// when the pipeline retries it, a "resilient.retry" event with
// resilient.retry.wait (seconds) and resilient.wait.source (retry_after,
// reset, backoff, probe). The attempt's context is the one the provider
// client receives, so the span of an otelhttp transport nests under the
// attempt it belongs to.
//
// A tool call is one span "execute_tool {name}" with gen_ai.tool.name and
// resilient.outcome; a failed one has error.type set to its outcome
// (tool_error, fatal, internal, timeout, circuit_open, stuck). The text of
// a tool error is never recorded: the events this package receives carry
// none, since it may hold secrets.
//
// Fallbacks, hedges, compactions, stream restarts, refusals (an open
// circuit, a spent budget) and a pipeline giving up are events on the
// call's span (resilient.fallback, resilient.hedge, resilient.compaction,
// resilient.stream_restart, resilient.refusal, resilient.gave_up), as are a
// tool's idempotent replay, lost lease and failed store. So are a pool
// member cooling down after a wait hint (resilient.cooldown, with
// resilient.target, the member, and resilient.cooldown.wait, seconds) and
// a pool member taken out of rotation after an account failure
// (resilient.suspension, with resilient.target, error.type, resilient.reason
// and resilient.suspension.hold, seconds), on the span of the call that
// found them. A breaker's changes of state belong to no one call: they are
// metrics only.
//
// # Metrics
//
//	gen_ai.client.operation.duration  histogram, s         per model call: gen_ai.operation.name, gen_ai.provider.name, gen_ai.request.model, error.type
//	gen_ai.client.token.usage         histogram, {token}   per model call reporting usage: the same and gen_ai.token.type
//	resilient.attempts                counter              resilient.target, resilient.outcome (ok, failed), error.type
//	resilient.retries                 counter              resilient.target, error.type, resilient.wait.source
//	resilient.retry.wait              histogram, s         resilient.target, resilient.wait.source
//	resilient.breaker.state           gauge                resilient.target; 0 closed, 1 half-open, 2 open
//	resilient.breaker.transitions     counter              resilient.target, resilient.breaker.state (closed, half_open, open)
//	resilient.fallbacks               counter              resilient.target, resilient.fallback, error.type
//	resilient.hedges                  counter              resilient.target
//	resilient.tool.calls              counter              gen_ai.tool.name, resilient.outcome (ok, tool_error, fatal, internal, timeout, circuit_open, stuck, replayed, usage_limit, outcome_unknown, canceled)
//	resilient.refusals                counter              resilient.target, resilient.reason (budget_spent, throttled, rate_limit, usage_limit, circuit_open, concurrency)
//	resilient.member.cooldowns        counter              resilient.target (the pool member)
//	resilient.member.cooldown.wait    histogram, s         resilient.target (the pool member)
//	resilient.member.suspensions      counter              resilient.target (the pool member), error.type, resilient.reason (account, model_missing)
//	resilient.shared.unavailable      counter              resilient.shared.feature (store, limiter, breaker, semaphore), resilient.shared.action (fail_open, local, fail_closed)
//	resilient.shared.unavailable.duration  histogram, s    resilient.shared.feature
//
// The member instruments say when a pool (resilient.Pool) takes a member
// out of rotation: a cooldown after a Retry-After or a rate-limit reset,
// with the wait it was given, or a suspension for its MaxHold after an
// account failure, error.type being the failure's kind (permanent) and
// resilient.reason whether the model or deployment is missing
// (model_missing) or the account failed otherwise (account: a key refused,
// a permission missing, a quota used up). The breaker a suspension holds
// open shows in the breaker instruments as well.
//
// The last two count the outages of the Redis that replicas share state
// through (package resilientredis, with its Observe option): a feature
// that can no longer reach it counts one, with what it does meanwhile
// (admit without the shared limit, work on local state, or refuse), and
// records how long it lasted when it is back. The counter's total less the
// histogram's count is the number of features without their shared state
// now. Neither names the Redis key.
//
// # Cardinality
//
// Every attribute value of a measurement comes from a bounded set: the
// names of the program's models, tools, pool members and breakers, and the
// names of kinds, outcomes, wait sources, reasons, states, shared features
// and their actions. No message text, input or key is ever an attribute.
// The attribute sets are cached (at most 4096), as are the targets' span
// names (at most 1024); past those bounds they are built per call instead. The gauge reports at most
// [DefaultMaxBreakers] breakers (see [MaxBreakers]).
//
// # Cost
//
// With a sampler that records the call, the observer starts two spans per
// call (the call and its attempt) and records two measurements; a call
// that is not sampled costs a non-recording span and the measurements.
// docs/performance.md in the repository has the figures.
package resilientotel
