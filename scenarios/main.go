// Command scenarios measures what resilient's defaults save when things
// fail: it drives langchaingo's real openai client against the loopback
// fault server (package faultserver, over TCP) through seven fault
// scenarios, with time scaled down, and compares side by side four ways of
// calling the model:
//
//	(a) no retry: langchaingo as shipped
//	(b) seed 000's two stacked retry layers, 3 x 3 attempts
//	(c) the provider SDKs' default retry loop
//	(d) resilient.Model with its defaults
//
// It writes ../docs/scenarios.md (the tables and the targets, pass or fail)
// and ../docs/herd.png (requests over time in the herd, without jitter and
// with it). Run it from this directory:
//
//	go run .          # 5 runs of each timed measurement, under a minute
//	go run . -quick   # 1 run of smaller workloads
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/resilientgo/resilient/middleware"
)

func main() {
	quick := flag.Bool("quick", false, "one run of smaller workloads (a first look; times are single samples)")
	out := flag.String("out", filepath.Join("..", "docs"), "directory for scenarios.md and herd.png")
	flag.Parse()
	log.SetFlags(0)

	cfg := config{runs: 5}
	if *quick {
		cfg = config{runs: 1, quick: true}
	}
	start := time.Now()
	secs, herdRuns, err := runAll(cfg)
	if err != nil {
		log.Fatal(err)
	}
	elapsed := time.Since(start)

	var doc bytes.Buffer
	writeDoc(&doc, cfg, secs, elapsed, os.Args[1:])
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*out, "scenarios.md"), doc.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	if err := plotHerd(filepath.Join(*out, "herd.png"), herdRuns); err != nil {
		log.Fatal(err)
	}
	_, _ = os.Stdout.Write(doc.Bytes())
}

// runAll runs the seven scenarios in order, reporting progress on stderr.
func runAll(cfg config) ([]section, []herdResult, error) {
	var secs []section
	var herdRuns []herdResult
	steps := []struct {
		name string
		run  func() (section, error)
	}{
		{"transient failures", func() (section, error) { return transient(cfg) }},
		{"rate limiting", func() (section, error) { return rateLimit(cfg) }},
		{"outage", func() (section, error) { return outage(cfg) }},
		{"herd", func() (s section, err error) {
			s, herdRuns, err = herd(cfg)
			return s, err
		}},
		{"nested layers", func() (section, error) { return nested(cfg) }},
		{"hedging", func() (section, error) { return hedging(cfg) }},
		{"idempotent tool", func() (section, error) { return idempotency(cfg) }},
	}
	for i, st := range steps {
		t := time.Now()
		sec, err := st.run()
		if err != nil {
			return nil, nil, fmt.Errorf("scenario %d (%s): %w", i+1, st.name, err)
		}
		log.Printf("scenario %d (%s): %v", i+1, st.name, time.Since(t).Round(time.Millisecond))
		secs = append(secs, sec)
	}
	return secs, herdRuns, nil
}

// writeDoc writes docs/scenarios.md.
func writeDoc(w io.Writer, cfg config, secs []section, elapsed time.Duration, args []string) {
	command := strings.TrimSpace("cd scenarios && go run . " + strings.Join(args, " "))
	fmt.Fprintf(w, "# Fault scenarios\n\n")
	fmt.Fprintf(w, "Written by the harness in `scenarios/` (a module of its own); do not edit, rerun:\n\n"+
		"```\n%s\n```\n\n", command)
	fmt.Fprintf(w, "Run on %s%s: %s, %s/%s, %d CPUs; %d runs of each timed measurement (%d for scenarios 1, 3 "+
		"and 4, which take seconds per run); %v in all.\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 MST"), revision(), runtime.Version(), runtime.GOOS, runtime.GOARCH,
		runtime.NumCPU(), cfg.runs, cfg.heavy().runs, elapsed.Round(100*time.Millisecond))
	fmt.Fprintf(w, "Every request goes through langchaingo v0.1.14's real openai client, over TCP on loopback, "+
		"to `faultserver.New`. **Time is scaled down %d-fold** (%d-fold in the herd): every wait the "+
		"policies make and every delay, window and Retry-After of the server is divided by the scale, "+
		"so 1 s of provider time is %v here. Times in the tables are harness times unless a column says "+
		"otherwise. Counts come from seeded generators and agree between runs unless a range "+
		"(min–max over the runs) follows the median; times are medians.\n\n",
		defaultScale, herdScale, defaultScale.of(time.Second))
	fmt.Fprintf(w, "The policies:\n\n"+
		"- **(a) no retry**: langchaingo as shipped, one request per call.\n"+
		"- **(b) seed 000: 3 x 3 stacked**: an outer loop of 3 attempts, 1.5 s x 2^n between them, around an "+
		"inner loop of 3 attempts, 2 s x 2^(n-1) between them, retrying the seed's transient pattern "+
		"(`overloaded`, `rate limit`, `429`, `5xx`, connection errors, empty messages); no jitter.\n"+
		"- **(c) provider SDK default**: 2 retries, 0.5 s x 2^n x U(0.75, 1) capped at 8 s, on 408, 409, 429, "+
		"5xx and connection errors; Retry-After ignored.\n"+
		"- **(d) resilient defaults**: `resilient.Model` over the openai client with the library's evidence "+
		"transport (`llms.NewTransport`, what `resilient.HTTPClient` installs), every default duration "+
		"divided by the scale (`Backoff`, `RetryAfterCap`, `Breaker` delay, attempt timeout) and nothing "+
		"else changed: %d attempts (5 for rate limits), full-jitter backoff from %v to %v, Retry-After "+
		"honoured up to %v, a breaker that opens after %d consecutive failures for %v (and, for a model "+
		"without fallbacks, makes a call wait for its probe rather than fail at once).\n\n",
		middleware.DefaultMaxAttempts, middleware.DefaultBaseDelay, middleware.DefaultMaxDelay,
		middleware.DefaultRetryAfterCap, middleware.DefaultBreakerFailures, middleware.DefaultBreakerDelay)
	fmt.Fprintf(w, "## Targets\n\n")
	writeTargets(w, secs)
	for _, s := range secs {
		s.write(w)
	}
}

// revision names the library's commit, " at commit abc1234", when git can
// tell; "" otherwise.
func revision() string {
	out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return ""
	}
	return " at commit " + strings.TrimSpace(string(out))
}
