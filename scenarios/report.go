package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// samples holds one measure's value from each run.
type samples []float64

func (s samples) median() float64 {
	if len(s) == 0 {
		return 0
	}
	c := slices.Clone(s)
	slices.Sort(c)
	if len(c)%2 == 1 {
		return c[len(c)/2]
	}
	return (c[len(c)/2-1] + c[len(c)/2]) / 2
}

func (s samples) bounds() (lo, hi float64) {
	if len(s) == 0 {
		return 0, 0
	}
	return slices.Min(s), slices.Max(s)
}

// count renders a count that should agree between runs: the value, or the
// median with the range when runs disagreed.
func (s samples) count() string {
	lo, hi := s.bounds()
	if lo == hi {
		return trimFloat(lo)
	}
	return fmt.Sprintf("%s (%s–%s)", trimFloat(s.median()), trimFloat(lo), trimFloat(hi))
}

// ratio renders a ratio with two decimals, the range when runs disagreed.
func (s samples) ratio() string {
	lo, hi := s.bounds()
	if fmt.Sprintf("%.2f", lo) == fmt.Sprintf("%.2f", hi) {
		return fmt.Sprintf("%.2f", lo)
	}
	return fmt.Sprintf("%.2f (%.2f–%.2f)", s.median(), lo, hi)
}

// percent renders a success rate.
func (s samples) percent() string {
	lo, hi := s.bounds()
	if fmt.Sprintf("%.1f", lo) == fmt.Sprintf("%.1f", hi) {
		return fmt.Sprintf("%.1f %%", lo)
	}
	return fmt.Sprintf("%.1f %% (%.1f–%.1f)", s.median(), lo, hi)
}

// millis renders durations (stored in milliseconds) as their median.
func (s samples) millis() string { return formatMillis(s.median()) }

// millisRange renders durations (stored in milliseconds) as their median
// and range. Negative values stand for "nothing to measure" and are left
// out; "–" when nothing is left.
func (s samples) millisRange() string {
	var kept samples
	for _, v := range s {
		if v >= 0 {
			kept = append(kept, v)
		}
	}
	if len(kept) == 0 {
		return "–"
	}
	lo, hi := kept.bounds()
	if formatMillis(lo) == formatMillis(hi) {
		return formatMillis(lo)
	}
	return fmt.Sprintf("%s (%s–%s)", formatMillis(kept.median()), formatMillis(lo), formatMillis(hi))
}

func formatMillis(ms float64) string {
	switch {
	case ms >= 10000:
		return fmt.Sprintf("%.1f s", ms/1000)
	case ms >= 100:
		return fmt.Sprintf("%.0f ms", ms)
	case ms >= 10:
		return fmt.Sprintf("%.1f ms", ms)
	}
	return fmt.Sprintf("%.2f ms", ms)
}

func trimFloat(f float64) string {
	if f == float64(int64(f)) {
		return fmt.Sprintf("%d", int64(f))
	}
	return fmt.Sprintf("%.1f", f)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// A table is a markdown table.
type table struct {
	header []string
	rows   [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t table) write(w io.Writer) {
	line := func(cells []string) { fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | ")) }
	line(t.header)
	sep := make([]string, len(t.header))
	for i := range sep {
		sep[i] = "---"
		if i > 0 {
			sep[i] = "---:"
		}
	}
	line(sep)
	for _, r := range t.rows {
		line(r)
	}
	fmt.Fprintln(w)
}

// A target is one of the acceptance checks, as measured.
type target struct {
	scenario int
	what     string
	measured string
	pass     bool
	why      string // when missed: why, from what was measured
}

// A section is one scenario's part of the report.
type section struct {
	number  int
	title   string
	setup   string // what the server does and what the callers do
	table   table
	notes   []string
	targets []target
	brief   string // for the README: the setup in one sentence ...
	compact table  // ... and the table in a few columns
}

func (s section) write(w io.Writer) {
	fmt.Fprintf(w, "## %d. %s\n\n%s\n\n", s.number, s.title, s.setup)
	s.table.write(w)
	for _, n := range s.notes {
		fmt.Fprintf(w, "%s\n\n", n)
	}
}

func passFail(ok bool) string {
	if ok {
		return "pass"
	}
	return "**FAIL**"
}

func writeTargets(w io.Writer, sections []section) {
	t := table{header: []string{"scenario", "target", "measured", "result"}}
	for _, s := range sections {
		for _, tg := range s.targets {
			result := passFail(tg.pass)
			if !tg.pass && tg.why != "" {
				result += ": " + tg.why
			}
			t.add(fmt.Sprint(tg.scenario), tg.what, tg.measured, result)
		}
	}
	t.write(w)
}
