package dispatch_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"go.uber.org/goleak"

	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// counted is a tool that counts its calls and answers with fn, which is
// given the call's number from 1.
type counted struct {
	tools.Callable
	n atomic.Int32
}

func newCounted(name string, fn func(ctx context.Context, n int, input string) (string, error)) *counted {
	c := &counted{}
	c.Callable = tools.Func(name, "the "+name+" tool", func(ctx context.Context, input string) (string, error) {
		return fn(ctx, int(c.n.Add(1)), input)
	})
	return c
}

func (c *counted) calls() int { return int(c.n.Load()) }

// lookupOrders knows order 4471 only.
func lookupOrders(_ context.Context, _ int, input string) (string, error) {
	if input != "4471" {
		return "", taxonomy.ToolErrorf("no order '%s'", input)
	}
	return "order 4471: shipped Tuesday", nil
}

// charges answers with a transaction numbered after the call.
func charges(_ context.Context, n int, input string) (string, error) {
	return fmt.Sprintf("charged %s: txn-%d", input, n), nil
}

func mustWrap(t testing.TB, tool tools.Callable, opts ...tools.Option) *tools.Tool {
	t.Helper()
	w, err := tools.New(tool, opts...)
	if err != nil {
		t.Fatalf("tools.New: %v", err)
	}
	return w
}

// returns is a tool named t that answers every call with out and err.
func returns(out string, err error) *counted {
	return newCounted("t", func(context.Context, int, string) (string, error) { return out, err })
}
