package resilientmcp_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/resilientmcp"
	"github.com/resilientgo/resilient/taxonomy"
)

// fast makes retries wait little: these tests are about what is retried,
// not when.
var fast = resilientmcp.ToolOptions(resilient.Backoff(time.Millisecond, time.Millisecond))

// A server that dies in the middle of a call: a server process killed, or
// an in-process session whose connection ends.
func TestSessionLostDuringCall(t *testing.T) {
	tests := []struct {
		name, tool, input string
		opts              []resilientmcp.Option
		want              string
		connects          int32
		effects           int // journal lines starting with "charge"
	}{
		{"read-only is retried on a new session", "lookup", `{"id":"hang-once"}`, nil,
			"order hang-once: shipped Tuesday", 2, 0},
		{"destructive is not retried", "charge", `{"order":"hang-once","amount":5}`, nil,
			"Error: charge failed internally (*resilientmcp.SessionLostError)", 1, 1},
		{"destructive made idempotent runs once", "charge", `{"order":"hang-once","amount":5}`,
			[]resilientmcp.Option{resilientmcp.ToolOptionsFor("charge", resilient.Idempotent(nil))},
			"charged 5 to hang-once", 2, 1},
		{"annotations are not trusted", "lookup", `{"id":"hang-once"}`,
			[]resilientmcp.Option{resilientmcp.SafeToRetry(func(*mcp.Tool) bool { return false })},
			"Error: lookup failed internally (*resilientmcp.SessionLostError)", 1, 0},
	}
	fixtures := []struct {
		name string
		new  func(*testing.T) *fixture
	}{{"process", newProcessFixture}, {"in-memory", newFixture}}
	for _, fx := range fixtures {
		for _, tt := range tests {
			t.Run(fx.name+"/"+tt.name, func(t *testing.T) {
				f := fx.new(t)
				tool := find(t, f.tools(append([]resilientmcp.Option{fast, resilientmcp.Reconnect(f.connect)}, tt.opts...)...), tt.tool)
				hung := f.lines.wait("hung " + tt.tool)
				go func() {
					<-hung
					f.crash()
				}()
				got, err := tool.Call(context.Background(), tt.input)
				if err != nil || got != tt.want {
					t.Fatalf("got (%q, %v), want %q", got, err, tt.want)
				}
				if n := f.connects.Load(); n != tt.connects {
					t.Errorf("connects: got %d, want %d", n, tt.connects)
				}
				if n := f.journal.count("charge"); n != tt.effects {
					t.Errorf("charges: got %d, want %d", n, tt.effects)
				}
			})
		}
	}
}

// The run learns why a destructive call was not retried: the model reads
// the type of the failure, and the log says the session was lost during
// the call and that the tool may have run.
func TestSessionLostSaysWhy(t *testing.T) {
	for name, newF := range map[string]func(*testing.T) *fixture{"process": newProcessFixture, "in-memory": newFixture} {
		t.Run(name, func(t *testing.T) {
			f := newF(t)
			charge := find(t, f.tools(resilientmcp.Reconnect(f.connect)), "charge")
			hung := f.lines.wait("hung charge")
			go func() {
				<-hung
				f.crash()
			}()
			got, err := charge.Call(context.Background(), `{"order":"hang-once","amount":5}`)
			if want := "Error: charge failed internally (*resilientmcp.SessionLostError)"; err != nil || got != want {
				t.Fatalf("got (%q, %v), want %q", got, err, want)
			}
			failed := f.log.find("tool failed internally")
			if len(failed) != 1 {
				t.Fatalf("got %d \"tool failed internally\" lines, want 1", len(failed))
			}
			msg := fmt.Sprint(failed[0]["err"])
			want := "resilientmcp: charge: the session to the MCP server was lost during the call; " +
				"the tool is neither read-only nor idempotent, so it may have run: calling \"tools/call\": EOF"
			if !strings.Contains(msg, want) {
				t.Fatalf("logged %q, want it to contain %q", msg, want)
			}
			await(t, f.log.wait("mcp session lost"), `"mcp session lost"`)
		})
	}
}

