package main

import (
	"io"
	"os"
	"testing"
)

// TestMain makes the test binary the demo's worker process too, as main
// does for the program.
func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) != "" {
		main()
		return
	}
	os.Exit(m.Run())
}

// The README promises that this example runs offline, kills its worker,
// finishes the run and charges once; keep it honest.
func TestRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server and two worker processes")
	}
	if err := run(io.Discard); err != nil {
		t.Fatal(err)
	}
}
