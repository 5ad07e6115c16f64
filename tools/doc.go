// Package tools wraps tools for agents: it maps every outcome of a tool call
// at the dispatch boundary, so that one failing tool no longer ends the run,
// the model never reads an internal error, and a mutating tool that the
// model calls twice acts once. It wraps any [Callable]: every langchaingo
// tools.Tool is one, and module resilienteino adapts Eino's tools to it; the
// package itself imports no agent framework.
//
// langchaingo's agents.Executor aborts the whole run, discarding its steps,
// on the first error any tool returns. A [Tool] made by [New] is still a
// langchaingo tools.Tool, with the same name and description, so it drops
// into the executor (or any loop of your own) unchanged:
//
//	lookup, err := tools.New(lookupTool, tools.SafeToRetry())
//	charge, err := tools.New(chargeTool, tools.Idempotent(nil))
//	agent := agents.NewOneShotAgent(model, []langchaingotools.Tool{lookup, charge})
//
// # Outcomes
//
// The tool author says what a failure means with the types of package
// taxonomy; Call maps them:
//
//	taxonomy.ToolError        its text, credentials redacted, is the observation (nil error): the model
//	                          reads it and corrects its call
//	taxonomy.FatalToolError   ("", error): the run ends; the model never sees it; Tool names the tool
//	any other error, a panic  "Error: <tool> failed internally (<Type>)" (nil error): no message, no stack;
//	                          the full error is logged at ERROR, with its secrets redacted
//	a timeout                 "Error: <tool> timed out" (nil error), logged the same way
//	the caller gave up        ("", ctx.Err()): the run ends
//
// <Type> is the Go type of the error the tool returned (*net.OpError,
// *errors.errorString) or "panic". Only the text of a ToolError reaches the
// model, because only there did the author write for the model; what it
// quotes (a server's answer, a request) may hold a credential, so it goes
// through the [Redactor] first, which replaces API keys, tokens, passwords
// and the like with [REDACTED] and leaves the rest readable.
//
// A nil tool, a typed nil, a Name or Description that panics, or an invalid
// option makes [New] return an error, with a Tool that ends the run at
// every call with a FatalToolError naming the problem: nothing panics.
//
// # Order
//
// A wrapped tool expands, first element outermost, to
//
//	repeat limit(idempotency(retry(breaker(timeout(tool)))))
//
// The retry, breaker and timeout are a middleware.Pipeline built once per
// Tool. The timeout bounds each call ([Timeout], 30 s), even one that
// ignores its context: the pipeline returns at the timeout, and the tool's
// goroutine is left to finish (its late result is discarded and reported).
// The retry makes one
// attempt unless the tool is [SafeToRetry], and never retries a ToolError, a
// fatal error or a panic. The breaker (5 failures, 30 s; middleware.CircuitBreaker through [Middleware])
// counts internal failures only; while it is open, a call ends the run with
// a FatalToolError "<tool> circuit is open; stopping instead of retrying"
// (middleware.ErrCircuitOpen, resilient.ErrCircuitOpen) instead of letting the model burn steps on a
// dependency that is down.
//
// # Idempotent tools
//
// A mutating tool marked [Idempotent] follows four steps: derive a key from
// the tool's name and input ([KeyFunc], [DefaultKey]); claim the key in a
// [Store] as in flight before the call; on a repeat, return the stored
// result and say so ("already done: <result>"), or wait for the call in
// flight (bounded by the caller's context) and return its result; store the
// result when it lands. A failed call releases the key, so a later call may
// run; so does a ToolError, which says the action did not take place (it is
// not stored, and "already done: no order '9999'" would mislead). An
// in-flight record has a lease ([Lease], 2 min) that bounds the call's
// context, so a crashed holder blocks its key for at most that long. The
// tool can pass the key on to the service it calls ([KeyFrom]).
//
// A call that outlives its timeout (or whose caller gave up) while the tool
// ignores its context keeps its claim until the tool really returns (the
// claim is renewed every third of the lease while the tool runs): the model
// reads "Error: <tool> timed out" at the timeout, like any timeout, and a
// repeat of the call meanwhile, from this process or another sharing the
// store, waits for it instead of running the tool a second time. When the
// tool returns, the goroutine that ran it settles the claim: a success is
// stored, and the waiting repeat returns it (a later repeat reads "already
// done: <result>"); a failure releases the claim, and the waiting repeat
// runs the tool itself. A renewal that fails is tried again a third of a
// lease later and never gives the key up. Only when the holder's process
// dies, or cannot reach the store for a whole lease, can another caller
// take the key over while the tool may still run (see [Store]). An attempt
// runs the tool only while its call holds the claim: a caller that gives
// up as its attempt starts releases the claim, and the attempt then does
// not run the tool.
//
// A claim lasts at most [MaxClaim] (4 × (Lease + Timeout), 10 min by
// default). A tool still running then is taken as hung: its holder stops
// renewing, the record says the outcome is unknown (for [ResultTTL]), the
// log says "tool hung; outcome unknown", and a repeat of the call ends the
// run with a FatalToolError matching [ErrOutcomeUnknown] ("the same call
// is still running after 10m0s; outcome unknown") rather than wait: the
// model cannot settle whether the action took place, a person or the
// service called can. If the tool returns at last, its result is stored.
//
// A [MemoryStore] is the default: bounded (10 000 records, evicting the
// oldest done record, never one in flight or of unknown outcome) and
// expiring records incrementally; see [Store] for the contract another
// store (Redis) must keep. docs/exactly-once.md in the repository states
// what holds, in one process and across replicas, fault by fault.
//
// # Stuck runs
//
// With a run.Run in the context (run.New, resilient.NewRun),
// a call with the same tool and input more often than the run's repeat
// limit (run.RepeatLimit, 3 by default) ends the run with a FatalToolError
// "stuck: <tool> called N times with the same input" ([ErrStuck]): a model
// looping on one call burns money. "The same input" is the same bytes, or
// the same idempotency key for an Idempotent tool or one with a KeyFunc:
// a plain tool's calls that differ in whitespace only count apart (a model
// in a loop re-sends its call byte for byte); KeyFunc(DefaultKey) counts
// them as one, at the cost of canonicalizing each input.
// The run remembers the 1024 calls most recently made, so its
// memory stays bounded however long it lives. Without a Run there is no
// limit.
//
// # Native tool calling
//
// Package tools/dispatch takes the []llms.ToolCall of a langchaingo
// response and returns the tool messages to append, one per call in call
// order, with the same mapping.
//
// # Events and logs
//
// Every call reports its outcome to the observers of the tool's pipeline
// (middleware.Observe, resilient.Observe): a observe.CallEnd with the
// outcome (ok, tool error, fatal, internal, timeout, circuit open, stuck,
// replayed, unknown), and IdempotentReplay, LeaseLost, StoreFailed and
// HungCall events; the
// pipeline reports its attempts, retries and breaker changes. The logger of
// [Logger] writes them as the lines of observe.Log, with its keys
// (observe.KeyTool, ...), after the [Redactor] ([Redact] by default) has
// removed credentials from every text and error.
//
// # Concurrency
//
// Tools and memory stores are safe for concurrent use. Build a
// Tool once per tool and share it.
package tools
