package tools_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/resilientgo/resilient/run"
	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

// A zero that cannot work is refused: Timeout(0) allows no time,
// RepeatLimit(0) would make the first call stuck. A run with an invalid
// option ends the call as a programming error, without running the tool.
func TestToolZeroesThatCannotWorkAreRefused(t *testing.T) {
	if _, err := tools.New(returns("ok", nil), tools.Timeout(0)); err == nil {
		t.Error("tools.Timeout(0) accepted")
	}
	tool := returns("ok", nil)
	w := mustWrap(t, tool)
	_, err := w.Call(run.New(t.Context(), run.RepeatLimit(0)), "in")
	var fatal *taxonomy.FatalToolError
	if !errors.As(err, &fatal) || !errors.Is(err, run.ErrInvalid) || taxonomy.Classify(fatal.Cause).Kind != taxonomy.Programming || tool.calls() != 0 {
		t.Errorf("RepeatLimit(0): got %v after %d calls, want a FatalToolError for the invalid run, and no call", err, tool.calls())
	}
}

// A MemoryStore of fewer than one record cannot work: its options are
// refused, every claim fails with the error naming them, and a tool made
// Idempotent with it is refused by New.
func TestMemoryStoreSizeIsRefusedBelowOne(t *testing.T) {
	for _, opt := range []tools.MemoryStoreOption{tools.MaxRecords(0), tools.MaxRecords(-1), nil} {
		store := tools.NewMemoryStore(tools.MaxRecords(5), opt)
		defer store.Close()
		if err := store.Err(); err == nil || taxonomy.Classify(err).Kind != taxonomy.Programming {
			t.Errorf("Err() = %v, want a programming error", err)
		}
		if _, ok, err := store.Claim(t.Context(), "k", "me", time.Minute); ok || err == nil || err.Error() != store.Err().Error() {
			t.Errorf("Claim: got (%v, %v), want the store's error", ok, err)
		}
		if _, err := tools.New(returns("ok", nil), tools.Idempotent(store)); err == nil || !strings.Contains(err.Error(), store.Err().Error()) {
			t.Errorf("New(Idempotent(store)): got %v, want the store's error", err)
		}
	}
	if err := tools.NewMemoryStore(tools.MaxRecords(0), tools.MaxRecords(1)).Err(); err == nil {
		t.Error("an invalid MaxRecords was forgotten by a later valid one")
	}
}
