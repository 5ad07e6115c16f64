// Package compact chooses what to drop from a conversation that overflowed
// the model's context window, whatever the message type of the framework:
// the adapters (package llms for langchaingo's MessageContent, module
// resilienteino for Eino's schema.Message) say what each message is with
// [Roles] and build the compacted conversation from the [Plan].
package compact

import (
	"errors"
	"fmt"
)

// ErrCannotCompact: the conversation has nothing left to drop (a single turn
// too large for the window).
var ErrCannotCompact = errors.New("resilient: nothing left to compact")

// Roles says what a message of type M is.
type Roles[M any] struct {
	// System reports a system message: always kept.
	System func(M) bool
	// User reports a user's message: the kept part starts with one when
	// the conversation allows it (Anthropic requires one first).
	User func(M) bool
	// CallsTools reports an assistant message that calls tools: it and
	// the tool responses after it are dropped or kept together.
	CallsTools func(M) bool
	// ToolResult reports a tool's response to such a call.
	ToolResult func(M) bool
}

// A Plan is what compaction keeps of a conversation: the system messages,
// and the groups of the other messages from the first one kept. Dropped
// counts the messages dropped, Groups those dropped (oldest first) and
// kept, in order.
type Plan[M any] struct {
	System  []M
	Dropped [][]M
	Kept    [][]M
}

// Count returns the number of messages dropped.
func (p Plan[M]) Count() int {
	n := 0
	for _, g := range p.Dropped {
		n += len(g)
	}
	return n
}

// DropOldest plans the default compaction: keep the system messages and the
// most recent half of the other turns, at least one turn dropped and the
// last kept; then drop more, if needed, so that the kept part starts with a
// user's message. An assistant message that calls tools and the tool
// responses after it form one turn. It returns [ErrCannotCompact] when
// fewer than two turns remain. It does not modify messages.
func DropOldest[M any](messages []M, r Roles[M]) (Plan[M], error) {
	system, groups := split(messages, r)
	if len(groups) < 2 {
		return Plan[M]{}, ErrCannotCompact
	}
	cut := max(1, len(groups)/2)
	for i := cut; i < len(groups); i++ {
		if r.User(groups[i][0]) {
			cut = i
			break
		}
	}
	return Plan[M]{System: system, Dropped: groups[:cut], Kept: groups[cut:]}, nil
}

// split separates the system messages from the other messages, grouped so
// that an assistant message with tool calls and the tool responses after it
// form one group.
func split[M any](messages []M, r Roles[M]) (system []M, groups [][]M) {
	for _, m := range messages {
		switch {
		case r.System(m):
			system = append(system, m)
		case r.ToolResult(m) && len(groups) > 0 && r.CallsTools(groups[len(groups)-1][0]):
			groups[len(groups)-1] = append(groups[len(groups)-1], m)
		default:
			groups = append(groups, []M{m})
		}
	}
	return system, groups
}

// Marker is the text of the system message that says n messages were
// dropped.
func Marker(n int) string {
	return fmt.Sprintf("[Earlier conversation compacted: %d messages were dropped to fit the context window.]", n)
}

// SummaryMarker is the text of the system message that stands for the
// dropped turns, summarised.
func SummaryMarker(summary string) string {
	return "[Summary of the earlier conversation: " + summary + "]"
}

// SummaryPrompt is the request for a summary of transcript, the dropped
// turns written out.
func SummaryPrompt(transcript string) string {
	return "Summarise this conversation so far in a few sentences, keeping every fact, decision and open question:\n\n" + transcript
}

// Assemble returns a new slice: the plan's system messages, marker (a
// system message the caller built from [Marker] or [SummaryMarker]), and
// the kept groups.
func Assemble[M any](p Plan[M], marker M) []M {
	n := len(p.System) + 1
	for _, g := range p.Kept {
		n += len(g)
	}
	out := make([]M, 0, n)
	out = append(out, p.System...)
	out = append(out, marker)
	for _, g := range p.Kept {
		out = append(out, g...)
	}
	return out
}
