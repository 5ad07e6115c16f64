package resilientmcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/resilientgo/resilient/internal/redact/redacttest"
	"github.com/resilientgo/resilient/resilientmcp"
)

type secretIn struct {
	I int `json:"i"`
}

// newLeakyServer returns an MCP server whose tools fail with the i-th
// secret of the kit in their answer, each in its own way:
//
//	result   an error result: the message, and a resource link
//	handler  the handler's error, which the SDK sends as an error result
//	reject   a JSON-RPC "invalid params" error
func newLeakyServer(secrets []redacttest.Secret) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "leaky", Version: "1"}, nil)
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true}
	mcp.AddTool(s, &mcp.Tool{Name: "result", Annotations: readOnly},
		func(_ context.Context, _ *mcp.CallToolRequest, in secretIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{
				&mcp.TextContent{Text: "lookup failed: " + secrets[in.I].Text},
				&mcp.ResourceLink{URI: "https://shop.example/orders/4471", Name: "order"},
			}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "handler", Annotations: readOnly},
		func(_ context.Context, _ *mcp.CallToolRequest, in secretIn) (*mcp.CallToolResult, any, error) {
			return nil, nil, errors.New(secrets[in.I].Text)
		})
	s.AddTool(&mcp.Tool{Name: "reject", InputSchema: map[string]any{"type": "object"}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in secretIn
			if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
				return nil, err
			}
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: secrets[in.I].Text}
		})
	return s
}

// No secret in an MCP server's error reaches the model: for each way a
// server fails and each shape of credential, what the tool returns (the
// model's observation) holds none, and still holds the server's message.
func TestServerErrorSecretsNeverReachTheModel(t *testing.T) {
	secrets := redacttest.Secrets()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	if _, err := newLeakyServer(secrets).Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	session, err := mcp.NewClient(&mcp.Implementation{Name: "agent"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := resilientmcp.Tools(ctx, session)
	if err != nil {
		t.Fatal(err)
	}
	defer resilientmcp.Close(ts)
	for _, tool := range []struct{ name, says string }{
		{"result", "lookup failed: "},
		{"handler", ""},
		{"reject", "reject: invalid arguments: "},
	} {
		var leaked []string
		for i, s := range secrets {
			out, err := find(t, ts, tool.name).Call(ctx, fmt.Sprintf(`{"i":%d}`, i))
			if err != nil {
				t.Fatalf("%s, %s: %v", tool.name, s.Shape, err)
			}
			if strings.Contains(out, s.Secret) {
				leaked = append(leaked, s.Shape)
			}
			if !strings.HasPrefix(out, tool.says) || !strings.Contains(out, "[REDACTED]") {
				t.Errorf("%s, %s: the model reads %q", tool.name, s.Shape, out)
			}
		}
		if len(leaked) > 0 {
			t.Errorf("%s: %d of %d secrets reached the model: %s", tool.name, len(leaked), len(secrets), strings.Join(leaked, "; "))
		}
	}
}
