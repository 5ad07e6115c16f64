package tools_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/run"

	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

func returns(out string, err error) *counted {
	return newCounted("t", func(context.Context, int, string) (string, error) { return out, err })
}

func TestNewKeepsTheContract(t *testing.T) {
	inner := returns("ok", nil)
	w := mustWrap(t, inner)
	var _ lctools.Tool = w
	if w.Name() != "t" || w.Description() != "the t tool" || w.Unwrap() != lctools.Tool(inner) {
		t.Errorf("got name %q, description %q, unwrap %v; want the inner tool's", w.Name(), w.Description(), w.Unwrap())
	}
	if w.Breaker() == nil || w.Breaker().State() != observe.BreakerClosed {
		t.Errorf("breaker: got %v, want a closed breaker", w.Breaker())
	}
}

func TestNewRejectsInvalidOptions(t *testing.T) {
	_, err := tools.New(returns("", nil), tools.Timeout(-1), tools.KeyFunc(nil), tools.Lease(0), tools.ResultTTL(time.Hour),
		tools.Redactor(nil), tools.Middleware(middleware.CircuitBreaker(0, time.Second)), nil)
	for _, want := range []string{"tools: t: ", "Timeout(-1ns)", "KeyFunc(nil)", "Lease(0s)", "ResultTTL needs Idempotent",
		"Redactor(nil)", "CircuitBreaker(0, 1s)", "nil option"} {
		if !strings.Contains(fmt.Sprint(err), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
	if _, err := tools.New(returns("", nil), tools.Lease(time.Minute)); fmt.Sprint(err) != "tools: t: Lease needs Idempotent" {
		t.Errorf("Lease without Idempotent: got %v", err)
	}
}

func TestOutcomeMapping(t *testing.T) {
	denied := errors.New("card authorization denied")
	tests := []struct {
		name    string
		err     error
		wantOut string
		wantErr string
	}{
		{"success", nil, "ok", "<nil>"},
		{"tool error", taxonomy.NewToolError("no order '9999'"), "no order '9999'", "<nil>"},
		{"wrapped tool error", fmt.Errorf("lookup 9999: %w", taxonomy.NewToolError("no order '9999'")), "no order '9999'", "<nil>"},
		{"plain error", errors.New("boom"), "Error: t failed internally (*errors.errorString)", "<nil>"},
		{"wrapped error", fmt.Errorf("query: %w", io.ErrUnexpectedEOF), "Error: t failed internally (*fmt.wrapError)", "<nil>"},
		{"net error", &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("refused")}, "Error: t failed internally (*net.OpError)", "<nil>"},
		{"fatal", taxonomy.NewFatalToolError(denied), "", "fatal tool error in t: card authorization denied"},
		{"fatal named by its author", &taxonomy.FatalToolError{Tool: "payments", Cause: denied}, "", "fatal tool error in payments: card authorization denied"},
		{"wrapped fatal", fmt.Errorf("charging 4471: %w", taxonomy.NewFatalToolError(denied)), "",
			"fatal tool error in t: charging 4471: fatal tool error: card authorization denied"},
		{"fatal wins over a tool error", errors.Join(taxonomy.NewToolError("x"), taxonomy.NewFatalToolError(denied)), "",
			"fatal tool error in t: x\nfatal tool error: card authorization denied"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := mustWrap(t, returns("ok", tt.err)).Call(t.Context(), "in")
			if out != tt.wantOut || fmt.Sprint(err) != tt.wantErr {
				t.Errorf("got (%q, %v), want (%q, %s)", out, err, tt.wantOut, tt.wantErr)
			}
		})
	}
}

func TestFatalErrorNamesTheTool(t *testing.T) {
	_, err := mustWrap(t, returns("", fmt.Errorf("charging: %w", taxonomy.NewFatalToolError(io.EOF)))).Call(t.Context(), "in")
	var fatal *taxonomy.FatalToolError
	if !errors.As(err, &fatal) || fatal.Tool != "t" || !errors.Is(err, io.EOF) {
		t.Errorf("got %#v, want a FatalToolError naming t and unwrapping to the cause", err)
	}
}

