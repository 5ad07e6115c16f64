package resilienteino_test

import (
	"context"
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
)

// The code that docs/eino.md and the README quote (between the readme
// markers), run against the fault server.

func handlerAgent(ctx context.Context, chatModel model.ToolCallingChatModel, tools []tool.BaseTool) (*schema.Message, error) {
	// readme:begin eino-handler
	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
		Model:       chatModel, // give its client resilienteino.HTTPClient()
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: tools}},
		Handlers: []adk.ChatModelAgentMiddleware{resilienteino.Handler(
			resilienteino.ForTool("charge_card", resilienteino.Idempotent(nil)))},
	})
	// readme:end
	if err != nil {
		return nil, err
	}
	// readme:begin eino-handler
	iter := adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent}).Query(resilienteino.NewRun(ctx), "Pay order R17.")
	// readme:end
	var last *schema.Message
	for {
		e, ok := iter.Next()
		if !ok {
			return last, nil
		}
		if e.Err != nil {
			return nil, e.Err
		}
		if msg, _, err := adk.GetMessage(e); err == nil && msg != nil {
			last = msg
		}
	}
}

func reactAgent(ctx context.Context, chatModel model.ToolCallingChatModel, tools []tool.BaseTool) (*schema.Message, error) {
	// readme:begin eino-react
	agent, err := react.NewAgent(ctx, &react.AgentConfig{
		ToolCallingModel: resilienteino.Model(chatModel),
		ToolsConfig: compose.ToolsNodeConfig{Tools: tools,
			ToolCallMiddlewares: []compose.ToolMiddleware{resilienteino.ToolMiddleware()}},
	})
	// or: Tools: []tool.BaseTool{resilienteino.Tool(lookup, resilienteino.SafeToRetry()), ...}
	// readme:end
	if err != nil {
		return nil, err
	}
	return agent.Generate(ctx, []*schema.Message{schema.UserMessage("Pay order R17.")})
}

func TestReadmeAgents(t *testing.T) {
	for name, run := range map[string]func(context.Context, model.ToolCallingChatModel, []tool.BaseTool) (*schema.Message, error){
		"handler": handlerAgent,
		"react":   reactAgent,
	} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := faultserver.NewInMemory(payScript(faultserver.RateLimited("1"), faultserver.Overloaded())...)
				defer s.Close()
				charge := flakyCharge()
				out, err := run(t.Context(), openaiModel(t, s), []tool.BaseTool{charge})
				checkRun(t, s, charge, out, err, 5)
			})
		})
	}
}
