// Command mcp runs langchaingo's agents.Executor with the tools of an MCP
// server that it starts itself (its own executable, as a subprocess over
// stdio), through the server's faults:
//
//   - the model asks for an order that does not exist: the server's error
//     result reaches the model, which corrects its input;
//   - the server process dies while answering the lookup: the tool is
//     read-only, so the call is retried on a new server process;
//   - the server process dies after taking the charge and before saying
//     so: the charge is made idempotent, so the retry carries the same key
//     and the new process charges nothing more;
//   - the server's logs go to the log (stderr), never to the model.
//
// It runs offline: go run ./examples/mcp
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"sync/atomic"
	"time"

	"github.com/lmittmann/tint"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/examples/internal/tty"
	"github.com/resilientgo/resilient/internal/scripted"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/resilientmcp"
)

func main() {
	if dir := os.Getenv(serveEnv); dir != "" {
		if err := serve(dir); err != nil {
			fmt.Fprintln(os.Stderr, "mcp server:", err)
			os.Exit(1)
		}
		return
	}
	logger := slog.New(tint.NewTextHandler(os.Stderr, &tint.Options{TimeFormat: time.TimeOnly, NoColor: !tty.Color(os.Stderr)}))
	if err := run(logger); err != nil {
		fmt.Fprintln(os.Stderr, "mcp:", err)
		os.Exit(1)
	}
}

func run(logger *slog.Logger) error {
	dir, err := os.MkdirTemp("", "resilient-mcp-example")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	self, err := os.Executable()
	if err != nil {
		return err
	}

	client := mcp.NewClient(&mcp.Implementation{Name: "agent"}, nil)
	client.AddReceivingMiddleware(resilientmcp.Notifications(observe.Log(logger))) // server logs to the log
	var started atomic.Int32
	connect := func(ctx context.Context) (*mcp.ClientSession, error) {
		started.Add(1)
		cmd := exec.Command(self) // not CommandContext: the server outlives the call that started it
		cmd.Env = append(os.Environ(), serveEnv+"="+dir)
		return client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	}
	ctx := context.Background()
	session, err := connect(ctx)
	if err != nil {
		return err
	}
	tools, err := resilientmcp.Tools(ctx, session,
		resilientmcp.Reconnect(connect),
		resilientmcp.Logger(logger),
		resilientmcp.ToolOptions(resilient.Timeout(10*time.Second), resilient.Backoff(50*time.Millisecond, time.Second)),
		resilientmcp.ToolOptionsFor("charge", resilient.Idempotent(nil)))
	if err != nil {
		_ = session.Close()
		return err
	}
	defer resilientmcp.Close(tools)

	model := scripted.New(
		scripted.CallTool("c1", "lookup", `{"id":"9999"}`),
		scripted.CallTool("c2", "lookup", `{"id":"4471"}`), // corrected: ids have 4 digits
		scripted.CallTool("c3", "charge", `{"order":"4471","cents":2499}`),
		scripted.Reply("Order 4471 (a kettle) shipped on Tuesday, and I charged 24.99 EUR for it."),
	)
	traced := make([]lctools.Tool, len(tools))
	for i, t := range tools {
		traced[i] = trace{t}
	}
	fmt.Println("user: Where is my order 9999? Please charge it.")
	executor := agents.NewExecutor(agents.NewOpenAIFunctionsAgent(model, traced))
	answer, err := chains.Run(resilient.NewRun(ctx), executor, "Where is my order 9999? Please charge it.")
	if err != nil {
		return err
	}
	charges := len(ledger(dir))
	fmt.Println("model:", answer)
	fmt.Printf("\nserver processes started: %d; charges made: %d\n", started.Load(), charges)
	if started.Load() != 3 || charges != 1 {
		return errors.New("want 3 server processes (two died) and 1 charge")
	}
	return nil
}

// trace prints each call of a tool as the model sees it.
type trace struct{ lctools.Tool }

func (t trace) Call(ctx context.Context, input string) (string, error) {
	fmt.Printf("model calls %s(%s)\n", t.Name(), input)
	out, err := t.Tool.Call(ctx, input)
	if err == nil {
		fmt.Printf("model reads %q\n", out)
	}
	return out, err
}
