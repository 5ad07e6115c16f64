package tools_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/run"
	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

// Every call ends with one CallEnd event that says how it ended, for
// observers installed through Middleware (as resilient.Observe does).
func TestCallEndReportsTheOutcome(t *testing.T) {
	failing := func(err error) func(context.Context, int, string) (string, error) {
		return func(context.Context, int, string) (string, error) { return "", err }
	}
	tests := []struct {
		name  string
		fn    func(context.Context, int, string) (string, error)
		opts  []tools.Option
		calls int
		want  observe.Reason
		typ   string
	}{
		{"ok", charges, nil, 1, observe.Reason(0), ""},
		{"tool error", failing(taxonomy.NewToolError("no order")), nil, 1, observe.ReasonToolError, ""},
		{"fatal", failing(taxonomy.NewFatalToolError(errors.New("auth"))), nil, 1, observe.ReasonFatal, ""},
		{"internal", failing(errors.New("down")), nil, 1, observe.ReasonInternal, "*errors.errorString"},
		{"timeout", blocksUntilDone, []tools.Option{tools.Timeout(time.Second)}, 1, observe.ReasonTimeout, "context.deadlineExceededError"},
		{"circuit open", failing(errors.New("down")), []tools.Option{tools.Middleware(middleware.CircuitBreaker(1, time.Minute))}, 2, observe.ReasonCircuitOpen, ""},
		{"replayed", charges, []tools.Option{tools.Idempotent(nil)}, 2, observe.ReasonReplayed, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var rec observetest.Recorder
				w := mustWrap(t, newCounted("charge", tt.fn), append(tt.opts, tools.Middleware(middleware.Observe(&rec)))...)
				for range tt.calls {
					_, _ = w.Call(t.Context(), "order 4471")
				}
				ends := observetest.Of[observe.CallEnd](&rec)
				if len(ends) != tt.calls {
					t.Fatalf("got %d CallEnd events, want %d", len(ends), tt.calls)
				}
				last := ends[len(ends)-1]
				if last.Reason != tt.want || last.Type != tt.typ || last.Target.Name != "charge" || last.Target.Operation != observe.OperationExecuteTool {
					t.Errorf("CallEnd: got %+v, want outcome %v, type %q", last, tt.want, tt.typ)
				}
			})
		})
	}
	t.Run("stuck", func(t *testing.T) {
		var rec observetest.Recorder
		w := mustWrap(t, newCounted("charge", charges), tools.Middleware(middleware.Observe(&rec)))
		ctx := run.New(t.Context(), run.RepeatLimit(1))
		_, _ = w.Call(ctx, "a")
		_, _ = w.Call(ctx, "a")
		if ends := observetest.Of[observe.CallEnd](&rec); len(ends) != 2 || ends[1].Reason != observe.ReasonStuck {
			t.Errorf("CallEnd events: %+v", ends)
		}
	})
}
