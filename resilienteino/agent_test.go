package resilienteino_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/flow/agent/react"
	"github.com/cloudwego/eino/schema"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/resilienteino"
	"github.com/resilientgo/resilient/taxonomy"
)

// These tests run Eino's own agents, flow/agent/react's and adk's
// ChatModelAgent, with eino-ext's openai model against faultserver: the
// model asks to charge an order, the charge fails once with a secret in its
// error, the model asks again and the agent answers.

var chargeCall = faultserver.ToolCall{ID: "call_1", Name: "charge_card", Arguments: `{"order":"R1","amount_cents":1990}`}

// payScript is the provider of a run that pays order R1, with faults
// before the first answer and before the last (none when nil).
func payScript(faults ...faultserver.Step) []faultserver.Step {
	script := append([]faultserver.Step{}, faults[:min(1, len(faults))]...)
	script = append(script, faultserver.ReplyToolCalls(chargeCall),
		faultserver.ReplyToolCalls(faultserver.ToolCall{ID: "call_2", Name: chargeCall.Name, Arguments: chargeCall.Arguments}))
	script = append(script, faults[min(1, len(faults)):]...)
	return append(script, faultserver.Reply("Order R1 is paid."))
}

// flakyCharge fails its first execution after charging, with a secret in
// its error, and counts the charges per order.
func flakyCharge() *fnTool {
	return newTool("charge_card", func(_ context.Context, n int, args string) (string, error) {
		if n == 1 {
			return "", errSecret
		}
		return "charged " + args, nil
	})
}

// sentToModel returns what the requests carried to the model.
func sentToModel(s *faultserver.Server) string {
	var b strings.Builder
	for _, r := range s.Requests() {
		b.Write(r.Body)
	}
	return b.String()
}

func TestReactAgentRecovers(t *testing.T) {
	for _, tt := range agentFaults() {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := faultserver.NewInMemory(payScript(tt.faults...)...)
				defer s.Close()
				charge := flakyCharge()
				agent, err := react.NewAgent(t.Context(), &react.AgentConfig{
					ToolCallingModel: resilienteino.Model(openaiModel(t, s)),
					ToolsConfig:      compose.ToolsNodeConfig{Tools: []tool.BaseTool{resilienteino.Tool(charge)}},
				})
				if err != nil {
					t.Fatal(err)
				}
				out, err := agent.Generate(resilienteino.NewRun(t.Context()), []*schema.Message{schema.UserMessage("Pay order R1")})
				checkRun(t, s, charge, out, err, tt.requests)
			})
		})
	}
}

func TestReactAgentStreams(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(payScript(faultserver.InBandError("server_error", "The server had an error"), faultserver.Overloaded())...)
		defer s.Close()
		charge := flakyCharge()
		agent, err := react.NewAgent(t.Context(), &react.AgentConfig{
			ToolCallingModel: resilienteino.Model(openaiModel(t, s)),
			ToolsConfig:      compose.ToolsNodeConfig{Tools: []tool.BaseTool{resilienteino.Tool(charge)}},
		})
		if err != nil {
			t.Fatal(err)
		}
		sr, err := agent.Stream(t.Context(), []*schema.Message{schema.UserMessage("Pay order R1")})
		if err != nil {
			t.Fatal(err)
		}
		text, err := readAll(sr)
		checkRun(t, s, charge, &schema.Message{Content: text}, err, 5)
	})
}

func TestChatModelAgentWithTheHandler(t *testing.T) {
	for _, tt := range agentFaults() {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := faultserver.NewInMemory(payScript(tt.faults...)...)
				defer s.Close()
				charge := flakyCharge()
				out, err := runADK(t, openaiModel(t, s), charge, resilienteino.Handler())
				checkRun(t, s, charge, out, err, tt.requests)
			})
		})
	}
}

// agentFault is a fault of the agent tests, met before the model's first
// answer and before its last, with the requests the run then makes.
type agentFault struct {
	name     string
	faults   []faultserver.Step
	requests int
}

// agentFaults are the faults of the agent tests: each costs a request (3
// answers and 2 faults retried). A context overflow comes before the last
// answer only, when the conversation has turns to drop.
func agentFaults() []agentFault {
	twice := func(s faultserver.Step) []faultserver.Step { return []faultserver.Step{s, s} }
	return []agentFault{
		{"429", twice(faultserver.RateLimited("2")), 5},
		{"529", twice(faultserver.Overloaded()), 5},
		{"502 HTML", twice(faultserver.BadGateway()), 5},
		{"500", twice(faultserver.ServerError()), 5},
		{"connection closed", twice(faultserver.HangUp()), 5},
		{"in-band error", twice(faultserver.InBandError("server_error", "The server had an error")), 5},
		{"empty reply, then a context overflow", []faultserver.Step{faultserver.Reply(""), faultserver.ContextOverflow()}, 5},
	}
}

// runADK runs an adk.ChatModelAgent over m and t with the handler, to its
// last message.
func runADK(t *testing.T, m model.ToolCallingChatModel, tl tool.InvokableTool, h adk.ChatModelAgentMiddleware) (*schema.Message, error) {
	t.Helper()
	agent, err := adk.NewChatModelAgent(t.Context(), &adk.ChatModelAgentConfig{
		Name: "payer", Description: "pays orders", Instruction: "You pay orders.",
		Model:       m,
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: []tool.BaseTool{tl}}},
		Handlers:    []adk.ChatModelAgentMiddleware{h},
	})
	if err != nil {
		t.Fatal(err)
	}
	iter := adk.NewRunner(t.Context(), adk.RunnerConfig{Agent: agent}).Run(resilienteino.NewRun(t.Context()),
		[]*schema.Message{schema.UserMessage("Pay order R1")})
	var last *schema.Message
	for {
		e, ok := iter.Next()
		if !ok {
			return last, nil
		}
		if e.Err != nil {
			return last, e.Err
		}
		if msg, _, err := adk.GetMessage(e); err == nil && msg != nil {
			last = msg
		}
	}
}

