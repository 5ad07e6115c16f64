package resilientmcp_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/resilientgo/resilient/resilientmcp"
)

// The tools of an MCP server, here one served in process, as tools of a
// langchaingo agent: what the model reads for a result, an error result
// and an input it must correct.
func ExampleTools() {
	type lookupIn struct {
		ID string `json:"id"`
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "shop"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "lookup", Description: "Looks up an order.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *mcp.CallToolRequest, in lookupIn) (*mcp.CallToolResult, any, error) {
			if in.ID != "4471" {
				return nil, nil, errors.New("no order " + in.ID + "; order ids have 4 digits")
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "shipped Tuesday"}}}, nil, nil
		})

	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "agent"}, nil)
	connect := func(ctx context.Context) (*mcp.ClientSession, error) {
		serverSide, clientSide := mcp.NewInMemoryTransports()
		if _, err := server.Connect(ctx, serverSide, nil); err != nil {
			return nil, err
		}
		return client.Connect(ctx, clientSide, nil)
	}
	session, err := connect(ctx)
	if err != nil {
		log.Fatal(err)
	}
	tools, err := resilientmcp.Tools(ctx, session, resilientmcp.Reconnect(connect))
	if err != nil {
		log.Fatal(err)
	}
	defer resilientmcp.Close(tools)

	lookup := tools[0]
	fmt.Println(lookup.Name())
	for _, input := range []string{`{"id":"4471"}`, `{"id":"99"}`, `4471`} {
		out, err := lookup.Call(ctx, input)
		fmt.Printf("%s -> %q %v\n", input, out, err)
	}
	// Output:
	// lookup
	// {"id":"4471"} -> "shipped Tuesday" <nil>
	// {"id":"99"} -> "no order 99; order ids have 4 digits" <nil>
	// 4471 -> "lookup: the input is a JSON number; send the arguments as one JSON object" <nil>
}
