// Command fallback shows a model falling back to another provider when its
// own is overloaded: the primary (langchaingo's OpenAI client) answers 529 to
// every request; after its retries it gives up for a reason another model can
// fix, and the fallback (langchaingo's Anthropic client) answers. Both talk to
// loopback fault servers, so it runs offline.
//
//	go run ./examples/fallback
package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"

	"github.com/lmittmann/tint"
	"github.com/tmc/langchaingo/llms/anthropic"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/examples/internal/tty"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "fallback:", err)
		os.Exit(1)
	}
}

func run() error {
	logger := slog.New(tint.NewTextHandler(os.Stderr, &tint.Options{TimeFormat: "15:04:05.000", NoColor: !tty.Color(os.Stderr)}))

	primarySrv := faultserver.New(faultserver.Overloaded()) // 529, every time
	defer primarySrv.Close()
	fallbackSrv := faultserver.New(faultserver.Reply("Paris."))
	defer fallbackSrv.Close()

	primary, err := primarySrv.OpenAI(openai.WithHTTPClient(evidenceClient(primarySrv)))
	if err != nil {
		return err
	}
	secondary, err := fallbackSrv.Anthropic(anthropic.WithHTTPClient(evidenceClient(fallbackSrv)))
	if err != nil {
		return err
	}

	model := resilient.Model(primary,
		resilient.Logger(logger),
		resilient.Fallbacks(secondary), // tried when the primary gives up overloaded
	)
	answer, err := model.Call(context.Background(), "What is the capital of France?")
	if err != nil {
		return err
	}
	fmt.Printf("answer: %s\n", answer)
	fmt.Printf("requests: %d to the primary (all 529), %d to the fallback\n", primarySrv.Count(), fallbackSrv.Count())
	return nil
}

// evidenceClient puts the evidence transport in front of the server's own.
func evidenceClient(s *faultserver.Server) *http.Client {
	return &http.Client{Transport: llms.NewTransport(s.Client().Transport)}
}
