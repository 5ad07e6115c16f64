package resilientotel

import (
	"errors"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/semconv/v1.41.0/genaiconv"
)

// instruments are the observer's metric instruments, made once by New.
type instruments struct {
	duration     genaiconv.ClientOperationDuration
	tokens       genaiconv.ClientTokenUsage
	attempts     metric.Int64Counter
	retries      metric.Int64Counter
	retryWait    metric.Float64Histogram
	transitions  metric.Int64Counter
	fallbacks    metric.Int64Counter
	hedges       metric.Int64Counter
	toolCalls    metric.Int64Counter
	refusals     metric.Int64Counter
	unavailable  metric.Int64Counter
	downtime     metric.Float64Histogram
	cooldowns    metric.Int64Counter
	cooldownWait metric.Float64Histogram
	suspensions  metric.Int64Counter
	breaker      metric.Int64ObservableGauge
}

// Bucket boundaries: the GenAI conventions' advice for the duration and
// the token usage, and for the retry wait a doubling from 0.1 s up to past
// the default Retry-After cap of a minute (a pool member's cooldown too,
// which comes from the same hints).
var (
	durationBuckets  = []float64{0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92}
	tokenBuckets     = []float64{1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864}
	retryWaitBuckets = []float64{0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.4, 12.8, 25.6, 51.2, 102.4}
	// A shared store's outage: from a second (one failed probe) to hours.
	downtimeBuckets = []float64{1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 7200, 14400}
)

// newInstruments makes the instruments on m. A problem the meter reports is
// passed to otel.Handle; the instrument it returns with it is used all the
// same (the SDK's works, the API's fallback is a no-op).
func newInstruments(m metric.Meter) *instruments {
	var errs []error
	check := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	counter := func(name, unit, desc string) metric.Int64Counter {
		c, err := m.Int64Counter(name, metric.WithUnit(unit), metric.WithDescription(desc))
		check(err)
		return c
	}
	in := &instruments{
		attempts:    counter(nameAttempts, "{attempt}", "Attempts made to models and tools, by outcome and failure kind."),
		retries:     counter(nameRetries, "{retry}", "Retries scheduled, by the failure kind and where the wait came from."),
		transitions: counter(nameTransitions, "{transition}", "Changes of state of circuit breakers, by the new state."),
		fallbacks:   counter(nameFallbacks, "{fallback}", "Model calls that moved on to a fallback model."),
		hedges:      counter(nameHedges, "{hedge}", "Hedged attempts started beside a slow one."),
		toolCalls:   counter(nameToolCalls, "{call}", "Tool calls, by outcome."),
		refusals:    counter(nameRefusals, "{refusal}", "Calls or attempts refused before any request, by reason."),
		cooldowns: counter(nameCooldowns, "{cooldown}",
			"Times a pool member answered with a wait hint (Retry-After, a rate-limit reset) and cools down meanwhile."),
		suspensions: counter(nameSuspensions, "{suspension}",
			"Times a pool member was taken out of rotation after an account failure (a key refused, a quota used up, a model missing), by why."),
		unavailable: counter(nameUnavailable, "{outage}",
			"Times a feature lost the state it shares with other replicas (Redis), by what it does meanwhile."),
	}
	var err error
	in.duration, err = genaiconv.NewClientOperationDuration(m, metric.WithExplicitBucketBoundaries(durationBuckets...))
	check(err)
	in.tokens, err = genaiconv.NewClientTokenUsage(m, metric.WithExplicitBucketBoundaries(tokenBuckets...))
	check(err)
	in.retryWait, err = m.Float64Histogram(nameRetryWait, metric.WithUnit("s"),
		metric.WithDescription("Waits before retries, by where the wait came from."),
		metric.WithExplicitBucketBoundaries(retryWaitBuckets...))
	check(err)
	in.cooldownWait, err = m.Float64Histogram(nameCooldownWait, metric.WithUnit("s"),
		metric.WithDescription("How long pool members cool down after a wait hint."),
		metric.WithExplicitBucketBoundaries(retryWaitBuckets...))
	check(err)
	in.downtime, err = m.Float64Histogram(nameDowntime, metric.WithUnit("s"),
		metric.WithDescription("How long a feature was without the state it shares with other replicas (Redis), recorded when it is back."),
		metric.WithExplicitBucketBoundaries(downtimeBuckets...))
	check(err)
	in.breaker, err = m.Int64ObservableGauge(nameBreaker, metric.WithUnit("{state}"),
		metric.WithDescription("State of each circuit breaker: 0 closed, 1 half-open, 2 open."))
	check(err)
	if err := errors.Join(errs...); err != nil {
		otel.Handle(err)
	}
	return in
}

// instrument names an instrument in a [setKey].
type instrument uint8

const (
	instAttempts instrument = iota
	instRetries
	instRetryWait
	instBreaker
	instTransitions
	instFallbacks
	instHedges
	instToolCalls
	instRefusals
	instDuration
	instTokens
	instUnavailable
	instDowntime
	instCooldowns // resilient.member.cooldowns and resilient.member.cooldown.wait
	instSuspensions
	numInstruments
)

// instrumentKeys are the attribute keys of each instrument's measurements,
// in the order of setKey.v.
var instrumentKeys = [numInstruments][4]attribute.Key{
	instAttempts:    {keyTarget, keyOutcome, keyErrorType},
	instRetries:     {keyTarget, keyErrorType, keyWaitSource},
	instRetryWait:   {keyTarget, keyWaitSource},
	instBreaker:     {keyTarget},
	instTransitions: {keyTarget, keyBreakerState},
	instFallbacks:   {keyTarget, keyFallback, keyErrorType},
	instHedges:      {keyTarget},
	instToolCalls:   {keyToolName, keyOutcome},
	instRefusals:    {keyTarget, keyReason},
	instDuration:    {keyOperation, keyProvider, keyModel, keyErrorType},
	instTokens:      {keyOperation, keyProvider, keyModel, semconv.GenAITokenTypeKey},
	instUnavailable: {keyFeature, keyAction},
	instDowntime:    {keyFeature},
	instCooldowns:   {keyTarget},
	instSuspensions: {keyTarget, keyErrorType, keyReason},
}

// setKey identifies the attribute set of a measurement: the instrument and
// its attributes' values, in the order of instrumentKeys. An empty value
// leaves its attribute out (error.type on a success).
type setKey struct {
	inst instrument
	v    [4]string
}

// slot is the slot of k's instrument in the cache of sets: a call's
// measurements alternate between instruments.
func (k setKey) slot() int { return int(k.inst) }

func (k setKey) build() attribute.Set {
	kvs := make([]attribute.KeyValue, 0, len(k.v))
	for i, key := range instrumentKeys[k.inst] {
		if key != "" && k.v[i] != "" {
			kvs = append(kvs, key.String(k.v[i]))
		}
	}
	return attribute.NewSet(kvs...)
}

// maxSets bounds the cache of attribute sets. The values are names of
// targets, kinds, outcomes and reasons, so a program meets far fewer; past
// the bound, sets are built per measurement instead of cached.
const maxSets = 4096

// measurement is the cached attribute set of a measurement, as the options
// that the instruments take: a call passes them as they are, with no
// allocation.
type measurement struct {
	add    []metric.AddOption
	record []metric.RecordOption
	set    metric.MeasurementOption
}

func newMeasurement(k setKey) *measurement {
	opt := metric.WithAttributeSet(k.build())
	return &measurement{add: []metric.AddOption{opt}, record: []metric.RecordOption{opt}, set: opt}
}
