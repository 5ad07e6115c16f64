package resilient_test

import (
	"errors"
	"testing"
	"testing/synctest"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
)

// The sentinels of the root package match the failures a newcomer meets
// first: a refused key stops a model call with ErrPermanent after one
// request, and a tool called with the same input once too often stops the
// run with ErrStuck.
func TestSentinelsOfTheRootPackage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.Status(401, "Incorrect API key provided: sk-test."))
		defer s.Close()
		_, err := resilient.Model(openaiAgainst(t, s)).Call(t.Context(), "Where is order 4471?")
		if !errors.Is(err, resilient.ErrPermanent) || errors.Is(err, resilient.ErrExhausted) || s.Count() != 1 {
			t.Errorf("a 401: got %v after %d requests, want ErrPermanent after 1", err, s.Count())
		}
	})

	ctx := resilient.NewRun(t.Context(), resilient.RepeatLimit(2))
	tool := resilient.Tool(lookupOrder)
	var err error
	for range 3 {
		if _, err = tool.Call(ctx, "4471"); err != nil {
			break
		}
	}
	if !errors.Is(err, resilient.ErrStuck) {
		t.Errorf("a third identical call under RepeatLimit(2): got %v, want ErrStuck", err)
	}
}
