package main

import (
	"strings"
	"testing"
)

func TestRewrite(t *testing.T) {
	text := "# Perf\n\n<!-- benchrounds -pkg . -bench Model -->\nold\n<!-- end benchrounds -->\n\ntext\n\n" +
		"<!-- benchrounds -pkg ./middleware -bench Noop -->\n<!-- end benchrounds -->\nend\n"
	var asked []string
	got, err := rewrite(text, func(flags string) (string, error) {
		asked = append(asked, flags)
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
	if strings.Join(asked, "; ") != "-pkg . -bench Model; -pkg ./middleware -bench Noop" {
		t.Errorf("measurements asked for: %q", asked)
	}
}

func TestRewriteRefusesBrokenMarkers(t *testing.T) {
	for _, text := range []string{
		"no markers at all\n",
		"<!-- benchrounds -pkg . -->\nno end\n",
		"<!-- end benchrounds -->\n<!-- benchrounds -pkg . -->\n",
	} {
		if _, err := rewrite(text, func(string) (string, error) { return "x\n", nil }); err == nil {
			t.Errorf("%q: no error", text)
		}
	}
}
