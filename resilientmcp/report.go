package resilientmcp

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/tools"
)

// reporter writes what the servers say and what happens to their sessions
// to the logger of [Logger], one method per report, and never to the model.
// Texts from the server and errors are redacted (tools.Redact) first. The
// lines, by message:
//
//	"tool progress"              INFO  server, tool, progress, total, message
//	"server log"                 (the message's level) server, logger, message
//	"mcp session lost"           WARN  server, err
//	"mcp session replaced"       INFO  server
//	"mcp reconnect failed"       WARN  server, err
//	"server log level refused"   WARN  server, err
//	"input schema not validated" WARN  server, tool, err
type reporter struct {
	logger *slog.Logger
	server string // the server's name, "" in Notifications, which serves every server of a client
}

func (r *reporter) progress(ctx context.Context, server, tool string, p *mcp.ProgressNotificationParams) {
	attrs := []slog.Attr{slog.String(middleware.KeyServer, server), slog.String(middleware.KeyTool, tool),
		slog.Float64(middleware.KeyProgress, p.Progress)}
	if p.Total > 0 {
		attrs = append(attrs, slog.Float64(middleware.KeyTotal, p.Total))
	}
	if p.Message != "" {
		attrs = append(attrs, slog.String(middleware.KeyMessage, tools.Redact(p.Message)))
	}
	r.logger.LogAttrs(ctx, slog.LevelInfo, "tool progress", attrs...)
}

func (r *reporter) serverLog(ctx context.Context, server string, p *mcp.LoggingMessageParams) {
	level, ok := levels[p.Level]
	if !ok {
		level = slog.LevelInfo // a level the specification does not know
	}
	r.logger.LogAttrs(ctx, level, "server log", slog.String(middleware.KeyServer, server),
		slog.String(middleware.KeyLogger, p.Logger), slog.String(middleware.KeyMessage, tools.Redact(logText(p.Data))))
}

// logText renders a log message's data: a string as it is, anything else
// as JSON.
func logText(data any) string {
	if s, ok := data.(string); ok {
		return s
	}
	b, err := json.Marshal(data)
	if err != nil {
		return "<unprintable log data>"
	}
	return string(b)
}

func (r *reporter) sessionLost(ctx context.Context, cause error) {
	attrs := []slog.Attr{slog.String(middleware.KeyServer, r.server)}
	if cause != nil {
		attrs = append(attrs, errAttr(cause))
	}
	r.logger.LogAttrs(ctx, slog.LevelWarn, "mcp session lost", attrs...)
}

func (r *reporter) reconnected(ctx context.Context) {
	r.logger.LogAttrs(ctx, slog.LevelInfo, "mcp session replaced", slog.String(middleware.KeyServer, r.server))
}

func (r *reporter) reconnectFailed(ctx context.Context, err error) {
	r.logger.LogAttrs(ctx, slog.LevelWarn, "mcp reconnect failed", slog.String(middleware.KeyServer, r.server), errAttr(err))
}

func (r *reporter) logLevelRefused(ctx context.Context, err error) {
	r.logger.LogAttrs(ctx, slog.LevelWarn, "server log level refused", slog.String(middleware.KeyServer, r.server), errAttr(err))
}

func (r *reporter) schemaUnusable(ctx context.Context, tool string, err error) {
	r.logger.LogAttrs(ctx, slog.LevelWarn, "input schema not validated",
		slog.String(middleware.KeyServer, r.server), slog.String(middleware.KeyTool, tool), errAttr(err))
}

func errAttr(err error) slog.Attr {
	return slog.String(middleware.KeyError, tools.Redact(err.Error()))
}
