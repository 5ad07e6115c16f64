package tools_test

import (
	"testing"

	"github.com/resilientgo/resilient/internal/oncetest"
	"github.com/resilientgo/resilient/tools"
)

// TestCallerGivesUpAsItsAttemptStarts: 2,000 inputs, each first called by
// a caller that gives up as its attempt starts, then by one that waits:
// every input is charged exactly once. An attempt that starts after its
// caller released the claim must not run the tool (it would run with no
// claim, its result never stored, and the second call would charge again).
func TestCallerGivesUpAsItsAttemptStarts(t *testing.T) {
	store := tools.NewMemoryStore()
	defer store.Close()
	if twice, never := oncetest.GiveUpRace(t, store, 2000, 4); twice != 0 || never != 0 {
		t.Errorf("of 2000 inputs, %d were charged twice and %d never, want 0 and 0", twice, never)
	}
}
