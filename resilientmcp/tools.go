package resilientmcp

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/tools"
)

// maxPages bounds the pages of one tools/list: a server whose cursors never
// end would otherwise keep Tools listing forever.
const maxPages = 1000

// Tools lists every tool of the server behind session, following every
// page, and returns them as langchaingo tools wrapped by resilient.Tool,
// in the server's order, named as the server names them and described by
// the server's description followed by the tool's input schema (a
// text-based agent has no other way to learn the arguments).
//
// From then on the tools own session: a lost session is closed and
// replaced through [Reconnect]'s function, and [Close] closes the current
// one. Each call validates its input before anything is sent, runs under
// the wrapper's timeout (the SDK cancels the request on the server with
// notifications/cancelled when the time runs out), and maps the outcome as
// the package documentation describes.
//
// Tools fails when the session is nil, an option is invalid, listing fails,
// the server lists a tool twice or more than 1000 pages, or
// [ToolOptionsFor] names a tool the server does not have. The tools are
// safe for concurrent use.
func Tools(ctx context.Context, session *mcp.ClientSession, opts ...Option) ([]lctools.Tool, error) {
	if session == nil {
		return nil, errors.New("resilientmcp: Tools(nil session)")
	}
	cfg, err := build(opts)
	if err != nil {
		return nil, err
	}
	defs, err := listTools(ctx, session)
	if err != nil {
		return nil, err
	}
	for name := range cfg.per {
		if !listed(defs, name) {
			return nil, fmt.Errorf("resilientmcp: ToolOptionsFor(%q): the server has no such tool", name)
		}
	}
	r := &reporter{logger: cfg.logger, server: nameOf(session)}
	c := &conn{connect: cfg.connect, logLevel: cfg.logLevel, report: r, dial: make(chan struct{}, 1)}
	calls := new(atomic.Uint64)
	out := make([]lctools.Tool, 0, len(defs))
	for _, d := range defs {
		w, err := wrap(ctx, d, c, calls, &cfg, r)
		if err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	c.adopt(ctx, session) // the tools are not closed: nobody has them yet
	return out, nil
}

// wrap wraps one tool. A tool is wrapped as safe to retry when SafeToRetry
// says so or when the user made it idempotent: its calls then carry their
// key to the server (see MetaIdempotencyKey).
func wrap(ctx context.Context, d *mcp.Tool, c *conn, calls *atomic.Uint64, cfg *config, r *reporter) (*tools.Tool, error) {
	schema, err := newInputSchema(d.InputSchema)
	if err != nil {
		r.schemaUnusable(ctx, d.Name, err)
	}
	inner := &mcpTool{def: d, description: description(d, schema), schema: schema, safe: cfg.safe(d), conn: c, calls: calls}
	opts := append([]resilient.ToolOption{resilient.Logger(cfg.logger)}, cfg.all...)
	opts = append(opts, cfg.per[d.Name]...)
	if !inner.safe {
		// Only the wrapper knows whether the options made it idempotent.
		w := resilient.Tool(inner, opts...)
		if err := w.Err(); err != nil {
			return nil, fmt.Errorf("resilientmcp: %s: %w", d.Name, err)
		}
		if inner.safe = w.Idempotent(); !inner.safe {
			return w, nil
		}
	}
	w := resilient.Tool(inner, append(opts, resilient.SafeToRetry())...)
	if err := w.Err(); err != nil {
		return nil, fmt.Errorf("resilientmcp: %s: %w", d.Name, err)
	}
	return w, nil
}

// description returns what the model reads about a tool: the server's
// description (or title) and the input schema, if the server gave one.
func description(d *mcp.Tool, schema inputSchema) string {
	text := d.Description
	if text == "" {
		text = d.Title
	}
	if schema.compact == "" || schema.compact == "null" {
		return text
	}
	if text != "" {
		text += "\n"
	}
	return text + "Input: a JSON object matching this JSON schema: " + schema.compact
}

// listTools lists every page of the server's tools. It follows the cursors
// itself, rather than with ClientSession.Tools, to stop a server that
// repeats a cursor or never stops paging.
func listTools(ctx context.Context, s *mcp.ClientSession) ([]*mcp.Tool, error) {
	var defs []*mcp.Tool
	names, cursors := make(map[string]bool), make(map[string]bool)
	params := &mcp.ListToolsParams{}
	for range maxPages {
		res, err := s.ListTools(ctx, params)
		if err != nil {
			return nil, fmt.Errorf("resilientmcp: listing tools: %w", err)
		}
		for _, t := range res.Tools {
			if names[t.Name] {
				return nil, fmt.Errorf("resilientmcp: listing tools: the server listed %q twice", t.Name)
			}
			names[t.Name] = true
			defs = append(defs, t)
		}
		if res.NextCursor == "" {
			return defs, nil
		}
		if cursors[res.NextCursor] {
			return nil, fmt.Errorf("resilientmcp: listing tools: the server repeated the cursor %q", res.NextCursor)
		}
		cursors[res.NextCursor] = true
		params = &mcp.ListToolsParams{Cursor: res.NextCursor}
	}
	return nil, fmt.Errorf("resilientmcp: listing tools: more than %d pages", maxPages)
}

func listed(defs []*mcp.Tool, name string) bool {
	for _, d := range defs {
		if d.Name == name {
			return true
		}
	}
	return false
}

// Close closes the session of the tools made by [Tools] (whichever session
// is current after reconnections) and waits for the sessions being closed.
// Calls of the tools fail from then on with a taxonomy.FatalToolError whose
// cause is [ErrClosed]. Tools that are not from this package are ignored;
// closing twice does nothing.
func Close(ts []lctools.Tool) error {
	var errs []error
	closed := make(map[*conn]bool)
	for _, t := range ts {
		c := connOf(t)
		if c == nil || closed[c] {
			continue
		}
		closed[c] = true
		errs = append(errs, c.close())
	}
	return errors.Join(errs...)
}

// connOf finds the conn of a tool made by Tools, through its wrappers:
// tools.Tool's Unwrap and any wrapper's that returns a langchaingo tool.
func connOf(t lctools.Tool) *conn {
	for t != nil {
		switch u := t.(type) {
		case *mcpTool:
			return u.conn
		case interface{ Unwrap() tools.Callable }:
			t = u.Unwrap()
		case interface{ Unwrap() lctools.Tool }:
			t = u.Unwrap()
		default:
			return nil
		}
	}
	return nil
}
