package resilientmcp_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/resilientmcp"
)

// Progress notifications and server logs go to the logger, never to the
// model, on both kinds of session: those whose requests carry the log level
// (2026-07-28) and those that set it once (2025-11-25).
func TestProgressAndLogsReachTheLogger(t *testing.T) {
	for _, version := range []string{"", "2025-11-25"} {
		t.Run("protocol "+version, func(t *testing.T) {
			f := newFixture(t)
			f.version = version
			lookup := find(t, f.tools(), "lookup")
			got, err := lookup.Call(context.Background(), `{"id":"progress"}`)
			if err != nil || got != "order progress: shipped Tuesday" {
				t.Fatalf("got (%q, %v): the model reads the result only", got, err)
			}
			await(t, f.log.wait("server log"), `"server log"`)
			logs := f.log.find("server log")
			if len(logs) != 1 || logs[0]["level"] != slog.LevelWarn || logs[0]["logger"] != "db" ||
				logs[0]["message"] != "replica lagging" || logs[0]["server"] != "shop" {
				t.Errorf("server logs: got %v, want the warning only (debug is below the default level)", logs)
			}
			await(t, f.log.wait("tool progress"), `"tool progress"`)
			for deadline := time.Now().Add(time.Minute); len(f.log.find("tool progress")) < 2 && time.Now().Before(deadline); {
				time.Sleep(time.Millisecond) // the second notification is handled after the first
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
	}
}

// A call that runs out of time is cancelled on the server: the SDK sends
// notifications/cancelled, and the server's handler sees its context
// canceled (not the connection ending, which it would see as EOF).
func TestTimeoutCancelsOnServer(t *testing.T) {
	f := newFixture(t)
	lookup := find(t, f.tools(resilientmcp.ToolOptions(resilient.Timeout(50*time.Millisecond), resilient.MaxAttempts(1))), "lookup")
	canceled := f.lines.wait("lookup canceled: context canceled")
	got, err := lookup.Call(context.Background(), `{"id":"slow"}`)
	if err != nil || !strings.HasPrefix(got, "Error: lookup failed internally") {
		t.Fatalf("got (%q, %v), want an internal failure", got, err)
	}
	await(t, canceled, "the server to see the call canceled")
}
