// Command telemetry runs an agent under faults with the OpenTelemetry
// observer installed, prints the trace of the run as a tree, and serves the
// metrics for Prometheus on /metrics, beside the status page of the
// agent's model and tool on /status/ (package status; read-only).
//
// The agent is langchaingo's agents.Executor with its real OpenAI client,
// talking to a loopback fault server that answers, in turn: 429 with
// Retry-After: 1, a tool call the shop cannot answer (a ToolError the model
// reads), 529 "overloaded", the corrected tool call, and the answer. The
// spans go to OpenTelemetry's stdout exporter (JSON, one span a line, kept
// with -spans), and the tree is drawn from its output; otelhttp traces each
// HTTP request under the attempt that sent it.
//
//	go run ./examples/telemetry                  # run, print the tree and the metrics, exit
//	go run ./examples/telemetry -serve           # ... and keep serving /metrics and /status/ until Ctrl-C
//	go run ./examples/telemetry -svg trace.svg   # ... and draw the tree as a picture
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/otlptranslator"
	"go.opentelemetry.io/otel"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/resilientgo/resilient/status"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:9464", "address to serve /metrics on")
	serve := flag.Bool("serve", false, "keep serving /metrics after the run, until interrupted")
	spans := flag.String("spans", "", "also write the spans, as the stdout exporter wrote them, to this file")
	svg := flag.String("svg", "", "also draw the trace tree as an SVG picture in this file")
	flag.Parse()
	if err := run(*addr, *serve, *spans, *svg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "telemetry:", err)
		os.Exit(1)
	}
}

func run(addr string, serve bool, spansFile, svgFile string, out io.Writer) error {
	t, err := setup(addr)
	if err != nil {
		return err
	}
	defer t.close()

	answer, err := runAgent(context.Background(), t.status)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "answer: %s\n\n", answer)

	tree, err := t.trace()
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "trace:")
	tree.print(out)
	if spansFile != "" {
		if err := os.WriteFile(spansFile, t.spans.Bytes(), 0o644); err != nil {
			return err
		}
	}
	if svgFile != "" {
		if err := os.WriteFile(svgFile, tree.svg(), 0o644); err != nil {
			return err
		}
	}

	url := "http://" + t.addr + "/metrics"
	fmt.Fprintf(out, "\nmetrics (%s):\n", url)
	lines, err := scrape(url)
	if err != nil {
		return err
	}
	for _, l := range lines {
		fmt.Fprintln(out, "  "+l)
	}
	if serve {
		fmt.Fprintf(out, "\nserving %s and http://%s/status/ until interrupted\n", url, t.addr)
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		<-ctx.Done()
	}
	return nil
}

// telemetry is the OpenTelemetry SDK as a program sets it up: a tracer
// provider exporting through the stdout exporter, a meter provider read by
// the Prometheus exporter, both installed as the global providers, which
// resilientotel.New and otelhttp use by default.
type telemetry struct {
	tp    *sdktrace.TracerProvider
	mp    *sdkmetric.MeterProvider
	spans *bytes.Buffer // what the stdout exporter wrote
	srv   *http.Server
	addr  string // where /metrics and /status/ are served
	// status holds what /status/ shows: the agent's model and tool.
	status *status.Registry
}

func setup(addr string) (*telemetry, error) {
	t := &telemetry{spans: &bytes.Buffer{}, status: &status.Registry{}}
	exp, err := stdouttrace.New(stdouttrace.WithWriter(t.spans))
	if err != nil {
		return nil, err
	}
	t.tp = sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))

	reg := prometheus.NewRegistry()
	reader, err := otelprom.New(otelprom.WithRegisterer(reg), otelprom.WithoutScopeInfo(),
		otelprom.WithTranslationStrategy(otlptranslator.UnderscoreEscapingWithSuffixes))
	if err != nil {
		return nil, err
	}
	t.mp = sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	otel.SetTracerProvider(t.tp)
	otel.SetMeterProvider(t.mp)

	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	t.addr = l.Addr().String()
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.Handle("/status/", http.StripPrefix("/status", status.Handler(t.status)))
	t.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = t.srv.Serve(l) }()
	return t, nil
}

// trace returns the tree of the spans the stdout exporter wrote.
func (t *telemetry) trace() (*tree, error) {
	if err := t.tp.ForceFlush(context.Background()); err != nil {
		return nil, err
	}
	return parseSpans(bytes.NewReader(t.spans.Bytes()))
}

func (t *telemetry) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = t.srv.Shutdown(ctx)
	_ = t.tp.Shutdown(ctx)
	_ = t.mp.Shutdown(ctx)
}

// scrape gets url and returns the samples of this library's metrics and the
// GenAI ones, without the histograms' buckets.
func scrape(url string) ([]string, error) {
	resp, err := http.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, errors.New("scrape: " + resp.Status)
	}
	var lines []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		l := sc.Text()
		if (strings.HasPrefix(l, "resilient_") || strings.HasPrefix(l, "gen_ai_")) && !strings.Contains(l, "_bucket{") {
			lines = append(lines, l)
		}
	}
	return lines, sc.Err()
}
