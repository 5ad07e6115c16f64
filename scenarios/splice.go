package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// spliceOnly runs the scenarios listed in only ("10", "8,10") and puts
// their sections and targets in place of the ones in dir's scenarios.md,
// leaving the other scenarios' figures as they were measured; with readme,
// it rewrites the target count and the missed targets at the end of the
// README's summary from the spliced targets.
func spliceOnly(cfg config, only, dir, readme string) error {
	want := map[int]bool{}
	for _, f := range strings.Split(only, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return fmt.Errorf("-only %q: %v", only, err)
		}
		want[n] = true
	}
	start := time.Now()
	rep, err := runSome(cfg, want)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, "scenarios.md")
	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	note := fmt.Sprintf("This section was measured alone (`go run . -only %s`) on %s%s: %s, %d CPUs, in %v.",
		only, time.Now().UTC().Format("2006-01-02 15:04 MST"), revision(), runtime.Version(), runtime.NumCPU(),
		time.Since(start).Round(100*time.Millisecond))
	doc, rows := splice(string(old), rep.secs, note)
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		return err
	}
	if readme == "" {
		return nil
	}
	if want[8] {
		// The README's summary shows scenario 8's compact table.
		if err := rewriteAgentTable(readme, rep.section(8).compact); err != nil {
			return err
		}
	}
	return rewriteTargetCount(readme, rows)
}

// rewriteAgentTable puts t in place of the table of the README's summary
// at path (the first table between its markers).
func rewriteAgentTable(path string, t table) error {
	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(old)
	begin, end := strings.Index(s, beginMarker), strings.Index(s, endMarker)
	if begin < 0 || end < begin {
		return fmt.Errorf("%s: no %s ... %s section", path, beginMarker, endMarker)
	}
	i := strings.Index(s[begin:end], "\n|")
	if i < 0 {
		return fmt.Errorf("%s: no table in the summary", path)
	}
	i += begin + 1
	j := strings.Index(s[i:end], "\n\n")
	if j < 0 {
		return fmt.Errorf("%s: the summary's table does not end", path)
	}
	var b bytes.Buffer
	t.write(&b)
	// write ends the table with a blank line; the summary has one already.
	return os.WriteFile(path, []byte(s[:i]+strings.TrimSuffix(b.String(), "\n")+s[i+j+1:]), 0o644)
}

// splice returns doc with secs in place of their sections (appended in
// order when missing) and their targets in place of theirs, and every row
// of the spliced targets table.
func splice(doc string, secs []section, note string) (string, [][]string) {
	// The section written elsewhere stays at the end, as a full
	// regeneration keeps it (see keptSection).
	var kept string
	if i, j := strings.Index(doc, keptBegin), strings.Index(doc, keptEnd); i >= 0 && j > i {
		kept = "\n" + doc[i:j+len(keptEnd)] + "\n"
		doc = doc[:i] + strings.TrimPrefix(doc[j+len(keptEnd):], "\n")
		doc = strings.TrimSuffix(doc, "\n")
	}
	parts := splitSections(doc)
	for _, s := range secs {
		var b bytes.Buffer
		s.notes = append(s.notes[:len(s.notes):len(s.notes)], note)
		s.write(&b)
		head := fmt.Sprintf("## %d. ", s.number)
		i := slices.IndexFunc(parts, func(p string) bool { return strings.HasPrefix(p, head) })
		if i < 0 {
			if last := len(parts) - 1; !strings.HasSuffix(parts[last], "\n\n") {
				parts[last] += "\n"
			}
			parts = append(parts, b.String())
			continue
		}
		parts[i] = b.String()
	}
	i := slices.IndexFunc(parts, func(p string) bool { return strings.HasPrefix(p, "## Targets") })
	var rows [][]string
	if i >= 0 {
		rows = targetRows(parts[i])
		replaced := map[string]bool{}
		for _, s := range secs {
			replaced[strconv.Itoa(s.number)] = true
		}
		rows = slices.DeleteFunc(rows, func(r []string) bool { return replaced[r[0]] })
		var b bytes.Buffer
		writeTargets(&b, secs)
		rows = append(rows, targetRows("\n"+b.String())...)
		slices.SortStableFunc(rows, func(a, b []string) int {
			x, _ := strconv.Atoi(a[0])
			y, _ := strconv.Atoi(b[0])
			return x - y
		})
		t := table{header: []string{"scenario", "target", "measured", "result"}, rows: rows}
		b.Reset()
		b.WriteString("## Targets\n\n")
		t.write(&b)
		parts[i] = b.String()
	}
	return strings.Join(parts, "") + kept, rows
}

// splitSections cuts a report before each "## " heading.
func splitSections(doc string) []string {
	var parts []string
	rest := doc
	for {
		i := strings.Index(rest[1:], "\n## ")
		if i < 0 {
			return append(parts, rest)
		}
		parts = append(parts, rest[:i+2])
		rest = rest[i+2:]
	}
}

// targetRows returns the cells of the rows of the targets table in text.
func targetRows(text string) [][]string {
	var rows [][]string
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| scenario |") || strings.HasPrefix(line, "| --- |") {
			continue
		}
		cells := strings.Split(strings.TrimSuffix(strings.TrimPrefix(line, "| "), " |"), " | ")
		if len(cells) == 4 {
			rows = append(rows, cells)
		}
	}
	return rows
}

// rewriteTargetCount rewrites the end of the README's summary, from its
// "targets met" line, from the targets' rows.
func rewriteTargetCount(path string, rows [][]string) error {
	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(old)
	end := strings.Index(s, endMarker)
	begin := strings.Index(s, beginMarker)
	if begin < 0 || end < begin {
		return fmt.Errorf("%s: no %s ... %s section", path, beginMarker, endMarker)
	}
	i := strings.LastIndex(s[:end], "\n") // the line before the marker
	for i > begin && !strings.Contains(s[i:end], " targets met") {
		i = strings.LastIndex(s[:i], "\n")
	}
	if i <= begin {
		return fmt.Errorf("%s: no target count in the summary", path)
	}
	var targets []target
	for _, r := range rows {
		n, err := strconv.Atoi(r[0])
		if err != nil {
			return fmt.Errorf("%s: target row %q: %v", path, r, err)
		}
		targets = append(targets, target{scenario: n, pass: r[3] == passFail(true)})
	}
	return os.WriteFile(path, []byte(s[:i+1]+targetCount(targets)+s[end:]), 0o644)
}
