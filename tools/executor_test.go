package tools_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/run"

	"github.com/resilientgo/resilient/internal/scripted"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

// These tests run langchaingo's real agents.Executor with a scripted model;
// the model's tool calls carry the agent's single argument, __arg1.

// wantFatal checks that err is a FatalToolError naming tool, whose cause
// matches sentinel and reads cause.
func wantFatal(t *testing.T, err error, tool string, sentinel error, cause string) {
	t.Helper()
	var fatal *taxonomy.FatalToolError
	if !errors.As(err, &fatal) || fatal.Tool != tool || !errors.Is(err, sentinel) {
		t.Fatalf("run error: got %v, want a FatalToolError naming %s and matching %v", err, tool, sentinel)
	}
	if got := fatal.Cause.Error(); got != cause {
		t.Errorf("cause: got %q, want %q", got, cause)
	}
}

func arg(s string) string { return fmt.Sprintf(`{"__arg1":%q}`, s) }

func lookupOrders(_ context.Context, _ int, input string) (string, error) {
	if input != "4471" {
		return "", taxonomy.ToolErrorf("no order '%s'", input)
	}
	return "order 4471: shipped Tuesday", nil
}

// The model asks for order 9999, is told "no order '9999'", asks for 4471
// and answers.
func TestExecutorToolErrorReachesTheModel(t *testing.T) {
	lookup := newCounted("lookup", lookupOrders)
	model := scripted.New(
		scripted.CallTool("c1", "lookup", arg("9999")),
		scripted.CallTool("c2", "lookup", arg("4471")),
		scripted.Reply("Order 4471 shipped on Tuesday."),
	)
	got, err := runAgent(t.Context(), model, mustWrap(t, lookup))
	if err != nil || got != "Order 4471 shipped on Tuesday." {
		t.Fatalf("run: got (%q, %v), want the answer", got, err)
	}
	if got, want := observations(model.Requests()[1]), []string{"no order '9999'"}; !slices.Equal(got, want) {
		t.Errorf("observations in the 2nd request: got %q, want %q", got, want)
	}
	if got, want := lookup.inputs, []string{"9999", "4471"}; !slices.Equal(got, want) {
		t.Errorf("tool inputs: got %q, want %q", got, want)
	}
}

// A FatalToolError ends the run; the model is called once.
func TestExecutorFatalToolErrorAborts(t *testing.T) {
	authErr := &taxonomy.FatalToolError{Cause: errors.New("payment authorization failed")}
	charge := newCounted("charge", func(context.Context, int, string) (string, error) { return "", authErr })
	model := scripted.New(scripted.CallTool("c1", "charge", arg("4471")), scripted.Reply("unreachable"))
	_, err := runAgent(t.Context(), model, mustWrap(t, charge))
	wantFatal(t, err, "charge", authErr.Cause, "payment authorization failed")
	if model.Calls() != 1 {
		t.Errorf("model calls: got %d, want 1", model.Calls())
	}
	if authErr.Tool != "" {
		t.Errorf("the author's error was changed: Tool = %q", authErr.Tool)
	}
}

// An internal error's text never reaches the model; the logs have it,
// redacted.
func TestExecutorInternalErrorIsHidden(t *testing.T) {
	var logs observetest.LogBuffer
	lookup := newCounted("lookup", func(context.Context, int, string) (string, error) {
		return "", errors.New("orders db: login with key sk-live-SECRET123 refused")
	})
	model := scripted.New(
		scripted.CallTool("c1", "lookup", arg("4471")),
		scripted.Reply("Sorry, the order system is down."),
	)
	got, err := runAgent(t.Context(), model, mustWrap(t, lookup, tools.Logger(logs.Logger())))
	if err != nil || got != "Sorry, the order system is down." {
		t.Fatalf("run: got (%q, %v), want the apology", got, err)
	}
	if got, want := observations(model.Requests()[1]), []string{"Error: lookup failed internally (*errors.errorString)"}; !slices.Equal(got, want) {
		t.Errorf("observations: got %q, want %q", got, want)
	}
	if sent := fmt.Sprintf("%+v", model.Requests()); strings.Contains(sent, "SECRET123") || strings.Contains(sent, "orders db") {
		t.Errorf("the error text reached the model: %s", sent)
	}
	want := `level=ERROR msg="tool failed internally" tool=lookup type=*errors.errorString err="middleware: lookup failed after 1 attempt: attempt 1: orders db: login with key [REDACTED] refused [unknown, no rule matched]"`
	if got := logs.String(); !strings.Contains(got, want) || strings.Contains(got, "SECRET123") {
		t.Errorf("logs:\n%s\nwant a line containing\n%s\nand no secret", got, want)
	}
}

