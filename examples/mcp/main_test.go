package main

import (
	"log/slog"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	if dir := os.Getenv(serveEnv); dir != "" {
		if err := serve(dir); err != nil { // the test binary as the example's server
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// The README promises that this example runs offline, through both server
// crashes; keep it honest.
func TestRuns(t *testing.T) {
	if err := run(slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
}
