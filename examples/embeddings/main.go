// Command embeddings indexes 1,000 texts through a rate-limited embeddings
// endpoint, offline: langchaingo's real OpenAI client, under
// embeddings.NewEmbedder's own batching (50 texts a request), talks to a
// loopback server that admits 5 requests per 200 ms and answers 429 with
// Retry-After beyond that, and that rejects a request over its size limit
// ("max 300000 tokens per request" in OpenAI's words). The resilient
// embedder retries each rate-limited batch alone, after exactly the wait
// the server asked for, splits the batches too large in halves, and
// returns every vector in order; a progress line follows the indexing.
//
//	go run ./examples/embeddings
package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tmc/langchaingo/embeddings"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/examples/internal/tty"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/taxonomy"
)

func main() {
	srv := newProvider(faultserver.New)
	defer srv.Close()
	if _, err := run(context.Background(), os.Stdout, tty.IsTerminal(os.Stdout), srv); err != nil {
		fmt.Fprintln(os.Stderr, "embeddings:", err)
		os.Exit(1)
	}
}

// The demo's corpus and the provider's limits: short periods, so that it
// runs in about a second.
const (
	corpus       = 1000                   // texts to index
	batchSize    = 50                     // texts per request, as embeddings.NewEmbedder sends them
	perWindow    = 5                      // requests the provider admits per window
	window       = 200 * time.Millisecond // the provider's rate-limit window
	maxBatchSize = 6000                   // bytes of text the provider takes in one request
)

// newProvider starts the loopback provider with its limits: a request over
// maxBatchSize bytes is rejected as too large; beyond perWindow requests
// per window, a 429 says when the window ends (Retry-After in seconds, as
// every provider sends it, and OpenAI's retry-after-ms).
func newProvider(newServer func(...faultserver.Step) *faultserver.Server) *faultserver.Server {
	var start time.Time // of the current window
	used := 0
	return newServer(faultserver.Func(func(r *faultserver.Request) faultserver.Step {
		if size(r.Inputs()) > maxBatchSize {
			return faultserver.BatchTooLarge()
		}
		if r.Time.Sub(start) >= window {
			start, used = r.Time, 0
		}
		if used < perWindow {
			used++
			return faultserver.Reply("")
		}
		wait := start.Add(window).Sub(r.Time)
		ms := (wait + time.Millisecond - 1) / time.Millisecond
		return faultserver.RateLimited("1").WithHeader("Retry-After-Ms", strconv.Itoa(int(ms)))
	}))
}

func size(texts []string) int {
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	return n
}

// report is what an indexing run did.
type report struct {
	Vectors     int
	Requests    int
	RateLimited int           // attempts that met a 429 and were retried
	Waited      time.Duration // waiting for the provider's Retry-After
	Splits      int           // batches split in halves
}

// run indexes the corpus against srv and writes what happened to out; if
// live (out is a terminal), a progress line redraws itself as batches
// complete, else it is written once, at the end.
func run(ctx context.Context, out io.Writer, live bool, srv *faultserver.Server) (report, error) {
	// The evidence transport recovers the Retry-After the client drops.
	llm, err := openai.New(openai.WithToken("sk-test"), openai.WithBaseURL(srv.OpenAIBaseURL()),
		openai.WithEmbeddingModel("text-embedding-3-small"),
		openai.WithHTTPClient(&http.Client{Transport: llms.NewTransport(srv.Client().Transport)}))
	if err != nil {
		return report{}, err
	}
	t := &tally{}
	embedder := resilient.Embedder(llm, resilient.Observe(t))

	texts := corpusTexts()
	done := 0
	progress := embeddings.EmbedderClientFunc(func(ctx context.Context, batch []string) ([][]float32, error) {
		vectors, err := embedder.CreateEmbedding(ctx, batch)
		if err == nil {
			done += len(batch)
			if live {
				fmt.Fprint(out, "\r", progressLine(done, len(texts), t.report()))
			}
		}
		return vectors, err
	})
	docs, err := embeddings.NewEmbedder(progress, embeddings.WithBatchSize(batchSize))
	if err != nil {
		return report{}, err
	}
	start := time.Now()
	vectors, err := docs.EmbedDocuments(ctx, slices.Clone(texts))
	if !live {
		fmt.Fprint(out, progressLine(done, len(texts), t.report()))
	}
	fmt.Fprintln(out)
	if err != nil {
		return report{}, err
	}
	for i, text := range texts {
		if !slices.Equal(vectors[i], faultserver.Vector(text)) {
			return report{}, fmt.Errorf("vector %d is not the vector of text %d: out of order", i, i)
		}
	}
	rep := t.report()
	rep.Vectors, rep.Requests = len(vectors), srv.Count()
	fmt.Fprintf(out, "done in %v: %d vectors, each its text's, in order\n", time.Since(start).Round(10*time.Millisecond), rep.Vectors)
	fmt.Fprintf(out, "  requests:      %d for %d batches of %d\n", rep.Requests, (corpus+batchSize-1)/batchSize, batchSize)
	fmt.Fprintf(out, "  rate limited:  %d, each batch retried alone after the server's Retry-After (%v waited in all)\n",
		rep.RateLimited, rep.Waited.Round(time.Millisecond))
	fmt.Fprintf(out, "  split:         %d batches over %d bytes, sent in halves\n", rep.Splits, maxBatchSize)
	return rep, nil
}

func progressLine(done, total int, rep report) string {
	return fmt.Sprintf("indexed %4d/%d texts  (%d rate limited, %d split)", done, total, rep.RateLimited, rep.Splits)
}

// corpusTexts returns the texts to index: short ones, and now and then a
// long one that makes its batch too large for one request.
func corpusTexts() []string {
	texts := make([]string, corpus)
	for i := range texts {
		words := 8
		if i%250 == 123 {
			words = 500
		}
		texts[i] = fmt.Sprintf("document %d: %s", i, strings.Repeat("lorem ", words))
	}
	return texts
}

// tally is a observe.Observer that counts the embedder's retries after
// a rate limit and its splits.
type tally struct {
	mu  sync.Mutex
	rep report
}

func (t *tally) Start(ctx context.Context, _ observe.Start) context.Context { return ctx }

func (t *tally) Observe(_ context.Context, e observe.Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch e := e.(type) {
	case observe.RetryScheduled:
		if e.Source == taxonomy.WaitRetryAfter {
			t.rep.RateLimited++
			t.rep.Waited += e.Wait
		}
	case observe.BatchSplit:
		t.rep.Splits++
	}
}

func (t *tally) report() report {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.rep
}
