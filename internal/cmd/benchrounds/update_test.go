package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestRewrite(t *testing.T) {
	text := "# Perf\n\n<!-- benchrounds -pkg . -bench Model -->\nold\n<!-- end benchrounds -->\n\ntext\n\n" +
		"<!-- benchrounds -pkg ./middleware -bench Noop -->\n<!-- end benchrounds -->\nend\n"
	var asked []string
	got, err := rewrite(text, func(flags, old string) (string, error) {
		asked = append(asked, flags+" (was "+strings.TrimSpace(old)+")")
		return "table of " + flags + "\n", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "# Perf\n\n<!-- benchrounds -pkg . -bench Model -->\ntable of -pkg . -bench Model\n<!-- end benchrounds -->\n\ntext\n\n" +
		"<!-- benchrounds -pkg ./middleware -bench Noop -->\ntable of -pkg ./middleware -bench Noop\n<!-- end benchrounds -->\nend\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if strings.Join(asked, "; ") != "-pkg . -bench Model (was old); -pkg ./middleware -bench Noop (was )" {
		t.Errorf("measurements asked for: %q", asked)
	}
}

func TestRewriteRefusesBrokenMarkers(t *testing.T) {
	for _, text := range []string{
		"no markers at all\n",
		"<!-- benchrounds -pkg . -->\nno end\n",
		"<!-- end benchrounds -->\n<!-- benchrounds -pkg . -->\n",
	} {
		if _, err := rewrite(text, func(string, string) (string, error) { return "x\n", nil }); err == nil {
			t.Errorf("%q: no error", text)
		}
	}
}

// TestUpdateOnlyKeepsTheOtherTables: with -only, a table whose flags do
// not match keeps its body, and its measurement is not run.
func TestUpdateOnlyKeepsTheOtherTables(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "perf.md")
	text := "<!-- benchrounds -pkg ./nowhere -bench Model -->\nkept table\n<!-- end benchrounds -->\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := update([]string{path}, regexp.MustCompile(`-bench Noop`)); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != text {
		t.Errorf("got\n%s\nwant it unchanged:\n%s", got, text)
	}
}
