package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/middleware"
)

// The report names the options it passes from the functions and values
// themselves.
func TestOptionText(t *testing.T) {
	cases := []struct {
		opt  libOption
		want string
	}{
		{durs2Option(resilient.Backoff, 500*time.Millisecond, 8*time.Second), "resilient.Backoff(500ms, 8s)"},
		{countDurOption(resilient.CircuitBreaker, 10, 10*time.Second), "resilient.CircuitBreaker(10, 10s)"},
		{fixedOption(resilient.Middleware(middleware.NoJitter()), resilient.Middleware, callOf{middleware.NoJitter, nil}),
			"resilient.Middleware(middleware.NoJitter())"},
		{rateLimitOption(10, 250*time.Millisecond), "resilient.RateLimit(limit.NewLocalLimiter(10, 250ms, resilient.Forever))"},
	}
	for _, c := range cases {
		if got := c.opt.String(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

func TestRewriteSection(t *testing.T) {
	path := filepath.Join(t.TempDir(), "README.md")
	before := "# Title\n\nintro\n\n" + beginMarker + "\nold text\n" + endMarker + "\n\n## Next\n"
	if err := os.WriteFile(path, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	for range 2 { // a second rewrite replaces the first
		if err := rewriteSection(path, "new text\n"); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := os.ReadFile(path)
	want := "# Title\n\nintro\n\n" + beginMarker + "\nnew text\n" + endMarker + "\n\n## Next\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}

	if err := os.WriteFile(path, []byte("no markers\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := rewriteSection(path, "x"); err == nil || !strings.Contains(err.Error(), "no ") {
		t.Errorf("without markers: got %v, want an error naming the missing section", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "no markers\n" {
		t.Errorf("without markers the file changed: %q", got)
	}
}

// Splicing one scenario's section and targets into a report keeps the
// others' as they were, in order.
func TestSplice(t *testing.T) {
	doc := "# Fault scenarios\n\nheader\n\n## Targets\n\n| scenario | target | measured | result |\n| --- | ---: | ---: | ---: |\n" +
		"| 1 | one | 1 | pass |\n| 2 | two | 2 | **FAIL**: slow |\n\n## 1. One\n\nold one\n\n## 2. Two\n\nold two\n"
	sec := section{number: 2, title: "Two", setup: "new two", table: table{header: []string{"policy"}},
		targets: []target{{scenario: 2, what: "two", measured: "3", pass: true}}}
	got, rows := splice(doc, []section{sec}, "alone")
	want := "# Fault scenarios\n\nheader\n\n## Targets\n\n| scenario | target | measured | result |\n| --- | ---: | ---: | ---: |\n" +
		"| 1 | one | 1 | pass |\n| 2 | two | 3 | pass |\n\n## 1. One\n\nold one\n\n## 2. Two\n\nnew two\n\n" +
		"| policy |\n| --- |\n\nalone\n\n"
	if got != want || len(rows) != 2 {
		t.Errorf("got\n%s\nwant\n%s\n(%d rows)", got, want, len(rows))
	}
	sec.number, sec.title, sec.targets = 3, "Three", []target{{scenario: 3, what: "three", measured: "x", pass: false, why: "why"}}
	got, rows = splice(doc, []section{sec}, "alone")
	if !strings.HasSuffix(got, "old two\n\n## 3. Three\n\nnew two\n\n| policy |\n| --- |\n\nalone\n\n") || len(rows) != 3 ||
		rows[2][3] != "**FAIL**: why" || !strings.Contains(got, "| 2 | two | 2 | **FAIL**: slow |") {
		t.Errorf("appended: got\n%s\n%q", got, rows)
	}
	elsewhere := keptBegin + " (written elsewhere) -->\n## Elsewhere\n\n| a | b |\n" + keptEnd
	got, _ = splice(doc+"\n"+elsewhere+"\n", []section{sec}, "alone")
	if !strings.HasSuffix(got, "old two\n\n## 3. Three\n\nnew two\n\n| policy |\n| --- |\n\nalone\n\n\n"+elsewhere+"\n") {
		t.Errorf("with a section written elsewhere: got\n%s", got)
	}
}

func TestKeptSection(t *testing.T) {
	path := filepath.Join(t.TempDir(), "scenarios.md")
	section := keptBegin + " (written elsewhere) -->\n## Elsewhere\n\n| a | b |\n" + keptEnd
	if err := os.WriteFile(path, []byte("# Fault scenarios\n\nold report\n\n"+section+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := keptSection(path), "\n"+section+"\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if err := os.WriteFile(path, []byte("# Fault scenarios\n\nno other section\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := keptSection(path); got != "" {
		t.Errorf("without the section: got %q, want nothing", got)
	}
	if got := keptSection(filepath.Join(t.TempDir(), "missing.md")); got != "" {
		t.Errorf("without a file: got %q, want nothing", got)
	}
}

// The README's summary ends with the count of targets met and the
// scenarios of the missed ones, which a splice rewrites from the targets
// table alone.
func TestRewriteTargetCount(t *testing.T) {
	path := filepath.Join(t.TempDir(), "README.md")
	before := "intro\n\n" + beginMarker + "\nagent runs\n\n1 of 1 targets met.\n\n" + endMarker + "\n\n## Next\n"
	if err := os.WriteFile(path, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	rows := [][]string{
		{"1", "one", "1", passFail(true)},
		{"3", "three", "x", passFail(false) + ": slow"},
		{"3", "three again", "y", passFail(false) + ": slower"},
		{"8", "eight", "z", passFail(false) + ": why"},
	}
	for range 2 { // a second rewrite replaces the first
		if err := rewriteTargetCount(path, rows); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := os.ReadFile(path)
	want := "intro\n\n" + beginMarker + "\nagent runs\n\n1 of 4 targets met; missed in scenarios 3, 8 " +
		"([docs/scenarios.md](docs/scenarios.md#targets) says by how much, and why).\n\n" + endMarker + "\n\n## Next\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := targetCount([]target{{scenario: 1, pass: true}}); got != "1 of 1 targets met.\n\n" {
		t.Errorf("all met: got %q", got)
	}
}

// The README's summary is the agent runs (scenario 8) in brief, their
// chart and the count of targets, which a later splice can find and
// rewrite.
func TestSummary(t *testing.T) {
	agent := section{number: 8, title: "Whole agent runs", brief: "200 runs", compact: table{header: []string{"policy"}, rows: [][]string{{"resilient defaults"}}},
		targets: []target{{scenario: 8, pass: false}}}
	other := section{number: 9, title: "Pool", brief: "1000 calls", targets: []target{{scenario: 9, pass: true}}}
	rep := &report{secs: []section{agent, other}}
	got := rep.summary()
	for _, want := range []string{
		"Whole agent runs: 200 runs\n\n| policy |\n| --- |\n| resilient defaults |\n\n![completed runs against requests per run](docs/agent-runs.png)\n\n",
		"1 of 2 targets met; missed in scenarios 8 ",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the summary lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "1000 calls") {
		t.Errorf("the summary shows scenario 9, which docs/scenarios.md keeps:\n%s", got)
	}
	path := filepath.Join(t.TempDir(), "README.md")
	if err := os.WriteFile(path, []byte(beginMarker+"\n"+endMarker+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := rewriteSection(path, got); err != nil {
		t.Fatal(err)
	}
	if err := rewriteTargetCount(path, [][]string{{"8", "x", "y", passFail(true)}}); err != nil {
		t.Errorf("a splice finds no target count in the summary: %v", err)
	}
}

// TestRewriteAgentTable: a splice of scenario 8 puts its compact table in
// place of the README summary's, and leaves the rest as it was.
func TestRewriteAgentTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "README.md")
	doc := "intro\n" + beginMarker + "\nWhen things fail...\n\nWhole agent runs: 200 runs\n\n| policy | runs |\n| --- | ---: |\n| old | 1 |\n\n" +
		"![chart](docs/agent-runs.png)\n\n1 of 2 targets met.\n\n" + endMarker + "\nafter\n"
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := rewriteAgentTable(path, table{header: []string{"policy", "runs"}, rows: [][]string{{"new", "2"}}}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want := strings.Replace(doc, "| policy | runs |\n| --- | ---: |\n| old | 1 |\n", "| policy | runs |\n| --- | ---: |\n| new | 2 |\n", 1)
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
