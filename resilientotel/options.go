package resilientotel

import (
	"fmt"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
)

// DefaultMaxBreakers is how many circuit breakers the
// resilient.breaker.state gauge reports at most (see [MaxBreakers]).
const DefaultMaxBreakers = 1000

// An Option configures an [Observer].
// Options follow the rule of every option of the library, stated on
// [github.com/resilientgo/resilient.Option].
type Option func(*config)

type config struct {
	tracerProvider trace.TracerProvider // Default: otel.GetTracerProvider()
	meterProvider  metric.MeterProvider // Default: otel.GetMeterProvider()
	maxBreakers    int                  // Default: 1000 (DefaultMaxBreakers)
}

// TracerProvider sets the provider of the observer's tracer. A nil tp keeps
// the default. Default: the global provider, otel.GetTracerProvider(),
// which follows a provider set with otel.SetTracerProvider later.
func TracerProvider(tp trace.TracerProvider) Option {
	return func(c *config) {
		if tp != nil {
			c.tracerProvider = tp
		}
	}
}

// MeterProvider sets the provider of the observer's meter. A nil mp keeps
// the default. Default: the global provider, otel.GetMeterProvider(),
// which follows a provider set with otel.SetMeterProvider later.
func MeterProvider(mp metric.MeterProvider) Option {
	return func(c *config) {
		if mp != nil {
			c.meterProvider = mp
		}
	}
}

// MaxBreakers bounds the circuit breakers the resilient.breaker.state gauge
// reports: a breaker joins the gauge at its first change of state, and when
// n are already reported a closed one leaves to make room (a breaker that
// is not reported is closed or unknown); when all n are open or half-open,
// the newcomer is not reported until one closes. Its transitions are
// counted either way. 0 reports none; a negative n is refused: [New]
// hands the error to otel.Handle and keeps the default.
// Default: 1000 (DefaultMaxBreakers).
func MaxBreakers(n int) Option {
	return func(c *config) {
		if n < 0 {
			otel.Handle(fmt.Errorf("resilientotel: MaxBreakers(%d): must not be negative", n))
			return
		}
		c.maxBreakers = n
	}
}
