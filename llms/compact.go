package llms

import (
	"context"
	"fmt"
	"strings"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/internal/compact"
)

// A Compactor shrinks a conversation that overflowed the model's context
// window. It must not modify the messages it is given (they are the
// caller's) and must keep every assistant tool-call message together with
// its tool responses: providers reject orphaned tool results. It returns
// [ErrCannotCompact] when nothing can be dropped. Compactors must be safe for
// concurrent use.
type Compactor interface {
	Compact(ctx context.Context, messages []lcllms.MessageContent) ([]lcllms.MessageContent, error)
}

// CompactorFunc adapts a function to [Compactor].
type CompactorFunc func(ctx context.Context, messages []lcllms.MessageContent) ([]lcllms.MessageContent, error)

// Compact calls f.
func (f CompactorFunc) Compact(ctx context.Context, messages []lcllms.MessageContent) ([]lcllms.MessageContent, error) {
	return f(ctx, messages)
}

// ErrCannotCompact: the conversation has nothing left to drop (a single turn
// too large for the window).
var ErrCannotCompact = compact.ErrCannotCompact

// DropOldest is the default compactor: it keeps the system messages and the
// most recent half of the turns, drops the rest, and says so in a system
// message ("[Earlier conversation compacted: 6 messages were dropped to fit
// the context window.]"). An assistant message that calls tools and the tool
// responses after it are dropped or kept together, and the kept part starts
// with a user message when the conversation allows it (Anthropic requires
// one first).
func DropOldest() Compactor { return CompactorFunc(dropOldest) }

func dropOldest(_ context.Context, messages []lcllms.MessageContent) ([]lcllms.MessageContent, error) {
	plan, err := compact.DropOldest(messages, roles)
	if err != nil {
		return nil, err
	}
	return compact.Assemble(plan, marker(compact.Marker(plan.Count()))), nil
}

// Summarize returns a compactor that asks model (a cheaper one will do) to
// summarise the turns DropOldest would drop, and keeps that summary in their
// place. If the summary call fails, it falls back to dropping them.
func Summarize(model lcllms.Model) Compactor {
	return CompactorFunc(func(ctx context.Context, messages []lcllms.MessageContent) ([]lcllms.MessageContent, error) {
		plan, err := compact.DropOldest(messages, roles)
		if err != nil {
			return nil, err
		}
		var transcript strings.Builder
		for _, g := range plan.Dropped {
			for _, m := range g {
				fmt.Fprintf(&transcript, "%s: %s\n", m.Role, textOf(m))
			}
		}
		summary, err := lcllms.GenerateFromSinglePrompt(ctx, model, compact.SummaryPrompt(transcript.String()))
		if err != nil || strings.TrimSpace(summary) == "" {
			return dropOldest(ctx, messages)
		}
		return compact.Assemble(plan, marker(compact.SummaryMarker(strings.TrimSpace(summary)))), nil
	})
}

// roles says what a langchaingo message is, for package compact.
var roles = compact.Roles[lcllms.MessageContent]{
	System: func(m lcllms.MessageContent) bool { return m.Role == lcllms.ChatMessageTypeSystem },
	User: func(m lcllms.MessageContent) bool {
		return m.Role == lcllms.ChatMessageTypeHuman || m.Role == lcllms.ChatMessageTypeGeneric
	},
	CallsTools: func(m lcllms.MessageContent) bool {
		for _, p := range m.Parts {
			if _, ok := p.(lcllms.ToolCall); ok {
				return true
			}
		}
		return false
	},
	ToolResult: func(m lcllms.MessageContent) bool { return m.Role == lcllms.ChatMessageTypeTool },
}

// marker is the system message that says what compaction did. Anthropic's
// client concatenates system messages, so it starts on a line of its own.
func marker(text string) lcllms.MessageContent {
	return lcllms.TextParts(lcllms.ChatMessageTypeSystem, "\n"+text)
}

func textOf(m lcllms.MessageContent) string {
	var b strings.Builder
	for _, p := range m.Parts {
		switch p := p.(type) {
		case lcllms.TextContent:
			b.WriteString(p.Text)
		case lcllms.ToolCall:
			if p.FunctionCall != nil {
				fmt.Fprintf(&b, "[called %s(%s)]", p.FunctionCall.Name, p.FunctionCall.Arguments)
			}
		case lcllms.ToolCallResponse:
			fmt.Fprintf(&b, "[%s returned: %s]", p.Name, p.Content)
		}
	}
	return b.String()
}
