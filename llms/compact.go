package llms

import (
	"context"
	"errors"
	"fmt"
	"strings"

	lcllms "github.com/tmc/langchaingo/llms"
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
var ErrCannotCompact = errors.New("llms: nothing left to compact")

// DropOldest is the default compactor: it keeps the system messages and the
// most recent half of the turns, drops the rest, and says so in a system
// message ("[Earlier conversation compacted: 6 messages were dropped to fit
// the context window.]"). An assistant message that calls tools and the tool
// responses after it are dropped or kept together, and the kept part starts
// with a user message when the conversation allows it (Anthropic requires
// one first).
func DropOldest() Compactor { return CompactorFunc(dropOldest) }

func dropOldest(_ context.Context, messages []lcllms.MessageContent) ([]lcllms.MessageContent, error) {
	system, groups := split(messages)
	cut, err := cutPoint(groups)
	if err != nil {
		return nil, err
	}
	dropped := 0
	for _, g := range groups[:cut] {
		dropped += len(g)
	}
	marker := fmt.Sprintf("[Earlier conversation compacted: %d messages were dropped to fit the context window.]", dropped)
	return assemble(system, marker, groups[cut:]), nil
}

// Summarize returns a compactor that asks model (a cheaper one will do) to
// summarise the turns DropOldest would drop, and keeps that summary in their
// place. If the summary call fails, it falls back to dropping them.
func Summarize(model lcllms.Model) Compactor {
	return CompactorFunc(func(ctx context.Context, messages []lcllms.MessageContent) ([]lcllms.MessageContent, error) {
		system, groups := split(messages)
		cut, err := cutPoint(groups)
		if err != nil {
			return nil, err
		}
		var transcript strings.Builder
		for _, g := range groups[:cut] {
			for _, m := range g {
				fmt.Fprintf(&transcript, "%s: %s\n", m.Role, textOf(m))
			}
		}
		prompt := "Summarise this conversation so far in a few sentences, keeping every fact, decision and open question:\n\n" + transcript.String()
		summary, err := lcllms.GenerateFromSinglePrompt(ctx, model, prompt)
		if err != nil || strings.TrimSpace(summary) == "" {
			return dropOldest(ctx, messages)
		}
		return assemble(system, "[Summary of the earlier conversation: "+strings.TrimSpace(summary)+"]", groups[cut:]), nil
	})
}

// split separates the system messages from the other messages, grouped so
// that an assistant message with tool calls and the tool responses after it
// form one group.
func split(messages []lcllms.MessageContent) (system []lcllms.MessageContent, groups [][]lcllms.MessageContent) {
	for _, m := range messages {
		switch {
		case m.Role == lcllms.ChatMessageTypeSystem:
			system = append(system, m)
		case m.Role == lcllms.ChatMessageTypeTool && len(groups) > 0 && startsToolGroup(groups[len(groups)-1]):
			groups[len(groups)-1] = append(groups[len(groups)-1], m)
		default:
			groups = append(groups, []lcllms.MessageContent{m})
		}
	}
	return system, groups
}

func startsToolGroup(g []lcllms.MessageContent) bool {
	for _, p := range g[0].Parts {
		if _, ok := p.(lcllms.ToolCall); ok {
			return true
		}
	}
	return false
}

// cutPoint chooses how many groups to drop: the oldest half, at least one,
// never the last; then more, if needed, so that the kept part starts with a
// user message.
func cutPoint(groups [][]lcllms.MessageContent) (int, error) {
	if len(groups) < 2 {
		return 0, ErrCannotCompact
	}
	cut := max(1, len(groups)/2)
	for i := cut; i < len(groups); i++ {
		if r := groups[i][0].Role; r == lcllms.ChatMessageTypeHuman || r == lcllms.ChatMessageTypeGeneric {
			return i, nil
		}
	}
	return cut, nil
}

// assemble returns a new slice: the system messages, a marker saying what
// happened, and the kept groups.
func assemble(system []lcllms.MessageContent, marker string, kept [][]lcllms.MessageContent) []lcllms.MessageContent {
	out := make([]lcllms.MessageContent, 0, len(system)+1+len(kept)*2)
	out = append(out, system...)
	// Anthropic's client concatenates system messages, so the marker starts
	// on a line of its own.
	out = append(out, lcllms.TextParts(lcllms.ChatMessageTypeSystem, "\n"+marker))
	for _, g := range kept {
		out = append(out, g...)
	}
	return out
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
