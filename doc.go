// Package resilient is resilience middleware for langchaingo agents: it
// makes model calls survive 429s, 529 "overloaded", dropped streams, context
// overflows and outages, and makes tool calls safe to dispatch: the model
// sees the errors it can fix, the run stops on the ones it cannot, nothing
// internal leaks, and a repeated payment does not charge twice.
//
// The wrappers implement langchaingo's own interfaces, so they drop into
// existing code, agents.Executor and chains included:
//
//	llm, _ := openai.New(openai.WithHTTPClient(resilient.HTTPClient()))
//	model := resilient.Model(llm)             // still an llms.Model
//	lookup := resilient.Tool(orderLookup)     // still a tools.Tool
//	agent := agents.NewOneShotAgent(model, []tools.Tool{lookup})
//	ctx = resilient.NewRun(ctx)               // one retry budget for the whole run
//	out, err := chains.Run(ctx, agents.NewExecutor(agent), "where is order 4471?")
//
// # Models
//
// A model call goes through, first element outermost,
//
//	fallbacks(retry(breaker(timeout(compact(stream guard(checks(model)))))))
//
// Every failure is classified (package taxonomy) as transient, rate_limited,
// overloaded, context_overflow, permanent, canceled, programming or unknown,
// and the kind decides (package middleware): retry with full-jitter backoff or
// exactly the provider's Retry-After, compact and retry once, fall back to
// another model, or stop at once. The final error says why the call stopped
// and lists every attempt.
//
// # Tools
//
// At the tool dispatch boundary (package tools), a taxonomy.ToolError becomes
// the observation, its credentials redacted, so the model can correct its
// call; a taxonomy.FatalToolError ends the run and is never shown to the
// model; any other error or panic becomes "Error: <tool> failed internally
// (<Type>)" ("Error: <tool> timed out" for a timeout) with no message or
// stack. Mutating tools can be made idempotent.
//
// # Runs
//
// [NewRun] puts the scope of one agent run into the context: a retry budget
// shared by every call of the run, the run's usage ([UsageFrom]: requests,
// tokens as the providers reported them, tool calls, retries, time waited)
// and optional limits on it ([TokenBudget], [RequestLimit],
// [ToolCallLimit]), which stop a looping agent with [ErrUsageLimit].
//
// # Many deployments
//
// [Pool] makes one model of several interchangeable deployments (regions,
// API keys, servers), each with its own breaker and, with [Member], its
// own weight and limits: each attempt goes to a healthy member, a retry at
// once to another, so a sick deployment costs a call one request; a
// member's Retry-After cools it down; the calls of a run or of a
// [StickyKey] stay on one member while it is healthy; with every member
// down the call fails fast, naming each member's state, or falls back.
// [MaxConcurrent] bounds the attempts in flight of a model, a pool, a
// member, a tool or an embedder (a bulkhead); its refusals
// ([ErrConcurrency]) are local overload, never counted by a breaker.
//
// # Embeddings
//
// [Embedder] wraps an embeddings client below langchaingo's batching
// (embeddings.NewEmbedder): each batch is retried on its own, a batch too
// large is split in halves, a text too long is named, and vectors that
// cannot be used are failures. [ShareLimits] lets it share the chat
// model's breaker, limiters and concurrency limit.
//
// # Options
//
// Every option of this library, here and in the packages below, follows
// one rule, stated on [Option]: a later option overrides an earlier one, 0
// allows none (or is refused where none cannot work), a negative number is
// refused, and no limit is math.MaxInt or [Forever].
//
// # Packages
//
// This package is the one import most users need. Below it, one package
// per concept (docs/architecture.md has every package, its layer and the
// import rules a test keeps):
//
//   - taxonomy: what went wrong: Kind, Class, Classify; ToolError,
//     FatalToolError.
//   - observe: the event seam: Observer, the typed events, the reasons a
//     call ends, Log (the slog observer).
//   - breaker, limit, run: the circuit breaker and retry throttle; rate
//     and concurrency limits; a run's budget, usage and limits.
//   - middleware: what to do about it: the retry, breaker, timeout and hedge
//     pipeline, pools of members, the final error.
//   - llms: the llms.Model and embeddings adapters: wire evidence, checks,
//     compaction, streams, fallbacks, pools, batch splitting.
//   - tools: the tool boundary: the outcome mapping, idempotency, the
//     repeat limit; tools/dispatch answers a response's native tool calls.
//   - resilienthttp: the same pipeline at the HTTP layer, for any Go SDK.
//   - faultserver: a loopback provider that replays scripted faults, for
//     tests.
//
// Integrations live in packages of their own, which nothing above imports,
// so that a program links their dependencies only when it uses them:
//
//   - resilientredis: state shared by replicas through Redis: idempotency
//     store, rate limits, breakers, concurrency limits.
//   - resilientotel: OpenTelemetry traces and metrics of every decision.
//   - resilientmcp: the tools of an MCP server as wrapped tools.
//
// Every decision is reported as a typed event to the observers installed
// with [Observe] (see observe.Observer); [Logger] writes them as slog
// lines, secrets redacted. Every option has its default written beside it.
package resilient

// The tables of measurements in docs/performance.md, made by
// the command that measures them (see docs/performance.md).
//go:generate go run ./internal/cmd/benchrounds -update docs/performance.md
