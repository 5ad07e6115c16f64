//lint:file-ignore SA1019 MCP logging is deprecated as of protocol 2026-07-28 but works for at least a year, and servers of older protocols use it: their logs must reach the log, not the model.

package resilientmcp

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/resilientgo/resilient/observe"
)

// Everything about server logs (notifications/message) is in this file.

// DefaultServerLogLevel is the least severe server log message asked for by
// default: see [ServerLogLevel].
const DefaultServerLogLevel = "warning"

// ServerLogLevel sets the least severe log message the server is asked to
// send (notifications/message): "debug", "info", "notice", "warning",
// "error", "critical", "alert" or "emergency". [Notifications] reports
// them. The level travels with each call on sessions of protocol
// 2026-07-28 and later, and is set once per session (logging/setLevel) on
// older ones that declare the logging capability. An empty level asks for
// nothing. Default: "warning" ([DefaultServerLogLevel]).
func ServerLogLevel(level string) Option {
	return func(c *config) {
		if _, ok := levels[mcp.LoggingLevel(level)]; !ok && level != "" {
			c.errorf("ServerLogLevel(%q): not an MCP logging level", level)
			return
		}
		c.logLevel = level
	}
}

// levels maps the MCP logging levels (RFC 5424's severities) to slog's.
var levels = map[mcp.LoggingLevel]slog.Level{
	"debug":     slog.LevelDebug,
	"info":      slog.LevelInfo,
	"notice":    slog.LevelInfo,
	"warning":   slog.LevelWarn,
	"error":     slog.LevelError,
	"critical":  slog.LevelError,
	"alert":     slog.LevelError,
	"emergency": slog.LevelError,
}

// askForLogs sets the log level of a session of an older protocol whose
// server declared the logging capability; newer sessions carry the level
// in each request (logLevelMeta).
func askForLogs(ctx context.Context, s *mcp.ClientSession, level string) error {
	r := s.InitializeResult()
	if level == "" || perRequestMeta(s) || r == nil || r.Capabilities == nil || r.Capabilities.Logging == nil {
		return nil
	}
	return s.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: mcp.LoggingLevel(level)})
}

// logLevelMeta asks for the server's logs during the call p, on sessions
// whose requests carry the client's settings.
func logLevelMeta(p *mcp.CallToolParams, s *mcp.ClientSession, level string) {
	if level != "" && perRequestMeta(s) {
		p.Meta[mcp.MetaKeyLogLevel] = level
	}
}

// serverLog reports req if it is a server's log message.
func (n notifier) serverLog(ctx context.Context, req mcp.Request) {
	p, ok := req.GetParams().(*mcp.LoggingMessageParams)
	if !ok {
		return
	}
	level, ok := levels[p.Level]
	if !ok {
		level = slog.LevelInfo // a level the specification does not know
	}
	n.obs.Report(ctx, observe.ServerLog{Server: serverName(req.GetSession()), Logger: p.Logger, Level: level},
		serverText(logText(p.Data)))
}

// logText renders a log message's data: a string as it is, anything else
// as JSON.
func logText(data any) string {
	if s, ok := data.(string); ok {
		return s
	}
	b, err := json.Marshal(data)
	if err != nil {
		return fmt.Sprintf("<log data of type %T>", data)
	}
	return string(b)
}
