// Package scripted provides a scripted llms.Model for tests and examples: a
// sequence of steps replayed one per call, with a call counter and a record
// of the messages each call received. Unlike langchaingo's llms/fake it is
// safe for concurrent use and can script errors, tool calls and streams.
package scripted

import (
	"context"
	"slices"
	"sync"

	"github.com/tmc/langchaingo/llms"
)

// Step is one scripted answer.
type Step struct {
	// Text is the reply's content.
	Text string
	// ToolCalls are returned in the reply's first choice.
	ToolCalls []llms.ToolCall
	// StopReason is the reply's stop reason; "stop" when empty.
	StopReason string
	// Chunks, when set, are sent to the streaming function one by one before
	// the reply (or the error) is returned; Text defaults to their
	// concatenation.
	Chunks []string
	// Err, when set, is returned instead of a reply (after any chunks).
	Err error
	// Func, when set, answers instead of the fields above.
	Func func(ctx context.Context, messages []llms.MessageContent, opts llms.CallOptions) (*llms.ContentResponse, error)
}

// Reply returns a step answering text.
func Reply(text string) Step { return Step{Text: text} }

// Fail returns a step failing with err.
func Fail(err error) Step { return Step{Err: err} }

// CallTool returns a step asking for one tool call with JSON arguments.
func CallTool(id, name, arguments string) Step {
	return Step{StopReason: "tool_calls", ToolCalls: []llms.ToolCall{{
		ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: name, Arguments: arguments},
	}}}
}

// Model replays its steps, one per call; the last step repeats. It is safe
// for concurrent use.
type Model struct {
	mu       sync.Mutex
	steps    []Step
	requests [][]llms.MessageContent
}

var _ llms.Model = (*Model)(nil)

// New returns a model that replays steps. With no steps it answers "ok".
func New(steps ...Step) *Model {
	if len(steps) == 0 {
		steps = []Step{Reply("ok")}
	}
	return &Model{steps: steps}
}

// GenerateContent answers with the next step.
func (m *Model) GenerateContent(ctx context.Context, messages []llms.MessageContent, options ...llms.CallOption) (*llms.ContentResponse, error) {
	m.mu.Lock()
	step := m.steps[min(len(m.requests), len(m.steps)-1)]
	m.requests = append(m.requests, slices.Clone(messages))
	m.mu.Unlock()

	var opts llms.CallOptions
	for _, o := range options {
		o(&opts)
	}
	if step.Func != nil {
		return step.Func(ctx, messages, opts)
	}
	text := step.Text
	for _, c := range step.Chunks {
		if opts.StreamingFunc != nil {
			if err := opts.StreamingFunc(ctx, []byte(c)); err != nil {
				return nil, err
			}
		}
		if step.Text == "" {
			text += c
		}
	}
	if step.Err != nil {
		return nil, step.Err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	stop := step.StopReason
	if stop == "" {
		stop = "stop"
	}
	choice := &llms.ContentChoice{Content: text, StopReason: stop, ToolCalls: step.ToolCalls}
	if len(step.ToolCalls) > 0 {
		choice.FuncCall = step.ToolCalls[0].FunctionCall
	}
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{choice}}, nil
}

// Call answers a single prompt through GenerateContent.
func (m *Model) Call(ctx context.Context, prompt string, options ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, prompt, options...)
}

// Calls returns how many calls the model received.
func (m *Model) Calls() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.requests)
}

// Requests returns a copy of the messages of every call received.
func (m *Model) Requests() [][]llms.MessageContent {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.requests)
}
