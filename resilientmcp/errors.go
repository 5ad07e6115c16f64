package resilientmcp

import (
	"errors"
	"io"
	"net"
	"os"
	"regexp"
	"strconv"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/resilientgo/resilient/taxonomy"
)

// ErrClosed is the cause of the taxonomy.FatalToolError that a tool returns
// after [Close].
var ErrClosed = errors.New("resilientmcp: tools closed")

// SessionLostError is the failure of a call whose session to the MCP server
// was lost: the server process exited, the connection closed, the stream
// ended. It is transient: a tool that is safe to retry (see [SafeToRetry])
// is retried on a new session; any other tool fails internally, and the
// model reads "Error: <tool> failed internally
// (*resilientmcp.SessionLostError)".
type SessionLostError struct {
	// Tool is the tool called.
	Tool string
	// Sent is true when the request had been sent: the tool may have run.
	Sent bool
	// Safe is true when the tool is safe to call again (see [SafeToRetry]).
	Safe bool
	// Err is what the SDK or the Reconnect function returned.
	Err error
}

// Error says what was lost, when, and what it means for the tool.
func (e *SessionLostError) Error() string {
	msg := "resilientmcp: " + e.Tool + ": the session to the MCP server was lost"
	switch {
	case !e.Sent:
		msg += " and reconnecting failed"
	case e.Safe:
		msg += " during the call"
	default:
		msg += " during the call; the tool is neither read-only nor idempotent, so it may have run"
	}
	return msg + ": " + e.Err.Error()
}

// Unwrap returns the SDK's or the Reconnect function's error.
func (e *SessionLostError) Unwrap() error { return e.Err }

// Class reports a transient failure, like any dropped connection.
func (e *SessionLostError) Class() taxonomy.Class {
	return taxonomy.Class{Kind: taxonomy.Transient, Rule: "mcp session lost"}
}

// ServerError is a JSON-RPC error the server answered a tools/call with,
// other than those that become a ToolError (invalid params) or end the run
// (method not found, unknown tool). The model reads "Error: <tool> failed
// internally (*resilientmcp.ServerError)".
type ServerError struct {
	Tool    string
	Code    int64
	Message string
}

// Error names the tool, the code and the server's message.
func (e *ServerError) Error() string {
	return "resilientmcp: " + e.Tool + ": server error " + strconv.FormatInt(e.Code, 10) + ": " + e.Message
}

// Class reports what the code says: a request the server could not parse
// or found invalid fails the same way again (permanent); any other error,
// "internal error" included, is not understood (unknown: retried less).
func (e *ServerError) Class() taxonomy.Class {
	rule := "mcp error " + strconv.FormatInt(e.Code, 10)
	switch e.Code {
	case jsonrpc.CodeParseError, jsonrpc.CodeInvalidRequest:
		return taxonomy.Class{Kind: taxonomy.Permanent, Rule: rule}
	}
	return taxonomy.Class{Kind: taxonomy.Unknown, Rule: rule}
}

// unknownTool matches the message of an invalid-params error that says the
// tool does not exist. The specification gives no code of its own for an
// unknown tool, only -32602 "invalid params" with a message, so the text is
// the only evidence: the Go SDK writes `unknown tool "name"`, the
// specification's example "Unknown tool: name", and the TypeScript SDK
// "MCP error -32602: Tool name not found".
var unknownTool = regexp.MustCompile(`(?i)^(?:mcp error -32602: )?(?:unknown tool\b|tool \S+ not found$)`)

// callError maps the error of a tools/call (not the caller's context) for
// the tool wrapper. lost reports whether the session is gone.
func callError(tool string, safe bool, err error) (mapped error, lost bool) {
	if sessionLost(err) {
		return &SessionLostError{Tool: tool, Sent: true, Safe: safe, Err: err}, true
	}
	var wire *jsonrpc.Error
	if !errors.As(err, &wire) {
		// The request went out but no usable answer came back (a result
		// that does not decode, say): an internal failure.
		return err, false
	}
	serverErr := &ServerError{Tool: tool, Code: wire.Code, Message: wire.Message}
	switch {
	case wire.Code == jsonrpc.CodeMethodNotFound:
		return &taxonomy.FatalToolError{Tool: tool, Cause: serverErr}, false
	case wire.Code == jsonrpc.CodeInvalidParams && unknownTool.MatchString(wire.Message):
		return &taxonomy.FatalToolError{Tool: tool, Cause: serverErr}, false
	case wire.Code == jsonrpc.CodeInvalidParams:
		return taxonomy.ToolErrorf("%s: invalid arguments: %s", tool, wire.Message), false
	}
	return serverErr, false
}

// sessionLost reports whether err says the session's connection is gone:
// the SDK reports a connection that is closed or closing as
// mcp.ErrConnectionClosed, a streamable HTTP session the server forgot as
// mcp.ErrSessionMissing, and a call in flight when the peer went away with
// the reader's error (io.EOF from a stdio pipe or an in-memory pipe).
func sessionLost(err error) bool {
	for _, target := range []error{mcp.ErrConnectionClosed, mcp.ErrSessionMissing, io.EOF, io.ErrUnexpectedEOF,
		io.ErrClosedPipe, net.ErrClosed, os.ErrClosed, syscall.EPIPE, syscall.ECONNRESET} {
		if errors.Is(err, target) {
			return true
		}
	}
	return false
}
