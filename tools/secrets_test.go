package tools_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/tmc/langchaingo/llms"
	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient/internal/redact/redacttest"
	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

// leaky answers its i-th call with a ToolError quoting the i-th secret of
// the kit, as a tool that passes a server's error on to the model does.
func leaky(secrets []redacttest.Secret) *counted {
	return newCounted("orders", func(_ context.Context, _ int, input string) (string, error) {
		i, _ := strconv.Atoi(input)
		return "", taxonomy.ToolErrorf("the orders service said: %s", secrets[i].Text)
	})
}

// The text of a ToolError reaches the model with its credentials redacted
// and the rest as the author wrote it, through Call and through a
// Dispatcher.
func TestToolErrorTextIsRedacted(t *testing.T) {
	secrets := redacttest.Secrets()
	w := mustWrap(t, leaky(secrets))
	d := mustDispatcher(t, []lctools.Tool{w})
	calls := make([]llms.ToolCall, len(secrets))
	for i := range secrets {
		calls[i] = toolCall(strconv.Itoa(i), "orders", strconv.Itoa(i))
	}
	msgs, err := d.Dispatch(t.Context(), calls)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range secrets {
		want := "the orders service said: " + tools.Redact(s.Text)
		out, err := w.Call(t.Context(), strconv.Itoa(i))
		if out != want || err != nil || strings.Contains(out, s.Secret) {
			t.Errorf("%s: Call: got (%q, %v), want (%q, nil)", s.Shape, out, err, want)
		}
		if got := msgs[i].Parts[0].(llms.ToolCallResponse).Content; got != want {
			t.Errorf("%s: Dispatch: got %q, want %q", s.Shape, got, want)
		}
	}
}

// The Redactor option decides what the model reads, as what is logged.
func TestRedactorAppliesToToolErrors(t *testing.T) {
	mask := func(s string) string { return strings.ReplaceAll(s, "4471", "####") }
	w := mustWrap(t, returns("", taxonomy.NewToolError("order 4471 belongs to another customer")), tools.Redactor(mask))
	if out, err := w.Call(t.Context(), "in"); out != "order #### belongs to another customer" || err != nil {
		t.Errorf("got (%q, %v), want the text through the redactor", out, err)
	}
}

// A nil *Tool, a nil context and a nil *Dispatcher end the run with a
// programming error; nothing panics.
func TestNilToolAndNilContext(t *testing.T) {
	var nilTool *tools.Tool
	var nilCtx context.Context
	var nilDispatcher *tools.Dispatcher
	w := mustWrap(t, returns("ok", nil))
	calls := []llms.ToolCall{toolCall("1", "t", "in")}
	_, nilToolErr := nilTool.Call(t.Context(), "in")
	_, nilCtxErr := w.Call(nilCtx, "in")
	_, nilDispatcherErr := nilDispatcher.Dispatch(t.Context(), calls)
	_, dispatchNilCtxErr := mustDispatcher(t, []lctools.Tool{w}).Dispatch(nilCtx, calls)
	for _, tt := range []struct {
		name string
		err  error
		text string
	}{
		{"nil *Tool", nilToolErr, "invalid tool: tools: nil *Tool: build it with tools.New or resilient.Tool"},
		{"nil context", nilCtxErr, "t: tools: nil context"},
		{"nil *Dispatcher", nilDispatcherErr, "tools: nil *Dispatcher: build it with tools.NewDispatcher"},
		{"Dispatch with a nil context", dispatchNilCtxErr, "tools: nil context"},
	} {
		cause := tt.err
		if fatal := (*taxonomy.FatalToolError)(nil); errors.As(cause, &fatal) {
			cause = fatal.Cause
		}
		if tt.err == nil || !strings.HasSuffix(tt.err.Error(), tt.text) || taxonomy.Classify(cause).Kind != taxonomy.Programming {
			t.Errorf("%s: got %v (%v), want a programming error ending in %q", tt.name, tt.err, taxonomy.Classify(cause), tt.text)
		}
	}
	var fatal *taxonomy.FatalToolError
	if !errors.As(nilCtxErr, &fatal) || fatal.Tool != "t" {
		t.Errorf("nil context: got %#v, want a FatalToolError naming t", nilCtxErr)
	}
	if nilTool.Name() != "invalid tool" || nilTool.Description() != "" || nilTool.Unwrap() != nil || nilTool.Idempotent() ||
		nilTool.Breaker() != nil || nilTool.Err() == nil {
		t.Error("the methods of a nil *Tool do not say it is unusable")
	}
}
