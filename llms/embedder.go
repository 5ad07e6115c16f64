package llms

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/tmc/langchaingo/embeddings"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/internal/chatcall"
	"github.com/resilientgo/resilient/internal/inspect"
	"github.com/resilientgo/resilient/internal/wire"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/run"
	"github.com/resilientgo/resilient/taxonomy"
)

// The errors of an Embedder that [NewEmbedder] did not build.
var (
	errZeroEmbedder = programming("zero value", "llms: zero Embedder: build it with llms.NewEmbedder or resilient.Embedder")
	errNilEmbedder  = programming("nil receiver", "llms: nil *Embedder: build it with llms.NewEmbedder or resilient.Embedder")
)

// Embedder is a resilient [embeddings.EmbedderClient]: it wraps another and
// runs every call, one batch of texts, under a [middleware.Pipeline],
// expanded as
//
//	split(retry(breaker(timeout(checks(client)))))
//
// Give it to embeddings.NewEmbedder and langchaingo's batching stays as it
// is, each batch retried on its own: a failed batch no longer loses the
// batches done before it. In it:
//
//   - retry, breaker and timeout come from package middleware, driven by
//     package taxonomy's classifier: Retry-After is honoured, the run's
//     budget spent, the breaker (and the rate, token and concurrency limits) shared
//     when [ShareLimits] says so;
//   - checks turn a response the client accepted but that cannot be used
//     into a failure, retried as a transient one: a count of vectors other
//     than the count of texts ([ErrVectorCount]), an empty vector
//     ([ErrEmptyVector]), vectors of differing lengths ([ErrDimensions]);
//   - split: a batch the provider rejects as too large (too many inputs,
//     too many tokens, an input too long: a context overflow to the
//     classifier) is never sent again as it was: it is split in two and
//     each half sent on its own, down to single texts, and the vectors are
//     merged back in order. A single text rejected as too long fails the
//     call with a *[TextTooLongError] naming its index: it is neither
//     truncated nor sent again.
//
// An Embedder never modifies the caller's texts. It is safe for concurrent
// use when the wrapped client is.
//
// The zero Embedder is not usable: its calls return an error saying so.
type Embedder struct {
	inner  embeddings.EmbedderClient
	name   string
	target observe.Target
	pipe   *middleware.Pipeline[[][]float32]
	obs    observe.Observers
	tokens limit.Limiter
	err    error // construction error, returned by every call
}

var _ embeddings.EmbedderClient = (*Embedder)(nil)

// Responses the client accepted but that cannot be used become failures
// with these sentinels in their chain (errors.Is finds them in the final
// error). They are retried as transient failures.
var (
	// ErrVectorCount: the count of vectors is not the count of texts.
	ErrVectorCount = errors.New("llms: wrong number of vectors")
	// ErrEmptyVector: a text got a vector of length zero.
	ErrEmptyVector = errors.New("llms: empty vector")
	// ErrDimensions: the vectors of one call differ in length.
	ErrDimensions = errors.New("llms: vectors of differing dimensions")
)

// TextTooLongError reports a text that the embedding model rejected as too
// long on its own: it was sent alone, once, and not truncated. Index is its
// position among the texts of the call (with embeddings.NewEmbedder, of
// the batch it was in); Err is the final error of the attempt that sent it,
// a context overflow.
type TextTooLongError struct {
	Index int // position of the text in the call, from 0
	Texts int // texts in the call
	Bytes int // length of the text
	Err   error
}

// Error reads like "llms: text 7 of 16 (40213 bytes) is too long for the
// embedding model: ...".
func (e *TextTooLongError) Error() string {
	return fmt.Sprintf("llms: text %d of %d (%d bytes) is too long for the embedding model: %v", e.Index, e.Texts, e.Bytes, e.Err)
}

// Unwrap returns the final error of the attempt.
func (e *TextTooLongError) Unwrap() error { return e.Err }

// NewEmbedder returns c made resilient. It takes the options of [New] that
// are not about chat: [Name], [Middleware] (the attempt timeout, the
// logger, hedging: middleware.Timeout, Logger, Hedge), [TokenLimit],
// [ShareLimits]. A nil client, an invalid option or one that
// applies to models only make it return an error naming each problem,
// together with a non-nil Embedder that answers every call with that error,
// classified as a programming failure (and reports it from
// [Embedder.Err]).
func NewEmbedder(c embeddings.EmbedderClient, opts ...Option) (*Embedder, error) {
	cfg := configure(opts)
	if inspect.IsNil(c) {
		cfg.errorf("nil embedder client (%T)", c)
	}
	for _, name := range cfg.chatOnly {
		cfg.errorf("%s applies to models only, not to an embedder", name)
	}
	err := errors.Join(cfg.errs...)
	var e *Embedder
	if err == nil {
		e, err = buildEmbedder(c, cfg)
	}
	if err != nil {
		return &Embedder{inner: c, name: "invalid embedder", err: taxonomy.WithClass(err,
			taxonomy.Class{Kind: taxonomy.Programming, Rule: "invalid options"})}, err
	}
	return e, nil
}

