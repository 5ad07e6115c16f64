package resilienteino

import (
	"context"
	"fmt"
	"strings"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/resilientgo/resilient/internal/compact"
)

// A Compactor shrinks a conversation that overflowed the model's context
// window. It must not modify the messages it is given (they are the
// caller's) and must keep every assistant message with tool calls together
// with its tool messages: providers reject orphaned tool results. It
// returns [ErrCannotCompact] when nothing can be dropped. Compactors must be
// safe for concurrent use.
type Compactor interface {
	Compact(ctx context.Context, messages []*schema.Message) ([]*schema.Message, error)
}

// CompactorFunc adapts a function to [Compactor].
type CompactorFunc func(ctx context.Context, messages []*schema.Message) ([]*schema.Message, error)

// Compact calls f.
func (f CompactorFunc) Compact(ctx context.Context, messages []*schema.Message) ([]*schema.Message, error) {
	return f(ctx, messages)
}

// ErrCannotCompact: the conversation has nothing left to drop (a single turn
// too large for the window).
var ErrCannotCompact = compact.ErrCannotCompact

// DropOldest is the default compactor: it keeps the system messages and the
// most recent half of the turns, drops the rest, and says so in a system
// message ("[Earlier conversation compacted: 6 messages were dropped to fit
// the context window.]"). An assistant message with tool calls and the tool
// messages after it are dropped or kept together, and the kept part starts
// with a user message when the conversation allows it. The same plan as
// package llms's DropOldest.
func DropOldest() Compactor { return CompactorFunc(dropOldest) }

func dropOldest(_ context.Context, messages []*schema.Message) ([]*schema.Message, error) {
	plan, err := compact.DropOldest(messages, roles)
	if err != nil {
		return nil, err
	}
	return compact.Assemble(plan, schema.SystemMessage(compact.Marker(plan.Count()))), nil
}

// Summarize returns a compactor that asks m (a cheaper model will do) to
// summarise the turns DropOldest would drop, and keeps that summary in their
// place. If the summary fails, it drops them.
func Summarize(m model.BaseChatModel) Compactor {
	return CompactorFunc(func(ctx context.Context, messages []*schema.Message) ([]*schema.Message, error) {
		plan, err := compact.DropOldest(messages, roles)
		if err != nil {
			return nil, err
		}
		var transcript strings.Builder
		for _, g := range plan.Dropped {
			for _, msg := range g {
				fmt.Fprintf(&transcript, "%s: %s\n", msg.Role, textOf(msg))
			}
		}
		out, err := m.Generate(ctx, []*schema.Message{schema.UserMessage(compact.SummaryPrompt(transcript.String()))})
		if err != nil || out == nil || strings.TrimSpace(out.Content) == "" {
			return dropOldest(ctx, messages)
		}
		return compact.Assemble(plan, schema.SystemMessage(compact.SummaryMarker(strings.TrimSpace(out.Content)))), nil
	})
}

// roles says what an Eino message is, for package compact. A nil message
// is a turn of its own.
var roles = compact.Roles[*schema.Message]{
	System:     func(m *schema.Message) bool { return m != nil && m.Role == schema.System },
	User:       func(m *schema.Message) bool { return m != nil && m.Role == schema.User },
	CallsTools: func(m *schema.Message) bool { return m != nil && m.Role == schema.Assistant && len(m.ToolCalls) > 0 },
	ToolResult: func(m *schema.Message) bool { return m != nil && m.Role == schema.Tool },
}

// textOf writes a message out for a summary.
func textOf(m *schema.Message) string {
	if m == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(m.Content)
	for _, c := range m.ToolCalls {
		fmt.Fprintf(&b, "[called %s(%s)]", c.Function.Name, c.Function.Arguments)
	}
	return b.String()
}
