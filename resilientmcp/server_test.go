//lint:file-ignore SA1019 the test server sends logs the way servers of every protocol still do: MCP logging is deprecated as of 2026-07-28, not gone.

package resilientmcp_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/resilientgo/resilient/resilientmcp"
)

// The test server: a small shop whose tools cover every outcome. Its
// journal is a file, so that what a tool did survives the server process
// (the subprocess tests kill it and start another), and each line is also
// written to stderr, where a test waits for it.
//
//	lookup  read-only: "9999" is an error result, "slow" waits for its
//	        context, "progress" reports progress and logs, "hang-once"
//	        hangs the first time it is called, anything else answers
//	charge  destructive: journals the charge, executes each idempotency
//	        key once, and hangs the first time with order "hang-once"
//	media   answers an image, audio, a resource and a resource link
//	total   answers structured content and no text
//	void    answers an error result without content
//	legacy  declares a draft-04 input schema, and answers
//	reject  answers a JSON-RPC "invalid params" error
//	crash   answers a JSON-RPC "internal error"
const (
	envJournal = "RESILIENTMCP_TEST_JOURNAL" // set: the test binary is the stdio server
)

type lookupIn struct {
	ID string `json:"id" jsonschema:"the order id, 4 digits"`
}

type chargeIn struct {
	Order  string `json:"order"`
	Amount int    `json:"amount"`
}

// journal is the server's memory, shared by its processes through a file.
// Each line is also given to signal: a lineWaiter in process, stderr in a
// server process (its parent waits for the lines there).
type journal struct {
	path   string
	signal func(line string)
	mu     sync.Mutex // within one process; processes take turns (one live server at a time)
}

func (j *journal) add(line string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	f, err := os.OpenFile(j.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	fmt.Fprintln(f, line)
	if j.signal != nil {
		j.signal(line)
	}
}

func (j *journal) lines() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	b, err := os.ReadFile(j.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		panic(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func (j *journal) has(line string) bool { return slices.Contains(j.lines(), line) }

// count returns how many lines start with prefix.
func (j *journal) count(prefix string) int {
	n := 0
	for _, l := range j.lines() {
		if strings.HasPrefix(l, prefix) {
			n++
		}
	}
	return n
}

// once reports whether marker is new, and journals it.
func (j *journal) once(marker string) bool {
	if j.has(marker) {
		return false
	}
	j.add(marker)
	return true
}

func newShop(j *journal) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "shop", Version: "1"}, &mcp.ServerOptions{PageSize: 2})
	yes := true
	mcp.AddTool(s, &mcp.Tool{Name: "lookup", Description: "Looks up an order.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, req *mcp.CallToolRequest, in lookupIn) (*mcp.CallToolResult, any, error) {
			j.add("lookup " + in.ID)
			switch in.ID {
			case "9999":
				return nil, nil, errors.New("no order 9999; order ids have 4 digits, see the confirmation email")
			case "slow":
				<-ctx.Done()
				j.add("lookup canceled: " + context.Cause(ctx).Error())
				return nil, nil, ctx.Err()
			case "hang-once":
				if j.once("hung lookup") {
					<-ctx.Done()
					return nil, nil, ctx.Err()
				}
			case "progress":
				token := req.Params.GetProgressToken()
				for i := 1.0; i <= 2; i++ {
					_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token,
						Progress: i, Total: 2, Message: "searching, token=sk-live-51HxQfLd2eZvKYlo"})
				}
				_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "warning", Logger: "db", Data: "replica lagging"})
				_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "debug", Logger: "db", Data: "query plan"})
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "order " + in.ID + ": shipped Tuesday"}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "charge", Description: "Charges an order.",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: &yes}},
		func(ctx context.Context, req *mcp.CallToolRequest, in chargeIn) (*mcp.CallToolResult, any, error) {
			key, _ := req.Params.Meta[resilientmcp.MetaIdempotencyKey].(string)
			done := fmt.Sprintf("charged %d to %s", in.Amount, in.Order)
			if key != "" && j.has("charge key="+key) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: done}}}, nil, nil
			}
			j.add("charge key=" + key)
			if in.Order == "hang-once" && j.once("hung charge") {
				<-ctx.Done()
				return nil, nil, ctx.Err()
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: done}}}, nil, nil
		})
	s.AddTool(&mcp.Tool{Name: "media", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			size := int64(2048)
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.TextContent{Text: "the label:"},
				&mcp.ImageContent{MIMEType: "image/png", Data: make([]byte, 1536)},
				&mcp.AudioContent{MIMEType: "audio/wav", Data: make([]byte, 3<<20)},
				&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///label.pdf", MIMEType: "application/pdf", Blob: make([]byte, 100)}},
				&mcp.ResourceLink{URI: "https://shop.example/label/4471", Name: "label", Size: &size},
			}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "total", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{}, StructuredContent: map[string]any{"total": 42, "currency": "EUR"}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "void", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{}, IsError: true}, nil
		})
	// A schema of a draft the client cannot validate: the server's problem.
	s.AddTool(&mcp.Tool{Name: "legacy", InputSchema: map[string]any{"$schema": "http://json-schema.org/draft-04/schema#",
		"type": "object", "required": []any{"x"}}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "legacy ok"}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "reject", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "amount must be positive"}
		})
	s.AddTool(&mcp.Tool{Name: "crash", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "database unavailable"}
		})
	return s
}

// serveStdio runs the shop on stdin and stdout: the test binary re-executed
// with envJournal set is the server process of the subprocess tests.
func serveStdio(path string) {
	j := &journal{path: path, signal: func(line string) { fmt.Fprintln(os.Stderr, line) }}
	_ = newShop(j).Run(context.Background(), &mcp.StdioTransport{})
}

// lineWaiter lets a test wait for a journal line: in process as the
// journal's signal, and as the io.Writer of a server process's stderr.
type lineWaiter struct {
	mu      sync.Mutex
	partial string
	seen    map[string]bool
	waits   map[string]chan struct{}
}

func newLineWaiter() *lineWaiter {
	return &lineWaiter{seen: make(map[string]bool), waits: make(map[string]chan struct{})}
}

func (w *lineWaiter) Write(p []byte) (int, error) {
	lines := strings.Split(w.take(string(p)), "\n")
	for _, l := range lines[:len(lines)-1] {
		w.line(l)
	}
	return len(p), nil
}

// take appends p to the partial line and returns the text to split, whose
// last element is the new partial line.
func (w *lineWaiter) take(p string) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	text := w.partial + p
	w.partial = text[strings.LastIndexByte(text, '\n')+1:]
	return text
}

func (w *lineWaiter) line(l string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seen[l] = true
	if ch, ok := w.waits[l]; ok {
		close(ch)
		delete(w.waits, l)
	}
}

// wait returns a channel closed when line has been written.
func (w *lineWaiter) wait(line string) <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	ch := make(chan struct{})
	if w.seen[line] {
		close(ch)
		return ch
	}
	w.waits[line] = ch
	return ch
}