func buildEmbedder(c embeddings.EmbedderClient, cfg config) (*Embedder, error) {
	name, provider, model := describeEmbedder(c)
	if cfg.name != "" {
		name = cfg.name
	}
	e := &Embedder{inner: c, name: name, tokens: cfg.tokenLimit(),
		target: observe.Target{Name: name, Operation: observe.OperationEmbeddings, Provider: provider, Model: model}}
	opts := append([]middleware.Option{middleware.Describe(e.target)}, cfg.mw...)
	opts = append(opts, cfg.sharedLimits()...)
	// A batch too large is split, never sent again as it was, whatever the
	// caller's options say.
	opts = append(opts, middleware.KindAttempts(taxonomy.ContextOverflow, 1))
	var err error
	if e.pipe, err = middleware.New[[][]float32](name, opts...); err != nil {
		return nil, fmt.Errorf("llms: %w", err)
	}
	e.obs = e.pipe.Observers()
	return e, nil
}

// embeddingModelFields are the names, lowercased, under which langchaingo's
// clients keep an embedding model apart from their chat model (openai's
// client.EmbeddingModel).
var embeddingModelFields = map[string]bool{"embeddingmodel": true}

// describeEmbedder names an embeddings client after its provider package and
// the embedding model its struct reveals: "openai/text-embedding-3-small",
// or "openai/embeddings" when it reveals none (the chat model a client
// also holds is not taken for it).
func describeEmbedder(c embeddings.EmbedderClient) (name, provider, model string) {
	provider = inspect.Package(c)
	model = inspect.Model(c, embeddingModelFields)
	if model == "" {
		return provider + "/embeddings", provider, ""
	}
	return provider + "/" + model, provider, model
}

// Name returns the name used in errors and logs; "" for a nil *Embedder.
func (e *Embedder) Name() string {
	if e == nil {
		return ""
	}
	return e.name
}

// Unwrap returns the wrapped client, nil for a nil *Embedder.
func (e *Embedder) Unwrap() embeddings.EmbedderClient {
	if e == nil {
		return nil
	}
	return e.inner
}

// Err returns the error [NewEmbedder] reported for this embedder, nil if
// none; for a nil *Embedder, the error its calls return.
func (e *Embedder) Err() error {
	if e == nil {
		return errNilEmbedder
	}
	return e.err
}

// Breaker returns the embedder's circuit breaker (the shared one with
// [ShareLimits]), nil when disabled.
func (e *Embedder) Breaker() *breaker.Breaker {
	if e == nil || e.pipe == nil {
		return nil
	}
	return e.pipe.Breaker()
}

// CreateEmbedding returns one vector per text, in order, sending the texts
// as one batch under the pipeline, split in halves while the provider
// rejects a batch as too large. With no texts it returns no vector and
// sends nothing. A nil *Embedder or a nil context returns a programming
// error.
func (e *Embedder) CreateEmbedding(ctx context.Context, texts []string) ([][]float32, error) {
	switch {
	case e == nil:
		return nil, errNilEmbedder
	case e.err != nil:
		return nil, e.err
	case e.pipe == nil:
		return nil, errZeroEmbedder
	case ctx == nil:
		return nil, errNilCtx
	}
	if len(texts) == 0 {
		return [][]float32{}, nil
	}
	c := &embedCall{texts: texts}
	if !e.obs.Active() {
		return e.embedAll(ctx, c)
	}
	start := time.Now()
	ctx = e.obs.StartCall(ctx, e.target)
	vecs, err := e.embedAll(ctx, c)
	e.obs.Report(ctx, chatcall.End(e.target, int(c.attempts.Load()), start, err), err)
	return vecs, err
}

// embedCall is the state of one CreateEmbedding across its batches.
type embedCall struct {
	texts    []string     // the caller's texts
	attempts atomic.Int32 // attempts made, across the halves of split batches
}

// embedAll embeds every text of the call and checks that the halves of a
// split batch agree on their length.
func (e *Embedder) embedAll(ctx context.Context, c *embedCall) ([][]float32, error) {
	vecs, err := e.embed(ctx, c, 0, len(c.texts), nil)
	if err != nil {
		return nil, err
	}
	if err := checkDimensions(vecs); err != nil {
		return nil, err
	}
	return vecs, nil
}

