// Package resilienteino makes Eino (github.com/cloudwego/eino) models and
// tools resilient, on the same core as package resilient's langchaingo
// wrappers: the classifier (package taxonomy), the middleware pipeline
// (retry with full jitter, Retry-After waited exactly, per-kind attempts,
// breaker, hedging, pools), the run's budget and usage, the tool boundary,
// idempotency and its stores (package tools), and the observers (package
// observe, resilientotel).
//
// # Models
//
// [Model] wraps a model.ToolCallingChatModel and returns one, so it drops
// into react.NewAgent, adk.NewChatModelAgent or a compose graph:
//
//	cm, _ := openai.NewChatModel(ctx, &openai.ChatModelConfig{
//		Model: "gpt-4o", APIKey: key,
//		HTTPClient: resilienteino.HTTPClient(), // Retry-After, error codes, stream end markers
//	})
//	model := resilienteino.Model(cm)
//
// Generate and Stream run under the pipeline, expanded as
//
//	fallbacks(retry(breaker(timeout(compact(stream guard(checks(model)))))))
//
// and WithTools returns a model still wrapped. A context overflow compacts
// the []*schema.Message ([DropOldest]: system messages and tool-call pairs
// kept) and retries once. A stream is retried until its first chunk with
// output reaches the reader; after that, a failure ends the reader's stream
// with a [PartialStreamError] unless [OnStreamRestart] allows a new
// attempt. The usage the replies report (schema.Message's
// ResponseMeta.Usage) counts for the run ([NewRun], [UsageFrom]).
//
// # Tools
//
// [Tool] (and [Streamable]) wrap a tool for the agent with the boundary of
// package tools: a taxonomy.ToolError's text goes to the model, its
// credentials redacted, a taxonomy.FatalToolError ends the run, anything
// else, a panic included, becomes "Error: <tool> failed internally
// (<Type>)" ("Error: <tool> timed out" for a timeout), so that no error
// text or secret reaches the model. [Idempotent] tools run once per input,
// with the same stores (tools.NewMemoryStore, resilientredis.NewStore);
// the run's repeat limit stops a model stuck in a loop; each tool has a
// breaker.
//
// # Middleware
//
// [Handler] is an adk.ChatModelAgentMiddleware that does both for an
// existing adk.ChatModelAgent in one line; [ToolMiddleware] is the tool
// boundary as a compose.ToolMiddleware, for ToolsNodes and react agents.
//
// # Options
//
// The options have the names and defaults of package resilient's:
// [MaxAttempts], [Backoff], [RetryAfterCap], [CircuitBreaker], [Timeout],
// [Logger], [Observe], [Fallbacks], [Hedge], [SafeToRetry], [Idempotent]...
// An [Option] applies to models and tools, a [ModelOption] to models, a
// [ToolOption] to tools, and the compiler refuses an option where it does
// not apply. Written against Eino v0.9.0 and eino-ext's openai model
// v0.1.7; docs/eino.md compares it with Eino's own ModelRetryConfig and
// WrapToolWithErrorHandler.
package resilienteino
