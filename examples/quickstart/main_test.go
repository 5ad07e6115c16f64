package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/resilientgo/resilient/observe/observetest"
)

// The README promises that this example runs offline; keep it honest. Its
// text and its log go to one writer, as on a terminal: every log line must
// be a line of its own, never inside a line of the streamed answer, and
// nothing is coloured, since the writer is not a terminal.
func TestRuns(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	var term observetest.LogBuffer // one writer for text and log, as a terminal shows both
	if err := run(&term, &term, false); err != nil {
		t.Fatal(err)
	}
	out := term.String()
	if strings.Contains(out, "\x1b[") {
		t.Errorf("the output holds ANSI escapes:\n%s", out)
	}
	logLine := regexp.MustCompile(`^\d\d:\d\d:\d\d\.\d{3} (DBG|INF|WRN|ERR) `)
	levels := regexp.MustCompile(` (DBG|INF|WRN|ERR) `)
	logs := 0
	for line := range strings.Lines(out) {
		switch {
		case logLine.MatchString(line):
			logs++
		case levels.MatchString(line):
			t.Errorf("a log line lands inside a line of the text: %q", line)
		}
	}
	// The stream dropped after two chunks, then the answer came whole.
	for _, want := range []string{
		"\n  Compaction kept \n",
		"\n  [stream dropped after \"Compaction kept \": clearing it and asking again]\n",
		"\n  Compaction kept the system prompt and the recent turns.\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks the line %q:\n%s", want, out)
		}
	}
	if logs == 0 {
		t.Errorf("no log line in the output:\n%s", out)
	}
}