func TestExecutorChargeTwiceMovesMoneyOnce(t *testing.T) {
	charge := newCounted("charge", func(_ context.Context, n int, input string) (string, error) {
		return fmt.Sprintf("charged %s: txn-%d", input, n), nil
	})
	model := scripted.New(
		scripted.CallTool("c1", "charge", arg("order 4471, 2499 INR")),
		scripted.CallTool("c2", "charge", arg("order 4471, 2499 INR")),
		scripted.Reply("Payment complete."),
	)
	got, err := runAgent(t.Context(), model, mustWrap(t, charge, tools.Idempotent(nil)))
	if err != nil || got != "Payment complete." {
		t.Fatalf("run: got (%q, %v)", got, err)
	}
	if charge.calls() != 1 {
		t.Errorf("charges: got %d, want 1", charge.calls())
	}
	want := []string{"charged order 4471, 2499 INR: txn-1", "already done: charged order 4471, 2499 INR: txn-1"}
	if got := observations(model.Requests()[2]); !slices.Equal(got, want) {
		t.Errorf("observations: got %q, want %q", got, want)
	}
}

func TestExecutorBreakerOpensAndEndsTheRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pricing := newCounted("pricing", func(context.Context, int, string) (string, error) {
			return "", errors.New("dial tcp 10.0.0.7:443: connection refused")
		})
		model := scripted.New(
			scripted.CallTool("c1", "pricing", arg("sku-1")),
			scripted.CallTool("c2", "pricing", arg("sku-2")),
			scripted.CallTool("c3", "pricing", arg("sku-3")),
			scripted.Reply("unreachable"),
		)
		_, err := runAgent(t.Context(), model, mustWrap(t, pricing, tools.Middleware(middleware.CircuitBreaker(2, time.Minute))))
		wantFatal(t, err, "pricing", middleware.ErrCircuitOpen, "pricing circuit is open; stopping instead of retrying")
		if pricing.calls() != 2 || model.Calls() != 3 {
			t.Errorf("got %d tool calls and %d model calls, want 2 and 3", pricing.calls(), model.Calls())
		}
	})
}

func TestExecutorSurvivesAPanickingTool(t *testing.T) {
	lookup := newCounted("lookup", func(_ context.Context, _ int, input string) (string, error) {
		var orders []string
		return orders[len(input)], nil // index out of range
	})
	model := scripted.New(scripted.CallTool("c1", "lookup", arg("4471")), scripted.Reply("Sorry."))
	got, err := runAgent(t.Context(), model, mustWrap(t, lookup))
	if err != nil || got != "Sorry." {
		t.Fatalf("run: got (%q, %v)", got, err)
	}
	if got, want := observations(model.Requests()[1]), []string{"Error: lookup failed internally (panic)"}; !slices.Equal(got, want) {
		t.Errorf("observations: got %q, want %q", got, want)
	}
}

func TestExecutorRepeatLimitStopsALoopingModel(t *testing.T) {
	lookup := newCounted("lookup", lookupOrders)
	model := scripted.New(scripted.CallTool("c1", "lookup", arg("9999"))) // forever
	ctx := run.New(t.Context(), run.RepeatLimit(2))
	_, err := runAgent(ctx, model, mustWrap(t, lookup))
	wantFatal(t, err, "lookup", tools.ErrStuck, "stuck: lookup called 3 times with the same input")
	if lookup.calls() != 2 || model.Calls() != 3 {
		t.Errorf("got %d tool calls and %d model calls, want 2 and 3", lookup.calls(), model.Calls())
	}
}
