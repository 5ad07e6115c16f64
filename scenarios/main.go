// Command scenarios measures what resilient saves when things fail: it
// drives langchaingo's real openai client against the loopback fault server
// (package faultserver, over TCP) through nine fault scenarios, with time
// scaled down, and compares this library with the retries users run
// otherwise: none, two stacked retry layers (as an agent runtime nests
// them), the official OpenAI and Anthropic Go SDKs' retry loops (as their
// source has them), and a plain failsafe-go retry. Scenario 8 is whole
// agent runs of a real agents.Executor; scenario 9, one model on three
// deployments, compares resilient.Pool with ordered fallbacks and a round
// robin.
//
// It writes scenarios.md (the tables and the targets, pass or fail),
// herd.png and agent-runs.png to the -out directory, a new temporary one by
// default, so that running it leaves the checkout as it was. To regenerate
// the committed report and the README's summary, run from this directory:
//
//	go run . -out ../docs -readme ../README.md
//
// -quick runs smaller workloads once, for a first look.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

// regenerate is the command that writes the committed report.
const regenerate = "cd scenarios && go run . -out ../docs -readme ../README.md"

func main() {
	quick := flag.Bool("quick", false, "one run of smaller workloads (a first look; times are single samples)")
	out := flag.String("out", "", "directory for scenarios.md, herd.png and agent-runs.png (default: a new temporary directory)")
	readme := flag.String("readme", "", "also rewrite the scenario summary between the markers in this README")
	only := flag.String("only", "", "run only these scenarios (numbers, comma-separated) and splice their sections and "+
		"targets into the scenarios.md already in -out (and the target count into -readme)")
	flag.Parse()
	log.SetFlags(0)

	dir := *out
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "scenarios"); err != nil {
			log.Fatal(err)
		}
	}
	cfg := config{runs: 5}
	if *quick {
		cfg = config{runs: 1, quick: true}
	}
	start := time.Now()
	if *only != "" {
		if err := spliceOnly(cfg, *only, dir, *readme); err != nil {
			log.Fatal(err)
		}
		log.Printf("spliced into %s", dir)
		return
	}
	rep, err := runAll(cfg)
	if err != nil {
		log.Fatal(err)
	}
	rep.elapsed = time.Since(start)
	if err := rep.write(dir, *readme); err != nil {
		log.Fatal(err)
	}
	log.Printf("wrote %s", dir)
}

// report is everything one run of the harness measured.
type report struct {
	cfg      config
	secs     []section
	herdRuns []herdResult
	agent    []agentPoint
	free     float64 // model steps of an agent run without faults
	elapsed  time.Duration
}

// runAll runs the nine scenarios in order, reporting progress on stderr.
func runAll(cfg config) (*report, error) { return runSome(cfg, nil) }

// runSome runs the scenarios numbered in want (nil: every one).
func runSome(cfg config, want map[int]bool) (*report, error) {
	rep := &report{cfg: cfg}
	steps := []struct {
		name string
		run  func() (section, error)
	}{
		{"transient failures", func() (section, error) { return transient(cfg) }},
		{"rate limiting", func() (section, error) { return rateLimit(cfg) }},
		{"outage", func() (section, error) { return outage(cfg) }},
		{"herd", func() (s section, err error) {
			s, rep.herdRuns, err = herd(cfg)
			return s, err
		}},
		{"nested layers", func() (section, error) { return nested(cfg) }},
		{"hedging", func() (section, error) { return hedging(cfg) }},
		{"idempotent tool", func() (section, error) { return idempotency(cfg) }},
		{"agent runs", func() (s section, err error) {
			s, rep.agent, rep.free, err = agentScenario(cfg)
			return s, err
		}},
		{"pool", func() (section, error) { return pooled(cfg) }},
		{"agent runs on Eino", func() (section, error) { return einoScenario(cfg) }},
		{"openai-go at the HTTP layer", func() (section, error) { return httpScenario(cfg) }},
	}
	for i, st := range steps {
		if want != nil && !want[i+1] {
			continue
		}
		t := time.Now()
		sec, err := st.run()
		if err != nil {
			return nil, fmt.Errorf("scenario %d (%s): %w", i+1, st.name, err)
		}
		log.Printf("scenario %d (%s): %v", i+1, st.name, time.Since(t).Round(time.Millisecond))
		rep.secs = append(rep.secs, sec)
	}
	return rep, nil
}

// write writes the report's files to dir and, when readme is set, its
// summary into that README.
func (rep *report) write(dir, readme string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var doc bytes.Buffer
	rep.writeDoc(&doc)
	path := filepath.Join(dir, "scenarios.md")
	doc.WriteString(keptSection(path))
	if err := os.WriteFile(path, doc.Bytes(), 0o644); err != nil {
		return err
	}
	if err := plotHerd(filepath.Join(dir, "herd.png"), rep.herdRuns); err != nil {
		return err
	}
	if err := plotAgentRuns(filepath.Join(dir, "agent-runs.png"), rep.agent, rep.free); err != nil {
		return err
	}
	if readme == "" {
		return nil
	}
	return rewriteSection(readme, rep.summary())
}

