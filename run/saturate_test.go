package run_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/resilientgo/resilient/run"
)

// Counts near the integer limit saturate: the token budget still stops the
// run, and no count wraps around to a negative one.
func TestUsageSaturates(t *testing.T) {
	r := newRun(t, run.TokenBudget(1000))
	r.AddTokens(math.MaxInt, 10)
	r.AddTokens(math.MaxInt, math.MaxInt)
	r.AddWaited(time.Duration(math.MaxInt64))
	r.AddWaited(time.Hour)
	u := r.Usage()
	if u.InputTokens != math.MaxInt || u.OutputTokens != math.MaxInt || u.Tokens() != math.MaxInt || u.Waited != math.MaxInt64 {
		t.Errorf("usage %+v, tokens %d; want every count at its largest value", u, u.Tokens())
	}
	if err := r.StartRequest(1); !errors.Is(err, run.ErrUsageLimit) {
		t.Errorf("StartRequest after MaxInt tokens = %v, want the token budget's refusal", err)
	}
	if err := r.StartRequest(math.MaxInt); !errors.Is(err, run.ErrUsageLimit) {
		t.Errorf("StartRequest of MaxInt tokens = %v, want the token budget's refusal", err)
	}
}
