package resilientmcp_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/resilientgo/resilient/resilientmcp"
)

// BenchmarkCall measures a call of a lookup tool served in process over the
// in-memory transport: impl=sdk calls ClientSession.CallTool directly, as a
// program without this package would; impl=resilientmcp calls the wrapped
// tool, which checks the input against the schema, runs the call under the
// wrapper's pipeline and renders the result. The difference is what the
// boundary costs next to one MCP round trip.
//
//	go run ./internal/cmd/benchrounds -pkg ./resilientmcp -bench Call -base impl=sdk -rounds 10
func BenchmarkCall(b *testing.B) {
	b.Run("impl=sdk", func(b *testing.B) {
		s := benchSession(b)
		args := json.RawMessage(`{"id":"4471"}`)
		b.ReportAllocs()
		for b.Loop() {
			res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: "lookup", Arguments: args})
			if err != nil || res.IsError {
				b.Fatal(res, err)
			}
		}
	})
	b.Run("impl=resilientmcp", func(b *testing.B) {
		ts, err := resilientmcp.Tools(context.Background(), benchSession(b))
		if err != nil {
			b.Fatal(err)
		}
		defer resilientmcp.Close(ts)
		b.ReportAllocs()
		for b.Loop() {
			if out, err := ts[0].Call(context.Background(), `{"id":"4471"}`); err != nil || out != "order 4471: shipped" {
				b.Fatal(out, err)
			}
		}
	})
}

// benchSession returns a session to a server whose one tool answers at once.
func benchSession(b *testing.B) *mcp.ClientSession {
	server := mcp.NewServer(&mcp.Implementation{Name: "bench"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "lookup", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *mcp.CallToolRequest, in lookupIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "order " + in.ID + ": shipped"}}}, nil, nil
		})
	st, ct := mcp.NewInMemoryTransports()
	if _, err := server.Connect(context.Background(), st, nil); err != nil {
		b.Fatal(err)
	}
	s, err := mcp.NewClient(&mcp.Implementation{Name: "bench"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	return s
}
