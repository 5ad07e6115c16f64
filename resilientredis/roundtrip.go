package resilientredis

import (
	"context"
	"fmt"
	"time"
)

// roundTrip runs f, one round trip to Redis, and returns its answer, or an
// error wrapping context.DeadlineExceeded once timeout has passed (ctx's
// error when ctx ends first), whatever the client's options.
//
// A context deadline alone does not bound a go-redis command: unless the
// client was built with ContextTimeoutEnabled, go-redis sets the socket's
// deadlines from its own ReadTimeout and WriteTimeout (3 s by default) and
// ignores the context's, and it may retry a command that timed out. So f
// runs on a goroutine of its own, with a context bounded by timeout (which
// a client that honours contexts obeys, and which stops go-redis's retries
// between attempts), and the caller is answered at the deadline whatever f
// is doing.
//
// A command abandoned at the deadline may still reach Redis and run there,
// even after its connection is gone (a paused Redis reads and runs what
// its socket holds when it resumes). Each caller makes that safe: a
// claim is undone (Store.abandon), a limiter slot taken late only makes
// the fleet admit one attempt fewer in that window, a breaker change is
// versioned. The goroutine ends when the client returns: at the answer, or
// when the client's own timeouts end the command (ReadTimeout after the
// write, at most). Each one holds a pooled connection meanwhile, so the
// client's pool size bounds how many are left running; a command waiting
// for a connection obeys the context and ends at the deadline.
func roundTrip[T any](ctx context.Context, timeout time.Duration, f func(context.Context) (T, error)) (T, error) {
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type answer struct {
		v   T
		err error
	}
	done := make(chan answer, 1) // buffered: an abandoned f never blocks
	go func() {
		v, err := f(rctx)
		done <- answer{v, err}
	}()
	select {
	case a := <-done:
		return a.v, a.err
	case <-rctx.Done():
		var zero T
		if err := ctx.Err(); err != nil {
			return zero, err
		}
		return zero, fmt.Errorf("no answer within %v: %w", timeout, context.DeadlineExceeded)
	}
}

// attempt is one round trip of a Store or a Limiter: refused at once while
// Redis is down (but for one a second, see health.admit), bounded by
// timeout, and recorded in h unless the caller gave up. sent reports
// whether the command was handed to the client, and so may run in Redis
// even when err is not nil.
func attempt[T any](ctx context.Context, h *health, timeout time.Duration, f func(context.Context) (T, error)) (v T, sent bool, err error) {
	if err := h.admit(); err != nil {
		return v, false, err
	}
	return send(ctx, h, timeout, f)
}

// undo runs f, a round trip that undoes a command sent to Redis which
// failed, until Redis answers, ctx ends or the client is closed (see
// retryRound). The first round trip goes at once, whatever the health of
// Redis: it must follow the command on the wire, so that a stalled Redis,
// which runs the command when it wakes, runs the undoing with it.
func undo[T any](ctx context.Context, h *health, timeout time.Duration, f func(context.Context) (T, error)) (T, error) {
	first := true
	return retryRound(ctx, func(ctx context.Context) (T, error) {
		through := attempt[T]
		if first {
			first, through = false, send[T]
		}
		v, _, err := through(ctx, h, timeout, f)
		return v, err
	})
}

// send is attempt without the health check: one round trip, whatever the
// health of Redis, recorded in h unless the caller gave up.
func send[T any](ctx context.Context, h *health, timeout time.Duration, f func(context.Context) (T, error)) (v T, sent bool, err error) {
	v, err = roundTrip(ctx, timeout, f)
	switch {
	case err == nil:
		h.ok(ctx)
	case ctx.Err() == nil: // a caller that gave up says nothing about Redis
		h.failed(ctx, err)
	}
	return v, true, err
}