func TestPanicBecomesAnInternalFailure(t *testing.T) {
	panics := newCounted("t", func(context.Context, int, string) (string, error) { panic("sk-live-SECRET123") })
	var logs observetest.LogBuffer
	out, err := mustWrap(t, panics, tools.Logger(logs.Logger())).Call(t.Context(), "in")
	if out != "Error: t failed internally (panic)" || err != nil {
		t.Errorf("got (%q, %v), want the internal failure", out, err)
	}
	if strings.Contains(logs.String(), "SECRET123") || !strings.Contains(logs.String(), `level=ERROR msg="tool failed internally" tool=t type=panic`) {
		t.Errorf("logs:\n%s", logs.String())
	}
}

// Pins the number of calls: retries happen only with SafeToRetry, only for
// internal failures the pipeline would retry, never for ToolErrors.
func TestCallsPerOutcome(t *testing.T) {
	transient := fmt.Errorf("read orders: %w", io.ErrUnexpectedEOF)
	unknown := errors.New("something nobody has seen before")
	permanent := errors.New("API returned unexpected status code: 401: invalid api key")
	tests := []struct {
		name      string
		opts      []tools.Option
		err       error
		wantCalls int
	}{
		{"default, transient", nil, transient, 1},
		{"default, unknown", nil, unknown, 1},
		{"default, rate limited", nil, errors.New("API returned unexpected status code: 429"), 1},
		{"default with MaxAttempts(5)", []tools.Option{tools.Middleware(middleware.MaxAttempts(5))}, transient, 1},
		{"safe, transient", []tools.Option{tools.SafeToRetry()}, transient, 3},
		{"safe, unknown", []tools.Option{tools.SafeToRetry()}, unknown, 2},
		{"safe, permanent", []tools.Option{tools.SafeToRetry()}, permanent, 1},
		{"safe, tool error", []tools.Option{tools.SafeToRetry()}, taxonomy.NewToolError("no order"), 1},
		{"safe, fatal", []tools.Option{tools.SafeToRetry()}, taxonomy.NewFatalToolError(unknown), 1},
		{"safe with MaxAttempts(5)", []tools.Option{tools.SafeToRetry(), tools.Middleware(middleware.MaxAttempts(5))}, transient, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tool := returns("", tt.err)
				_, _ = mustWrap(t, tool, tt.opts...).Call(t.Context(), "in")
				if got := tool.calls(); got != tt.wantCalls {
					t.Errorf("calls: got %d, want %d", got, tt.wantCalls)
				}
			})
		})
	}
}

func TestSafeToRetryRecovers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		flaky := newCounted("t", func(_ context.Context, n int, _ string) (string, error) {
			if n == 1 {
				return "", io.ErrUnexpectedEOF
			}
			return "ok", nil
		})
		out, err := mustWrap(t, flaky, tools.SafeToRetry()).Call(t.Context(), "in")
		if out != "ok" || err != nil || flaky.calls() != 2 {
			t.Errorf("got (%q, %v) after %d calls, want (ok, nil) after 2", out, err, flaky.calls())
		}
	})
}

func blocksUntilDone(ctx context.Context, _ int, _ string) (string, error) {
	<-ctx.Done()
	return "", ctx.Err()
}

// A tool whose own deadline passed (an HTTP client's timeout, say) timed
// out too; the model is not shown a Go type.
func TestToolsOwnTimeout(t *testing.T) {
	own := returns("", fmt.Errorf("GET inventory: %w", context.DeadlineExceeded))
	if out, err := mustWrap(t, own).Call(t.Context(), "in"); out != "Error: t timed out" || err != nil {
		t.Errorf("got (%q, %v), want the timeout", out, err)
	}
}

func TestTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		out, err := mustWrap(t, newCounted("t", blocksUntilDone), tools.Timeout(5*time.Second)).Call(t.Context(), "in")
		if out != "Error: t timed out" || err != nil || time.Since(start) != 5*time.Second {
			t.Errorf("got (%q, %v) after %v, want the timeout after 5s", out, err, time.Since(start))
		}
	})
}

