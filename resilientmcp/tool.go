package resilientmcp

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

// MetaIdempotencyKey is the _meta key under which a call of a tool made
// resilient.Idempotent carries its idempotency key (tools.KeyFrom): the
// same key on every attempt and every repeat of the same input. A server
// that executes each key once makes such a tool safe to retry after a lost
// session, which is why those tools are retried (see [SafeToRetry]).
const MetaIdempotencyKey = "com.github.resilientgo/idempotency-key"

// mcpTool is one tool of an MCP server as a langchaingo tool: Call turns the
// model's input into a tools/call and its outcome into what the wrapper
// (resilient.Tool) maps at the boundary. It is safe for concurrent use.
type mcpTool struct {
	def         *mcp.Tool
	description string
	schema      inputSchema
	safe        bool // safe to call again when a call's outcome is unknown
	conn        *conn
	calls       *atomic.Uint64 // numbers the calls of the conn, for progress tokens
}

func (t *mcpTool) Name() string        { return t.def.Name }
func (t *mcpTool) Description() string { return t.description }

// Call validates input and calls the tool on the server. It returns:
//
//   - the rendered content of a result (see render);
//   - a taxonomy.ToolError with the rendered content of a result marked
//     isError, for an input that is not a JSON object satisfying the
//     tool's input schema (nothing is sent), and for a JSON-RPC "invalid
//     params" error: the model can correct its call;
//   - a taxonomy.FatalToolError for "method not found", an unknown tool, a
//     lost session with no Reconnect function and closed tools: the run
//     ends;
//   - the context's error when the call's time ran out or its caller gave
//     up: the SDK has sent notifications/cancelled to the server;
//   - a *SessionLostError or *ServerError otherwise: an internal failure,
//     retried when the tool is safe to retry.
func (t *mcpTool) Call(ctx context.Context, input string) (string, error) {
	args, err := t.schema.arguments(t.def.Name, input)
	if err != nil {
		return "", err
	}
	s, err := t.conn.session(ctx, t.def.Name, t.safe)
	if err != nil {
		return "", t.sessionError(err)
	}
	res, err := s.CallTool(ctx, t.params(ctx, s, args))
	switch {
	case err != nil && ctx.Err() != nil:
		return "", ctx.Err()
	case err != nil:
		mapped, lost := callError(t.def.Name, t.safe, err)
		if !lost {
			return "", mapped
		}
		t.conn.drop(ctx, s, err)
		if t.conn.connect == nil {
			return "", &taxonomy.FatalToolError{Tool: t.def.Name, Cause: mapped}
		}
		return "", mapped
	case res.IsError:
		msg := render(res)
		if msg == "" {
			msg = t.def.Name + " failed and said nothing more"
		}
		return "", taxonomy.NewToolError(msg)
	}
	return render(res), nil
}

// params builds the request: the arguments; a progress token naming the
// tool; the idempotency key of a call made idempotent by the wrapper; and,
// on sessions whose requests carry the client's settings, the log level
// asked for.
func (t *mcpTool) params(ctx context.Context, s *mcp.ClientSession, args json.RawMessage) *mcp.CallToolParams {
	p := &mcp.CallToolParams{Name: t.def.Name, Arguments: args, Meta: mcp.Meta{}}
	p.SetProgressToken(progressToken(t.def.Name, t.calls.Add(1)))
	if key, ok := tools.KeyFrom(ctx); ok {
		p.Meta[MetaIdempotencyKey] = key
	}
	logLevelMeta(p, s, t.conn.logLevel)
	return p
}

// sessionError maps a failure to get a session, before anything was sent.
func (t *mcpTool) sessionError(err error) error {
	if errors.Is(err, ErrClosed) || errors.Is(err, errNoReconnect) {
		return &taxonomy.FatalToolError{Tool: t.def.Name, Cause: err}
	}
	return err
}
