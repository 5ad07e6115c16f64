package resilienttemporal

import (
	"context"
	"errors"
	"fmt"
	"math"

	lctools "github.com/tmc/langchaingo/tools"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

// Tool is the workflow side of a tool: a langchaingo tools.Tool whose calls
// run as activities ([ToolActivity]) on a worker, where the tool registered
// under its name in [Activities] runs them, once per workflow run for a
// tool made resilient.Idempotent: the activity scopes the tool's
// idempotency key by the workflow run, so that an attempt run again after a
// crash or a lost reply finds the result of the first (see [Activities]).
// Use it in workflow code in place of the tool, with a context made by
// [NewRun].
//
// A Tool holds no state of its own and is safe for use by every workflow.
type Tool struct {
	name, description string
	cfg               callConfig
}

var _ lctools.Tool = (*Tool)(nil)

// NewTool returns the workflow side of the tool registered as name on the
// workers; description is what the model reads, as the tool's own
// Description.
func NewTool(name, description string, opts ...Option) *Tool {
	return &Tool{name: name, description: description, cfg: configure(opts)}
}

// Name returns the tool's name.
func (t *Tool) Name() string { return t.name }

// Description returns the tool's description.
func (t *Tool) Description() string { return t.description }

// Call runs the call as an activity, with the outcomes of resilient.Tool:
//
//   - the tool's output, a ToolError's text, or "Error: <tool> failed
//     internally (<Type>)" with a nil error: the model reads it (the last
//     also when the activity failed every attempt its policy allows);
//   - a *taxonomy.FatalToolError naming the tool when the tool ended the
//     run, when a limit of the run refused the call (the cause is a
//     *run.UsageLimitError), and when the model is stuck repeating
//     the call ([tools.ErrStuck]), which the workflow itself counts, or
//     when the run was given invalid options (the cause matches
//     resilient.ErrInvalidRun): the run ends.
func (t *Tool) Call(ctx context.Context, input string) (string, error) {
	r := runFrom(ctx)
	if r == nil {
		return "", &taxonomy.FatalToolError{Tool: t.name, Cause: ErrNoWorkflow}
	}
	if err := r.limits.invalid(); err != nil {
		return "", &taxonomy.FatalToolError{Tool: t.name, Cause: err}
	}
	if l := r.limits.Repeats; l < math.MaxInt {
		key := tools.DefaultKey(t.name, input)
		r.repeats[key]++
		if n := r.repeats[key]; n > l {
			msg := fmt.Sprintf("stuck: %s called %d times with the same input", t.name, n)
			return "", &taxonomy.FatalToolError{Tool: t.name, Cause: &stuckError{msg}}
		}
	}
	a, err := r.allowance(true)
	if err != nil {
		return "", &taxonomy.FatalToolError{Tool: t.name, Cause: err}
	}
	in := toolInput{Tool: t.name, Input: input, Allowance: a}
	actx := workflow.WithActivityOptions(r.wctx, t.cfg.activity)
	var out toolOutput
	err = workflow.ExecuteActivity(actx, ToolActivity, in).Get(actx, &out)
	if err == nil {
		r.add(out.Usage)
		return out.Output, nil
	}
	err = r.failed(err)
	var app *temporal.ApplicationError
	switch {
	case errors.As(err, new(*taxonomy.FatalToolError)):
		return "", err
	case temporal.IsCanceledError(err):
		return "", err
	case errors.As(err, &app) && (app.Type() == TypeFatalTool || app.Type() == TypeNotRegistered):
		return "", &taxonomy.FatalToolError{Tool: t.name, Cause: err}
	case errors.Is(err, errUsageLimit):
		return "", &taxonomy.FatalToolError{Tool: t.name, Cause: err}
	}
	return "Error: " + t.name + " failed internally (" + failureType(err) + ")", nil
}

// stuckError is the cause of a run the workflow stopped as stuck.
type stuckError struct{ msg string }

func (e *stuckError) Error() string        { return e.msg }
func (e *stuckError) Is(target error) bool { return target == tools.ErrStuck }
