// Command openai-go shows a plain openai-go v3 tool-calling loop recovering,
// through resilienthttp, from the faults the HTTP layer is for, offline: the
// SDK talks to a loopback fault server that answers, in turn, a 429 with
// retry-after-ms, an error event inside a 200 stream before its first chunk,
// then a tool call; a 529 and a 502 HTML page, then the answer. Each
// recovery shows in the log. The SDK's own retries are left on, and never
// add a request: the server counts one per fault and per step.
//
//	cd examples/openai-go && go run .
//
// It needs Go 1.26 (openai-go v3 asks for it), so it is a module of its own.
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"

	"github.com/lmittmann/tint"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/resilienthttp"
)

func main() {
	if _, err := run(os.Stdout, slog.New(tint.NewTextHandler(os.Stderr, &tint.Options{TimeFormat: "15:04:05.000"}))); err != nil {
		fmt.Fprintln(os.Stderr, "openai-go:", err)
		os.Exit(1)
	}
}

// result is what the example did, for its test.
type result struct {
	answer   string
	requests int // the server received
	usage    resilient.Usage
}

func run(out io.Writer, logger *slog.Logger) (result, error) {
	srv := faultserver.New(
		faultserver.RateLimited("").WithHeader("Retry-After-Ms", "300"),
		faultserver.InBandError("server_error", "The server had an error while processing your request. Sorry about that!"),
		faultserver.ReplyToolCalls(faultserver.ToolCall{ID: "call_1", Name: "lookup_order", Arguments: `{"order":"4471"}`}),
		faultserver.Overloaded(),
		faultserver.BadGateway(),
		faultserver.Reply("Order 4471 shipped on Monday; it arrives Thursday."),
	)
	defer srv.Close()
	transport := &http.Transport{}
	defer transport.CloseIdleConnections()

	client := openai.NewClient(
		option.WithBaseURL(srv.OpenAIBaseURL()+"/"),
		option.WithAPIKey("sk-offline"),
		option.WithHTTPClient(&http.Client{Transport: transport}),
		option.WithMiddleware(resilienthttp.Middleware(resilienthttp.Logger(logger))),
	)
	ctx := resilient.NewRun(context.Background())
	answer, err := agent(ctx, client, out, "Where is order 4471?")
	if err != nil {
		return result{}, err
	}
	r := result{answer: answer, requests: srv.Count(), usage: resilient.UsageFrom(ctx)}
	fmt.Fprintf(out, "\n%s\n\n%d requests for 2 model steps and 4 faults; the run used %d input and %d output tokens.\n",
		answer, r.requests, r.usage.InputTokens, r.usage.OutputTokens)
	return r, nil
}

// agent is the tool-calling loop as openai-go's examples write it, over
// streaming chat completions.
func agent(ctx context.Context, client openai.Client, out io.Writer, question string) (string, error) {
	params := openai.ChatCompletionNewParams{
		Model:    "gpt-4o-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(question)},
		Tools: []openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(openai.FunctionDefinitionParam{
			Name:        "lookup_order",
			Description: openai.String("Looks an order up."),
			Parameters:  openai.FunctionParameters{"type": "object", "properties": map[string]any{"order": map[string]string{"type": "string"}}},
		})},
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	for range 5 {
		stream := client.Chat.Completions.NewStreaming(ctx, params)
		var acc openai.ChatCompletionAccumulator
		for stream.Next() {
			acc.AddChunk(stream.Current())
		}
		err := stream.Err()
		stream.Close()
		if err != nil {
			return "", err
		}
		msg := acc.Choices[0].Message
		if len(msg.ToolCalls) == 0 {
			return msg.Content, nil
		}
		params.Messages = append(params.Messages, msg.ToParam())
		for _, call := range msg.ToolCalls {
			fmt.Fprintf(out, "tool %s(%s)\n", call.Function.Name, call.Function.Arguments)
			params.Messages = append(params.Messages, openai.ToolMessage("order 4471: 1 kettle, shipped Monday by DHL", call.ID))
		}
	}
	return "", fmt.Errorf("no answer after 5 steps")
}
