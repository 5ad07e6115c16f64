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
		{rateLimitOption(10, 250*time.Millisecond), "resilient.RateLimit(limit.NewLocalLimiter(10, 250ms, 0))"},
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
