// Command eino runs an Eino agent (adk.ChatModelAgent with eino-ext's
// openai model) made resilient in one line, resilienteino.Handler, against
// a loopback fault server, so it runs offline: the provider answers 429
// with Retry-After 1, then overflows, and the payment service fails once
// with its credential in the error. The handler waits exactly a second,
// compacts the conversation, retries the payment under its idempotency key
// (the card is charged once) and tells the model only that the tool failed.
//
//	go run .   (in examples/eino, a module of its own: Eino is not the root module's)
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/cloudwego/eino-ext/components/model/openai"
	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/resilienteino"
)

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "eino:", err)
		os.Exit(1)
	}
}

// bank is the card processor: it charges once per idempotency key, and
// fails the first charge after making it, with its key in the error.
type bank struct {
	mu      sync.Mutex
	charges int
	keys    map[string]bool
}

func (b *bank) charge(ctx context.Context, in struct {
	Order string `json:"order"`
	Cents int    `json:"amount_cents"`
}) (string, error) {
	key, _ := resilienteino.KeyFrom(ctx) // the call's idempotency key, as an Idempotency-Key header
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.keys[key] {
		b.keys[key] = true
		b.charges++
		if b.charges == 1 {
			return "", errors.New("POST https://api.bank.example/v1/charges (Authorization: Bearer sk_live_51H8aBcDeFgHiJkLm): read tcp 10.0.4.7:443: connection reset by peer")
		}
	}
	return fmt.Sprintf("charged %d.%02d EUR to order %s", in.Cents/100, in.Cents%100, in.Order), nil
}

func run(w *os.File) error {
	ctx := context.Background()
	call := func(id string) faultserver.Step {
		return faultserver.ReplyToolCalls(faultserver.ToolCall{ID: id, Name: "charge_card", Arguments: `{"order":"R17","amount_cents":1990}`})
	}
	srv := faultserver.New(
		faultserver.RateLimited("1"),  // 429, Retry-After: 1
		call("call_1"),                // the model asks for the charge
		faultserver.ContextOverflow(), // the conversation no longer fits
		call("call_2"),                // told the charge failed, it asks again
		faultserver.Reply("Order R17 is paid."))
	defer srv.Close()

	cm, err := openai.NewChatModel(ctx, &openai.ChatModelConfig{
		Model: "gpt-4o", APIKey: "sk-test", BaseURL: srv.OpenAIBaseURL(),
		HTTPClient: resilienteino.HTTPClient(), // reads Retry-After, error codes and stream ends
	})
	if err != nil {
		return err
	}
	b := &bank{keys: map[string]bool{}}
	charge, err := utils.InferTool("charge_card", "Charges the card on file for an order.", b.charge)
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
		Name: "payments", Description: "pays orders", Instruction: "You pay orders.",
		Model:       cm,
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: []tool.BaseTool{charge}}},
		Handlers: []adk.ChatModelAgentMiddleware{resilienteino.Handler( // the one line
			resilienteino.Logger(logger),
			resilienteino.ForTool("charge_card", resilienteino.Idempotent(nil)))},
	})
	if err != nil {
		return err
	}

	start := time.Now()
	run := resilienteino.NewRun(ctx)
	iter := adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent}).Query(run, "Pay order R17.")
	var answer string
	for {
		e, ok := iter.Next()
		if !ok {
			break
		}
		if e.Err != nil {
			return e.Err
		}
		if msg, _, err := adk.GetMessage(e); err == nil && msg != nil && len(msg.ToolCalls) == 0 && msg.Role == schema.Assistant {
			answer = msg.Content
		}
	}
	var sent strings.Builder
	for _, r := range srv.Requests() {
		sent.Write(r.Body)
	}
	u := resilienteino.UsageFrom(run)
	fmt.Fprintf(w, "answer: %s\n", answer)
	fmt.Fprintf(w, "requests: %d (%d retries, waited %v for the 429's Retry-After), in %v\n",
		u.Requests, u.Retries, u.Waited.Round(time.Second), time.Since(start).Round(time.Second))
	fmt.Fprintf(w, "card charged: %d time(s)\n", b.charges)
	told := sent.String()
	if i := strings.Index(told, "Error: charge_card"); i >= 0 {
		told = told[i:]
		told = told[:strings.IndexByte(told, ')')+1]
	}
	fmt.Fprintf(w, "the model was told: %q; the key reached it: %v\n", told, strings.Contains(sent.String(), "sk_live"))
	return nil
}
