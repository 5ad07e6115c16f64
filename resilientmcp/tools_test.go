package resilientmcp_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/resilientmcp"
	"github.com/resilientgo/resilient/taxonomy"
)

// The shop lists two tools per page: Tools must follow every cursor.
func TestToolsListsEveryPage(t *testing.T) {
	ts := newFixture(t).tools()
	var names []string
	for _, tool := range ts {
		names = append(names, tool.Name())
	}
	if got, want := strings.Join(names, " "), "charge crash legacy lookup media reject total void"; got != want {
		t.Fatalf("tools: got %q, want %q", got, want)
	}
	desc := find(t, ts, "lookup").Description()
	for _, want := range []string{"Looks up an order.\nInput: a JSON object matching this JSON schema: {",
		`"required":["id"]`, `"description":"the order id, 4 digits"`} {
		if !strings.Contains(desc, want) {
			t.Errorf("description %q lacks %q", desc, want)
		}
	}
}

// Every outcome of a call: what the model reads, how the wrapper took it
// (the line it logged: "tool error" for a ToolError, "tool failed
// internally", or none for a result), and whether the request reached the
// server.
func TestOutcomes(t *testing.T) {
	f := newFixture(t)
	ts := f.tools()
	const (
		result   = ""
		toolErr  = "tool error"
		internal = "tool failed internally"
	)
	tests := []struct {
		tool, input string
		want        string
		as          string
		sent        bool
	}{
		{"lookup", `{"id":"4471"}`, "order 4471: shipped Tuesday", result, true},
		// isError: the result's text, for the model to correct its call.
		{"lookup", `{"id":"9999"}`, "no order 9999; order ids have 4 digits, see the confirmation email", toolErr, true},
		// Input that cannot be sent: said why, and nothing sent.
		{"lookup", `order 4471`, "lookup: the input is not JSON (invalid character 'o' looking for beginning of value); send the arguments as one JSON object", toolErr, false},
		{"lookup", `["4471"]`, "lookup: the input is a JSON array; send the arguments as one JSON object", toolErr, false},
		{"lookup", `"4471"`, "lookup: the input is a JSON string; send the arguments as one JSON object", toolErr, false},
		{"lookup", `{"id":"4471"} {"id":"4472"}`, "lookup: the input has more after its first JSON value; send the arguments as one JSON object", toolErr, false},
		{"lookup", `{"id":4471}`, `lookup: the input does not match the tool's input schema: validating root: validating /properties/id: type: 4471 has type "integer", want "string"`, toolErr, false},
		{"lookup", ``, `lookup: the input does not match the tool's input schema: validating root: required: missing properties: ["id"]`, toolErr, false},
		// JSON-RPC errors.
		{"reject", `{}`, "reject: invalid arguments: amount must be positive", toolErr, true},
		{"crash", `{}`, "Error: crash failed internally (*resilientmcp.ServerError)", internal, true},
		// Content that is not text is summarised; structured content is JSON.
		{"media", ``, "the label:\n[image: image/png, 1.5 KiB]\n[audio: audio/wav, 3.0 MiB]\n" +
			"[resource: file:///label.pdf, application/pdf, 100 B]\n[resource link: https://shop.example/label/4471, 2.0 KiB]", result, true},
		{"total", ` {} `, `{"currency":"EUR","total":42}`, result, true},
		{"void", `{}`, "void failed and said nothing more", toolErr, true},
		// A schema this package cannot validate with is left to the server.
		{"legacy", `{}`, "legacy ok", result, true},
	}
	if lines := f.log.find("input schema not validated"); len(lines) != 1 || lines[0]["tool"] != "legacy" {
		t.Errorf(`"input schema not validated": got %v, want one for legacy`, lines)
	}
	for _, tt := range tests {
		sentBefore := len(f.journal.lines())
		errorsBefore, internalBefore := len(f.log.find(toolErr)), len(f.log.find(internal))
		got, err := find(t, ts, tt.tool).Call(context.Background(), tt.input)
		if err != nil {
			t.Errorf("%s(%s): error %v", tt.tool, tt.input, err)
		}
		if got != tt.want {
			t.Errorf("%s(%s):\n got %q\nwant %q", tt.tool, tt.input, got, tt.want)
		}
		as := result
		switch {
		case len(f.log.find(toolErr)) > errorsBefore:
			as = toolErr
		case len(f.log.find(internal)) > internalBefore:
			as = internal
		}
		if as != tt.as {
			t.Errorf("%s(%s): taken as %q, want %q", tt.tool, tt.input, as, tt.as)
		}
		// lookup journals every call it receives.
		if sent := len(f.journal.lines()) > sentBefore; tt.tool == "lookup" && sent != tt.sent {
			t.Errorf("%s(%s): sent %v, want %v", tt.tool, tt.input, sent, tt.sent)
		}
	}
}

// A server that no longer has the tool, or does not serve tools/call at
// all, ends the run: the model cannot fix either.
func TestFatal(t *testing.T) {
	f := newFixture(t)
	ts := f.tools()
	f.server.RemoveTools("media")
	f.server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok && p.Name == "total" {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "method not found"}
			}
			return next(ctx, method, req)
		}
	})
	for _, tt := range []struct {
		tool string
		code int64
	}{{"media", jsonrpc.CodeInvalidParams}, {"total", jsonrpc.CodeMethodNotFound}} {
		out, err := find(t, ts, tt.tool).Call(context.Background(), "{}")
		var fatal *taxonomy.FatalToolError
		var server *resilientmcp.ServerError
		if !errors.As(err, &fatal) || fatal.Tool != tt.tool || !errors.As(err, &server) || server.Code != tt.code {
			t.Errorf("%s: got (%q, %v), want a fatal error with code %d", tt.tool, out, err, tt.code)
		}
	}
}

