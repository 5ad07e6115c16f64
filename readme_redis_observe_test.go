package resilient_test

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/resilientotel"
	"github.com/resilientgo/resilient/resilientredis"
)

// The README's example of a Redis outage seen by observers: with a Redis
// that is not there, the limiter fails open, writes one "redis
// unavailable" line however many attempts it admits, and the global
// meter provider counts one outage of the limiter.
func TestREADMERedisObserved(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	provider := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	defer provider.Shutdown(context.Background())
	global := otel.GetMeterProvider()
	otel.SetMeterProvider(provider)
	defer otel.SetMeterProvider(global)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String() // nothing listens there once closed
	ln.Close()
	rdb := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	defer rdb.Close()
	var logs observetest.LogBuffer
	logger := logs.Logger()

	// readme:begin redis-observe
	obs := resilientotel.New() // the observer of the models and tools
	limiter, _ := resilientredis.NewLimiter(rdb, "openai", 500, time.Minute,
		resilientredis.Logger(logger), resilientredis.Observe(obs))
	// readme:end

	for range 3 {
		if err := limiter.Acquire(t.Context(), 1); err != nil {
			t.Fatalf("a limiter failing open: got %v", err)
		}
	}
	if n := strings.Count(logs.String(), `msg="redis unavailable"`); n != 1 {
		t.Errorf(`got %d "redis unavailable" lines, want 1:\n%s`, n, logs.String())
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	var outages int64
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if sum, ok := m.Data.(metricdata.Sum[int64]); ok && m.Name == "resilient.shared.unavailable" {
				for _, p := range sum.DataPoints {
					if v, _ := p.Attributes.Value("resilient.shared.action"); v.AsString() == "fail_open" {
						outages += p.Value
					}
				}
			}
		}
	}
	if outages != 1 {
		t.Errorf("resilient.shared.unavailable{action=fail_open}: got %d, want 1", outages)
	}
}
