package resilientotel

import (
	"context"

	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/taxonomy"
)

// The values of resilient.reason on resilient.member.suspensions and the
// resilient.suspension event: why an account failure took a member out of
// rotation. A fixed set, never the error's text or the classifier's rule.
const (
	suspendedModelMissing = "model_missing" // the model or deployment is not there
	suspendedAccount      = "account"       // a key refused, a permission missing, a quota used up
)

// cooldown records a pool member cooling down after a wait hint: one on
// resilient.member.cooldowns, the wait on resilient.member.cooldown.wait
// (one attribute set for both), and an event on the call's span.
func (o *Observer) cooldown(ctx context.Context, e observe.Cooldown) {
	m := o.sets.get(setKey{inst: instCooldowns, v: [4]string{e.Target}})
	o.in.cooldowns.Add(ctx, 1, m.add...)
	wait := e.Wait.Seconds()
	o.in.cooldownWait.Record(ctx, wait, m.record...)
	o.event(ctx, eventCooldown, keyTarget.String(e.Target), keyCooldownWait.Float64(wait))
}

// suspended records a pool member taken out of rotation after an account
// failure: one on resilient.member.suspensions, and an event on the call's
// span.
func (o *Observer) suspended(ctx context.Context, e observe.Suspended) {
	kind, reason := e.Class.Kind.String(), suspensionReason(e.Class)
	o.add(ctx, o.in.suspensions, setKey{inst: instSuspensions, v: [4]string{e.Target, kind, reason}})
	o.event(ctx, eventSuspension, keyTarget.String(e.Target), keyErrorType.String(kind), keyReason.String(reason),
		keySuspensionHold.Float64(e.For.Seconds()))
}

// suspensionReason is the resilient.reason of a suspension: whether the
// model or deployment is missing, or the account failed otherwise.
func suspensionReason(c taxonomy.Class) string {
	if c.ModelMissing {
		return suspendedModelMissing
	}
	return suspendedAccount
}
