package resilientmcp

import (
	"context"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/resilientgo/resilient/internal/redact"
	"github.com/resilientgo/resilient/observe"
)

// notifier reports what servers send besides results to observers, one
// method per report, and never to the model: the observers see the
// server, the tool and the numbers, and the log observer (observe.Log)
// alone sees the server's text, redacted first.
type notifier struct{ obs observe.Observers }

func (n notifier) progress(ctx context.Context, server, tool string, p *mcp.ProgressNotificationParams) {
	n.obs.Report(ctx, observe.ToolProgress{Server: server, Tool: tool, Progress: p.Progress, Total: p.Total},
		serverText(p.Message))
}

// serverText carries a text the server wrote to the log observer, as the
// error of Observers.Report: the channel for texts, which may hold
// secrets and which other observers never see. An empty text is nil.
func serverText(s string) error {
	if s == "" {
		return nil
	}
	return textError(redact.Keep(s, nil))
}

type textError string

func (e textError) Error() string { return string(e) }

// reporter writes what happens to the sessions of the tools of one Tools
// call to the logger of [Logger], one method per report. Errors are
// redacted and bounded (as the library's logs are) first. The lines, by message:
//
//	"mcp session lost"           WARN  server, err
//	"mcp session replaced"       INFO  server
//	"mcp reconnect failed"       WARN  server, err
//	"server log level refused"   WARN  server, err
//	"input schema not validated" WARN  server, tool, err
type reporter struct {
	logger *slog.Logger
	server string // the server's name
}

func (r *reporter) sessionLost(ctx context.Context, cause error) {
	attrs := []slog.Attr{slog.String(observe.KeyServer, r.server)}
	if cause != nil {
		attrs = append(attrs, errAttr(cause))
	}
	r.logger.LogAttrs(ctx, slog.LevelWarn, "mcp session lost", attrs...)
}

func (r *reporter) reconnected(ctx context.Context) {
	r.logger.LogAttrs(ctx, slog.LevelInfo, "mcp session replaced", slog.String(observe.KeyServer, r.server))
}

func (r *reporter) reconnectFailed(ctx context.Context, err error) {
	r.logger.LogAttrs(ctx, slog.LevelWarn, "mcp reconnect failed", slog.String(observe.KeyServer, r.server), errAttr(err))
}

func (r *reporter) logLevelRefused(ctx context.Context, err error) {
	r.logger.LogAttrs(ctx, slog.LevelWarn, "server log level refused", slog.String(observe.KeyServer, r.server), errAttr(err))
}

func (r *reporter) schemaUnusable(ctx context.Context, tool string, err error) {
	r.logger.LogAttrs(ctx, slog.LevelWarn, "input schema not validated",
		slog.String(observe.KeyServer, r.server), slog.String(observe.KeyTool, tool), errAttr(err))
}

func errAttr(err error) slog.Attr {
	return slog.String(observe.KeyError, redact.Keep(err.Error(), nil))
}