// checkRun holds a run to its outcome: the answer, the requests made, the
// charge made twice (its first attempt failed), and the secret of its
// failure never sent to the model while its mapped line was.
func checkRun(t *testing.T, s *faultserver.Server, charge *fnTool, out *schema.Message, err error, requests int) {
	t.Helper()
	if err != nil || out == nil || out.Content != "Order R1 is paid." || s.Count() != requests {
		t.Fatalf("got %v, %v after %d requests, want the answer after %d", out, err, s.Count(), requests)
	}
	sent := sentToModel(s)
	if strings.Contains(sent, "sk_live") || strings.Contains(sent, "api.stripe.com") ||
		!strings.Contains(sent, "Error: charge_card failed internally (*errors.errorString)") || charge.calls() != 2 {
		t.Errorf("the model was sent the secret, or not the mapped failure, or the tool ran %d times:\n%s", charge.calls(), sent)
	}
}

// The handler's tool boundary keeps an idempotent tool to one execution
// per input when the model asks twice, and ForTool gives one tool its own
// options.
func TestHandlerForTool(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.ReplyToolCalls(chargeCall),
			faultserver.ReplyToolCalls(faultserver.ToolCall{ID: "call_2", Name: chargeCall.Name, Arguments: chargeCall.Arguments}),
			faultserver.Reply("Order R1 is paid."))
		defer s.Close()
		charge := newTool("charge_card", func(_ context.Context, n int, _ string) (string, error) {
			return fmt.Sprintf("payment p-%d", n), nil
		})
		out, err := runADK(t, openaiModel(t, s), charge,
			resilienteino.Handler(resilienteino.ForTool("charge_card", resilienteino.Idempotent(nil))))
		if err != nil || out.Content != "Order R1 is paid." || charge.calls() != 1 || !strings.Contains(sentToModel(s), "already done: payment p-1") {
			t.Fatalf("got %v, %v after %d charges, want one charge and its replay to the model", out, err, charge.calls())
		}
	})
}

// A permanent failure ends the agent's run after one request.
func TestAgentPermanentFailureCostsOneRequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.InvalidAPIKey(), faultserver.Reply("never"))
		defer s.Close()
		_, err := runADK(t, openaiModel(t, s), flakyCharge(), resilienteino.Handler())
		if taxonomy.Classify(err).Kind != taxonomy.Permanent || s.Count() != 1 {
			t.Fatalf("got %v after %d requests, want a permanent failure after 1", err, s.Count())
		}
	})
}

// A fatal tool error ends the agent's run; the model never sees it.
func TestAgentFatalToolErrorEndsTheRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.ReplyToolCalls(chargeCall), faultserver.Reply("never"))
		defer s.Close()
		refused := newTool("charge_card", func(context.Context, int, string) (string, error) {
			return "", taxonomy.NewFatalToolError(errSecret)
		})
		_, err := runADK(t, openaiModel(t, s), refused, resilienteino.Handler())
		if !errors.As(err, new(*taxonomy.FatalToolError)) || s.Count() != 1 || strings.Contains(sentToModel(s), "sk_live") {
			t.Fatalf("got %v after %d requests, want the run ended by the fatal error, the model told nothing", err, s.Count())
		}
	})
}

// The tool boundary as a compose.ToolMiddleware, in a react agent whose
// tools are not wrapped: the same mapping, per tool name.
func TestToolMiddlewareInAReactAgent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(payScript(faultserver.Overloaded(), faultserver.Overloaded())...)
		defer s.Close()
		charge := flakyCharge()
		agent, err := react.NewAgent(t.Context(), &react.AgentConfig{
			ToolCallingModel: resilienteino.Model(openaiModel(t, s)),
			ToolsConfig: compose.ToolsNodeConfig{Tools: []tool.BaseTool{charge},
				ToolCallMiddlewares: []compose.ToolMiddleware{resilienteino.ToolMiddleware()}},
		})
		if err != nil {
			t.Fatal(err)
		}
		out, err := agent.Generate(t.Context(), []*schema.Message{schema.UserMessage("Pay order R1")})
		checkRun(t, s, charge, out, err, 5)
	})
}

// A streaming tool in an adk.ChatModelAgent goes through the handler's
// boundary too.
func TestHandlerWrapsStreamingTools(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.ReplyToolCalls(faultserver.ToolCall{ID: "call_1", Name: "report", Arguments: "{}"}),
			faultserver.Reply("Done."))
		defer s.Close()
		agent, err := adk.NewChatModelAgent(t.Context(), &adk.ChatModelAgentConfig{
			Name: "reporter", Description: "reports", Model: openaiModel(t, s),
			ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: []tool.BaseTool{
				&streamTool{chunks: []string{"sales "}, err: errSecret}}}},
			Handlers: []adk.ChatModelAgentMiddleware{resilienteino.Handler()},
		})
		if err != nil {
			t.Fatal(err)
		}
		iter := adk.NewRunner(t.Context(), adk.RunnerConfig{Agent: agent}).Query(t.Context(), "Report")
		for {
			e, ok := iter.Next()
			if !ok {
				break
			}
			if e.Err != nil {
				t.Fatal(e.Err)
			}
		}
		if sent := sentToModel(s); s.Count() != 2 || strings.Contains(sent, "sk_live") || !strings.Contains(sent, "Error: report failed internally") {
			t.Errorf("%d requests; the model was sent:\n%s", s.Count(), sent)
		}
	})
}
