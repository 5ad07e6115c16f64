// Package run is the scope of one agent run, carried in the context: a
// retry budget that every model and tool call of the run shares, the run's
// usage (requests, tokens, tool calls, retries, time waited) and optional
// limits on it ([RequestLimit], [TokenBudget], [ToolCallLimit], and the
// [RepeatLimit] that package tools enforces).
//
//	ctx = run.New(ctx, run.TokenBudget(50_000), run.ToolCallLimit(20))
//	... every wrapped model and tool called with ctx ...
//	usage := run.From(ctx).Usage()
//
// A call that a limit refuses fails with a *[UsageLimitError]
// ([ErrUsageLimit]) and is never retried: the run must stop. The pipeline
// (package middleware) takes each retry from the budget, counts each
// request and adds its waits; package tools counts tool calls and keeps its
// repeat counter in the run ([Run.Local]).
//
// # Concurrency
//
// A [Run] is safe for concurrent use.
package run
