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
// # Pools
//
// [NewPool] builds one Model over several clients of the same model (two
// regions, several accounts, a fleet of servers). Each attempt goes to a
// healthy member through its own client, checks and evidence, a retry to
// another member at once; each member has its own breaker and, with
// [Member], weight, rate limiter and concurrency limit. [StickyKey] keeps a
// conversation on one member while it is healthy, and the key never
// reaches the provider. Everything else (retries, timeouts, compaction,
// the stream guard, usage, fallbacks) is the pool's, once. [Model.Pool]
// reports on the members.
//
// # Usage and run limits
//
// Every attempt is a request of the run in the context (see
// run.Run), counted before it is sent, failed ones included, and
// refused there by the run's request limit and token budget: a refusal
// stops the call with its own reason, is never retried, leaves the breaker
// alone and is never a reason to fall back. After each response the tokens
// the provider reported are added to the run and to the call's CallEnd
// event, read from the keys each langchaingo client uses (openai and
// compatible, ollama, googleai, anthropic with its cached prompt tokens,
// bedrock; mistral and cohere report none).
//
// A request whose input alone would pass what remains of the token budget
// is refused before it is sent. Its input is estimated as a quarter of the
// bytes of its text (text parts, tool calls and tool results). Measured
// against OpenAI's tokenizers, English prose is 0.8 times the estimate,
// code and JSON 1 to 1.5 times, other scripts 0.5 to 1.6 times, emoji up
// to 2.7 times; for the text it counts the estimate is never low by more
// than four times with a byte-level tokenizer, which makes at most one
// token of a byte. It is high for runs of whitespace, which may see a
// request refused near the end of a budget that it would have fit. Tool
// definitions, images and each provider's framing of the messages are not
// counted, so a request may still pass the budget: the call that crosses it
// returns its answer, and the next is refused. [TokenLimit] takes the same
// estimate, and a limiter that implements limit.Settler is corrected
// with the reported tokens after the response.
//
// # Embeddings
//
// [NewEmbedder] does the same for an embeddings client: every batch that
// langchaingo's embeddings.NewEmbedder hands it goes through its own
// pipeline, so a rate limit in the middle of indexing a corpus retries that
// batch alone. A batch rejected as too large is split in halves down to
// single texts; a text too long on its own fails with a *[TextTooLongError]
// naming it; vectors that cannot be used (a wrong count, an empty vector,
// differing lengths) are failures. Each batch sent is a request of the run,
// refused by its limits like a model's (the estimate is a quarter of the
// texts' bytes); langchaingo's embeddings clients return no token usage, so
// embeddings add requests to the run but no tokens. [ShareLimits] lets an embedder and a
// chat model of one account share their breaker, limiters and concurrency
// limit:
//
//	llm, _ := openai.New(openai.WithHTTPClient(resilient.HTTPClient()))
//	model, _ := llms.New(llm)
//	embedder, _ := llms.NewEmbedder(llm, llms.ShareLimits(model))
//	docs, _ := embeddings.NewEmbedder(embedder)
//
// # Wire evidence
//
// langchaingo's openai and anthropic clients flatten HTTP failures into
// strings and drop Retry-After and the provider's error code; some report a
// truncated stream as success. Install resilient.HTTPClient (or a [Transport] over
// your own RoundTripper) in the provider client and every attempt records
// the status, Retry-After, x-should-retry, rate-limit resets, the error type
// and code, the stream's end marker and in-band error events:
//
//	llm, _ := openai.New(openai.WithHTTPClient(resilient.HTTPClient()))
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
