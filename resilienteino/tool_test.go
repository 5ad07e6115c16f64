package resilienteino_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/resilienteino"
	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

// fnTool is an Eino tool that counts its calls and answers with fn, given
// the call's number from 1.
type fnTool struct {
	name string
	fn   func(ctx context.Context, n int, args string) (string, error)
	n    atomic.Int32
}

func newTool(name string, fn func(ctx context.Context, n int, args string) (string, error)) *fnTool {
	return &fnTool{name: name, fn: fn}
}

func (f *fnTool) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: f.name, Desc: "the " + f.name + " tool"}, nil
}

func (f *fnTool) InvokableRun(ctx context.Context, args string, _ ...tool.Option) (string, error) {
	return f.fn(ctx, int(f.n.Add(1)), args)
}

func (f *fnTool) calls() int { return int(f.n.Load()) }

// errSecret is an internal failure whose text carries a credential.
var errSecret = errors.New("POST https://api.stripe.com/v1/charges: 401: invalid key sk_live_51H8aBcDeFgHiJkLmNoPqRsT")

// The boundary, three ways: the model reads a ToolError's text, a fatal
// error ends the run, anything else is a line that names the tool and the
// error's type, and nothing of its text.
func TestToolBoundary(t *testing.T) {
	tests := []struct {
		name    string
		fn      func(context.Context, int, string) (string, error)
		want    string
		wantErr string // "" for none
		wantLog string // in the log
	}{
		{"output", func(context.Context, int, string) (string, error) { return "shipped", nil }, "shipped", "", ""},
		{"ToolError", func(context.Context, int, string) (string, error) {
			return "", taxonomy.NewToolError("no order 'R9'; order ids look like R0017")
		}, "no order 'R9'; order ids look like R0017", "", ""},
		{"internal failure", func(context.Context, int, string) (string, error) { return "", errSecret },
			"Error: charge failed internally (*errors.errorString)", "", "invalid key [REDACTED]"},
		{"panic", func(context.Context, int, string) (string, error) { panic("index out of range [3] with length 3") },
			"Error: charge failed internally (panic)", "", "index out of range"},
		{"FatalToolError", func(context.Context, int, string) (string, error) {
			return "", taxonomy.NewFatalToolError(errors.New("the card processor refused our credentials"))
		}, "", "fatal tool error in charge: the card processor refused our credentials", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs observetest.LogBuffer
			w := resilienteino.Tool(newTool("charge", tt.fn), resilienteino.Logger(logs.Logger()))
			out, err := w.InvokableRun(t.Context(), `{"order":"R1"}`)
			if out != tt.want || fmt.Sprint(err) != map[bool]string{true: "<nil>", false: tt.wantErr}[tt.wantErr == ""] {
				t.Fatalf("got (%q, %v), want (%q, %s)", out, err, tt.want, tt.wantErr)
			}
			if strings.Contains(logs.String(), "sk_live_51H8") || !strings.Contains(logs.String(), tt.wantLog) {
				t.Errorf("the log shows the secret, or not %q:\n%s", tt.wantLog, logs.String())
			}
		})
	}
}

// A mutating tool marked Idempotent runs once per input: the model's second
// charge is answered from the store, in one process or across tools that
// share it.
func TestToolIdempotent(t *testing.T) {
	store := tools.NewMemoryStore()
	defer store.Close()
	var keys []string
	charge := newTool("charge", func(ctx context.Context, n int, args string) (string, error) {
		key, _ := resilienteino.KeyFrom(ctx)
		keys = append(keys, key)
		return fmt.Sprintf("charged %s: txn-%d", args, n), nil
	})
	first := resilienteino.Tool(charge, resilienteino.Idempotent(store))
	second := resilienteino.Tool(charge, resilienteino.Idempotent(store)) // another replica
	a, err1 := first.InvokableRun(t.Context(), `{"order":"R1"}`)
	b, err2 := second.InvokableRun(t.Context(), `{"order":"R1"}`)
	if err1 != nil || err2 != nil || a != `charged {"order":"R1"}: txn-1` || b != "already done: "+a || charge.calls() != 1 {
		t.Fatalf("got %q, %q (%v, %v) after %d charges, want one charge and its replay", a, b, err1, err2, charge.calls())
	}
	if len(keys) != 1 || keys[0] == "" {
		t.Errorf("keys given to the tool: %q, want one", keys)
	}
}