// embed embeds c.texts[from:to] as one batch and appends the vectors to
// out; a batch too large is split in two, each half embedded on its own.
// The depth of the recursion is the log of the batch size. A nil out (the
// whole call, not split) returns the client's vectors as they are, without
// a copy.
func (e *Embedder) embed(ctx context.Context, c *embedCall, from, to int, out [][]float32) ([][]float32, error) {
	batch := c.texts[from:to]
	var request middleware.CallOption // without a run there is nothing to count
	if run.From(ctx) != nil {
		request = middleware.Request(func(context.Context, middleware.State) int {
			return estimateTextTokens(batch)
		})
	}
	vecs, err := e.pipe.DoHedged(ctx, func(ctx context.Context, _ middleware.State) ([][]float32, error) {
		c.attempts.Add(1)
		return e.attempt(ctx, batch)
	}, request, middleware.RepairsOverflow()) // a batch too large is split: no give-up to report
	switch {
	case err == nil && out == nil:
		return vecs, nil
	case err == nil:
		return append(out, vecs...), nil
	case !errors.Is(err, middleware.ErrContextOverflow):
		return nil, err
	case len(batch) == 1:
		if final := (*middleware.Error)(nil); e.obs.Active() && errors.As(err, &final) {
			// The pipeline left the give-up to us.
			e.obs.Report(ctx, observe.GaveUp{Target: e.name, Reason: final.Reason, Attempts: len(final.Attempts), Class: final.Class()}, final.Last())
		}
		return nil, &TextTooLongError{Index: from, Texts: len(c.texts), Bytes: len(batch[0]), Err: err}
	}
	if e.obs.Active() {
		e.obs.Report(ctx, observe.BatchSplit{Target: e.name, Texts: len(batch)}, err)
	}
	if out == nil {
		out = make([][]float32, 0, len(c.texts))
	}
	mid := from + len(batch)/2
	if out, err = e.embed(ctx, c, from, mid, out); err != nil {
		return nil, err
	}
	return e.embed(ctx, c, mid, to, out)
}

// attempt is one attempt at a batch: acquire its tokens, call the client
// with an evidence slot, check the vectors.
func (e *Embedder) attempt(ctx context.Context, batch []string) ([][]float32, error) {
	if e.tokens != nil {
		if err := e.tokens.Acquire(ctx, estimateTextTokens(batch)); err != nil {
			return nil, middleware.Unretryable(classed(taxonomy.RateLimited, "client-side token limit",
				fmt.Errorf("llms: token limit: %w", err)), "the token limiter refused the request")
		}
	}
	actx, sl := wire.WithSlot(ctx)
	vecs, err := e.inner.CreateEmbedding(actx, batch)
	ev, seen := sl.Evidence()
	failedOnWire := seen && (ev.Status >= 400 || ev.InBand)
	switch {
	case err == nil && seen && ev.InBand:
		return nil, &taxonomy.WireError{Evidence: wire.ForError(ev),
			Err: fmt.Errorf("%w: %s", ErrInBandError, cmp.Or(ev.ErrorMessage, ev.ErrorType, ev.ErrorCode, "no message"))}
	case err != nil && vecs != nil && len(vecs) != len(batch) && !failedOnWire:
		// langchaingo's openai and ollama clients return the vectors they got
		// with their own error when the count is wrong.
		return nil, classed(taxonomy.Transient, "wrong vector count",
			fmt.Errorf("%w: %d for %d texts: %w", ErrVectorCount, len(vecs), len(batch), err))
	case err != nil && seen:
		return nil, taxonomy.WithEvidence(sl.WithCause(err), wire.ForError(ev))
	case err != nil:
		return nil, err
	}
	if err := checkVectors(vecs, len(batch)); err != nil {
		return nil, err
	}
	return vecs, nil
}

// checkVectors turns vectors the client accepted but that cannot be used
// into a transient failure.
func checkVectors(vecs [][]float32, texts int) error {
	if len(vecs) != texts {
		return classed(taxonomy.Transient, "wrong vector count",
			fmt.Errorf("%w: %d for %d texts", ErrVectorCount, len(vecs), texts))
	}
	for i, v := range vecs {
		if len(v) == 0 {
			return classed(taxonomy.Transient, "empty vector", fmt.Errorf("%w: text %d", ErrEmptyVector, i))
		}
	}
	return checkDimensions(vecs)
}

// checkDimensions reports vectors of differing lengths.
func checkDimensions(vecs [][]float32) error {
	for i, v := range vecs {
		if len(v) != len(vecs[0]) {
			return classed(taxonomy.Transient, "differing dimensions",
				fmt.Errorf("%w: text 0 has %d, text %d has %d", ErrDimensions, len(vecs[0]), i, len(v)))
		}
	}
	return nil
}

// estimateTextTokens estimates the tokens of a batch of texts as
// [estimateTokens] does those of messages.
func estimateTextTokens(texts []string) int {
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	return tokensFor(n)
}
