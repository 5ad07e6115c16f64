package main

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms/openai"
	lctools "github.com/tmc/langchaingo/tools"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/resilientotel"
	"github.com/resilientgo/resilient/status"
	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

// lookupOrder knows one order; for any other it tells the model, which
// corrects its call.
func lookupOrder(_ context.Context, input string) (string, error) {
	if !strings.Contains(input, "4471") {
		return "", taxonomy.ToolErrorf("no such order; order ids have 4 digits, see the confirmation email")
	}
	return "order 4471: 1 kettle, shipped Tuesday", nil
}

// runAgent runs the agent against a fault server, under one span for the
// whole run, and returns its answer. It registers the model and the tool's
// breaker in reg, for the status page.
func runAgent(ctx context.Context, reg *status.Registry) (string, error) {
	srv := faultserver.New(
		faultserver.RateLimited("1"), // 429, Retry-After: 1
		faultserver.ReplyToolCalls(faultserver.ToolCall{ID: "c1", Name: "lookup_order", Arguments: `{"__arg1":"9999"}`}),
		faultserver.Overloaded(), // 529
		faultserver.ReplyToolCalls(faultserver.ToolCall{ID: "c2", Name: "lookup_order", Arguments: `{"__arg1":"4471"}`}),
		faultserver.Reply("Your kettle (order 4471) shipped on Tuesday."),
	)
	defer srv.Close()

	// The evidence transport recovers what the client drops (Retry-After,
	// the error code); otelhttp, outside it, traces each request under the
	// attempt that sends it.
	hc := &http.Client{Transport: otelhttp.NewTransport(llms.NewTransport(srv.Client().Transport))}
	llm, err := srv.OpenAI(openai.WithHTTPClient(hc))
	if err != nil {
		return "", err
	}

	obs := resilientotel.New() // the global providers set up in main
	model := resilient.Model(llm, resilient.Observe(obs))
	lookup := resilient.Tool(tools.Func("lookup_order", "Looks up an order by its id.", lookupOrder),
		resilient.Observe(obs))
	if err := errors.Join(reg.AddModel("chat", model), reg.AddBreaker("tool:lookup_order", lookup.Breaker())); err != nil {
		return "", err
	}

	ctx, span := otel.Tracer("example/telemetry").Start(ctx, "invoke_agent shop_assistant",
		trace.WithAttributes(semconv.GenAIOperationNameKey.String("invoke_agent"), semconv.GenAIAgentName("shop_assistant")))
	defer span.End()
	executor := agents.NewExecutor(agents.NewOpenAIFunctionsAgent(model, []lctools.Tool{lookup}), agents.WithMaxIterations(6))
	return chains.Run(resilient.NewRun(ctx), executor, "Where is my kettle?")
}
