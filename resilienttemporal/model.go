package resilienttemporal

import (
	"context"

	"github.com/tmc/langchaingo/llms"
	"go.temporal.io/sdk/workflow"
)

// An Option configures a workflow's [Model] or [Tool].
// Options follow the rule of every option of the library, stated on
// [github.com/resilientgo/resilient.Option].
type Option func(*callConfig)

type callConfig struct {
	activity workflow.ActivityOptions // Default: see ActivityOptions
}

// ActivityOptions sets the options of the activities the model or tool
// schedules. Fields left zero take the defaults: a 10 min start-to-close
// timeout ([DefaultStartToCloseTimeout]), a 20 s heartbeat timeout
// ([DefaultHeartbeatTimeout]) and [DefaultRetryPolicy]. A failure that
// cannot succeed on retry is marked non-retryable whatever the policy.
func ActivityOptions(o workflow.ActivityOptions) Option {
	return func(c *callConfig) { c.activity = o }
}

func configure(opts []Option) callConfig {
	var c callConfig
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	c.activity = activityOptions(c.activity)
	return c
}

// Model is the workflow side of a model: an [llms.Model] whose calls run as
// activities ([GenerateActivity]) on a worker, where the model registered
// under its name in [Activities] answers them. Use it in workflow code in
// place of the model, with a context made by [NewRun]: an unchanged
// agents.Executor then runs as a workflow, and a call that completed is
// never made again when the workflow is replayed.
//
// A Model holds no state of its own and is safe for use by every workflow.
type Model struct {
	name string
	cfg  callConfig
}

var _ llms.Model = (*Model)(nil)

// NewModel returns the workflow side of the model registered as name on the
// workers.
func NewModel(name string, opts ...Option) *Model {
	return &Model{name: name, cfg: configure(opts)}
}

// Name returns the name the model is registered under.
func (m *Model) Name() string { return m.name }

// GenerateContent runs the call as an activity and returns its response.
// The activity calls the registered model without streaming: when the
// call's options set a streaming function, it receives the whole text in
// one chunk once the activity has completed, and not again on replay.
//
// A failure is the activity's error: a *temporal.ActivityError wrapping
// the *temporal.ApplicationError whose type is the failure's kind
// ("permanent", "rate_limited", ...), as the worker classified it. A
// refusal by a limit of the run is a *run.UsageLimitError
// ([resilient.ErrUsageLimit]) naming the run's limit and usage.
// A run given invalid options fails every call, before any activity, with
// a programming error matching [resilient.ErrInvalidRun].
func (m *Model) GenerateContent(ctx context.Context, messages []llms.MessageContent, options ...llms.CallOption) (*llms.ContentResponse, error) {
	r := runFrom(ctx)
	if r == nil {
		return nil, ErrNoWorkflow
	}
	a, err := r.allowance(false)
	if err != nil {
		return nil, err
	}
	opts := callOptionsOf(options)
	stream := opts.StreamingFunc
	opts.StreamingFunc, opts.StreamingReasoningFunc = nil, nil
	in := generateInput{Model: m.name, Messages: messages, Options: opts, Allowance: a}
	actx := workflow.WithActivityOptions(r.wctx, m.cfg.activity)
	var out generateOutput
	if err := workflow.ExecuteActivity(actx, GenerateActivity, in).Get(actx, &out); err != nil {
		return nil, r.failed(err)
	}
	r.add(out.Usage)
	resp := out.Response.contentResponse()
	if stream != nil && !workflow.IsReplaying(r.wctx) && resp != nil && len(resp.Choices) > 0 {
		if err := stream(ctx, []byte(resp.Choices[0].Content)); err != nil {
			return nil, err
		}
	}
	return resp, nil
}

// Call runs a single prompt as an activity, as llms.GenerateFromSinglePrompt.
func (m *Model) Call(ctx context.Context, prompt string, options ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, prompt, options...)
}
