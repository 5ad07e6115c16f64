package dispatch_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/observe/observetest"

	"github.com/tmc/langchaingo/llms"
	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
	"github.com/resilientgo/resilient/tools/dispatch"
)

func toolCall(id, name, args string) llms.ToolCall {
	return llms.ToolCall{ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: name, Arguments: args}}
}

func toolMessage(id, name, content string) llms.MessageContent {
	return llms.MessageContent{Role: llms.ChatMessageTypeTool,
		Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: id, Name: name, Content: content}}}
}

func mustDispatcher(t *testing.T, ts []lctools.Tool, opts ...dispatch.Option) *dispatch.Dispatcher {
	t.Helper()
	d, err := dispatch.New(ts, opts...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return d
}

// sleeper answers with its input after sleeping as many seconds as the
// input says, and records how many calls ran at once.
type sleeper struct {
	mu              sync.Mutex
	running, maxRan int
}

func (s *sleeper) tool() lctools.Tool {
	return tools.Func("sleep", "sleeps", func(ctx context.Context, input string) (string, error) {
		s.mu.Lock()
		s.running++
		s.maxRan = max(s.maxRan, s.running)
		s.mu.Unlock()
		var seconds int
		_, _ = fmt.Sscan(input, &seconds)
		time.Sleep(time.Duration(seconds) * time.Second)
		s.mu.Lock()
		s.running--
		s.mu.Unlock()
		return "slept " + input, nil
	})
}

func TestDispatchAnswersInCallOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var s sleeper
		lookup := newCounted("lookup", lookupOrders)
		d := mustDispatcher(t, []lctools.Tool{s.tool(), lookup}, dispatch.Concurrent(4))
		calls := []llms.ToolCall{
			toolCall("a", "sleep", "3"),
			toolCall("b", "lookup", "9999"),
			toolCall("c", "refund", `{"order":"4471"}`),
			toolCall("d", "sleep", "1"),
		}
		msgs, err := d.Dispatch(t.Context(), calls)
		want := []llms.MessageContent{
			toolMessage("a", "sleep", "slept 3"),
			toolMessage("b", "lookup", "no order '9999'"),
			toolMessage("c", "refund", `there is no tool named "refund"; the available tools are: lookup, sleep`),
			toolMessage("d", "sleep", "slept 1"),
		}
		if err != nil || fmt.Sprint(msgs) != fmt.Sprint(want) {
			t.Errorf("got (%v, %v)\nwant %v", msgs, err, want)
		}
	})
}

func TestDispatchConcurrency(t *testing.T) {
	tests := []struct {
		name        string
		opts        []dispatch.Option
		wantElapsed time.Duration
		wantMax     int
	}{
		{"default: one after the other", nil, 4 * time.Second, 1},
		{"Concurrent(1): the same", []dispatch.Option{dispatch.Concurrent(1)}, 4 * time.Second, 1},
		{"Concurrent(2)", []dispatch.Option{dispatch.Concurrent(2)}, 2 * time.Second, 2},
		{"Concurrent(8)", []dispatch.Option{dispatch.Concurrent(8)}, time.Second, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var s sleeper
				d := mustDispatcher(t, []lctools.Tool{s.tool()}, tt.opts...)
				calls := []llms.ToolCall{toolCall("a", "sleep", "1"), toolCall("b", "sleep", "1"), toolCall("c", "sleep", "1"), toolCall("d", "sleep", "1")}
				start := time.Now()
				msgs, err := d.Dispatch(t.Context(), calls)
				if elapsed := time.Since(start); elapsed != tt.wantElapsed || s.maxRan != tt.wantMax || len(msgs) != 4 || err != nil {
					t.Errorf("got %d messages, %v, in %v with %d at once; want 4 in %v with %d at once",
						len(msgs), err, elapsed, s.maxRan, tt.wantElapsed, tt.wantMax)
				}
			})
		})
	}
}

