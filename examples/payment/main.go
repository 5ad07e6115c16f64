// Command payment shows the double charge that idempotency prevents. A
// confused model asks twice to charge the same order; the charge tool is
// wrapped as Idempotent, so the money moves once and the second call reads
// "already done: ...", which tells the model the truth instead of tempting
// it to try a third time.
//
// The agent loop is written out with native tool calls: the tools'
// Dispatcher turns each response's tool calls into the tool messages to send
// back. It runs offline: go run ./examples/payment
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/lmittmann/tint"
	"github.com/tmc/langchaingo/llms"
	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient/examples/internal/tty"
	"github.com/resilientgo/resilient/internal/scripted"
	"github.com/resilientgo/resilient/tools"
	"github.com/resilientgo/resilient/tools/dispatch"
)

func main() {
	logger := slog.New(tint.NewTextHandler(os.Stderr, &tint.Options{TimeFormat: time.TimeOnly, NoColor: !tty.Color(os.Stderr)}))
	if err := run(logger); err != nil {
		fmt.Fprintln(os.Stderr, "payment:", err)
		os.Exit(1)
	}
}

// provider is the payment provider: every charge it accepts moves money.
type provider struct {
	mu   sync.Mutex
	keys []string // the idempotency key of each charge made
}

func (p *provider) charge(ctx context.Context, args string) (string, error) {
	key, _ := tools.KeyFrom(ctx) // a real provider takes it as an Idempotency-Key header
	p.mu.Lock()
	defer p.mu.Unlock()
	p.keys = append(p.keys, key)
	return fmt.Sprintf("charged 2499.00 INR for order 4471 as txn-%d", len(p.keys)), nil
}

func run(logger *slog.Logger) error {
	var bank provider
	charge, err := tools.New(tools.Func("charge", "Charges a card once for an order.", bank.charge),
		tools.Idempotent(nil), tools.Logger(logger))
	if err != nil {
		return err
	}
	dispatcher, err := dispatch.New([]lctools.Tool{charge})
	if err != nil {
		return err
	}
	args := `{"order_id":"4471","amount_paise":249900}`
	model := scripted.New(
		scripted.CallTool("call_1", "charge", args),
		scripted.CallTool("call_2", "charge", args), // the model forgot it already did
		scripted.Reply("Payment complete: order 4471 is paid."),
	)

	ctx := context.Background()
	messages := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "Pay for order 4471.")}
	fmt.Println("user: Pay for order 4471.")
	asked := 0
	for {
		resp, err := model.GenerateContent(ctx, messages)
		if err != nil {
			return err
		}
		choice := resp.Choices[0]
		if len(choice.ToolCalls) == 0 {
			fmt.Println("model:", choice.Content)
			break
		}
		for _, c := range choice.ToolCalls {
			asked++
			fmt.Printf("model: call %s %s\n", c.FunctionCall.Name, c.FunctionCall.Arguments)
		}
		answers, err := dispatcher.Dispatch(ctx, choice.ToolCalls)
		if err != nil {
			return err // a fatal outcome: the run stops
		}
		for _, a := range answers {
			fmt.Println("tool: ", a.Parts[0].(llms.ToolCallResponse).Content)
		}
		messages = append(messages, dispatch.AssistantMessage(choice.ToolCalls))
		messages = append(messages, answers...)
	}
	fmt.Printf("\nthe model asked for %d charges; the provider made %d\n", asked, len(bank.keys))
	return nil
}
