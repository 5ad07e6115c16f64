// Package chatcall holds what the chat model adapters (package llms for
// langchaingo, module resilienteino for Eino) decide alike about one
// logical call: whether a fallback model may take it after the model gave
// up ([ShouldFallBack]), where its last attempt went ([LastTarget]) and how
// it ended, for the observers ([End]).
package chatcall

import (
	"cmp"
	"context"
	"errors"
	"time"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/taxonomy"
)

// ShouldFallBack reports whether another model can fix err, the final error
// of a model's call made with ctx: a target that is failing, holding the
// caller off or over the caller's own limits; a model missing or an account
// that failed; with onOverflow, a context overflow that compaction did not
// cure. Never when the caller gave up.
func ShouldFallBack(ctx context.Context, err error, onOverflow bool) bool {
	var final *middleware.Error
	if ctx.Err() != nil || !errors.As(err, &final) {
		return false
	}
	class := final.Class()
	switch final.Reason {
	case observe.ReasonExhausted, observe.ReasonCircuitOpen, observe.ReasonRetryAfterOverCap,
		observe.ReasonThrottled, observe.ReasonRejected, observe.ReasonConcurrency, observe.ReasonAbandoned:
		// The target is failing, holding us off, hung, or over our own
		// rate or concurrency limit: another model may be fine.
		return true
	case observe.ReasonContextOverflow:
		return onOverflow
	case observe.ReasonPermanent:
		// A model that does not exist (or was retired) is fixed by another,
		// and so is a failure of the account or deployment (a key refused,
		// a quota used up): another may serve the same request.
		return class.ModelMissing || class.AccountFailure
	}
	return false
}

// LastTarget returns the target of the last attempt of err, a model's
// final error (the member of a pool it went to), else name.
func LastTarget(err error, name string) string {
	var final *middleware.Error
	if errors.As(err, &final) && len(final.Attempts) > 0 {
		return cmp.Or(final.Attempts[len(final.Attempts)-1].Target, name)
	}
	return name
}

// End is the end of a logical call to t that started at start and made
// attempts, failing with err (nil: it succeeded).
func End(t observe.Target, attempts int, start time.Time, err error) observe.CallEnd {
	end := observe.CallEnd{Target: t, Attempts: attempts, Duration: time.Since(start)}
	if err != nil {
		end.Class, end.Reason = taxonomy.Classify(err), middleware.ReasonOf(err)
	}
	return end
}
