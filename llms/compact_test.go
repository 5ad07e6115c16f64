package llms_test

import (
	"fmt"
	"strings"
	"testing"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/internal/scripted"
	"github.com/resilientgo/resilient/llms"
)

func ai(text string) lcllms.MessageContent { return lcllms.TextParts(lcllms.ChatMessageTypeAI, text) }

// roles renders the roles of messages, the system marker as "marker".
func roles(msgs []lcllms.MessageContent) string {
	var out []string
	for _, m := range msgs {
		out = append(out, string(m.Role))
	}
	return strings.Join(out, " ")
}

// DropOldest drops the oldest half of the turns, at least one, never the
// last, then up to the next human (or generic) turn when there is one.
func TestDropOldestCutPoint(t *testing.T) {
	generic := lcllms.TextParts(lcllms.ChatMessageTypeGeneric, "from a bridge")
	tests := []struct {
		name      string
		msgs      []lcllms.MessageContent
		wantRoles string
		dropped   int
	}{
		{"two turns: the older dropped", []lcllms.MessageContent{human("q"), ai("a")}, "system ai", 1},
		{"the cut moves on to a human turn", []lcllms.MessageContent{human("q1"), ai("a1"), ai("a2"), human("q2"), ai("a3")}, "system human ai", 3},
		{"a generic turn counts as a human one", []lcllms.MessageContent{human("q1"), ai("a1"), ai("a2"), generic, ai("a3")}, "system generic ai", 3},
		{"no human turn after the half", []lcllms.MessageContent{human("q1"), ai("a1"), ai("a2"), ai("a3")}, "system ai ai", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := llms.DropOldest().Compact(t.Context(), tt.msgs)
			if err != nil {
				t.Fatal(err)
			}
			if roles(got) != tt.wantRoles {
				t.Errorf("got roles %q, want %q", roles(got), tt.wantRoles)
			}
			if want := fmt.Sprintf("%d messages were dropped", tt.dropped); !strings.Contains(fmt.Sprint(got[0].Parts), want) {
				t.Errorf("marker %v, want it to say %q", got[0].Parts, want)
			}
		})
	}
}

// The summarizer is shown the dropped turns, tool calls and results
// included; an empty summary falls back to dropping them.
func TestSummarizeShowsToolCallsAndFallsBackOnAnEmptySummary(t *testing.T) {
	for _, summary := range []string{"They looked up one.", "  \n"} {
		t.Run(fmt.Sprintf("%q", summary), func(t *testing.T) {
			summarizer := scripted.New(scripted.Reply(summary))
			got, err := llms.Summarize(summarizer).Compact(t.Context(), conversation())
			if err != nil {
				t.Fatal(err)
			}
			shown := fmt.Sprint(summarizer.Requests()[0])
			if !strings.Contains(shown, `[called lookup({"id":1})]`) || !strings.Contains(shown, "[lookup returned: one]") {
				t.Errorf("the summarizer was shown %s, want the tool call and its result", shown)
			}
			marker := fmt.Sprint(got[1].Parts)
			if strings.TrimSpace(summary) == "" {
				if !strings.Contains(marker, "messages were dropped") {
					t.Errorf("marker %s, want DropOldest's after an empty summary", marker)
				}
			} else if !strings.Contains(marker, "They looked up one.") {
				t.Errorf("marker %s, want the summary", marker)
			}
		})
	}
}