// The run's repeat limit stops a model that calls the same tool with the
// same input a fourth time.
func TestToolRepeatLimit(t *testing.T) {
	lookup := resilienteino.Tool(newTool("lookup", func(context.Context, int, string) (string, error) { return "shipped", nil }))
	ctx := resilienteino.NewRun(t.Context())
	for range 3 {
		if _, err := lookup.InvokableRun(ctx, `{"order":"R1"}`); err != nil {
			t.Fatal(err)
		}
	}
	_, err := lookup.InvokableRun(ctx, `{"order":"R1"}`)
	if !errors.Is(err, tools.ErrStuck) || !errors.As(err, new(*taxonomy.FatalToolError)) {
		t.Fatalf("fourth call: got %v, want a fatal stuck error", err)
	}
}

// The tool's breaker opens after 5 internal failures and ends the run.
func TestToolBreaker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// A failure that may pass: the breaker counts it ("401: invalid
		// key", errSecret, is permanent and counts toward no breaker).
		errReset := errors.New("search backend: connection reset by peer")
		broken := newTool("search", func(context.Context, int, string) (string, error) { return "", errReset })
		w := resilienteino.Tool(broken)
		for i := range 5 {
			if out, err := w.InvokableRun(t.Context(), fmt.Sprint(i)); err != nil || !strings.HasPrefix(out, "Error: search failed internally") {
				t.Fatalf("call %d: got (%q, %v)", i, out, err)
			}
		}
		_, err := w.InvokableRun(t.Context(), "6")
		if !errors.Is(err, resilienteino.ErrCircuitOpen) || broken.calls() != 5 {
			t.Fatalf("got %v after %d calls, want the circuit open after 5", err, broken.calls())
		}
		time.Sleep(tools.DefaultBreakerDelay)
		if _, err := w.InvokableRun(t.Context(), "7"); err != nil || broken.calls() != 6 {
			t.Errorf("after the delay: got %v after %d calls, want the probe to run", err, broken.calls())
		}
	})
}

// A read-only tool marked SafeToRetry has its transient failures retried;
// others run once.
func TestToolSafeToRetry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		flaky := func() *fnTool {
			return newTool("quote", func(_ context.Context, n int, _ string) (string, error) {
				if n == 1 {
					return "", errors.New("read tcp 10.0.4.7:443: connection reset by peer")
				}
				return "4.90 EUR", nil
			})
		}
		safe, once := flaky(), flaky()
		if out, err := resilienteino.Tool(safe, resilienteino.SafeToRetry()).InvokableRun(t.Context(), "{}"); out != "4.90 EUR" || err != nil || safe.calls() != 2 {
			t.Errorf("safe to retry: got (%q, %v) after %d calls, want the quote after 2", out, err, safe.calls())
		}
		if out, err := resilienteino.Tool(once).InvokableRun(t.Context(), "{}"); !strings.HasPrefix(out, "Error: quote failed internally") || err != nil || once.calls() != 1 {
			t.Errorf("not marked: got (%q, %v) after %d calls, want the internal failure after 1", out, err, once.calls())
		}
	})
}

// streamTool streams its chunks, then err.
type streamTool struct {
	chunks []string
	err    error
}

func (s *streamTool) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: "report", Desc: "writes a report"}, nil
}

