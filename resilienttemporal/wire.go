package resilienttemporal

import (
	"reflect"
	"time"

	"github.com/tmc/langchaingo/llms"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/taxonomy"
)

// The activity types the workflow side schedules and [Activities]
// registers.
const (
	// GenerateActivity runs one model call: GenerateContent of the model
	// registered under the name the workflow's [Model] was given.
	GenerateActivity = "resilient.GenerateContent"
	// ToolActivity runs one tool call: Call of the tool registered under
	// the workflow's [Tool]'s name.
	ToolActivity = "resilient.CallTool"
)

// The ApplicationError types of the failures that are not a kind of
// [taxonomy.Kind]: a model failure's type is its kind ("rate_limited",
// "permanent", ...).
const (
	// TypeUsageLimit: a limit of the run refused the call (see [NewRun]).
	// Never retried.
	TypeUsageLimit = "usage_limit"
	// TypeFatalTool: the tool ended the run (a taxonomy.FatalToolError:
	// the tool's own, an open circuit, a stuck model). Never retried.
	TypeFatalTool = "fatal_tool"
	// TypeNotRegistered: no model or tool of that name is registered on
	// the worker that took the activity. Never retried.
	TypeNotRegistered = "not_registered"
)

// allowance is what remains of a run's limits for one activity: 0 is no
// limit for tokens, requests and tool calls (the workflow refuses the call
// itself when one is spent, or 0), Retries < 0 is unlimited (as activities
// scheduled before math.MaxInt meant it have it).
type allowance struct {
	Tokens, Requests, ToolCalls int
	Retries                     int
}

// generateInput is the input of the GenerateActivity.
type generateInput struct {
	Model     string
	Messages  []llms.MessageContent
	Options   llms.CallOptions // streaming functions are not sent (json:"-")
	Allowance allowance
}

// generateOutput is the result of the GenerateActivity: the response, and
// the usage of every attempt of the activity.
type generateOutput struct {
	Response *response
	Usage    resilient.Usage
}

// toolInput is the input of the ToolActivity.
type toolInput struct {
	Tool      string
	Input     string
	Allowance allowance
}

// toolOutput is the result of the ToolActivity.
type toolOutput struct {
	Output string
	Usage  resilient.Usage
}

// failureDetails travel in the ApplicationError of a failed activity: the
// usage of its attempts, and for a usage limit, which limit refused it.
type failureDetails struct {
	Usage resilient.Usage
	Class taxonomy.Class
	Limit string // the refusing limit's name, for TypeUsageLimit
	Need  int    // the refused request's estimated input tokens, if that was why
}

// Defaults of the activities' options, used where the options given with
// [ActivityOptions] leave a field zero.
const (
	// DefaultStartToCloseTimeout bounds one activity attempt: a model call
	// makes 3 attempts of up to 2 min each, with waits of up to 60 s.
	DefaultStartToCloseTimeout = 10 * time.Minute
	// DefaultHeartbeatTimeout is how long the server waits for a heartbeat
	// before it takes the attempt's worker for dead and retries the
	// activity elsewhere; the activities heartbeat 3 times as often.
	DefaultHeartbeatTimeout = 20 * time.Second
	// DefaultMaximumAttempts bounds the activity attempts, crashes
	// included. Failures that cannot succeed on retry are not retried at
	// all, whatever the policy.
	DefaultMaximumAttempts = 10
)

// DefaultRetryPolicy is the retry policy of the activities when
// [ActivityOptions] gives none: 1 s doubling up to 1 min between attempts
// (an ApplicationError's NextRetryDelay, set from the provider's
// Retry-After or the breaker's hold, takes its place), at most
// [DefaultMaximumAttempts] attempts.
func DefaultRetryPolicy() *temporal.RetryPolicy {
	return &temporal.RetryPolicy{
		InitialInterval:    time.Second,
		BackoffCoefficient: 2,
		MaximumInterval:    time.Minute,
		MaximumAttempts:    DefaultMaximumAttempts,
	}
}

// activityOptions fills the zero fields of o with the defaults.
func activityOptions(o workflow.ActivityOptions) workflow.ActivityOptions {
	if o.StartToCloseTimeout == 0 && o.ScheduleToCloseTimeout == 0 {
		o.StartToCloseTimeout = DefaultStartToCloseTimeout
	}
	if o.HeartbeatTimeout == 0 {
		o.HeartbeatTimeout = DefaultHeartbeatTimeout
	}
	if o.RetryPolicy == nil {
		o.RetryPolicy = DefaultRetryPolicy()
	}
	return o
}

// callOptionsOf returns what a caller's call options set, applied to zero
// options.
func callOptionsOf(options []llms.CallOption) llms.CallOptions {
	var o llms.CallOptions
	for _, opt := range options {
		if opt != nil {
			opt(&o)
		}
	}
	return o
}

// asCallOption returns the call option that sets what o sets: each field
// that is not zero, so that the provider's defaults stay where the caller
// set nothing, as they did for the caller's own options.
func asCallOption(o llms.CallOptions) llms.CallOption {
	return func(dst *llms.CallOptions) {
		src, out := reflect.ValueOf(o), reflect.ValueOf(dst).Elem()
		for i := range src.NumField() {
			if f := src.Field(i); !f.IsZero() && out.Field(i).CanSet() {
				out.Field(i).Set(f)
			}
		}
	}
}
