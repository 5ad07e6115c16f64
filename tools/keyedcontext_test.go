package tools

import (
	"context"
	"errors"
	"testing"
)

// A keyed context carries its key and the rest of its parent's values, and
// the contexts derived from it end with its parent, as those derived from
// context.WithValue do.
func TestKeyedContextIsItsParentWithAKey(t *testing.T) {
	type other struct{}
	parent, cancel := context.WithCancelCause(context.WithValue(context.Background(), other{}, "kept"))
	keyed := &keyedContext{Context: parent, key: "charge:abc"}
	child, stop := context.WithCancel(keyed)
	defer stop()
	if k, ok := KeyFrom(child); !ok || k != "charge:abc" {
		t.Errorf("KeyFrom: (%q, %v), want the key", k, ok)
	}
	if v := child.Value(other{}); v != "kept" {
		t.Errorf("the parent's value: %v, want kept", v)
	}
	gone := errors.New("caller gone")
	cancel(gone)
	<-child.Done()
	if !errors.Is(context.Cause(child), gone) {
		t.Errorf("the child's cause: %v, want the parent's", context.Cause(child))
	}
}
