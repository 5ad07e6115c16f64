package resilientotel

import (
	"go.opentelemetry.io/otel/attribute"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"

	"github.com/resilientgo/resilient/observe"
)

// The instruments' names, as the package documentation lists them.
const (
	nameAttempts     = "resilient.attempts"
	nameRetries      = "resilient.retries"
	nameRetryWait    = "resilient.retry.wait"
	nameBreaker      = "resilient.breaker.state"
	nameTransitions  = "resilient.breaker.transitions"
	nameFallbacks    = "resilient.fallbacks"
	nameHedges       = "resilient.hedges"
	nameToolCalls    = "resilient.tool.calls"
	nameRefusals     = "resilient.refusals"
	nameUnavailable  = "resilient.shared.unavailable"
	nameDowntime     = "resilient.shared.unavailable.duration"
	nameCooldowns    = "resilient.member.cooldowns"
	nameCooldownWait = "resilient.member.cooldown.wait"
	nameSuspensions  = "resilient.member.suspensions"
)

// The attributes of this library; the GenAI ones come from semconv.
const (
	keyTarget         = attribute.Key("resilient.target")        // a model's or tool's name: "openai/gpt-4o"
	keyOutcome        = attribute.Key("resilient.outcome")       // ok, or the reason a tool call ended: tool_error, internal, ...
	keyWaitSource     = attribute.Key("resilient.wait.source")   // backoff, retry_after, reset, probe
	keyWait           = attribute.Key("resilient.retry.wait")    // seconds, on a retry event
	keyBreakerState   = attribute.Key("resilient.breaker.state") // closed, half_open, open
	keyFallback       = attribute.Key("resilient.fallback")      // the model fallen back to
	keyReason         = attribute.Key("resilient.reason")        // why a call was refused or stopped
	keyAttempt        = attribute.Key("resilient.attempt")       // an attempt's number, from 1
	keyAttempts       = attribute.Key("resilient.attempts")      // attempts a call made
	keyHedge          = attribute.Key("resilient.hedge")         // the attempt is a hedge
	keyRule           = attribute.Key("resilient.rule")          // the classifier rule that decided
	keyAbandoned      = attribute.Key("resilient.abandoned")     // the attempt was abandoned at its timeout
	keyBefore         = attribute.Key("resilient.messages.before")
	keyAfter          = attribute.Key("resilient.messages.after")
	keyChunks         = attribute.Key("resilient.stream.chunks")
	keyFeature        = attribute.Key("resilient.shared.feature")  // store, limiter, breaker, semaphore
	keyAction         = attribute.Key("resilient.shared.action")   // fail_open, local, fail_closed
	keyCooldownWait   = attribute.Key("resilient.cooldown.wait")   // seconds, on a cooldown event
	keySuspensionHold = attribute.Key("resilient.suspension.hold") // seconds, on a suspension event

	keyErrorType    = semconv.ErrorTypeKey
	keyOperation    = semconv.GenAIOperationNameKey
	keyProvider     = semconv.GenAIProviderNameKey
	keyModel        = semconv.GenAIRequestModelKey
	keyToolName     = semconv.GenAIToolNameKey
	keyInputTokens  = semconv.GenAIUsageInputTokensKey
	keyOutputTokens = semconv.GenAIUsageOutputTokensKey
)

// The events added to spans.
const (
	eventRetry       = "resilient.retry"      // on the attempt that failed
	eventFallback    = "resilient.fallback"   // on the call
	eventHedge       = "resilient.hedge"      // on the call
	eventCompaction  = "resilient.compaction" // on the call
	eventRestart     = "resilient.stream_restart"
	eventRefusal     = "resilient.refusal"
	eventGaveUp      = "resilient.gave_up"
	eventReplay      = "resilient.idempotent_replay"
	eventLeaseLost   = "resilient.lease_lost"
	eventStoreFailed = "resilient.store_failed"
	eventCooldown    = "resilient.cooldown"   // on the call, a pool member cooling down
	eventSuspension  = "resilient.suspension" // on the call, a pool member out of rotation
)

// otherProvider is gen_ai.provider.name for a provider the conventions do
// not name, as they ask.
const otherProvider = "_OTHER"

// breakerStateValue is the gauge's value for a state: 0 closed,
// 1 half-open, 2 open.
func breakerStateValue(s observe.BreakerState) int64 {
	switch s {
	case observe.BreakerOpen:
		return 2
	case observe.BreakerHalfOpen:
		return 1
	}
	return 0
}
