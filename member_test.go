package resilient_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/internal/scripted"
)

// The limits given to a Member apply when it is used outside a pool, as a
// model or as a fallback: Model(Member(m, MaxConcurrent(1, 0))) lets one
// call in flight, not five.
func TestAMembersLimitsApplyOutsideAPool(t *testing.T) {
	for _, wrap := range []struct {
		name string
		of   func(lcllms.Model) lcllms.Model
	}{
		{"as a model", func(m lcllms.Model) lcllms.Model { return resilient.Model(m) }},
		{"as a fallback", func(m lcllms.Model) lcllms.Model {
			down := scripted.New(scripted.Step{Err: errors.New("API returned unexpected status code: 503")})
			return resilient.Model(down, resilient.MaxAttempts(1), resilient.Fallbacks(m))
		}},
	} {
		t.Run(wrap.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				release := make(chan struct{})
				var inFlight, most atomic.Int64
				slow := scripted.New(scripted.Step{Func: func(context.Context, []lcllms.MessageContent, lcllms.CallOptions) (*lcllms.ContentResponse, error) {
					n := inFlight.Add(1)
					defer inFlight.Add(-1)
					if n > most.Load() {
						most.Store(n) // the calls start one at a time in the bubble
					}
					<-release
					return &lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{{Content: "ok"}}}, nil
				}})
				model := wrap.of(resilient.Member(slow, resilient.MaxConcurrent(1, 0)))
				var wg sync.WaitGroup
				var refused atomic.Int64
				for range 5 {
					wg.Go(func() {
						if _, err := lcllms.GenerateFromSinglePrompt(t.Context(), model, "hi"); errors.Is(err, resilient.ErrConcurrency) {
							refused.Add(1)
						}
					})
				}
				synctest.Wait() // every call is in flight or refused
				close(release)
				wg.Wait()
				if most.Load() != 1 || refused.Load() != 4 {
					t.Errorf("%d calls in flight at most, %d refused; want 1 and 4", most.Load(), refused.Load())
				}
			})
		})
	}
}
