package resilient_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/resilientmcp"
	rtools "github.com/resilientgo/resilient/tools"
)

// shopEnv, set to a directory, makes the test binary the README's
// "shop-server": an MCP server on stdin and stdout with a charge tool that
// dies after its first charge, before it answers (see TestMain).
const shopEnv = "RESILIENT_README_SHOP"

// The README's MCP example, with this test binary as "shop-server" (found
// in PATH): the server dies in the middle of a charge, the session is
// replaced, and the idempotent charge is retried with the same key, which
// the server charges once.
func TestREADMEMCP(t *testing.T) {
	dir := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(self, filepath.Join(dir, "shop-server")); err != nil {
		t.Skip("no symlink to the test binary:", err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv(shopEnv, dir)
	ctx := t.Context()
	var lines observetest.LogBuffer
	logger := lines.Logger()
	store := rtools.NewMemoryStore()
	defer store.Close()

	// readme:begin mcp
	client := mcp.NewClient(&mcp.Implementation{Name: "agent"}, nil)
	client.AddReceivingMiddleware(resilientmcp.Notifications(observe.Log(logger))) // progress and server logs to slog
	connect := func(ctx context.Context) (*mcp.ClientSession, error) {
		return client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command("shop-server")}, nil)
	}
	session, _ := connect(ctx)
	tools, _ := resilientmcp.Tools(ctx, session, resilientmcp.Reconnect(connect), resilientmcp.Logger(logger),
		resilientmcp.ToolOptionsFor("charge", resilient.Idempotent(store)))
	defer resilientmcp.Close(tools)
	// readme:end

	if len(tools) != 1 || tools[0].Name() != "charge" {
		t.Fatalf("got tools %v, want the charge", tools)
	}
	out, err := tools[0].Call(ctx, `{"order": "4471", "cents": 2499}`)
	if err != nil || out != "charged 24.99 EUR for order 4471" {
		t.Fatalf("got %q, %v; want the charge", out, err)
	}
	if got := shopFile(dir, "started"); len(got) != 2 {
		t.Errorf("%d server processes started, want 2 (the first died)", len(got))
	}
	if got := shopFile(dir, "ledger"); len(got) != 1 {
		t.Errorf("got charges %q, want one", got)
	}
	if !strings.Contains(lines.String(), "mcp session lost") || !strings.Contains(lines.String(), "mcp session replaced") {
		t.Errorf("the logger given with resilientmcp.Logger wrote %q, want the session lost and replaced", lines.String())
	}
}

// serveShop serves the shop's MCP server on stdin and stdout, keeping its
// state in dir: a line in "started" per process, a line in "ledger" per
// charge made, and a charge not yet answered dies once.
func serveShop(dir string) error {
	appendLine(dir, "started", strconv.Itoa(os.Getpid()))
	type chargeIn struct {
		Order string `json:"order"`
		Cents int    `json:"cents"`
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "shop", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "charge", Description: "Charges the customer of an order."},
		func(_ context.Context, req *mcp.CallToolRequest, in chargeIn) (*mcp.CallToolResult, any, error) {
			key, _ := req.Params.Meta[resilientmcp.MetaIdempotencyKey].(string)
			if !slices.Contains(shopFile(dir, "ledger"), key) {
				appendLine(dir, "ledger", key)
			}
			if len(shopFile(dir, "started")) == 1 {
				os.Exit(3) // charged, but the answer is lost
			}
			done := fmt.Sprintf("charged %d.%02d EUR for order %s", in.Cents/100, in.Cents%100, in.Order)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: done}}}, nil, nil
		})
	return s.Run(context.Background(), &mcp.StdioTransport{})
}

func appendLine(dir, file, line string) {
	f, err := os.OpenFile(filepath.Join(dir, file), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	fmt.Fprintln(f, line)
}

// shopFile returns the lines of one of the shop's files.
func shopFile(dir, file string) []string {
	b, _ := os.ReadFile(filepath.Join(dir, file))
	return strings.Fields(string(b))
}
