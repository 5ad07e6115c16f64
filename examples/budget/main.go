// Command budget shows an agent stuck in a loop stopped by its run's token
// budget. langchaingo's agents.Executor drives langchaingo's real OpenAI
// client against a loopback fault server whose model never stops asking
// for a tool, each time with a new order id, so no repeat check catches it;
// every call succeeds (one overloaded request is retried), and only the
// budget ends the run. It prints each step, the error that stopped the run
// and the run's usage, which adds up to what the server reported.
//
//	go run ./examples/budget
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"

	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms/openai"
	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/tools"
)

// budget is the run's token budget: a few thousand tokens is a dozen turns
// of this agent.
const budget = 3000

func main() {
	if _, err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "budget:", err)
		os.Exit(1)
	}
}

// report is what a run used and what the server reported, for the smoke
// test.
type report struct {
	used     resilient.Usage
	reported resilient.Usage // requests received, tokens reported
}

func run(out io.Writer) (report, error) {
	srv := faultserver.New(faultserver.Func(loop))
	defer srv.Close()
	hc := &http.Client{Transport: llms.NewTransport(srv.Client().Transport)}
	llm, err := srv.OpenAI(openai.WithHTTPClient(hc))
	if err != nil {
		return report{}, err
	}

	lookup := tools.Func("lookup_order", "Looks up an order by its id.", func(_ context.Context, id string) (string, error) {
		fmt.Fprintf(out, "  the model calls lookup_order(%s)\n", id)
		return "no order " + id + "; it may be under another id", nil
	})
	agent := agents.NewOpenAIFunctionsAgent(resilient.Model(llm), []lctools.Tool{resilient.Tool(lookup)})
	executor := agents.NewExecutor(agent, agents.WithMaxIterations(1000)) // the budget stops it, not this

	fmt.Fprintf(out, "An agent stuck in a loop, with a token budget of %d:\n", budget)
	ctx := resilient.NewRun(context.Background(), resilient.TokenBudget(budget))
	_, err = chains.Run(ctx, executor, "Where is my kettle?")
	if !errors.Is(err, resilient.ErrUsageLimit) {
		return report{}, fmt.Errorf("the run should have been stopped by its budget, it ended with %v", err)
	}
	fmt.Fprintf(out, "\nThe request that crossed the budget got its answer; the next was refused\nbefore it was sent, and the run stopped:\n  %v\n", err)

	r := report{used: resilient.UsageFrom(ctx)}
	for _, req := range srv.Requests() {
		r.reported.Requests++
		r.reported.InputTokens += req.InputTokens
		r.reported.OutputTokens += req.OutputTokens
	}
	u := r.used
	fmt.Fprintf(out, "\nUsage (resilient.UsageFrom):\n")
	fmt.Fprintf(out, "  requests:    %d (the server received %d, one of them overloaded)\n", u.Requests, r.reported.Requests)
	fmt.Fprintf(out, "  tokens:      %d in + %d out = %d of %d (the server reported %d + %d)\n",
		u.InputTokens, u.OutputTokens, u.Tokens(), budget, r.reported.InputTokens, r.reported.OutputTokens)
	fmt.Fprintf(out, "  tool calls:  %d\n", u.ToolCalls)
	fmt.Fprintf(out, "  retries:     %d, after waiting %v\n", u.Retries, u.Waited.Round(1e6))
	return r, nil
}

// loop is the model: it asks for the tool again and again, with a new id
// each time; its fourth request is overloaded.
func loop(r *faultserver.Request) faultserver.Step {
	if r.Index == 3 {
		return faultserver.Overloaded()
	}
	return faultserver.ReplyToolCalls(faultserver.ToolCall{
		ID:        fmt.Sprintf("call_%d", r.Index),
		Name:      "lookup_order",
		Arguments: fmt.Sprintf(`{"__arg1":"%d"}`, 4470+r.Index),
	})
}