// Without a Reconnect function a lost session cannot come back: the run
// ends instead of failing every later call.
func TestSessionLostWithoutReconnect(t *testing.T) {
	f := newFixture(t)
	ts := f.tools()
	hung := f.lines.wait("hung charge")
	go func() {
		<-hung
		f.crash()
	}()
	for _, call := range []struct{ tool, input string }{
		{"charge", `{"order":"hang-once","amount":5}`}, // lost during the call
		{"lookup", `{"id":"4471"}`},                    // lost before it
	} {
		_, err := find(t, ts, call.tool).Call(context.Background(), call.input)
		var fatal *taxonomy.FatalToolError
		if !errors.As(err, &fatal) || fatal.Tool != call.tool {
			t.Fatalf("%s: got %v, want a fatal error", call.tool, err)
		}
	}
}

// A session that died between calls is replaced before anything is sent:
// even a destructive tool runs, because nothing was lost with the session.
func TestSessionLostBetweenCalls(t *testing.T) {
	f := newFixture(t)
	charge := find(t, f.tools(resilientmcp.Reconnect(f.connect)), "charge")
	f.crash()
	await(t, f.log.wait("mcp session lost"), `"mcp session lost"`)
	got, err := charge.Call(context.Background(), `{"order":"A-2","amount":7}`)
	if err != nil || got != "charged 7 to A-2" {
		t.Fatalf("got (%q, %v), want the charge made on a new session", got, err)
	}
	if n := f.connects.Load(); n != 2 {
		t.Fatalf("connects: got %d, want 2", n)
	}
	if len(f.log.find("mcp session replaced")) != 1 {
		t.Fatal(`no "mcp session replaced" line`)
	}
}

// A Reconnect function that fails leaves nothing sent; the tool fails
// internally and the next call tries again.
func TestReconnectFails(t *testing.T) {
	f := newFixture(t)
	var down atomic.Bool
	down.Store(true)
	connect := func(ctx context.Context) (*mcp.ClientSession, error) {
		if down.Load() {
			return nil, errors.New("exec: \"shop\": executable file not found in $PATH")
		}
		return f.connect(ctx)
	}
	charge := find(t, f.tools(resilientmcp.Reconnect(connect)), "charge")
	f.crash()
	await(t, f.log.wait("mcp session lost"), `"mcp session lost"`)
	got, err := charge.Call(context.Background(), `{"order":"A-3","amount":1}`)
	if want := "Error: charge failed internally (*resilientmcp.SessionLostError)"; err != nil || got != want {
		t.Fatalf("down: got (%q, %v), want %q", got, err, want)
	}
	if len(f.log.find("mcp reconnect failed")) != 1 {
		t.Fatal(`no "mcp reconnect failed" line`)
	}
	down.Store(false)
	got, err = charge.Call(context.Background(), `{"order":"A-3","amount":1}`)
	if err != nil || got != "charged 1 to A-3" {
		t.Fatalf("up: got (%q, %v)", got, err)
	}
}

// Calls that find the session lost at the same time wait for one
// reconnection and share its session.
func TestConcurrentCallsReconnectOnce(t *testing.T) {
	f := newFixture(t)
	lookup := find(t, f.tools(resilientmcp.Reconnect(f.connect)), "lookup")
	f.crash()
	await(t, f.log.wait("mcp session lost"), `"mcp session lost"`)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			id := fmt.Sprintf("%04d", i)
			if got, err := lookup.Call(context.Background(), `{"id":"`+id+`"}`); err != nil || got != "order "+id+": shipped Tuesday" {
				t.Errorf("call %d: got (%q, %v)", i, got, err)
			}
		})
	}
	wg.Wait()
	if n := f.connects.Load(); n != 2 {
		t.Fatalf("connects: got %d, want 2 (one reconnection)", n)
	}
}
