package pool

import "testing"

// TestPinsBound: a pool remembers at most its bound of sticky keys; the key
// used least recently is forgotten first, and a forgotten key starts
// afresh.
func TestPinsBound(t *testing.T) {
	ps := newPins(3)
	a, b := ps.get("a"), ps.get("b")
	ps.get("c")
	if ps.get("a") != a {
		t.Fatal("a key within the bound lost its pin")
	}
	ps.get("d") // b is now the least recently used
	if got := ps.len(); got != 3 {
		t.Errorf("%d keys remembered, want the bound, 3", got)
	}
	if ps.get("a") != a {
		t.Error("a, used recently, was forgotten")
	}
	if ps.get("b") == b {
		t.Error("b, the least recently used, was kept")
	}
}
