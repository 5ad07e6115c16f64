package resilient_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocLinks fails when a relative link of README.md or docs/*.md points
// at a file that does not exist, or at a heading its Markdown file does not
// have: material moves between the README and docs/, and files move
// between packages.
func TestDocLinks(t *testing.T) {
	docs, _ := filepath.Glob("docs/*.md")
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, doc := range append([]string{"README.md"}, docs...) {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(text), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, fragment, _ := strings.Cut(target, "#")
			file := doc
			if path != "" {
				file = filepath.Join(filepath.Dir(doc), path)
			}
			if _, err := os.Stat(file); err != nil {
				t.Errorf("%s links %s, which does not exist", doc, target)
				continue
			}
			if fragment == "" || !strings.HasSuffix(file, ".md") {
				continue
			}
			if !headingAnchors(t, file)[fragment] {
				t.Errorf("%s links %s, but %s has no heading #%s", doc, target, file, fragment)
			}
		}
	}
}

// headingAnchors returns the anchors GitHub gives the headings of the
// Markdown file: lower case, punctuation dropped, spaces made hyphens.
func headingAnchors(t *testing.T, path string) map[string]bool {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	drop := regexp.MustCompile(`[^\p{L}\p{N}_\- ]`)
	anchors := map[string]bool{}
	fenced := false
	for _, line := range strings.Split(string(text), "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		heading := strings.TrimLeft(line, "#")
		if fenced || heading == line || !strings.HasPrefix(heading, " ") {
			continue
		}
		anchor := strings.ReplaceAll(drop.ReplaceAllString(strings.ToLower(strings.TrimSpace(heading)), ""), " ", "-")
		anchors[anchor] = true
	}
	return anchors
}

// TestREADMEIsAPath keeps the README a newcomer's path (issue 27): past
// 300 lines it fails, and long material belongs in a page of docs/ that
// the README links.
func TestREADMEIsAPath(t *testing.T) {
	text, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(text), "\n"); n > 300 {
		t.Errorf("README.md has %d lines, more than 300: move the long material to a page of docs/ and link it", n)
	}
}
