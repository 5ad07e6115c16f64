package resilient_test

import (
	"bufio"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The Go code of README.md (and of docs/*.md) is not written in the
// Markdown: it is quoted from the test files of this package, where it
// compiles and runs against the fault server. A quoted region is marked in
// a test file by a line "// readme:begin NAME" and a line "// readme:end";
// regions with the same name are joined by a blank line (so that a block
// can show a type and the code that uses it), and each is shown without
// its indentation. TestREADMEQuotesTestedCode fails when a ```go block of
// the Markdown is not exactly one of these snippets, or a snippet is quoted
// nowhere: change the code in the test file, run it, then copy it into the
// Markdown.

const (
	regionBegin = "// readme:begin "
	regionEnd   = "// readme:end"
)

// snippetModules are the directories of the modules of their own whose
// tests hold quoted code too.
var snippetModules = []string{"resilienthttp/sdktest", "resilienteino"}

func TestREADMEQuotesTestedCode(t *testing.T) {
	snippets, err := readSnippets(".")
	if err != nil {
		t.Fatal(err)
	}
	// The SDKs' code is tested in modules of their own (their go.mod asks
	// for a newer Go than this module's).
	for _, dir := range snippetModules {
		more, err := readSnippets(dir)
		if err != nil {
			t.Fatal(err)
		}
		for name, text := range more {
			if _, dup := snippets[name]; dup {
				t.Errorf("%s: snippet %q is also in the root package's tests", dir, name)
			}
			snippets[name] = text
		}
	}
	docs, _ := filepath.Glob("docs/*.md")
	quoted := map[string]bool{}
	for _, doc := range append([]string{"README.md"}, docs...) {
		blocks, err := goBlocks(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range blocks {
			name, ok := matchSnippet(snippets, b.text)
			if !ok {
				t.Errorf("%s:%d: this ```go block is not a tested snippet; put the code in a test of the root package between %q and %q and quote it exactly:\n%s",
					doc, b.line, regionBegin+"NAME", regionEnd, b.text)
				continue
			}
			quoted[name] = true
		}
	}
	for _, name := range slices.Sorted(maps.Keys(snippets)) {
		if !quoted[name] {
			t.Errorf("snippet %q is quoted by no ```go block of README.md or docs/*.md; quote it or remove its markers:\n%s", name, snippets[name])
		}
	}
}

// The extraction itself, on a small file: a region split in two parts,
// indentation removed, and a Markdown block.
func TestREADMESnippetsExtraction(t *testing.T) {
	dir := t.TempDir()
	src := "package x_test\n\n" +
		"// readme:begin demo\n\ntype T struct{}\n\n// readme:end\n\n" +
		"func f() {\n\t// readme:begin demo\n\tx := T{}\n\tif x == (T{}) {\n\t\treturn\n\t}\n\t// readme:end\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	snippets, err := readSnippets(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := "type T struct{}\n\nx := T{}\nif x == (T{}) {\n\treturn\n}\n"
	if got := snippets["demo"]; got != want {
		t.Errorf("got snippet %q, want %q", got, want)
	}

	md := "# Title\n\n```go\nx := 1\n```\n\n```sh\ngo test\n```\n\n```go\n\ty := 2\n```\n"
	mdPath := filepath.Join(dir, "x.md")
	if err := os.WriteFile(mdPath, []byte(md), 0o600); err != nil {
		t.Fatal(err)
	}
	blocks, err := goBlocks(mdPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 2 || blocks[0].text != "x := 1\n" || blocks[0].line != 3 || blocks[1].text != "\ty := 2\n" {
		t.Errorf("got blocks %+v, want x := 1 at line 3 and an indented y := 2", blocks)
	}

	for _, bad := range []string{
		"package x_test\n// readme:begin open\n",                 // never closed
		"package x_test\n// readme:end\n",                        // never opened
		"package x_test\n// readme:begin a\n// readme:begin b\n", // nested
		"package x_test\n// readme:begin \n// readme:end\n",      // no name
	} {
		if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := readSnippets(dir); err == nil {
			t.Errorf("readSnippets accepted %q", bad)
		}
	}
}

// readSnippets returns the regions of the test files in dir, by name.
func readSnippets(dir string) (map[string]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	parts := map[string][]string{}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		name, start := "", 0
		lines := strings.SplitAfter(string(src), "\n")
		for i, line := range lines {
			trimmed := strings.TrimSpace(line)
			switch {
			case strings.HasPrefix(trimmed, strings.TrimSpace(regionBegin)):
				n := strings.TrimSpace(strings.TrimPrefix(trimmed, strings.TrimSpace(regionBegin)))
				if name != "" || n == "" {
					return nil, fmt.Errorf("%s:%d: a region needs a name and must not be nested", file, i+1)
				}
				name, start = n, i+1
			case trimmed == regionEnd:
				if name == "" {
					return nil, fmt.Errorf("%s:%d: %s without %s", file, i+1, regionEnd, regionBegin)
				}
				parts[name] = append(parts[name], dedent(trimBlank(lines[start:i])))
				name = ""
			}
		}
		if name != "" {
			return nil, fmt.Errorf("%s:%d: region %q is never closed", file, start, name)
		}
	}
	snippets := map[string]string{}
	for name, p := range parts {
		snippets[name] = strings.Join(p, "\n")
	}
	return snippets, nil
}

// trimBlank returns lines without the blank lines that start and end them.
func trimBlank(lines []string) []string {
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// dedent joins lines without the indentation they all share.
func dedent(lines []string) string {
	prefix, first := "", true
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if first {
			prefix, first = indent, false
		}
		for !strings.HasPrefix(indent, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	var b strings.Builder
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			b.WriteString("\n")
			continue
		}
		b.WriteString(strings.TrimPrefix(l, prefix))
	}
	return b.String()
}

type block struct {
	line int // of the opening fence, from 1
	text string
}

// goBlocks returns the ```go blocks of the Markdown file at path.
func goBlocks(path string) ([]block, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var blocks []block
	var cur *block
	fenced := false // inside a block of another language
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		fence := strings.HasPrefix(strings.TrimSpace(line), "```")
		switch {
		case cur != nil && fence:
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.text += line + "\n"
		case fenced && fence:
			fenced = false
		case !fenced && strings.TrimSpace(line) == "```go":
			cur = &block{line: n}
		case !fenced && fence:
			fenced = true
		}
	}
	if cur != nil {
		return nil, fmt.Errorf("%s:%d: ```go block never closed", path, cur.line)
	}
	return blocks, sc.Err()
}

func matchSnippet(snippets map[string]string, text string) (string, bool) {
	for name, s := range snippets {
		if s == text {
			return name, true
		}
	}
	return "", false
}
