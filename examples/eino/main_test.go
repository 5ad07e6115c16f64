package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The README promises that this example runs offline, and says what it
// prints; keep it honest.
func TestRuns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := run(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out, _ := os.ReadFile(path)
	for _, want := range []string{"answer: Order R17 is paid.", "requests: 5 (2 retries, waited 1s", "card charged: 1 time(s)", "the key reached it: false", `told: "Error: charge_card failed internally (*fmt.wrapError)"`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
