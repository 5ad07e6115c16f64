package taxonomy_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/resilientgo/resilient/taxonomy"
)

func TestToolError(t *testing.T) {
	err := taxonomy.NewToolError("no order '9999'; order ids look like 'A-1234'")
	wrapped := fmt.Errorf("lookup_order: %w", fmt.Errorf("dispatch: %w", err))

	var te *taxonomy.ToolError
	var fe *taxonomy.FatalToolError
	tests := []struct {
		name      string
		got, want any
	}{
		{"text is the message, unchanged", err.Error(), "no order '9999'; order ids look like 'A-1234'"},
		{"errors.As through two wraps", errors.As(wrapped, &te), true},
		{"the message survives", te.Message, "no order '9999'; order ids look like 'A-1234'"},
		{"not a FatalToolError", errors.As(wrapped, &fe), false},
		{"ToolErrorf formats", taxonomy.ToolErrorf("no order %q", "9999").Error(), `no order "9999"`},
		{"ToolErrorf gives a *ToolError", errors.As(taxonomy.ToolErrorf("x %d", 1), &te), true},
		{"found in errors.Join", errors.As(errors.Join(errors.New("other"), err), &te), true},
		{"class", te.Class(), taxonomy.Class{Kind: taxonomy.Permanent, Rule: "tool error"}},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

func TestFatalToolErrorError(t *testing.T) {
	cause := errors.New("payment authorization revoked")
	tests := []struct {
		err  *taxonomy.FatalToolError
		want string
	}{
		{&taxonomy.FatalToolError{Cause: cause}, "fatal tool error: payment authorization revoked"},
		{&taxonomy.FatalToolError{Tool: "charge_card", Cause: cause}, "fatal tool error in charge_card: payment authorization revoked"},
		{&taxonomy.FatalToolError{Tool: "charge_card"}, "fatal tool error in charge_card: <nil>"},
		{&taxonomy.FatalToolError{}, "fatal tool error: <nil>"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func TestFatalToolErrorAs(t *testing.T) {
	cause := errors.New("payment authorization revoked")
	err := taxonomy.NewFatalToolError(cause)
	wrapped := fmt.Errorf("charge_card: %w", fmt.Errorf("dispatch: %w", err))

	var fe *taxonomy.FatalToolError
	var te *taxonomy.ToolError
	tests := []struct {
		name      string
		got, want any
	}{
		{"errors.As through two wraps", errors.As(wrapped, &fe), true},
		{"the cause survives", fe.Cause, cause},
		{"errors.Is reaches the cause", errors.Is(wrapped, cause), true},
		{"not a ToolError", errors.As(wrapped, &te), false},
		{"found in errors.Join", errors.As(errors.Join(errors.New("primary failed"), err), &fe), true},
		{"unwrap", fe.Unwrap(), cause},
		{"class", fe.Class(), taxonomy.Class{Kind: taxonomy.Permanent, Rule: "fatal tool error"}},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}
