// Command quickstart shows a resilient model recovering from the faults that
// break agents in production, offline: langchaingo's real OpenAI client talks
// to a loopback server that answers, in turn, 429 with Retry-After, 529
// "overloaded", a context overflow and a stream that drops mid-answer, before
// it answers properly. Each recovery path shows in the log.
//
//	go run ./examples/quickstart
//
// With OPENAI_API_KEY set, it talks to OpenAI instead (and, with luck, no
// fault shows).
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/lmittmann/tint"
	lcllms "github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/examples/internal/tty"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/observe"
)

func main() {
	if err := run(os.Stdout, os.Stderr, tty.Color(os.Stderr)); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

// run writes the demo to out and its log to log, coloured if color: both
// usually go to one terminal, where the console keeps a log line from
// cutting a line of the streamed answer.
func run(out, log io.Writer, color bool) error {
	con := newConsole(out, log)
	stats := &waits{}
	logger := slog.New(stats.tee(tint.NewTextHandler(con, &tint.Options{TimeFormat: "15:04:05.000", NoColor: !color})))

	llm, requests, stop, err := connect()
	if err != nil {
		return err
	}
	defer stop()

	model := resilient.Model(llm,
		resilient.Logger(logger),
		// A UI that streams must clear what it showed before a retry.
		resilient.ModelOptions(llms.OnStreamRestart(func(_ context.Context, partial string) error {
			con.Line("  [stream dropped after %q: clearing it and asking again]", partial)
			return nil
		})),
	)
	ctx := resilient.NewRun(context.Background())

	con.Line("1. A question, while the provider is rate limiting and then overloaded:")
	answer, err := model.Call(ctx, "In one sentence: why do agents need retries?")
	if err != nil {
		return err
	}
	con.Line("  %s\n", answer)

	con.Line("2. A long conversation, streamed, that overflows the context window:")
	resp, err := model.GenerateContent(ctx, longConversation(),
		lcllms.WithStreamingFunc(func(_ context.Context, chunk []byte) error {
			con.Stream(string(chunk))
			return nil
		}))
	con.End()
	if err != nil {
		return err
	}
	con.Line("  (final answer: %d characters)\n", len(resp.Choices[0].Content))

	r := resilient.RunFrom(ctx)
	con.Line("Summary")
	con.Line("  logical calls:   2, both answered")
	con.Line("  requests sent:   %s", requests())
	con.Line("  retries spent:   %d of the run's budget of %d", r.Retries(), r.Retries()+r.Remaining())
	con.Line("  time waiting:    %v over %d waits (Retry-After honoured exactly, jitter elsewhere)", stats.total().Round(time.Millisecond), stats.count())
	return nil
}

// connect returns OpenAI when OPENAI_API_KEY is set, else the real OpenAI
// client against a loopback fault server.
func connect() (lcllms.Model, func() string, func(), error) {
	if os.Getenv("OPENAI_API_KEY") != "" {
		llm, err := openai.New(openai.WithModel("gpt-4o-mini"), openai.WithHTTPClient(resilient.HTTPClient()))
		return llm, func() string { return "see your OpenAI dashboard" }, func() {}, err
	}
	srv := faultserver.New(
		faultserver.RateLimited("1"), // 429, Retry-After: 1
		faultserver.Overloaded(),     // 529
		faultserver.Reply("Because model endpoints fail often, and a run makes many calls."),
		faultserver.ContextOverflow(),                  // 400 maximum context length
		faultserver.DropStream("Compaction ", "kept "), // the stream drops mid-answer
		faultserver.ReplyChunks("Compaction ", "kept ", "the system prompt ", "and the recent turns."),
	)
	// The evidence transport recovers what the client drops: Retry-After,
	// the provider's error code, the stream's end marker.
	hc := &http.Client{Transport: llms.NewTransport(srv.Client().Transport)}
	llm, err := srv.OpenAI(openai.WithHTTPClient(hc))
	requests := func() string {
		return fmt.Sprintf("%d to the fault server (6 scripted: 429, 529, ok, overflow, dropped stream, ok)", srv.Count())
	}
	return llm, requests, srv.Close, err
}

func longConversation() []lcllms.MessageContent {
	msgs := []lcllms.MessageContent{lcllms.TextParts(lcllms.ChatMessageTypeSystem, "You are a concise assistant.")}
	for i := range 6 {
		msgs = append(msgs,
			lcllms.TextParts(lcllms.ChatMessageTypeHuman, fmt.Sprintf("Question %d: %s", i+1, strings.Repeat("context ", 20))),
			lcllms.TextParts(lcllms.ChatMessageTypeAI, fmt.Sprintf("Answer %d.", i+1)))
	}
	return append(msgs, lcllms.TextParts(lcllms.ChatMessageTypeHuman, "What did compaction keep?"))
}

// waits adds up the delays of "retrying" events, read from the
// stable attribute keys of package middleware.
type waits struct {
	mu  sync.Mutex
	sum time.Duration
	n   int
}

func (w *waits) total() time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.sum
}

func (w *waits) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.n
}

func (w *waits) tee(h slog.Handler) slog.Handler { return &waitsHandler{Handler: h, w: w} }

type waitsHandler struct {
	slog.Handler
	w *waits
}

func (h *waitsHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == "retrying" {
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == observe.KeyDelay {
				h.w.mu.Lock()
				h.w.sum += a.Value.Duration()
				h.w.n++
				h.w.mu.Unlock()
			}
			return true
		})
	}
	return h.Handler.Handle(ctx, r)
}

func (h *waitsHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &waitsHandler{Handler: h.Handler.WithAttrs(attrs), w: h.w}
}

func (h *waitsHandler) WithGroup(name string) slog.Handler {
	return &waitsHandler{Handler: h.Handler.WithGroup(name), w: h.w}
}
