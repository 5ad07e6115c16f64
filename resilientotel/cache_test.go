package resilientotel

import (
	"strconv"
	"testing"
)

// Past its bound the cache keeps nothing more, and still answers.
func TestCacheBound(t *testing.T) {
	builds := 0
	c := newCache(2, func(k int) string {
		builds++
		return strconv.Itoa(k)
	})
	for range 2 {
		for k := range 5 {
			if got := c.get(k); got != strconv.Itoa(k) {
				t.Fatalf("get(%d) = %q", k, got)
			}
		}
	}
	kept := 0
	c.m.Range(func(any, any) bool { kept++; return true })
	if kept != 2 || c.n.Load() != 2 {
		t.Errorf("kept %d values (count %d), want 2", kept, c.n.Load())
	}
	if builds != 2+2*3 {
		t.Errorf("built %d times, want 8: twice each for the 3 past the bound, once for the 2 kept", builds)
	}
}
