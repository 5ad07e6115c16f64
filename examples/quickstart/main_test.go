package main

import "testing"

// The README promises that this example runs offline; keep it honest.
func TestRuns(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	if err := run(); err != nil {
		t.Fatal(err)
	}
}
