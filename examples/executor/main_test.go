package main

import (
	"log/slog"
	"testing"
)

// The README promises that this example runs offline; keep it honest.
func TestRuns(t *testing.T) {
	if err := run(slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
}
