//lint:file-ignore SA1019 the server sends a log the way servers of every protocol still do: MCP logging is deprecated as of 2026-07-28, not gone.

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/resilientgo/resilient/resilientmcp"
)

// serveEnv, set to a state directory, makes this program the shop's MCP
// server on stdin and stdout: the agent starts it (its own executable) as a
// subprocess, again whenever it dies.
const serveEnv = "RESILIENT_EXAMPLE_MCP_STATE"

// The shop's faults: the first process to answer a lookup of a real order
// dies while answering it, and the first to take a charge dies after
// taking it and before saying so. The state directory outlives the
// processes: a marker file per fault, and the ledger of charges.
type shop struct{ dir string }

type lookupIn struct {
	ID string `json:"id" jsonschema:"the order id: 4 digits"`
}

type chargeIn struct {
	Order string `json:"order" jsonschema:"the order id"`
	Cents int    `json:"cents" jsonschema:"the amount in cents"`
}

func serve(dir string) error {
	s := mcp.NewServer(&mcp.Implementation{Name: "shop", Version: "1"}, nil)
	sh := shop{dir: dir}
	mcp.AddTool(s, &mcp.Tool{Name: "lookup", Description: "Looks up an order by its id.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, sh.lookup)
	mcp.AddTool(s, &mcp.Tool{Name: "charge", Description: "Charges the customer of an order."}, sh.charge)
	return s.Run(context.Background(), &mcp.StdioTransport{})
}

func (sh shop) lookup(ctx context.Context, req *mcp.CallToolRequest, in lookupIn) (*mcp.CallToolResult, any, error) {
	if in.ID != "4471" {
		return nil, nil, fmt.Errorf("no order %s; order ids have 4 digits, see the confirmation email", in.ID)
	}
	_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "warning", Logger: "orders", Data: "replica 2 is lagging"})
	sh.crashOnce("lookup")
	return text("order 4471: 1 kettle, shipped Tuesday"), nil, nil
}

func (sh shop) charge(_ context.Context, req *mcp.CallToolRequest, in chargeIn) (*mcp.CallToolResult, any, error) {
	key, _ := req.Params.Meta[resilientmcp.MetaIdempotencyKey].(string)
	if key == "" {
		return nil, nil, errors.New("charges need an idempotency key")
	}
	done := fmt.Sprintf("charged %d.%02d EUR for order %s", in.Cents/100, in.Cents%100, in.Order)
	if slices.Contains(ledger(sh.dir), key) {
		return text(done), nil, nil // this key was charged already: once is enough
	}
	sh.record("ledger", key)
	sh.crashOnce("charge")
	return text(done), nil, nil
}

// crashOnce kills this server process the first time fault happens.
func (sh shop) crashOnce(fault string) {
	marker := filepath.Join(sh.dir, "crashed-"+fault)
	if _, err := os.Stat(marker); err == nil {
		return
	}
	sh.record("crashed-"+fault, "")
	os.Exit(3)
}

func (sh shop) record(file, line string) {
	f, err := os.OpenFile(filepath.Join(sh.dir, file), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	fmt.Fprintln(f, line)
}

// ledger returns the idempotency key of every charge made.
func ledger(dir string) []string {
	b, err := os.ReadFile(filepath.Join(dir, "ledger"))
	if err != nil {
		return nil
	}
	return strings.Fields(string(b))
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}
