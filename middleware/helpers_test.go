package middleware_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/resilientgo/resilient/middleware"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// script is a scripted protected function: each call takes the next step,
// and the last step repeats. It records when each call started.
type script struct {
	mu    sync.Mutex
	steps []step
	calls []time.Time
	seen  []middleware.State
}

type step struct {
	result string
	err    error
	block  bool          // wait for the attempt's context to end
	sleep  time.Duration // take this long before answering
	panic  any
	cancel context.CancelFunc
}

func fails(err error) step            { return step{err: err} }
func succeeds(r string) step          { return step{result: r} }
func newScript(steps ...step) *script { return &script{steps: steps} }

// runaway is more calls than any test makes: a pipeline that makes them is
// retrying without end, and will not stop by itself.
const runaway = 200

// bounded makes fn crash the test binary at its runaway-th call, so that a
// pipeline broken into retrying without end fails at once instead of
// hanging until the test timeout. (A t.Fatal would not stop the pipeline:
// the panic is on a goroutine of its own, out of reach of the pipeline's
// recover.)
func bounded[R any](fn middleware.Func[R]) middleware.Func[R] {
	var calls atomic.Int64
	return func(ctx context.Context, s middleware.State) (R, error) {
		crashAtRunaway(calls.Add(1))
		return fn(ctx, s)
	}
}

func crashAtRunaway(call int64) {
	if call == runaway {
		go panic(fmt.Sprintf("runaway: the pipeline called its function %d times", runaway))
	}
}

func (s *script) fn(ctx context.Context, st middleware.State) (string, error) {
	s.mu.Lock()
	crashAtRunaway(int64(len(s.calls)) + 1)
	i := min(len(s.calls), len(s.steps)-1)
	s.calls = append(s.calls, time.Now())
	s.seen = append(s.seen, st)
	cur := s.steps[i]
	s.mu.Unlock()
	if cur.cancel != nil {
		cur.cancel()
	}
	if cur.panic != nil {
		panic(cur.panic)
	}
	if cur.sleep > 0 {
		select {
		case <-time.After(cur.sleep):
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	if cur.block {
		<-ctx.Done()
		return "", errors.New("request timeout: API call exceeded deadline")
	}
	return cur.result, cur.err
}

// attemptsPerCall calls p with s calls times and returns how many attempts
// each call made, as "[3 3 1]".
func attemptsPerCall(t *testing.T, p *middleware.Pipeline[string], s *script, calls int) string {
	t.Helper()
	var attempts []int
	for range calls {
		before := s.count()
		_, _ = p.Do(t.Context(), s.fn)
		attempts = append(attempts, s.count()-before)
	}
	return fmt.Sprint(attempts)
}

func (s *script) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.calls)
}

// gaps returns the time between consecutive calls.
func (s *script) gaps() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	var gaps []time.Duration
	for i := 1; i < len(s.calls); i++ {
		gaps = append(gaps, s.calls[i].Sub(s.calls[i-1]))
	}
	return gaps
}

func mustPipeline(t testing.TB, opts ...middleware.Option) *middleware.Pipeline[string] {
	t.Helper()
	p, err := middleware.New[string]("test-target", opts...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return p
}

func asError(t *testing.T, err error) *middleware.Error {
	t.Helper()
	var e *middleware.Error
	if !errors.As(err, &e) {
		t.Fatalf("got %T %v, want *middleware.Error", err, err)
	}
	return e
}
