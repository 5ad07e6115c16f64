package dispatch_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/tmc/langchaingo/llms"
	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient/internal/redact/redacttest"
	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
	"github.com/resilientgo/resilient/tools/dispatch"
)

// The tool messages of a Dispatcher carry the text of ToolErrors with
// their credentials redacted.
func TestDispatchRedactsToolErrors(t *testing.T) {
	secrets := redacttest.Secrets()
	orders := newCounted("orders", func(_ context.Context, _ int, input string) (string, error) {
		i, _ := strconv.Atoi(input)
		return "", taxonomy.ToolErrorf("the orders service said: %s", secrets[i].Text)
	})
	d := mustDispatcher(t, []lctools.Tool{mustWrap(t, orders)})
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
		if got := msgs[i].Parts[0].(llms.ToolCallResponse).Content; got != want || strings.Contains(got, s.Secret) {
			t.Errorf("%s: got %q, want %q", s.Shape, got, want)
		}
	}
}

// A nil *Dispatcher and a nil context make Dispatch return a programming
// error; nothing panics.
func TestDispatchNilDispatcherAndNilContext(t *testing.T) {
	var nilDispatcher *dispatch.Dispatcher
	var nilCtx context.Context
	calls := []llms.ToolCall{toolCall("1", "t", "in")}
	_, nilDispatcherErr := nilDispatcher.Dispatch(t.Context(), calls)
	_, nilCtxErr := mustDispatcher(t, []lctools.Tool{mustWrap(t, returns("ok", nil))}).Dispatch(nilCtx, calls)
	for _, tt := range []struct {
		name string
		err  error
		text string
	}{
		{"nil *Dispatcher", nilDispatcherErr, "dispatch: nil *Dispatcher: build it with dispatch.New"},
		{"nil context", nilCtxErr, "dispatch: nil context"},
	} {
		if tt.err == nil || tt.err.Error() != tt.text || taxonomy.Classify(tt.err).Kind != taxonomy.Programming {
			t.Errorf("%s: got %v, want the programming error %q", tt.name, tt.err, tt.text)
		}
	}
}
