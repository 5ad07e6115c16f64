package redact_test

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/resilientgo/resilient/internal/redact"
)

func TestKeepBoundsATextAndMarksTheCut(t *testing.T) {
	key := "sk-proj-" + b62
	for _, c := range []struct {
		name, in, want string
	}{
		{"short, unchanged", "status 503: overloaded", "status 503: overloaded"},
		{"short, redacted", "bad key " + key, "bad key " + X},
		{"exactly the bound", r("a", redact.MaxText), r("a", redact.MaxText)},
		{"one byte over", r("a", redact.MaxText+1), r("a", redact.MaxText) + "…[cut 1 bytes]"},
		{"100 MB", r("a", 100<<20), r("a", redact.MaxText) + "…[cut " + strconv.Itoa(100<<20-redact.MaxText) + " bytes]"},
		{"a secret before the cut is redacted",
			key + " " + r("a", redact.MaxText), X + " " + r("a", redact.MaxText-len(key)-1) + "…[cut " + strconv.Itoa(len(key)+1) + " bytes]"},
		{"a secret across the cut is left out whole",
			r("a", redact.MaxText-10) + " " + key + r(" b", 100),
			r("a", redact.MaxText-10) + " …[cut " + strconv.Itoa(len(key)+200) + " bytes]"},
		{"a rune across the cut is left out whole",
			r("a", redact.MaxText-1) + "é" + r("a", 9), r("a", redact.MaxText-1) + "…[cut 11 bytes]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := redact.Keep(c.in, nil)
			if got != c.want {
				t.Errorf("Keep = %.80q…%q (%d bytes), want %.80q…%q (%d bytes)", got, got[max(0, len(got)-40):], len(got),
					c.want, c.want[max(0, len(c.want)-40):], len(c.want))
			}
			if !utf8.ValidString(got) {
				t.Errorf("Keep made invalid UTF-8")
			}
		})
	}
}

func TestKeepAppliesTheRedactorToTheKeptPart(t *testing.T) {
	upper := func(s string) string { return strings.ToUpper(s) }
	if got := redact.Keep(r("a", redact.MaxText+5), upper); got != r("A", redact.MaxText)+"…[cut 5 bytes]" {
		t.Errorf("Keep with a redactor of the caller's = %.40q…, want the first %d bytes through it", got, redact.MaxText)
	}
}