// describedPolicies are every policy of the report, each once.
func describedPolicies() []Policy {
	var out []Policy
	seen := map[string]bool{}
	for _, ps := range [][]Policy{agentPolicies(), outagePolicies(), herdPolicies(), hedgePolicies(), poolPolicies()} {
		for _, p := range ps {
			if !seen[p.Name] {
				seen[p.Name] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// writeDoc writes scenarios.md.
func (rep *report) writeDoc(w io.Writer) {
	cfg := rep.cfg
	fmt.Fprintf(w, "# Fault scenarios\n\n")
	fmt.Fprintf(w, "Written by the harness in `scenarios/` (a module of its own); do not edit. Regenerate this "+
		"report, its charts and the README's summary with:\n\n```\n%s\n```\n\n", regenerate)
	mode := ""
	if cfg.quick {
		mode = " **with -quick: smaller workloads, one run each**;"
	}
	fmt.Fprintf(w, "Run on %s%s: %s, %s/%s, %d CPUs;%s %s of each timed measurement (%d for scenarios 1, "+
		"4 and 9, which take seconds per run; phases instead of runs in scenario 3; one of scenario 8, whose "+
		"runs are its samples); %v in all.\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 MST"), revision(), runtime.Version(), runtime.GOOS, runtime.GOARCH,
		runtime.NumCPU(), mode, plural(cfg.runs, "run"), cfg.heavy().runs, rep.elapsed.Round(100*time.Millisecond))
	fmt.Fprintf(w, "Every request goes through langchaingo v0.1.14's real openai client, over TCP on loopback, "+
		"to `faultserver.New`. **Time is scaled down %d-fold** (%d-fold in the herd): every wait the "+
		"policies make and every delay, window and Retry-After of the server is divided by the scale, "+
		"so 1 s of provider time is %v here. Times in the tables are harness times unless a column says "+
		"otherwise. Counts come from seeded generators and agree between runs unless a range "+
		"(min–max over the runs) follows the median; times are medians.\n\n",
		defaultScale, herdScale, defaultScale.of(time.Second))
	fmt.Fprintf(w, "## The policies\n\nEach description below is generated from the values the harness runs "+
		"the policy with.\n\n")
	for _, p := range describedPolicies() {
		fmt.Fprintf(w, "- **%s**: %s\n", p.Name, p.About)
	}
	fmt.Fprintf(w, "\n## Targets\n\n")
	writeTargets(w, rep.secs)
	for _, s := range rep.secs {
		s.write(w)
	}
}

// Markers around the README's generated summary.
const (
	beginMarker = "<!-- scenarios:begin (generated by the harness in scenarios/; do not edit) -->"
	endMarker   = "<!-- scenarios:end -->"
)

// summary is the README's part: the agent runs in brief, and how many
// targets were met; docs/scenarios.md has the rest.
func (rep *report) summary() string {
	var b strings.Builder
	var targets []target
	for _, s := range rep.secs {
		targets = append(targets, s.targets...)
	}
	agent := rep.section(8)
	fmt.Fprintf(&b, "When things fail, the harness in `scenarios/` drives langchaingo's real openai client "+
		"against the fault server, time scaled down %d-fold, and compares this library with no retry, stacked "+
		"retry layers, the retry loops of openai-go and anthropic-sdk-go and a plain failsafe-go retry "+
		"([docs/scenarios.md](docs/scenarios.md) has every scenario, its tables and charts; regenerate with `%s`). "+
		"Measured%s on %s%s.\n\n",
		defaultScale, regenerate, quickNote(rep.cfg), time.Now().UTC().Format("2006-01-02"), revision())
	fmt.Fprintf(&b, "%s: %s\n\n", agent.title, agent.brief)
	agent.compact.write(&b)
	fmt.Fprintf(&b, "![completed runs against requests per run](docs/agent-runs.png)\n\n")
	b.WriteString(targetCount(targets))
	return b.String()
}

// targetCount is the README's line on the targets: how many were met, and
// the scenarios of those missed.
func targetCount(targets []target) string {
	passed := 0
	var missed []string
	for _, t := range targets {
		if t.pass {
			passed++
			continue
		}
		if n := fmt.Sprint(t.scenario); !slices.Contains(missed, n) {
			missed = append(missed, n)
		}
	}
	if len(missed) == 0 {
		return fmt.Sprintf("%d of %d targets met.\n\n", passed, len(targets))
	}
	return fmt.Sprintf("%d of %d targets met; missed in scenarios %s ([docs/scenarios.md](docs/scenarios.md#targets) says by how much, and why).\n\n",
		passed, len(targets), strings.Join(missed, ", "))
}

// section returns the section of scenario number.
func (rep *report) section(number int) section {
	for _, s := range rep.secs {
		if s.number == number {
			return s
		}
	}
	panic(fmt.Sprintf("scenarios: no scenario %d in the report", number))
}

// plural renders n things: "1 run", "5 runs".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

func quickNote(cfg config) string {
	if cfg.quick {
		return " (-quick: smaller workloads)"
	}
	return ""
}

// rewriteSection replaces what lies between the markers in the file at
// path with body.
func rewriteSection(path, body string) error {
	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(old)
	i, j := strings.Index(s, beginMarker), strings.Index(s, endMarker)
	if i < 0 || j < i {
		return errors.New(path + ": no " + beginMarker + " ... " + endMarker + " section to rewrite")
	}
	s = s[:i+len(beginMarker)] + "\n" + body + s[j:]
	return os.WriteFile(path, []byte(s), 0o644)
}

// Markers of a section of scenarios.md that another harness writes: the
// comparison of resilienttemporal with its anchor, written by that
// module's TestAnchorSideBySide.
const (
	keptBegin = "<!-- durable:begin"
	keptEnd   = "<!-- durable:end -->"
)

// keptSection returns the section between keptBegin and keptEnd of the
// report at path, with a blank line before it, so that a regeneration keeps
// it at the end; "" when there is none.
func keptSection(path string) string {
	old, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	s := string(old)
	i, j := strings.Index(s, keptBegin), strings.Index(s, keptEnd)
	if i < 0 || j < i {
		return ""
	}
	return "\n" + s[i:j+len(keptEnd)] + "\n"
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
