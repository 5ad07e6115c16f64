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
// of the chat model of the same account. Options about chat or tools make it report an error.
//
// Embedder never fails: a nil client or an invalid option makes every call
// of the result return the problem, as a programming error, and
// [llms.Embedder.Err] reports it. Use [llms.NewEmbedder] to get the error at
// once.
func Embedder(c embeddings.EmbedderClient, opts ...Option) *llms.Embedder {
	s, err := collect(opts, forEmbedder)
	if err != nil {
		s.model = append(s.model, llms.Fail(err))
	}
	wrapped, _ := llms.NewEmbedder(c, s.modelOptions()...) // on error, an embedder that reports it
	return wrapped
}

// ShareLimits makes a model or an embedder draw on the circuit breaker,
// the rate and token limiters and the concurrency limit ([MaxConcurrent],
// [ConcurrencyLimit]) of m, the chat model of the same provider account or
// deployment, in place of its own: both spend one quota, so a failure of
// either counts toward the one breaker, whose open circuit stops both, and
// both take slots of m's one semaphore, as a provider's cap on requests in
// flight counts the requests of both (a model and an embedder each given
// MaxConcurrent(8, wait) would otherwise send 16 at once). Each waits for a
// slot as long as its own MaxConcurrent or ConcurrencyLimit says, m's wait
// when it has none. When m is a [Pool], the limits shared are those given
// to the pool as a whole; its members' own limits stay theirs. Models and
// embedders only, not a pool being built. Default: nothing shared.
//
//	model := resilient.Model(llm, resilient.RateLimit(limiter))
//	embedder := resilient.Embedder(llm, resilient.ShareLimits(model))
func ShareLimits(m *llms.Model) Option {
	return func(s *settings) {
		if s.only(forModel|forEmbedder, "ShareLimits") {
			s.model = append(s.model, llms.ShareLimits(m))
		}
	}
}
