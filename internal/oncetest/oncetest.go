// Package oncetest races callers that give up against an idempotent tool,
// for the tests of package tools (with a MemoryStore) and of
// resilientredis (with Redis): one kit, so that both stores face the same
// race.
package oncetest

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/tools"
)

// GiveUpRace calls a charge tool, wrapped with tools.Idempotent(store),
// with each of n inputs twice: first by a caller that gives up as its
// attempt starts (its context is canceled as the claim on the key returns,
// or as the attempt starts, at once or from another goroutine, after a
// spin that varies with the input, so that the cancellation lands
// anywhere around the start of the attempt), then, once every attempt of
// the first calls has ended, by a caller that waits. It returns how many inputs were charged more than once
// and how many never. Exactly once means both are zero: a first call that
// gave up before its attempt ran the tool leaves the key to the second.
// workers calls run at once.
func GiveUpRace(t testing.TB, store tools.Store, n, workers int) (twice, never int) {
	t.Helper()
	var mu sync.Mutex
	charges := make(map[string]int, n)
	charge := tools.Func("charge", "Charges an order once.", func(_ context.Context, input string) (string, error) {
		mu.Lock()
		charges[input]++
		mu.Unlock()
		return "charged " + input, nil
	})
	var attempts attemptCounter
	w, err := tools.New(charge, tools.Idempotent(&givingUp{Store: store}), tools.Middleware(middleware.Observe(&attempts)))
	if err != nil {
		t.Fatal(err)
	}
	inputs := make([]string, n)
	for i := range inputs {
		inputs[i] = fmt.Sprintf(`{"order":%d}`, i)
	}

	each(inputs, workers, func(i int, input string) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		ctx = context.WithValue(ctx, giveUpKey{}, giveUp(i, cancel))
		_, _ = w.Call(ctx, input)
	})
	attempts.settle(t)

	each(inputs, workers, func(_ int, input string) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if out, err := w.Call(ctx, input); err != nil || (out != "charged "+input && out != "already done: charged "+input) {
			t.Errorf("second call of %s: got (%q, %v), want its charge", input, out, err)
		}
	})
	attempts.settle(t)

	mu.Lock()
	defer mu.Unlock()
	for _, input := range inputs {
		switch c := charges[input]; {
		case c > 1:
			twice++
		case c == 0:
			never++
		}
	}
	return twice, never
}

// The moments a caller gives up, by input: as the claim on the key
// returns, or as the attempt starts, at once or from another goroutine,
// each after a spin that varies with the input.
const (
	atClaim = iota
	atAttempt
	atAttemptAsync
	moments
)

// giveUp returns the function that makes input i's caller give up, called
// with its moment: cancel, at i's moment only.
func giveUp(i int, cancel func()) func(moment int) {
	spin := i / moments % 8
	return func(moment int) {
		if moment != i%moments {
			return
		}
		do := func() {
			for range spin {
				runtime.Gosched()
			}
			cancel()
		}
		if moment == atAttempt {
			do()
			return
		}
		go do()
	}
}

// each calls f for every input, on workers goroutines.
func each(inputs []string, workers int, f func(i int, input string)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < len(inputs); i = int(next.Add(1)) - 1 {
				f(i, inputs[i])
			}
		})
	}
	wg.Wait()
}

type giveUpKey struct{}

// givingUp is a store whose successful claims make their caller give up,
// when that is its input's moment.
type givingUp struct{ tools.Store }

func (s *givingUp) Claim(ctx context.Context, key, owner string, lease time.Duration) (tools.Record, bool, error) {
	r, ok, err := s.Store.Claim(ctx, key, owner, lease)
	if f, _ := ctx.Value(giveUpKey{}).(func(int)); ok && err == nil && f != nil {
		f(atClaim)
	}
	return r, ok, err
}

// attemptCounter counts the attempts the pipeline abandoned and the late
// results of those attempts, which come when their function returns. As
// an attempt starts, it makes its caller give up, when that is its
// input's moment.
type attemptCounter struct {
	abandoned, late atomic.Int64
}

func (a *attemptCounter) Start(ctx context.Context, s observe.Start) context.Context {
	if f, _ := ctx.Value(giveUpKey{}).(func(int)); s.Attempt > 0 && f != nil {
		f(atAttempt)
		f(atAttemptAsync)
	}
	return ctx
}

func (a *attemptCounter) Observe(_ context.Context, e observe.Event) {
	switch e := e.(type) {
	case observe.AttemptEnd:
		if e.Abandoned {
			a.abandoned.Add(1)
		}
	case observe.LateResult:
		a.late.Add(1)
	}
}

// settle waits until every abandoned attempt has returned: an attempt is
// reported abandoned before the call that abandoned it returns, and its
// late result when its function returns.
func (a *attemptCounter) settle(t testing.TB) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for a.late.Load() < a.abandoned.Load() {
		if time.Now().After(deadline) {
			t.Fatalf("%d abandoned attempts, %d returned after 30 s", a.abandoned.Load(), a.late.Load())
		}
		time.Sleep(time.Millisecond)
	}
}
