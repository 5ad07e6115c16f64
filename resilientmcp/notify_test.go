package resilientmcp_test

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/resilientmcp"
)

// Progress notifications and server logs go to the logger, never to the
// model, on both kinds of session: those whose requests carry the log level
// (2026-07-28) and those that set it once (2025-11-25).
func TestProgressAndLogsReachTheLogger(t *testing.T) {
	for _, version := range []string{"", "2025-11-25"} {
		t.Run("protocol "+version, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFixture(t)
				f.version = version
				lookup := find(t, f.tools(), "lookup")
				got, err := lookup.Call(context.Background(), `{"id":"progress"}`)
				if err != nil || got != "order progress: shipped Tuesday" {
					t.Fatalf("got (%q, %v): the model reads the result only", got, err)
				}
				synctest.Wait() // the notifications are handled
				logs := f.log.find("server log")
				if len(logs) != 1 || logs[0]["level"] != slog.LevelWarn || logs[0]["logger"] != "db" ||
					logs[0]["message"] != "replica lagging" || logs[0]["server"] != "shop" {
					t.Errorf("server logs: got %v, want the warning only (debug is below the default level)", logs)
				}
				progress := f.log.find("tool progress")
				if len(progress) != 2 {
					t.Fatalf("progress lines: got %d, want 2", len(progress))
				}
				for i, p := range progress {
					if p["tool"] != "lookup" || p["progress"] != float64(i+1) || p["total"] != 2.0 ||
						p["message"] != "searching, token=[REDACTED]" || p["server"] != "shop" {
						t.Errorf("progress %d: got %v", i+1, p)
					}
				}
			})
		})
	}
}

// A call that runs out of time is cancelled on the server: the SDK sends
// notifications/cancelled, and the server's handler sees its context
// canceled (not the connection ending, which it would see as EOF).
func TestTimeoutCancelsOnServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t)
		lookup := find(t, f.tools(resilientmcp.ToolOptions(resilient.Timeout(time.Second), resilient.MaxAttempts(1))), "lookup")
		canceled := f.lines.wait("lookup canceled: context canceled")
		start := time.Now()
		got, err := lookup.Call(context.Background(), `{"id":"slow"}`)
		if err != nil || got != "Error: lookup timed out" {
			t.Fatalf("got (%q, %v), want the timeout", got, err)
		}
		if d := time.Since(start); d != time.Second {
			t.Errorf("the call took %v, want the wrapper's timeout of 1s", d)
		}
		await(t, canceled, "the server to see the call canceled")
	})
}

// A server that refuses the log level on an older session says so in the
// log; the tools work all the same.
func TestLogLevelRefused(t *testing.T) {
	f := newFixture(t)
	f.version = "2025-11-25"
	f.server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "logging/setLevel" {
				return nil, errors.New("logging is off")
			}
			return next(ctx, method, req)
		}
	})
	got, err := find(t, f.tools(), "lookup").Call(context.Background(), `{"id":"4471"}`)
	if err != nil || got != "order 4471: shipped Tuesday" {
		t.Fatalf("got (%q, %v)", got, err)
	}
	if len(f.log.find("server log level refused")) != 1 {
		t.Fatal(`no "server log level refused" line`)
	}
}

// Observers see progress and server logs as events with the server, the
// tool and the numbers, never the server's texts: those reach the log
// observer alone.
func TestNotificationsReachObservers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t)
		var events eventRecorder
		f.client.AddReceivingMiddleware(resilientmcp.Notifications(&events, nil))
		if _, err := find(t, f.tools(), "lookup").Call(context.Background(), `{"id":"progress"}`); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		want := []observe.Event{
			observe.ToolProgress{Server: "shop", Tool: "lookup", Progress: 1, Total: 2},
			observe.ToolProgress{Server: "shop", Tool: "lookup", Progress: 2, Total: 2},
			observe.ServerLog{Server: "shop", Logger: "db", Level: slog.LevelWarn},
		}
		if got := events.all(); !slices.Equal(got, want) {
			t.Fatalf("events:\n got %v\nwant %v", got, want)
		}
	})
}

type eventRecorder struct {
	mu     sync.Mutex
	events []observe.Event
}

func (r *eventRecorder) Start(ctx context.Context, _ observe.Start) context.Context { return ctx }

func (r *eventRecorder) Observe(_ context.Context, e observe.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *eventRecorder) all() []observe.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events)
}
