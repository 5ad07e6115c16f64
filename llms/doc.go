// Package llms makes a langchaingo [llms.Model] resilient: [New] returns a
// model that is still an llms.Model, so it drops into chains, agents and any
// code that takes one, and that survives the faults langchaingo's clients
// let through.
//
// Most users call resilient.Model from the root package; this package holds
// the machinery and the finer options.
//
// # What a call goes through
//
// Expanded, first element outermost:
//
//	fallbacks(retry(breaker(timeout(compact(stream guard(checks(model)))))))
//
// In it:
//
//   - retry, breaker and timeouts come from package middleware and are driven
//     by package taxonomy's classifier;
//   - on a context overflow the messages are compacted (system messages and
//     recent turns kept, a marker in place of the rest, tool-call pairs never
//     separated) and the call is retried once;
//   - the stream guard counts what reached the caller's streaming function:
//     an attempt that fails before its first chunk is retried as usual; after
//     chunks were delivered the call fails with a *[PartialStreamError]
//     unless [OnStreamRestart] is set; a stream with no chunk for a while ends
//     as a transient failure ([StreamIdleTimeout], [FirstChunkTimeout]);
//   - response checks turn successes that cannot be used into failures: no
//     choices, empty content, an error stop reason, a truncated stream, an
//     in-band error event;
//   - fallbacks are tried in order when the primary gives up for a reason
//     another model can fix, never when the caller canceled.
//
// # Embeddings
//
// [NewEmbedder] does the same for an embeddings client: every batch that
// langchaingo's embeddings.NewEmbedder hands it goes through its own
// pipeline, so a rate limit in the middle of indexing a corpus retries that
// batch alone. A batch rejected as too large is split in halves down to
// single texts; a text too long on its own fails with a *[TextTooLongError]
// naming it; vectors that cannot be used (a wrong count, an empty vector,
// differing lengths) are failures. [ShareLimits] lets an embedder and a
// chat model of one account share their breaker and limiters:
//
//	llm, _ := openai.New(openai.WithHTTPClient(llms.HTTPClient()))
//	model, _ := llms.New(llm)
//	embedder, _ := llms.NewEmbedder(llm, llms.ShareLimits(model))
//	docs, _ := embeddings.NewEmbedder(embedder)
//
// # Wire evidence
//
// langchaingo's openai and anthropic clients flatten HTTP failures into
// strings and drop Retry-After and the provider's error code; some report a
// truncated stream as success. Install [HTTPClient] (or a [Transport] over
// your own RoundTripper) in the provider client and every attempt records
// the status, Retry-After, x-should-retry, rate-limit resets, the error type
// and code, the stream's end marker and in-band error events:
//
//	llm, _ := openai.New(openai.WithHTTPClient(llms.HTTPClient()))
//	model, err := llms.New(llm)
//
// Without the transport the wrapper still works from the error text alone.
//
// # Concurrency
//
// A Model is safe for concurrent use when the wrapped model is; its
// pipelines, breaker and fallbacks are built once by New. The same holds
// for an Embedder and its client.
//
// [llms.Model]: https://pkg.go.dev/github.com/tmc/langchaingo/llms#Model
package llms
