package resilient

import (
	"github.com/tmc/langchaingo/embeddings"

	"github.com/resilientgo/resilient/llms"
)

// Embedder makes an embeddings client resilient and returns it, still an
// [embeddings.EmbedderClient]: give it to embeddings.NewEmbedder (or to a
// vector store) and langchaingo's batching stays as it is, with every batch
// sent under its own retries, Retry-After honoured, the circuit breaker and
// the run's budget, as for [Model]. A batch the provider rejects as too
// large is split in halves, down to single texts, and the vectors merged
// back in order; a text too long on its own fails the call with an
// *llms.TextTooLongError naming it, never truncated and never sent again.
// Responses with a wrong count of vectors, an empty vector or vectors of
// differing lengths are retried as failures.
//
//	llm, _ := openai.New(openai.WithHTTPClient(resilient.HTTPClient()))
//	docs, _ := embeddings.NewEmbedder(resilient.Embedder(llm))
//
// [ShareLimits] makes it share the breaker, limiters and concurrency limit
// of the chat model of the same account.
//
// Embedder never fails: a nil client or an invalid option makes every call
// of the result return the problem, as a programming error, and
// [llms.Embedder.Err] reports it. Use [llms.NewEmbedder] to get the error at
// once.
func Embedder(c embeddings.EmbedderClient, opts ...EmbedderOption) *llms.Embedder {
	wrapped, _ := llms.NewEmbedder(c, flatten(opts, EmbedderOption.embedder)...) // on error, an embedder that reports it
	return wrapped
}
