package resilientredis

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/resilientgo/resilient/internal/redact"
	"github.com/resilientgo/resilient/observe"
)

// Attribute keys of this package's own lines (see [Logger]), beside
// observe's.
const (
	keySuppressed = "suppressed" // failures not logged since the previous line
	keyAppendOnly = "appendonly" // the server's appendonly setting
	keySave       = "save"       // the server's save setting ("" when off)
	keySlots      = "slots"      // a semaphore's number of slots
)

// ErrUnavailable is matched by [errors.Is] in every error this package
// returns because Redis did not answer (refused, timed out, failed).
var ErrUnavailable = errors.New("resilientredis: redis unavailable")

// UnavailableError is the error of an operation that Redis did not answer.
// It matches [ErrUnavailable] and unwraps to the client's error.
type UnavailableError struct {
	Op  string // "claim", "complete", "release", "get", "acquire"
	Key string // the Redis key
	Err error  // the client's error
}

func (e *UnavailableError) Error() string {
	return "resilientredis: " + e.Op + " " + e.Key + ": redis unavailable: " + e.Err.Error()
}

// Unwrap returns the client's error.
func (e *UnavailableError) Unwrap() error { return e.Err }

// Is reports whether target is [ErrUnavailable].
func (e *UnavailableError) Is(target error) bool { return target == ErrUnavailable }

const (
	// logEvery spaces the "redis unavailable" lines of one feature while
	// Redis stays down.
	logEvery = time.Minute
	// probeEvery spaces the round trips that a Store or Limiter tries while
	// Redis is down: one caller a second waits for Redis (up to the
	// timeout), the others take the unavailable path at once.
	probeEvery = time.Second
)

// health tracks the reachability of Redis as one feature sees it. It
// reports the first failure and the recovery to its observers (the
// Logger's log observer among them), and logs at most one more line per
// logEvery while failures go on; while Redis is down it lets one round
// trip through per probeEvery. It is safe for concurrent use.
type health struct {
	logger  *slog.Logger
	obs     observe.Observers
	feature string
	key     string // redacted
	action  observe.SharedStateAction
	detail  string // the action in words

	down      atomic.Bool  // fast path of ok and admit
	nextProbe atomic.Int64 // UnixNano: when a round trip may be tried again
	lastErr   atomic.Pointer[error]

	mu         sync.Mutex
	since      time.Time // when the failures began
	logged     time.Time // the last "redis unavailable" line
	suppressed int
}

// newHealth returns the health of the feature c configures, on key, which
// does action (detail in words) while Redis is unavailable.
func newHealth(c config, key string, action observe.SharedStateAction, detail string) *health {
	return &health{logger: c.logger, obs: c.transitions, feature: c.feature.String(), key: redact.Keep(key, nil),
		action: action, detail: detail}
}

// admit returns nil when a round trip should be tried now: always while
// Redis answers, once per probeEvery while it does not. Otherwise it
// returns the last failure.
func (h *health) admit() error {
	if !h.down.Load() {
		return nil
	}
	now, next := time.Now().UnixNano(), h.nextProbe.Load()
	if now >= next && h.nextProbe.CompareAndSwap(next, now+int64(probeEvery)) {
		return nil
	}
	if p := h.lastErr.Load(); p != nil {
		return *p
	}
	return ErrUnavailable
}

// failed records a failure to reach Redis.
func (h *health) failed(ctx context.Context, err error) {
	now := time.Now()
	h.lastErr.Store(&err)
	h.nextProbe.Store(now.Add(probeEvery).UnixNano())
	h.mu.Lock()
	first := !h.down.Load()
	switch {
	case first:
		h.down.Store(true)
		h.since = now
	case now.Sub(h.logged) < logEvery:
		h.suppressed++
		h.mu.Unlock()
		return
	}
	h.logged = now
	suppressed := h.suppressed
	h.suppressed = 0
	h.mu.Unlock()
	if first {
		h.obs.Report(ctx, observe.SharedStateUnavailable{Feature: h.feature, Key: h.key, Action: h.action, Detail: h.detail}, err)
		return
	}
	h.logger.LogAttrs(ctx, slog.LevelWarn, "redis unavailable",
		slog.String(observe.KeyFeature, h.feature), slog.String(observe.KeyRedisKey, h.key), slog.String(observe.KeyAction, h.detail),
		slog.Any(observe.KeyError, err), slog.Int(keySuppressed, suppressed))
}

// ok records an answer from Redis.
func (h *health) ok(ctx context.Context) {
	if !h.down.Load() {
		return
	}
	h.mu.Lock()
	if !h.down.Load() {
		h.mu.Unlock()
		return
	}
	h.down.Store(false)
	down := time.Since(h.since)
	h.suppressed = 0
	h.mu.Unlock()
	h.obs.Observe(ctx, observe.SharedStateRestored{Feature: h.feature, Key: h.key, Down: down})
}

// state returns what h knows of the reachability of Redis now.
func (h *health) state() observe.SharedState {
	st := observe.SharedState{Feature: h.feature, Key: h.key, Reachable: true, Action: h.action, Detail: h.detail}
	if !h.down.Load() {
		return st
	}
	h.mu.Lock()
	since, down := h.since, h.down.Load()
	h.mu.Unlock()
	if !down {
		return st // it came back meanwhile
	}
	st.Reachable, st.Down = false, time.Since(since)
	if p := h.lastErr.Load(); p != nil {
		st.Err = *p
	}
	return st
}