func TestDispatchFatalStopsTheRun(t *testing.T) {
	lookup := newCounted("lookup", lookupOrders)
	charge := newCounted("charge", func(context.Context, int, string) (string, error) {
		return "", taxonomy.NewFatalToolError(errors.New("payment authorization failed"))
	})
	d := mustDispatcher(t, []lctools.Tool{lookup, charge})
	calls := []llms.ToolCall{toolCall("a", "lookup", "4471"), toolCall("b", "charge", "4471"), toolCall("c", "lookup", "4471")}
	msgs, err := d.Dispatch(t.Context(), calls)
	var fatal *taxonomy.FatalToolError
	if msgs != nil || !errors.As(err, &fatal) || fatal.Tool != "charge" {
		t.Errorf("got (%v, %v), want no messages and charge's fatal error", msgs, err)
	}
	if lookup.calls() != 1 {
		t.Errorf("lookup calls: got %d, want 1 (the call after the fatal one is not started)", lookup.calls())
	}
}

func TestDispatchUsesWrappedToolsAsTheyAre(t *testing.T) {
	charge := newCounted("charge", charges)
	d := mustDispatcher(t, []lctools.Tool{mustWrap(t, charge, tools.Idempotent(nil))})
	first, _ := d.Dispatch(t.Context(), []llms.ToolCall{toolCall("a", "charge", `{"order":"4471"}`)})
	second, _ := d.Dispatch(t.Context(), []llms.ToolCall{toolCall("b", "charge", `{"order":"4471"}`)})
	want := fmt.Sprint([]llms.MessageContent{toolMessage("a", "charge", `charged {"order":"4471"}: txn-1`)},
		[]llms.MessageContent{toolMessage("b", "charge", `already done: charged {"order":"4471"}: txn-1`)})
	if got := fmt.Sprint(first, second); got != want || charge.calls() != 1 {
		t.Errorf("got %s after %d charges, want %s after 1", got, charge.calls(), want)
	}
}

func TestDispatchWrapsTheOthersWithToolOptions(t *testing.T) {
	var logs observetest.LogBuffer
	broken := returns("", errors.New("token=abc123 rejected"))
	d := mustDispatcher(t, []lctools.Tool{broken}, dispatch.ToolOptions(tools.Logger(logs.Logger())))
	msgs, err := d.Dispatch(t.Context(), []llms.ToolCall{toolCall("a", "t", "{}")})
	if want := fmt.Sprint([]llms.MessageContent{toolMessage("a", "t", "Error: t failed internally (*errors.errorString)")}); fmt.Sprint(msgs) != want || err != nil {
		t.Errorf("got (%v, %v), want %s", msgs, err, want)
	}
	if !strings.Contains(logs.String(), "token=[REDACTED] rejected") {
		t.Errorf("logs:\n%s", logs.String())
	}
}

func TestNewRejectsInvalidInput(t *testing.T) {
	_, err := dispatch.New([]lctools.Tool{returns("", nil), nil, returns("", nil), (*tools.Tool)(nil)},
		dispatch.Concurrent(0), nil, dispatch.ToolOptions(tools.Timeout(-1)))
	for _, want := range []string{"dispatch: New: ", "Concurrent(0)", "nil option", "tool 1 is nil", "tool 3 is nil",
		"tools: t: middleware: Timeout(-1ns)"} {
		if !strings.Contains(fmt.Sprint(err), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
	_, err = dispatch.New([]lctools.Tool{returns("", nil), mustWrap(t, returns("", nil))})
	if want := `dispatch: New: two tools named "t"`; fmt.Sprint(err) != want {
		t.Errorf("duplicates: got %v, want %s", err, want)
	}
}

func TestAssistantMessage(t *testing.T) {
	calls := []llms.ToolCall{toolCall("a", "lookup", "4471"), toolCall("b", "charge", "4471")}
	got := dispatch.AssistantMessage(calls)
	want := llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{calls[0], calls[1]}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
