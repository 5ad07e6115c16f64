// Command dashboard runs an agent service under a steady mix of faults,
// with every feature of the library in use, and serves its metrics for
// Prometheus on /metrics: the data that dashboards/resilient.json draws and
// that dashboards/alerts.yml watches.
//
// Each scenario runs in a loop of its own against loopback fault servers
// (langchaingo's real OpenAI client on the wire): retries after a 429 and
// a 529, a circuit breaker opening and closing, a fallback, a hedge, calls
// refused (concurrency, rate limit, retry budget, usage limit, open
// circuit), a pool whose members cool down or are suspended, every tool
// outcome, and, given a Redis, a shared rate limiter losing Redis for a
// second and finding it again.
//
//	go run ./examples/dashboard                       # serve 127.0.0.1:9464/metrics until Ctrl-C
//	go run ./examples/dashboard -redis 127.0.0.1:6379 # ... with the shared-state outages too
//
// Point a Prometheus at it (docs/operating.md has a scrape configuration)
// and import the dashboard into Grafana to see every panel move.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:9464", "address to serve /metrics on")
	redisAddr := flag.String("redis", os.Getenv("RESILIENT_REDIS_ADDR"), "a Redis for the shared-state outages (also $RESILIENT_REDIS_ADDR; none: left out)")
	flag.Parse()
	redis.SetLogger(quiet{}) // the outages are staged: go-redis need not report its failed dials
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *addr, *redisAddr); err != nil {
		fmt.Fprintln(os.Stderr, "dashboard:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, addr, redisAddr string) error {
	m, err := serveMetrics(addr)
	if err != nil {
		return err
	}
	defer m.close()
	fmt.Printf("serving http://%s/metrics until interrupted\n", m.addr)
	return load(ctx, redisAddr)
}

// metrics is the OpenTelemetry meter provider, installed as the global one
// (which resilientotel.New uses), read by the Prometheus exporter with its
// defaults: names translated as Prometheus's own OTLP receiver translates
// them (dots become underscores, the unit and _total are appended), and
// the instrumentation scope as otel_scope_* labels.
type metrics struct {
	reg  *prometheus.Registry
	mp   *sdkmetric.MeterProvider
	srv  *http.Server
	addr string
}

func serveMetrics(addr string) (*metrics, error) {
	reg := prometheus.NewRegistry()
	reader, err := otelprom.New(otelprom.WithRegisterer(reg)) // the exporter's defaults, names translated as above
	if err != nil {
		return nil, err
	}
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	otel.SetMeterProvider(mp)
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	m := &metrics{reg: reg, mp: mp, srv: &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}, addr: l.Addr().String()}
	go func() {
		if err := m.srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintln(os.Stderr, "dashboard: /metrics:", err)
		}
	}()
	return m, nil
}

func (m *metrics) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = m.srv.Shutdown(ctx)
	_ = m.mp.Shutdown(ctx)
}

// quiet is a go-redis logger that writes nothing.
type quiet struct{}

func (quiet) Printf(context.Context, string, ...any) {}