// An internal failure is shown as the latest attempt ended, not the first:
// a retried tool whose first attempt was abandoned at its timeout and
// whose last one failed by itself is a failure, not a timeout.
func TestInternalFailureShowsTheLastAttempt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var rec observetest.Recorder
		tool := newCounted("t", func(_ context.Context, n int, _ string) (string, error) {
			if n == 1 {
				time.Sleep(time.Minute) // ignores its context: abandoned at the timeout
			}
			return "", io.ErrUnexpectedEOF
		})
		w := mustWrap(t, tool, tools.SafeToRetry(), tools.Timeout(time.Second), tools.Middleware(middleware.Observe(&rec)))
		out, err := w.Call(t.Context(), "in")
		if out != "Error: t failed internally (*errors.errorString)" || err != nil || tool.calls() < 2 {
			t.Errorf("got (%q, %v) after %d calls, want the last attempt's failure", out, err, tool.calls())
		}
		for _, e := range rec.Events() {
			if end, ok := e.(observe.CallEnd); ok && end.Reason != observe.ReasonInternal {
				t.Errorf("outcome: got %v, want %v", end.Reason, observe.ReasonInternal)
			}
		}
		time.Sleep(time.Minute) // the abandoned attempt ends
	})
}

func TestCallerGivesUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tool := newCounted("t", blocksUntilDone)
		w := mustWrap(t, tool)
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(time.Second, cancel)
		if out, err := w.Call(ctx, "in"); out != "" || !errors.Is(err, context.Canceled) {
			t.Errorf("canceled during the call: got (%q, %v), want context.Canceled", out, err)
		}
		if out, err := w.Call(ctx, "in"); out != "" || !errors.Is(err, context.Canceled) || tool.calls() != 1 {
			t.Errorf("canceled before the call: got (%q, %v) after %d calls, want context.Canceled and no call", out, err, tool.calls())
		}
	})
}

func TestBreakerCountsInternalFailuresOnly(t *testing.T) {
	var fail atomic.Bool
	tool := newCounted("t", func(context.Context, int, string) (string, error) {
		if fail.Load() {
			return "", errors.New("down")
		}
		return "", taxonomy.NewToolError("no such order")
	})
	w := mustWrap(t, tool, tools.Middleware(middleware.CircuitBreaker(2, time.Minute)))
	for range 5 {
		_, _ = w.Call(t.Context(), "in")
	}
	if got := w.Breaker().State(); got != observe.BreakerClosed {
		t.Fatalf("after 5 tool errors: got %v, want closed", got)
	}
	fail.Store(true)
	for range 2 {
		_, _ = w.Call(t.Context(), "in")
	}
	_, err := w.Call(t.Context(), "in")
	if !errors.Is(err, middleware.ErrCircuitOpen) || tool.calls() != 7 {
		t.Errorf("after 2 internal failures: got %v after %d calls, want circuit open after 7", err, tool.calls())
	}
}

