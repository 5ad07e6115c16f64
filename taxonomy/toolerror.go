package taxonomy

import "fmt"

// ToolError is a failure the model can fix: its text becomes the tool's
// observation, so the model reads it and corrects its call ("no order '9999'").
// Write the message for the model; never put secrets in it.
//
// [errors.As] finds a *ToolError through wrapping.
type ToolError struct {
	// Message is shown to the model as the tool's output.
	Message string
}

// NewToolError returns a *ToolError carrying message.
func NewToolError(message string) error { return &ToolError{Message: message} }

// ToolErrorf formats a message like [fmt.Sprintf] and returns a *ToolError.
func ToolErrorf(format string, args ...any) error {
	return &ToolError{Message: fmt.Sprintf(format, args...)}
}

// Error returns the message shown to the model.
func (e *ToolError) Error() string { return e.Message }

// Class reports [Permanent]: the same input fails the same way, so the tool is
// not retried; the model is told instead.
func (e *ToolError) Class() Class { return Class{Kind: Permanent, Rule: "tool error"} }

// FatalToolError ends the agent's run: the tool wrapper returns it as an
// error, so the executor stops, and the model never sees it (there is nothing
// for the model to correct, and it must not look for a way around, say, a
// failed authorization).
//
// [errors.As] finds a *FatalToolError through wrapping.
type FatalToolError struct {
	// Tool is the name of the tool that stopped the run, filled in by the
	// tool wrapper when the tool itself left it empty.
	Tool string
	// Cause says why. It is for the caller and the logs, not for the model.
	Cause error
}

// NewFatalToolError returns a *FatalToolError wrapping cause.
func NewFatalToolError(cause error) error { return &FatalToolError{Cause: cause} }

// Error names the tool when known and the cause.
func (e *FatalToolError) Error() string {
	cause := "<nil>"
	if e.Cause != nil {
		cause = e.Cause.Error()
	}
	if e.Tool == "" {
		return "fatal tool error: " + cause
	}
	return "fatal tool error in " + e.Tool + ": " + cause
}

// Unwrap returns the cause.
func (e *FatalToolError) Unwrap() error { return e.Cause }

// Class reports [Permanent]: a fatal tool error is never retried.
func (e *FatalToolError) Class() Class { return Class{Kind: Permanent, Rule: "fatal tool error"} }
