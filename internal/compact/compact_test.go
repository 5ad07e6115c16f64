package compact

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// Messages here are strings: "s:" system, "u:" user, "a:" assistant,
// "c:" an assistant calling tools, "t:" a tool's result.
var roles = Roles[string]{
	System:     func(m string) bool { return strings.HasPrefix(m, "s:") },
	User:       func(m string) bool { return strings.HasPrefix(m, "u:") },
	CallsTools: func(m string) bool { return strings.HasPrefix(m, "c:") },
	ToolResult: func(m string) bool { return strings.HasPrefix(m, "t:") },
}

func TestDropOldest(t *testing.T) {
	tests := []struct {
		name     string
		messages []string
		want     string // the kept conversation, the marker as "M<n>"
	}{
		{"half of the turns, system kept", []string{"s:rules", "u:1", "a:1", "u:2", "a:2"}, "[s:rules M2 u:2 a:2]"},
		{"a tool call stays with its results", []string{"u:1", "c:1", "t:1a", "t:1b", "u:2", "a:2"}, "[M4 u:2 a:2]"},
		{"the kept part starts with the user", []string{"u:1", "c:1", "t:1", "a:1", "u:2"}, "[M4 u:2]"},
		{"no user later: half", []string{"u:1", "a:1", "a:2", "a:3"}, "[M2 a:2 a:3]"},
		{"an orphan result is a turn", []string{"t:x", "u:1", "a:1"}, "[M1 u:1 a:1]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan, err := DropOldest(tt.messages, roles)
			if err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprint(Assemble(plan, fmt.Sprintf("M%d", plan.Count())))
			if got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestDropOldestNeedsTwoTurns(t *testing.T) {
	for _, messages := range [][]string{nil, {"s:rules"}, {"s:rules", "c:1", "t:1"}} {
		if _, err := DropOldest(messages, roles); !errors.Is(err, ErrCannotCompact) {
			t.Errorf("%v: got %v, want ErrCannotCompact", messages, err)
		}
	}
}