func TestRepeatLimit(t *testing.T) {
	stuck := "fatal tool error in t: stuck: t called 4 times with the same input"
	tests := []struct {
		name   string
		opts   []tools.Option
		run    []run.Option
		inputs []string // the last one is checked
		want   string   // the last call's error
	}{
		{"4th identical call", nil, nil, []string{"a", "a", "b", "a", "a"}, stuck},
		{"3 calls are within the limit", nil, nil, []string{"a", "b", "a", "a"}, "<nil>"},
		{"a plain tool counts bytes", nil, nil, []string{`{"x":1,"y":2}`, `{"y":2,"x":1}`, `{"x":1,"y":2}`, `{"y": 2, "x": 1}`}, "<nil>"},
		{"an idempotent tool counts its keys", []tools.Option{tools.Idempotent(nil)}, nil,
			[]string{`{"x":1,"y":2}`, `{"y":2,"x":1}`, `{"x":1,"y":2}`, `{"y": 2, "x": 1}`}, stuck},
		{"a tool with a KeyFunc counts its keys", []tools.Option{tools.KeyFunc(func(_, in string) string { return strings.ToLower(in) })}, nil,
			[]string{"A", "a", "A", "a"}, stuck},
		{"RepeatLimit(1)", nil, []run.Option{run.RepeatLimit(1)}, []string{"a", "a"},
			"fatal tool error in t: stuck: t called 2 times with the same input"},
		{"RepeatLimit(math.MaxInt) turns it off", nil, []run.Option{run.RepeatLimit(math.MaxInt)}, []string{"a", "a", "a", "a", "a"}, "<nil>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := mustWrap(t, returns("ok", nil), tt.opts...)
			ctx := run.New(t.Context(), tt.run...)
			var err error
			for _, in := range tt.inputs {
				_, err = w.Call(ctx, in)
			}
			if fmt.Sprint(err) != tt.want {
				t.Errorf("last call: got %v, want %s", err, tt.want)
			}
		})
	}
}

func TestRepeatLimitNeedsARun(t *testing.T) {
	w := mustWrap(t, returns("ok", nil))
	for range 10 {
		if _, err := w.Call(t.Context(), "same"); err != nil {
			t.Fatalf("without a run: %v", err)
		}
	}
}

// repeatWindow is how many distinct calls a run remembers for its repeat
// limit, as the package documentation says.
const repeatWindow = 1024

// A run remembers the repeatWindow calls most recently made: a loop whose
// calls recur within that many distinct calls is stopped, however long the
// run has lived; an input not seen for longer is counted afresh.
func TestRepeatWindow(t *testing.T) {
	w := mustWrap(t, returns("ok", nil))
	call := func(ctx context.Context, in string) error { _, err := w.Call(ctx, in); return err }
	others := func(ctx context.Context, prefix string, n int) {
		for i := range n {
			if err := call(ctx, fmt.Sprint(prefix, i)); err != nil {
				t.Fatal(err)
			}
		}
	}
	tests := []struct {
		name string
		gap  int // distinct calls between the 3rd and the 4th call of "loop"
		want bool
	}{
		{"recurring within the window", repeatWindow - 1, true},
		{"recurring after the window", repeatWindow, false},
	}
	for _, tt := range tests {
		ctx := run.New(t.Context())
		others(ctx, "before", 5*repeatWindow) // a long-lived run
		for range 3 {
			_ = call(ctx, "loop")
		}
		others(ctx, "gap", tt.gap)
		if got := errors.Is(call(ctx, "loop"), tools.ErrStuck); got != tt.want {
			t.Errorf("%s: 4th call stuck: got %v, want %v", tt.name, got, tt.want)
		}
	}
	// Calling an input again makes it recent: it outlives a window of others.
	ctx := run.New(t.Context())
	_ = call(ctx, "loop")
	for i := range 3 {
		others(ctx, fmt.Sprint("round", i), repeatWindow-1)
		if err := call(ctx, "loop"); (err != nil) != (i == 2) {
			t.Fatalf("call %d of loop: got %v", i+2, err)
		}
	}
}

// When the window is full, the call least recently made is forgotten,
// whatever order the calls came in: here the first call of the run, which
// was passed by a call made again.
func TestRepeatWindowForgetsTheLeastRecentCall(t *testing.T) {
	w := mustWrap(t, returns("ok", nil))
	ctx := run.New(t.Context())
	call := func(in string, stuck bool) {
		t.Helper()
		if _, err := w.Call(ctx, in); errors.Is(err, tools.ErrStuck) != stuck {
			t.Fatalf("call %q: got %v, want stuck %v", in, err, stuck)
		}
	}
	call("a", false)
	call("b", false)
	call("b", false) // b is now the more recent of the two
	for i := range repeatWindow - 1 {
		call(fmt.Sprint("other", i), false) // the window is full after the 1022nd, a goes at the last
	}
	call("b", false) // 3rd: remembered
	call("b", true)  // 4th
	for range 3 {
		call("a", false) // forgotten: counted afresh
	}
}

