// Command executor runs langchaingo's agents.Executor, with a scripted model
// and wrapped tools, through the three outcomes of a tool call:
//
//   - a ToolError: the model reads it and corrects its call;
//   - an internal failure: the model reads only "failed internally", and the
//     logs (stderr) hold the full error with its API key redacted;
//   - a FatalToolError: the run stops with a named reason, and the model is
//     not called again.
//
// It runs offline: go run ./examples/executor
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"time"

	"github.com/lmittmann/tint"
	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient/examples/internal/tty"
	"github.com/resilientgo/resilient/internal/scripted"
	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

func main() {
	logger := slog.New(tint.NewTextHandler(os.Stderr, &tint.Options{Level: slog.LevelDebug, TimeFormat: time.TimeOnly, NoColor: !tty.Color(os.Stderr)}))
	if err := run(logger); err != nil {
		fmt.Fprintln(os.Stderr, "executor:", err)
		os.Exit(1)
	}
}

// The tools of a small shop. Each says what its failures mean with the
// taxonomy's types, or does not (inventory), and the wrapper does the rest.

func lookup(_ context.Context, id string) (string, error) {
	if id != "4471" {
		return "", taxonomy.ToolErrorf("no order '%s'; order ids have 4 digits, see the confirmation email", id)
	}
	return "order 4471: 1 kettle, shipped Tuesday", nil
}

func inventory(context.Context, string) (string, error) {
	// What a real HTTP client returns when the service is down, credentials
	// in the URL and all.
	return "", &url.Error{Op: "Get", URL: "https://inventory.internal/v2/stock?sku=kettle&api_key=sk-live-51HxQfLd2eZvKYlo",
		Err: &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}}
}

func refund(context.Context, string) (string, error) {
	return "", taxonomy.NewFatalToolError(errors.New("payment provider rejected our credentials"))
}

func run(logger *slog.Logger) error {
	var wrapped []lctools.Tool
	for _, t := range []lctools.Tool{
		tools.Func("lookup", "Looks up an order by its id.", lookup),
		tools.Func("inventory", "Tells how many of a product are in stock.", inventory),
		tools.Func("refund", "Refunds an order.", refund),
	} {
		w, err := tools.New(t, tools.Logger(logger))
		if err != nil {
			return err
		}
		wrapped = append(wrapped, traced{w})
	}

	scenes := []struct {
		title string
		model *scripted.Model
	}{
		{"1. A ToolError: the model corrects its call", scripted.New(
			scripted.CallTool("c1", "lookup", `{"__arg1":"9999"}`),
			scripted.CallTool("c2", "lookup", `{"__arg1":"4471"}`),
			scripted.Reply("Your kettle (order 4471) shipped on Tuesday."),
		)},
		{"2. An internal failure: hidden from the model, logged redacted", scripted.New(
			scripted.CallTool("c1", "inventory", `{"__arg1":"kettle"}`),
			scripted.Reply("I cannot check the stock right now; please try again later."),
		)},
		{"3. A FatalToolError: the run stops", scripted.New(
			scripted.CallTool("c1", "refund", `{"__arg1":"4471"}`),
			scripted.Reply("never sent: the run stopped"),
		)},
	}
	for _, s := range scenes {
		fmt.Println(s.title)
		executor := agents.NewExecutor(agents.NewOpenAIFunctionsAgent(s.model, wrapped))
		answer, err := chains.Run(context.Background(), executor, "Where is my kettle? I want a refund.")
		var fatal *taxonomy.FatalToolError
		switch {
		case errors.As(err, &fatal):
			fmt.Printf("   run stopped by %s: %v\n", fatal.Tool, fatal.Cause)
		case err != nil:
			return err
		default:
			fmt.Printf("   answer: %s\n", answer)
		}
		fmt.Printf("   model calls: %d\n\n", s.model.Calls())
	}
	return nil
}

// traced prints each call of a wrapped tool as the model sees it.
type traced struct{ *tools.Tool }

func (t traced) Call(ctx context.Context, input string) (string, error) {
	fmt.Printf("   model calls %s(%q)\n", t.Name(), input)
	out, err := t.Tool.Call(ctx, input)
	if err == nil {
		fmt.Printf("   model reads %q\n", out)
	}
	return out, err
}
