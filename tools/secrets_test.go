package tools_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/resilientgo/resilient/internal/redact/redacttest"
	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

// The text of a ToolError reaches the model with its credentials redacted
// and the rest as the author wrote it.
func TestToolErrorTextIsRedacted(t *testing.T) {
	secrets := redacttest.Secrets()
	w := mustWrap(t, newCounted("orders", func(_ context.Context, _ int, input string) (string, error) {
		i, _ := strconv.Atoi(input)
		return "", taxonomy.ToolErrorf("the orders service said: %s", secrets[i].Text)
	}))
	for i, s := range secrets {
		want := "the orders service said: " + tools.Redact(s.Text)
		out, err := w.Call(t.Context(), strconv.Itoa(i))
		if out != want || err != nil || strings.Contains(out, s.Secret) {
			t.Errorf("%s: got (%q, %v), want (%q, nil)", s.Shape, out, err, want)
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

// A nil *Tool and a nil context end the run with a FatalToolError whose
// cause is a programming error; nothing panics.
func TestNilToolAndNilContext(t *testing.T) {
	var nilTool *tools.Tool
	var nilCtx context.Context
	_, nilToolErr := nilTool.Call(t.Context(), "in")
	_, nilCtxErr := mustWrap(t, returns("ok", nil)).Call(nilCtx, "in")
	for _, tt := range []struct {
		name, tool string
		err        error
		cause      string
	}{
		{"nil *Tool", "invalid tool", nilToolErr, "tools: nil *Tool: build it with tools.New or resilient.Tool"},
		{"nil context", "t", nilCtxErr, "tools: nil context"},
	} {
		var fatal *taxonomy.FatalToolError
		if !errors.As(tt.err, &fatal) || fatal.Tool != tt.tool || fatal.Cause.Error() != tt.cause ||
			taxonomy.Classify(fatal.Cause).Kind != taxonomy.Programming {
			t.Errorf("%s: got %v, want a FatalToolError of %s caused by the programming error %q", tt.name, tt.err, tt.tool, tt.cause)
		}
	}
	if nilTool.Name() != "invalid tool" || nilTool.Description() != "" || nilTool.Unwrap() != nil || nilTool.Idempotent() ||
		nilTool.Breaker() != nil || nilTool.Err() == nil {
		t.Error("the methods of a nil *Tool do not say it is unusable")
	}
}
