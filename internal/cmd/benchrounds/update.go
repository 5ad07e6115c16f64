package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"time"
)

// Markers of a generated table in a markdown file. The opening marker
// carries the measurement's flags, so that the page states how its figures
// were made and -update can make them again:
//
//	<!-- benchrounds -pkg . -bench . -base impl=failsafe -rounds 10 -->
//	| benchmark | median | ... (generated)
//	<!-- end benchrounds -->
const (
	beginPrefix = "<!-- benchrounds "
	beginSuffix = " -->"
	endMarker   = "<!-- end benchrounds -->"
)

// update regenerates every table between markers in the files at paths
// whose measurement's flags match only (all of them when only is nil).
// Each distinct measurement runs once, however many tables show it.
func update(paths []string, only *regexp.Regexp) error {
	if len(paths) == 0 {
		return errors.New("-update needs the files to update")
	}
	tables := map[string]string{} // flags -> table
	table := func(flags, old string) (string, error) {
		if only != nil && !only.MatchString(flags) {
			return old, nil
		}
		if t, ok := tables[flags]; ok {
			return t, nil
		}
		fs := flag.NewFlagSet("benchrounds", flag.ContinueOnError)
		c := options(fs)
		if err := fs.Parse(strings.Fields(flags)); err != nil {
			return "", fmt.Errorf("marker %q: %w", flags, err)
		}
		fmt.Fprintf(os.Stderr, "measuring: %s\n", flags)
		res, err := c.measure()
		if err != nil {
			return "", err
		}
		var b strings.Builder
		res.writeMarkdown(&b, flags)
		tables[flags] = b.String()
		return tables[flags], nil
	}
	for _, path := range paths {
		old, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text, err := rewrite(string(old), table)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// rewrite returns text with the body of every marked block replaced by
// table(flags, body). It changes nothing when a marker is unpaired.
func rewrite(text string, table func(flags, body string) (string, error)) (string, error) {
	var out strings.Builder
	rest := text
	blocks := 0
	for {
		i := strings.Index(rest, beginPrefix)
		if i < 0 {
			break
		}
		eol := strings.Index(rest[i:], beginSuffix)
		j := strings.Index(rest[i:], endMarker)
		if eol < 0 || j < 0 || j < eol {
			return "", fmt.Errorf("a %q marker without its %q", beginPrefix+"...", endMarker)
		}
		head := i + eol + len(beginSuffix)
		flags := strings.TrimSpace(rest[i+len(beginPrefix) : i+eol])
		t, err := table(flags, strings.TrimPrefix(rest[head:i+j], "\n"))
		if err != nil {
			return "", err
		}
		out.WriteString(rest[:head])
		out.WriteString("\n")
		out.WriteString(t)
		out.WriteString(endMarker)
		rest = rest[i+j+len(endMarker):]
		blocks++
	}
	if blocks == 0 {
		return "", errors.New("no benchrounds markers")
	}
	out.WriteString(rest)
	return out.String(), nil
}

// writeMarkdown writes the table as markdown, then where and how it was
// measured.
func (r result) writeMarkdown(w io.Writer, flags string) {
	unit := "time/op"
	if r.c.metric != "ns/op" {
		unit = r.c.metric
	}
	fmt.Fprintf(w, "| benchmark | median %s | B/op | allocs/op | ratio to %s (median) | range over rounds |\n", unit, r.c.base)
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|")
	rounds := 0
	for _, rw := range r.rows() {
		ratio, spread := "", ""
		switch {
		case rw.ratio != 0 && rw.hi < 0.01: // the bare call: the baseline's cost is all overhead
			ratio = "<0.01x"
		case rw.ratio != 0:
			ratio, spread = fmt.Sprintf("%.2fx", rw.ratio), fmt.Sprintf("%.2f–%.2f", rw.lo, rw.hi)
		}
		fmt.Fprintf(w, "| `%s` | %s | %.0f | %.0f | %s | %s |\n",
			strings.TrimPrefix(rw.name, "Benchmark"), human(rw.ns), rw.bytes, rw.allocs, ratio, spread)
		rounds = rw.rounds
	}
	fmt.Fprintf(w, "\n%d paired rounds, %s, %s, %s/%s, %d CPUs%s: `go run ./internal/cmd/benchrounds %s`.\n",
		rounds, time.Now().UTC().Format("2006-01-02"), runtime.Version(), runtime.GOOS, runtime.GOARCH,
		runtime.NumCPU(), commit(), flags)
}

// commit names the checkout's commit, ", commit abc1234", when git can tell.
func commit() string {
	out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return ""
	}
	return ", commit " + strings.TrimSpace(string(out))
}
