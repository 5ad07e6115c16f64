package bound_test

import (
	"testing"
	"time"

	"github.com/resilientgo/resilient/internal/bound"
)

func TestDuration(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want time.Duration
		err  string
	}{
		{time.Second, time.Second, ""},
		{bound.Forever, 0, ""},
		{0, 0, "Timeout(0s): must be positive (Forever for none)"},
		{-time.Second, 0, "Timeout(-1s): must be positive (Forever for none)"},
	} {
		got, err := bound.Duration("Timeout", c.d)
		if got != c.want || (err == nil) != (c.err == "") || (err != nil && err.Error() != c.err) {
			t.Errorf("Duration(%v) = %v, %v; want %v, %q", c.d, got, err, c.want, c.err)
		}
	}
}
