package resilienttemporal

import (
	"context"
	"errors"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/run"
	"github.com/resilientgo/resilient/taxonomy"
)

var errUsageLimit = run.ErrUsageLimit

// maxNextRetryDelay bounds the durable wait a failure asks for: a provider's
// hint is clamped to 6 h where it is parsed, a breaker's hold to
// middleware.MaxHold; this keeps a bad value from parking a run for ever.
const maxNextRetryDelay = 6 * time.Hour

// retryable reports whether an activity that failed with class may succeed
// when Temporal runs it again. The kinds that fail the same way however
// often they are sent do not: permanent and programming failures, a caller
// that gave up (a canceled kind that is not the activity's own context:
// that is Temporal's to handle), and a context overflow the in-process
// layer already compacted and retried.
func retryable(k taxonomy.Kind) bool {
	switch k {
	case taxonomy.Permanent, taxonomy.Programming, taxonomy.Canceled, taxonomy.ContextOverflow:
		return false
	}
	return true
}

// stopsTheRun reports the reasons of the in-process layer that are the
// run's own decision to stop: retrying the activity would undo them.
func stopsTheRun(r observe.Reason) bool {
	switch r {
	case observe.ReasonPermanent, observe.ReasonContextOverflow, observe.ReasonUsageLimit,
		observe.ReasonBudgetSpent, observe.ReasonUnretryable:
		return true
	}
	return false
}

// failure turns the error of a model or tool call made in an activity into
// the error the activity returns, so that the classification drives
// Temporal's retries: an ApplicationError whose type is the kind (or
// TypeUsageLimit, TypeFatalTool), non-retryable when another attempt
// cannot help, and with NextRetryDelay set when the in-process layer gave
// up on a wait longer than it holds a worker for (a Retry-After over its
// cap, an open circuit): the wait becomes a durable timer. hold reports the
// model's breaker's remaining hold, 0 if unknown. When the activity's own
// context ended (the worker stops, the server canceled the attempt), its
// error is returned as is, for Temporal to handle.
func failure(ctx context.Context, err error, used resilient.Usage, hold func() time.Duration) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	d := failureDetails{Usage: used}
	var limit *run.UsageLimitError
	if errors.As(err, &limit) {
		d.Limit, d.Need, d.Class = limit.Limit, limit.Need, limit.Class()
		return temporal.NewApplicationErrorWithOptions(err.Error(), TypeUsageLimit,
			temporal.ApplicationErrorOptions{NonRetryable: true, Details: []any{d}})
	}
	var fatal *taxonomy.FatalToolError
	if errors.As(err, &fatal) {
		d.Class = taxonomy.Classify(fatal.Cause)
		return temporal.NewApplicationErrorWithOptions(err.Error(), TypeFatalTool,
			temporal.ApplicationErrorOptions{NonRetryable: true, Details: []any{d}})
	}
	d.Class = taxonomy.Classify(err)
	opts := temporal.ApplicationErrorOptions{NonRetryable: !retryable(d.Class.Kind), Details: []any{d}}
	var final *middleware.Error
	switch {
	case errors.As(err, &final) && stopsTheRun(final.Reason):
		opts.NonRetryable = true
	case final != nil && final.Reason == observe.ReasonRetryAfterOverCap:
		// The breaker is held open at least that long (longer when its own
		// delay is): the retry comes when it lets a request through.
		opts.NextRetryDelay = d.Class.RetryAfter
		if hold != nil {
			opts.NextRetryDelay = max(opts.NextRetryDelay, hold())
		}
	case final != nil && final.Reason == observe.ReasonCircuitOpen && hold != nil:
		opts.NextRetryDelay = hold()
	case final == nil:
		// No in-process layer: the provider's own hint, if any.
		opts.NextRetryDelay = d.Class.RetryAfter
	}
	opts.NextRetryDelay = min(max(opts.NextRetryDelay, 0), maxNextRetryDelay)
	return temporal.NewApplicationErrorWithOptions(err.Error(), d.Class.Kind.String(), opts)
}

// failed turns the error of an activity into the error the workflow's
// model or tool returns, and adds the usage it reports to the run's: a
// refusal by a limit is a *run.UsageLimitError naming the run's
// limit and usage; any other failure is the activity's error as it is, a
// *temporal.ActivityError whose *temporal.ApplicationError has the kind as
// its type, which is what the workflow's caller then sees.
func (r *runState) failed(err error) error {
	var app *temporal.ApplicationError
	if !errors.As(err, &app) {
		return err
	}
	var d failureDetails
	if !app.HasDetails() || app.Details(&d) != nil {
		return err
	}
	r.add(d.Usage)
	if app.Type() == TypeUsageLimit {
		return &run.UsageLimitError{Limit: d.Limit, Max: r.max(d.Limit), Need: d.Need, Usage: r.usage}
	}
	return err
}

// failureType names an activity's failure in the text a model reads: the
// ApplicationError's type, else "timeout" or "canceled".
func failureType(err error) string {
	var app *temporal.ApplicationError
	switch {
	case errors.As(err, &app) && app.Type() != "":
		return app.Type()
	case temporal.IsTimeoutError(err):
		return "timeout"
	case temporal.IsCanceledError(err):
		return "canceled"
	}
	return "failure"
}
