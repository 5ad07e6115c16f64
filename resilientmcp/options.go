package resilientmcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/resilientgo/resilient"
)

// An Option configures [Tools]. Options are applied in order: a later
// option replaces what an earlier one set, except [ToolOptions] and
// [ToolOptionsFor], which add up.
type Option func(*config)

type config struct {
	connect  func(context.Context) (*mcp.ClientSession, error) // Default: nil, a lost session ends the run
	all      []resilient.ToolOption                            // Default: none
	per      map[string][]resilient.ToolOption                 // Default: none
	safe     func(*mcp.Tool) bool                              // Default: ReadOnlyOrIdempotent
	logger   *slog.Logger                                      // Default: discard
	logLevel string                                            // Default: "warning" (DefaultServerLogLevel)
	errs     []error
}

func build(opts []Option) (config, error) {
	c := config{safe: ReadOnlyOrIdempotent, logLevel: DefaultServerLogLevel}
	for _, o := range opts {
		if o == nil {
			c.errorf("nil option")
			continue
		}
		o(&c)
	}
	if c.logger == nil {
		c.logger = slog.New(slog.DiscardHandler)
	}
	return c, errors.Join(c.errs...)
}

func (c *config) errorf(format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf("resilientmcp: "+format, args...))
}

// Reconnect sets how a lost session is replaced: connect opens a new,
// initialized session to the same server, typically by calling
// mcp.Client.Connect with a fresh transport (a CommandTransport starts the
// server again). It is called with the context of the tool call that needs
// the session, so the session must not depend on that context: start a
// subprocess with exec.Command, not exec.CommandContext. Calls wait for one
// reconnection at a time. Default: none, and a lost session ends the run
// with a taxonomy.FatalToolError.
func Reconnect(connect func(ctx context.Context) (*mcp.ClientSession, error)) Option {
	return func(c *config) {
		if connect == nil {
			c.errorf("Reconnect(nil)")
			return
		}
		c.connect = connect
	}
}

// ToolOptions passes options to resilient.Tool for every tool, after the
// logger of [Logger] and before those of [ToolOptionsFor]. Default: none
// (resilient.Tool's defaults: a 30 s timeout per call
// ([tools.DefaultTimeout]), a circuit breaker per tool).
func ToolOptions(opts ...resilient.ToolOption) Option {
	return func(c *config) { c.all = append(c.all, opts...) }
}

// ToolOptionsFor passes options to resilient.Tool for the tool called name
// only, after those of [ToolOptions]: resilient.Idempotent for a tool with
// side effects, say. [Tools] fails when the server has no such tool.
// Default: none.
func ToolOptionsFor(name string, opts ...resilient.ToolOption) Option {
	return func(c *config) {
		if c.per == nil {
			c.per = make(map[string][]resilient.ToolOption)
		}
		c.per[name] = append(c.per[name], opts...)
	}
}

// SafeToRetry sets which tools may be called again when a call's outcome is
// unknown: the session was lost after the request was sent, the call timed
// out, the server failed. Such tools are wrapped with resilient.SafeToRetry,
// so those failures are retried as the wrapper retries any transient
// failure (on a new session when the old one was lost). Tools made
// resilient.Idempotent with [ToolOptionsFor] are retried too: each attempt
// carries the same idempotency key (see [MetaIdempotencyKey]). The MCP
// specification calls annotations hints that a client should not trust
// from an untrusted server: for such a server, pass a function that
// decides by name. Default: [ReadOnlyOrIdempotent].
func SafeToRetry(safe func(t *mcp.Tool) bool) Option {
	return func(c *config) {
		if safe == nil {
			c.errorf("SafeToRetry(nil)")
			return
		}
		c.safe = safe
	}
}

// ReadOnlyOrIdempotent is the default of [SafeToRetry]: it reports whether
// the server annotated t with readOnlyHint or idempotentHint. A tool without
// annotations may have side effects (the specification's defaults say it
// may be destructive), so it is not retried.
func ReadOnlyOrIdempotent(t *mcp.Tool) bool {
	a := t.Annotations
	return a != nil && (a.ReadOnlyHint || a.IdempotentHint)
}

// Logger sets the logger for what happens to the sessions (lost, replaced,
// a reconnection that failed) and is given to every tool's wrapper
// (resilient.Logger) before the options of [ToolOptions]. Progress and
// server logs go to the observers of [Notifications]. A nil logger
// discards. Default: discard.
func Logger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }
