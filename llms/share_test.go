package llms_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
)

// TestShareLimitsSharesTheConcurrencyLimit: a chat model and an embedder
// of one deployment, the embedder sharing the model's limits, send at most
// the model's limit of requests at once between them, not that many each.
func TestShareLimitsSharesTheConcurrencyLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.Reply("ok").After(time.Second))
		defer s.Close()
		model := mustWrap(t, realClient(t, s, faultserver.OpenAI), llms.Middleware(middleware.MaxConcurrent(3, time.Minute)))
		e := mustEmbedder(t, realEmbedder(t, s, faultserver.OpenAI), llms.ShareLimits(model))
		callers(10, func() {
			if _, err := model.GenerateContent(context.Background(), hello()); err != nil {
				t.Errorf("chat: %v", err)
			}
		}, func() {
			if _, err := e.CreateEmbedding(context.Background(), []string{"a text"}); err != nil {
				t.Errorf("embedding: %v", err)
			}
		})
		// 20 requests of a second each, 3 at a time: 7 s, within the
		// model's wait, which the embedder, without a limit of its own, keeps.
		if s.Count() != 20 || s.MaxInFlight() != 3 {
			t.Errorf("%d requests, %d at most in flight; want 20, 3", s.Count(), s.MaxInFlight())
		}
	})
}

// TestShareLimitsKeepsTheSharersWait: a sharer with a concurrency limit of
// its own takes slots of the shared semaphore, not of its own, and waits
// for one as long as its own limit says; a refusal sends no request.
func TestShareLimitsKeepsTheSharersWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.Reply("ok").After(time.Second))
		defer s.Close()
		model := mustWrap(t, realClient(t, s, faultserver.OpenAI), llms.Middleware(middleware.MaxConcurrent(1, time.Minute)))
		// Its own limit has 5 slots and no wait: the model's one slot and no wait.
		impatient := mustEmbedder(t, realEmbedder(t, s, faultserver.OpenAI),
			llms.ShareLimits(model), llms.Middleware(middleware.MaxConcurrent(5, 0)))
		// No limit of its own: the model's slot and minute.
		patient := mustEmbedder(t, realEmbedder(t, s, faultserver.OpenAI), llms.ShareLimits(model))

		done := make(chan struct{})
		go func() {
			defer close(done)
			if _, err := model.GenerateContent(context.Background(), hello()); err != nil {
				t.Error(err)
			}
		}()
		synctest.Wait() // the model's call holds the slot

		if _, err := impatient.CreateEmbedding(t.Context(), []string{"a text"}); !errors.Is(err, limit.ErrConcurrency) {
			t.Errorf("an embedding beside the model's call: got %v, want the concurrency limit", err)
		}
		if s.Count() != 1 {
			t.Errorf("the refused embedding sent a request: %d requests, want 1", s.Count())
		}

		start := time.Now()
		if _, err := patient.CreateEmbedding(t.Context(), []string{"a text"}); err != nil {
			t.Errorf("an embedding waiting for the model's call: %v", err)
		}
		// It waited for the model's second, then its own.
		if took := time.Since(start); took != 2*time.Second {
			t.Errorf("the waiting embedding took %v, want 2s", took)
		}
		<-done
		if s.Count() != 2 || s.MaxInFlight() != 1 {
			t.Errorf("%d requests, %d at most in flight; want 2, 1", s.Count(), s.MaxInFlight())
		}
	})
}

// TestShareLimitsOfAPool: sharing a pool's limits shares the concurrency
// limit given to the pool as a whole, not its members' own.
func TestShareLimitsOfAPool(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, members := deployments(t, faultserver.OpenAI, []faultserver.Step{faultserver.Reply("ok")})
		members[0] = llms.Member(members[0], middleware.MaxConcurrent(1, 0))
		pool := mustPool(t, members, llms.Middleware(middleware.MaxConcurrent(3, time.Minute)))
		s := faultserver.NewInMemory(faultserver.Reply("").After(time.Second))
		defer s.Close()
		e := mustEmbedder(t, realEmbedder(t, s, faultserver.OpenAI), llms.ShareLimits(pool))
		callers(10, func() {
			if _, err := e.CreateEmbedding(context.Background(), []string{"a text"}); err != nil {
				t.Errorf("embedding: %v", err)
			}
		})
		if s.Count() != 10 || s.MaxInFlight() != 3 {
			t.Errorf("%d requests, %d at most in flight; want 10, 3 (the pool's limit, not its member's 1)", s.Count(), s.MaxInFlight())
		}
	})
}

// callers runs n callers of each call at once and waits for them all.
func callers(n int, calls ...func()) {
	var wg sync.WaitGroup
	for range n {
		for _, call := range calls {
			wg.Go(call)
		}
	}
	wg.Wait()
}
