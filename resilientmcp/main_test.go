package resilientmcp_test

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	lctools "github.com/tmc/langchaingo/tools"
	"go.uber.org/goleak"

	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/resilientmcp"
)

func TestMain(m *testing.M) {
	if path := os.Getenv(envJournal); path != "" {
		serveStdio(path) // the test binary as the subprocess server
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

// fixture is a shop with a connect function that opens a new session to it
// and the means to make the latest session's server die in the middle of
// whatever it does. The shop is served in process over the in-memory
// transport (newFixture), or by a server process over stdio
// (newProcessFixture): the test binary itself, re-executed.
type fixture struct {
	t        *testing.T
	journal  *journal
	lines    *lineWaiter
	server   *mcp.Server
	client   *mcp.Client
	log      *recorder
	connects atomic.Int32
	version  string // the protocol version the client asks for; "" for the newest

	mu    sync.Mutex
	conns []mcp.Connection // in process: the server's side of each session
	cmds  []*exec.Cmd      // server processes
	procs bool             // served by server processes
}

func newFixture(t *testing.T) *fixture {
	f := &fixture{t: t, lines: newLineWaiter(), log: newRecorder()}
	f.journal = &journal{path: filepath.Join(t.TempDir(), "journal"), signal: f.lines.line}
	f.server = newShop(f.journal)
	f.client = mcp.NewClient(&mcp.Implementation{Name: "agent"}, nil)
	f.client.AddReceivingMiddleware(resilientmcp.Notifications(observe.Log(slog.New(f.log))))
	return f
}

// newProcessFixture returns a fixture whose sessions each start a server
// process.
func newProcessFixture(t *testing.T) *fixture {
	f := newFixture(t)
	f.procs = true
	f.journal.signal = nil // the server processes write the journal; their stderr signals
	return f
}

// connect opens a session to the shop: the Reconnect function of the tests.
func (f *fixture) connect(ctx context.Context) (*mcp.ClientSession, error) {
	f.connects.Add(1)
	if f.procs {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), envJournal+"="+f.journal.path)
		cmd.Stderr = f.lines
		f.mu.Lock()
		f.cmds = append(f.cmds, cmd)
		f.mu.Unlock()
		return f.client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: f.version})
	}
	st, ct := mcp.NewInMemoryTransports()
	if _, err := f.server.Connect(ctx, &severable{Transport: st, f: f}, nil); err != nil {
		return nil, err
	}
	return f.client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: f.version})
}

// crash ends the latest session's server: it kills the server process, or
// closes the server's side of an in-process session, which the client sees
// the same way: its connection ends.
func (f *fixture) crash() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.procs {
		_ = f.cmds[len(f.cmds)-1].Process.Kill()
		return
	}
	_ = f.conns[len(f.conns)-1].Close()
}

// tools connects and returns the shop's tools, closed when the test ends.
func (f *fixture) tools(opts ...resilientmcp.Option) []lctools.Tool {
	f.t.Helper()
	ctx := context.Background()
	s, err := f.connect(ctx)
	if err != nil {
		f.t.Fatal(err)
	}
	opts = append([]resilientmcp.Option{resilientmcp.Logger(slog.New(f.log))}, opts...)
	ts, err := resilientmcp.Tools(ctx, s, opts...)
	if err != nil {
		_ = s.Close()
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() {
		if err := resilientmcp.Close(ts); err != nil {
			f.t.Errorf("Close: %v", err)
		}
	})
	return ts
}

type severable struct {
	mcp.Transport
	f *fixture
}

func (s *severable) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := s.Transport.Connect(ctx)
	if err == nil {
		s.f.mu.Lock()
		s.f.conns = append(s.f.conns, c)
		s.f.mu.Unlock()
	}
	return c, err
}

// find returns the tool called name.
func find(t *testing.T, ts []lctools.Tool, name string) lctools.Tool {
	t.Helper()
	for _, tool := range ts {
		if tool.Name() == name {
			return tool
		}
	}
	t.Fatalf("no tool %q", name)
	return nil
}

// await fails the test when ch is not closed within a minute: the safety
// net of a test waiting for something that must happen.
func await(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(time.Minute):
		t.Fatalf("timed out waiting for %s", what)
	}
}

// recorder is a slog.Handler that keeps every record, for assertions, and
// lets a test wait for a message.
type recorder struct {
	mu      sync.Mutex
	records []slog.Record
	waits   map[string]chan struct{}
}

func newRecorder() *recorder { return &recorder{waits: make(map[string]chan struct{})} }

func (r *recorder) Enabled(context.Context, slog.Level) bool { return true }
func (r *recorder) WithAttrs([]slog.Attr) slog.Handler       { return r }
func (r *recorder) WithGroup(string) slog.Handler            { return r }

func (r *recorder) Handle(_ context.Context, rec slog.Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.records = append(r.records, rec.Clone())
	if ch, ok := r.waits[rec.Message]; ok {
		close(ch)
		delete(r.waits, rec.Message)
	}
	return nil
}

// wait returns a channel closed when a record with message msg arrives
// (at once if one has).
func (r *recorder) wait(msg string) <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	ch := make(chan struct{})
	for _, rec := range r.records {
		if rec.Message == msg {
			close(ch)
			return ch
		}
	}
	r.waits[msg] = ch
	return ch
}

// find returns the attributes of every record with message msg.
func (r *recorder) find(msg string) []map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []map[string]any
	for _, rec := range r.records {
		if rec.Message != msg {
			continue
		}
		attrs := map[string]any{"level": rec.Level}
		rec.Attrs(func(a slog.Attr) bool {
			attrs[a.Key] = a.Value.Resolve().Any()
			return true
		})
		out = append(out, attrs)
	}
	return out
}
