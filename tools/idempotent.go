package tools

import (
	"context"
	"crypto/rand"
	"errors"
	"log/slog"
	mathrand "math/rand/v2"
	"time"
)

const (
	// A caller waiting for an in-flight call with the same key polls the
	// store, first after about pollMin, doubling up to pollMax, with jitter
	// so that many waiters do not poll a shared store in step.
	pollMin = 10 * time.Millisecond
	pollMax = 500 * time.Millisecond
	// storeTimeout bounds Complete and Release, which run detached from the
	// caller's cancellation: what happened must be recorded even when the
	// caller has gone.
	storeTimeout = 10 * time.Second
)

// callOnce is Call for an idempotent tool: seed 003's four steps. The key is
// derived from the input; it is claimed (persisted as in flight) before the
// call; a completed key returns the stored result and an in-flight one is
// waited for; the result is stored when it lands.
func (t *Tool) callOnce(ctx context.Context, key, input string) (string, error) {
	owner := rand.Text()
	waited := false
	for poll := pollMin; ; poll = min(2*poll, pollMax) {
		rec, claimed, err := t.cfg.store.Claim(ctx, key, owner, t.cfg.lease)
		switch {
		case err != nil && ctx.Err() != nil:
			return "", ctx.Err()
		case err != nil:
			return t.internal(ctx, err, nil), nil // without the store, the tool must not run
		case claimed:
			return t.runClaimed(ctx, key, owner, input)
		case rec.Done && waited:
			return rec.Result, nil // the call this one waited for
		case rec.Done:
			t.logger.LogAttrs(ctx, slog.LevelInfo, "already done",
				slog.String(KeyTool, t.name), slog.String(KeyIdempotencyKey, key))
			return "already done: " + rec.Result, nil
		}
		waited = true
		timer := time.NewTimer(poll/2 + mathrand.N(poll/2))
		select {
		case <-ctx.Done():
			timer.Stop()
			return "", ctx.Err()
		case <-timer.C:
		}
	}
}

// runClaimed runs the call whose key owner holds, bounded by the lease, and
// stores its result, or releases the key when it did not succeed: a
// ToolError says the action did not take place, and an internal failure or
// a fatal error leaves a later call free to try.
func (t *Tool) runClaimed(ctx context.Context, key, owner, input string) (string, error) {
	leased, cancel := context.WithTimeout(context.WithValue(ctx, keyCtx{}, key), t.cfg.lease)
	out, ok, err := t.call(ctx, leased, input)
	cancel()

	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	if !ok {
		if rerr := t.cfg.store.Release(sctx, key, owner); rerr != nil {
			t.storeFailed(ctx, key, rerr)
		}
		return out, err
	}
	switch serr := t.cfg.store.Complete(sctx, key, owner, out, t.cfg.resultTTL); {
	case errors.Is(serr, ErrLeaseLost):
		// Another caller took the key over after the lease: the tool may
		// have run twice. The result is still the truth of this call.
		t.logger.LogAttrs(ctx, slog.LevelWarn, "lease lost",
			slog.String(KeyTool, t.name), slog.String(KeyIdempotencyKey, key))
	case serr != nil:
		t.storeFailed(ctx, key, serr)
	}
	return out, nil
}

func (t *Tool) storeFailed(ctx context.Context, key string, err error) {
	t.logger.LogAttrs(ctx, slog.LevelError, "idempotency store failed",
		slog.String(KeyTool, t.name), slog.String(KeyIdempotencyKey, key), slog.Any(KeyError, err))
}
