package resilientmcp

import (
	"context"
	"errors"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// conn is the session that the tools of one [Tools] call share, and its
// replacement when it is lost. It is safe for concurrent use.
type conn struct {
	connect  func(context.Context) (*mcp.ClientSession, error) // nil: a lost session stays lost
	logLevel string                                            // asked of every session; "" for none
	report   *reporter
	dial     chan struct{} // a one-slot semaphore: one reconnection at a time
	tasks    sync.WaitGroup

	mu      sync.Mutex
	current *mcp.ClientSession
	lost    bool // current is gone
	closed  bool
}

// session returns the live session, replacing a lost one first. Nothing
// has been sent when it fails, so its error says the session was lost and
// could not be replaced (or the caller gave up, or the tools are closed).
func (c *conn) session(ctx context.Context, tool string, safe bool) (*mcp.ClientSession, error) {
	if s, err := c.live(); s != nil || err != nil {
		return s, err
	}
	if c.connect == nil {
		return nil, errNoReconnect
	}
	select {
	case c.dial <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-c.dial }()
	if s, err := c.live(); s != nil || err != nil {
		return s, err // another call reconnected while this one waited
	}
	s, err := c.connect(ctx)
	switch {
	case err == nil && s == nil:
		err = errors.New("resilientmcp: Reconnect's function returned no session")
	case err != nil && ctx.Err() != nil:
		return nil, ctx.Err()
	}
	if err != nil {
		c.report.reconnectFailed(ctx, err)
		return nil, &SessionLostError{Tool: tool, Safe: safe, Err: err}
	}
	if !c.adopt(ctx, s) {
		_ = s.Close() // the tools were closed while it connected
		return nil, ErrClosed
	}
	c.report.reconnected(ctx)
	return s, nil
}

// live returns the current session if it is live, an error if the tools
// are closed, and neither if the session must be replaced.
func (c *conn) live() (*mcp.ClientSession, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.closed:
		return nil, ErrClosed
	case c.lost:
		return nil, nil
	}
	return c.current, nil
}

// adopt makes s the current session, unless the tools are closed: it asks
// for the server's logs on sessions that set the level once (older
// protocols), and watches for the session's end, so that a session that
// died between calls is replaced before anything is sent on it.
//
// Goroutines start under c.mu while the tools are open, and close sets
// closed under c.mu before it waits for them: none starts after the wait.
func (c *conn) adopt(ctx context.Context, s *mcp.ClientSession) bool {
	if err := askForLogs(ctx, s, c.logLevel); err != nil {
		c.report.logLevelRefused(ctx, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return false
	}
	c.current, c.lost = s, false
	c.tasks.Go(func() {
		err := s.Wait()
		c.drop(context.Background(), s, err)
	})
	return true
}

// drop marks s lost if it is still the current session, and closes it:
// closing a dead session reaps its process and ends its goroutines. Once
// the tools are closed, close has closed the current session and every
// other was closed when it was dropped.
func (c *conn) drop(ctx context.Context, s *mcp.ClientSession, cause error) {
	c.mu.Lock()
	if c.closed || s != c.current || c.lost {
		c.mu.Unlock()
		return
	}
	c.lost = true
	// Close waits for the calls in flight on s; a call that just saw the
	// session fail must not wait for the others.
	c.tasks.Go(func() { _ = s.Close() })
	c.mu.Unlock()
	c.report.sessionLost(ctx, cause)
}

// close closes the current session and waits for the sessions being
// closed; calls fail with ErrClosed from then on. The error of a session
// already lost is not returned: it says how the session died, which was
// reported then.
func (c *conn) close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	s, lost := c.current, c.lost
	c.mu.Unlock()
	err := s.Close()
	c.tasks.Wait()
	if lost {
		return nil
	}
	return err
}

// perRequestMeta reports whether s speaks a protocol (2026-07-28 or later)
// whose requests carry the client's settings, the log level among them, in
// their _meta, instead of setting them once per session.
func perRequestMeta(s *mcp.ClientSession) bool {
	r := s.InitializeResult()
	return r != nil && r.ProtocolVersion >= "2026-07-28"
}

var errNoReconnect = errors.New("resilientmcp: the session to the MCP server was lost, and no Reconnect function was given")