func (s *streamTool) StreamableRun(context.Context, string, ...tool.Option) (*schema.StreamReader[string], error) {
	sr, sw := schema.Pipe[string](len(s.chunks) + 1)
	go func() {
		defer sw.Close()
		for _, c := range s.chunks {
			sw.Send(c, nil)
		}
		if s.err != nil {
			sw.Send("", s.err)
		}
	}()
	return sr, nil
}

// A streaming tool's stream is read inside the boundary: a failure in its
// middle is mapped like any other, and the output is one chunk.
func TestStreamableTool(t *testing.T) {
	for _, tt := range []struct {
		name string
		tool *streamTool
		want string
	}{
		{"whole", &streamTool{chunks: []string{"sales ", "up"}}, "sales up"},
		{"failed midway", &streamTool{chunks: []string{"sales "}, err: errSecret}, "Error: report failed internally (*errors.errorString)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sr, err := resilienteino.Streamable(tt.tool).StreamableRun(t.Context(), "{}")
			if err != nil {
				t.Fatal(err)
			}
			defer sr.Close()
			var got []string
			for {
				chunk, err := sr.Recv()
				if err != nil {
					break
				}
				got = append(got, chunk)
			}
			if len(got) != 1 || got[0] != tt.want {
				t.Errorf("got %q, want one chunk %q", got, tt.want)
			}
		})
	}
}

// An interrupt crosses the boundary unchanged, so that a human-in-the-loop
// run pauses as before.
func TestToolPassesInterrupts(t *testing.T) {
	w := resilienteino.Tool(newTool("approve", func(ctx context.Context, _ int, _ string) (string, error) {
		return "", compose.Interrupt(ctx, "approve the refund?")
	}))
	_, err := w.InvokableRun(t.Context(), "{}")
	if _, ok := compose.IsInterruptRerunError(err); !ok || errors.As(err, new(*taxonomy.FatalToolError)) {
		t.Fatalf("got %v (%T), want the interrupt itself", err, err)
	}
}

// The call's tool options reach the wrapped tool.
func TestToolPassesItsOptions(t *testing.T) {
	type opts struct{ user string }
	withUser := func(u string) tool.Option { return tool.WrapImplSpecificOptFn(func(o *opts) { o.user = u }) }
	var seen string
	inner := &optTool{run: func(options ...tool.Option) { seen = tool.GetImplSpecificOptions(&opts{}, options...).user }}
	if _, err := resilienteino.Tool(inner).InvokableRun(t.Context(), "{}", withUser("ada")); err != nil || seen != "ada" {
		t.Errorf("got %v, the tool saw user %q; want ada", err, seen)
	}
}

type optTool struct{ run func(...tool.Option) }

func (o *optTool) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: "o"}, nil
}
func (o *optTool) InvokableRun(_ context.Context, _ string, opts ...tool.Option) (string, error) {
	o.run(opts...)
	return "ok", nil
}

// A tool that cannot be described ends every run with the problem.
func TestToolInvalid(t *testing.T) {
	for _, tt := range []struct {
		name string
		t    tool.InvokableTool
		want string
	}{
		{"nil", nil, "nil tool"},
		{"typed nil", (*fnTool)(nil), "nil tool"},
		{"Info fails", &badInfo{err: errors.New("no schema")}, "no schema"},
		{"Info panics", &badInfo{panics: true}, "panicked"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := resilienteino.Tool(tt.t)
			_, err := w.InvokableRun(t.Context(), "{}")
			if w.Err() == nil || !strings.Contains(w.Err().Error(), tt.want) || !errors.As(err, new(*taxonomy.FatalToolError)) {
				t.Errorf("Err %v, call %v; want both to name %q", w.Err(), err, tt.want)
			}
		})
	}
}

type badInfo struct {
	err    error
	panics bool
}

func (b *badInfo) Info(context.Context) (*schema.ToolInfo, error) {
	if b.panics {
		panic("boom")
	}
	return nil, b.err
}
func (b *badInfo) InvokableRun(context.Context, string, ...tool.Option) (string, error) {
	return "", nil
}