func TestRedact(t *testing.T) {
	in := "dial postgres://app:pw@db:5432: auth failed; AWS_SECRET_ACCESS_KEY: wJalrXUtnFEMI/K7MDENG"
	if got, want := tools.Redact(in), "dial postgres://app:[REDACTED]@db:5432: auth failed; AWS_SECRET_ACCESS_KEY: [REDACTED]"; got != want {
		t.Errorf("Redact: got %q, want %q", got, want)
	}
}
func TestRedactorOption(t *testing.T) {
	var logs observetest.LogBuffer
	upper := func(s string) string { return strings.ToUpper(s) }
	_, _ = mustWrap(t, returns("", errors.New("quiet")), tools.Logger(logs.Logger()), tools.Redactor(upper)).Call(t.Context(), "in")
	if !strings.Contains(logs.String(), `msg="TOOL FAILED INTERNALLY" tool=T type=*ERRORS.ERRORSTRING err="MIDDLEWARE: T FAILED`) {
		t.Errorf("logs do not go through the redactor:\n%s", logs.String())
	}
}

// A tool that cannot be wrapped, for any reason, makes New return an error
// naming the problem and a Tool whose every call ends the run with it, as a
// programming failure; nothing panics, neither New nor Call.
func TestNewReportsEveryProblemAtEveryCall(t *testing.T) {
	var typedNil *counted
	tests := []struct {
		name     string
		tool     lctools.Tool
		opts     []tools.Option
		wantName string
		wantErr  string
	}{
		{"nil", nil, nil, "invalid tool", "tools: nil tool"},
		{"typed nil", typedNil, nil, "invalid tool", "tools: nil tool (*tools_test.counted)"},
		{"Name panics", panicking{name: true}, nil, "invalid tool", "tools: tools_test.panicking.Name panicked: no name"},
		{"Description panics", panicking{}, nil, "invalid tool", "tools: tools_test.panicking.Description panicked: no description"},
		{"a problem found before New", returns("ok", nil), []tools.Option{tools.Fail(errors.New("resilienteino: nil tool"))},
			"t", "tools: t: resilienteino: nil tool"},
		{"invalid options", returns("ok", nil), []tools.Option{tools.Lease(time.Minute)}, "t", "tools: t: Lease needs Idempotent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs observetest.LogBuffer
			w, err := tools.New(tt.tool, append(tt.opts, tools.Logger(logs.Logger()))...)
			if fmt.Sprint(err) != tt.wantErr || w == nil || w.Err() != err || w.Name() != tt.wantName {
				t.Fatalf("New: got (%v, %v), want a tool named %q and error %s", w, err, tt.wantName, tt.wantErr)
			}
			_, callErr := w.Call(t.Context(), "in")
			var fatal *taxonomy.FatalToolError
			if !errors.As(callErr, &fatal) || fatal.Tool != tt.wantName || !errors.Is(callErr, err) ||
				taxonomy.Classify(fatal.Cause).Kind != taxonomy.Programming {
				t.Errorf("Call: got %v, want a FatalToolError naming %s with the problem as a programming cause", callErr, tt.wantName)
			}
			if w.Breaker() != nil {
				t.Errorf("an invalid tool has a breaker")
			}
			// The logger given is used, though the pipeline it was for was
			// not built.
			if !strings.Contains(logs.String(), `level=WARN msg="tool stopped the run"`) || !strings.Contains(logs.String(), tt.wantErr) {
				t.Errorf("logs:\n%s\nwant the run stopped with %s", logs.String(), tt.wantErr)
			}
		})
	}
}

// panicking is a tool whose Name (or Description) panics.
type panicking struct{ name bool }

func (p panicking) Name() string {
	if p.name {
		panic("no name")
	}
	return "p"
}

func (p panicking) Description() string { panic("no description") }

func (panicking) Call(context.Context, string) (string, error) { return "", nil }