func TestUnknownToolMessages(t *testing.T) {
	tests := []struct {
		msg  string
		want bool
	}{
		{`unknown tool "lookup"`, true},                   // Go SDK
		{"Unknown tool: lookup", true},                    // the specification's example
		{"MCP error -32602: Tool lookup not found", true}, // TypeScript SDK
		{"Tool lookup not found", true},
		{"amount must be positive", false},
		{"order not found", false},
		{"Tool lookup not found in cache, amount must be positive", false},
		{"invalid arguments for tool lookup: unknown tool flag", false},
	}
	for _, tt := range tests {
		if got := resilientmcp.UnknownTool(tt.msg); got != tt.want {
			t.Errorf("%q: got %v, want %v", tt.msg, got, tt.want)
		}
	}
}

// The idempotency key of a call made idempotent by the wrapper reaches the
// server, so that the server too can execute it once.
func TestIdempotencyKeyReachesServer(t *testing.T) {
	f := newFixture(t)
	charge := find(t, f.tools(resilientmcp.ToolOptionsFor("charge", resilient.Idempotent(nil))), "charge")
	for _, want := range []string{"charged 5 to A-1", "already done: charged 5 to A-1"} {
		got, err := charge.Call(context.Background(), `{"order":"A-1","amount":5}`)
		if err != nil || got != want {
			t.Fatalf("got (%q, %v), want %q", got, err, want)
		}
	}
	lines := f.journal.lines()
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "charge key=charge:") {
		t.Fatalf("journal: got %q, want one charge with the wrapper's key", lines)
	}
}

func TestClose(t *testing.T) {
	f := newFixture(t)
	ts := f.tools()
	if err := resilientmcp.Close(ts); err != nil {
		t.Fatal(err)
	}
	_, err := find(t, ts, "lookup").Call(context.Background(), `{"id":"4471"}`)
	var fatal *taxonomy.FatalToolError
	if !errors.As(err, &fatal) || !errors.Is(err, resilientmcp.ErrClosed) {
		t.Fatalf("got %v, want a fatal error with ErrClosed", err)
	}
	if n := f.connects.Load(); n != 1 {
		t.Fatalf("connects: got %d, want 1 (closed tools do not reconnect)", n)
	}
}

func TestToolsErrors(t *testing.T) {
	tests := []struct {
		opts []resilientmcp.Option
		want string
	}{
		{[]resilientmcp.Option{resilientmcp.ToolOptionsFor("refund")}, `resilientmcp: ToolOptionsFor("refund"): the server has no such tool`},
		{[]resilientmcp.Option{resilientmcp.Reconnect(nil)}, "resilientmcp: Reconnect(nil)"},
		{[]resilientmcp.Option{resilientmcp.SafeToRetry(nil)}, "resilientmcp: SafeToRetry(nil)"},
		{[]resilientmcp.Option{resilientmcp.ServerLogLevel("verbose")}, `resilientmcp: ServerLogLevel("verbose"): not an MCP logging level`},
		{[]resilientmcp.Option{nil}, "resilientmcp: nil option"},
		{[]resilientmcp.Option{resilientmcp.ToolOptions(resilient.Timeout(0))}, "resilientmcp: charge: tools: charge: middleware: Timeout(0s): must be positive (Forever for none)"},
	}
	for _, tt := range tests {
		f := newFixture(t)
		s, err := f.connect(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		_, err = resilientmcp.Tools(context.Background(), s, tt.opts...)
		if err == nil || err.Error() != tt.want {
			t.Errorf("got %v, want %q", err, tt.want)
		}
		_ = s.Close()
	}
	if _, err := resilientmcp.Tools(context.Background(), nil); err == nil {
		t.Error("Tools(nil session): no error")
	}
}

// A server whose pages never end must not keep Tools listing forever, nor
// list a tool twice.
func TestToolsStopsEndlessPages(t *testing.T) {
	tests := []struct {
		name string
		page func(cursor string) *mcp.ListToolsResult // nil: the server's own page
		want string
	}{
		{"first page again", func(cursor string) *mcp.ListToolsResult {
			return nil
		}, `resilientmcp: listing tools: the server listed "charge" twice`},
		{"same cursor", func(cursor string) *mcp.ListToolsResult {
			if cursor == "" {
				return nil
			}
			return &mcp.ListToolsResult{Tools: []*mcp.Tool{}, NextCursor: "again"}
		}, `resilientmcp: listing tools: the server repeated the cursor "again"`},
		{"new cursors forever", func(cursor string) *mcp.ListToolsResult {
			if cursor == "" {
				return nil
			}
			return &mcp.ListToolsResult{Tools: []*mcp.Tool{}, NextCursor: cursor + "."}
		}, "resilientmcp: listing tools: more than 1000 pages"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
				return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
					p, ok := req.GetParams().(*mcp.ListToolsParams)
					if !ok {
						return next(ctx, method, req)
					}
					if page := tt.page(p.Cursor); page != nil {
						return page, nil
					}
					p.Cursor = ""
					res, err := next(ctx, method, req)
					if r, ok := res.(*mcp.ListToolsResult); ok && r != nil {
						r.NextCursor = "again"
					}
					return res, err
				}
			})
			s, err := f.connect(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			_, err = resilientmcp.Tools(context.Background(), s)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
}
