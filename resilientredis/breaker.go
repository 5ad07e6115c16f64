package resilientredis

import (
	"context"
	"crypto/rand"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/observe"
)

// SharedBreaker shares the state of a [breaker.Breaker] with the
// breakers of other processes that share the same key: when one replica's
// breaker opens for a provider (an outage, or a Retry-After over the cap
// that holds it open), the others fail fast too until the open period ends;
// when one closes (its probe succeeded, or Close was called), the others
// close.
//
// # What is shared
//
// The shared state is a Redis hash at prefix+key holding "open" with the
// time the open period ends, on Redis's clock, or "closed", and a version
// that every change increments. A change is written by a Lua script and
// published on the channel prefix+key in the same script:
//
//   - a local open publishes the breaker's remaining delay; the longest open
//     period wins, so an open never shortens another replica's hold;
//   - a remote open holds the local breaker open for the remaining delay
//     ([breaker.Breaker.HoldOpen]), unless it is already open longer;
//   - no open period longer than the breaker's longest hold
//     ([breaker.Breaker.MaxHold], 5 min by default) is published or
//     accepted: a wait hint of a year, or a replica of an older version
//     that publishes one, holds every replica for that maximum, after
//     which each probes;
//   - a local close publishes "closed", unless the shared state changed
//     since this replica last saw it (then the newer state is applied
//     instead): a stale close never ends a newer open;
//   - a remote close closes the local breaker ([breaker.Breaker.Close]);
//   - half-open is not shared: when the open period ends, each replica
//     probes on its own, and the first outcome is shared;
//   - an operator's forcing ([breaker.Breaker.ForceOpen],
//     [breaker.Breaker.ForceClosed]) is published as "forced_open" or
//     "forced_closed" whatever the shared state, and every replica forces
//     its breaker the same way; no open or close of a replica's evidence
//     replaces it, and it does not expire. A close
//     ([breaker.Breaker.Close], the operator's reset) ends it everywhere,
//     unless the shared state changed since this replica last saw it.
//
// Changes applied from Redis are not published again, so there are no echo
// loops.
//
// # Propagation delay
//
// A change reaches the other replicas through pub/sub, typically within
// milliseconds. Each replica also reads the shared state every
// [PollInterval] (1 s by default) as a safety net for a message it missed,
// and retries publishing a change Redis did not take. So while Redis is
// reachable, a replica learns of another's change within PollInterval plus
// three round trips to Redis at worst (the one the changing replica may be
// busy with, its publish, and the other's poll), each bounded by [Timeout]:
// 4 s with the defaults, and PollInterval plus a few milliseconds in
// practice when a message is lost.
//
// # Redis unavailable
//
// The local breaker keeps working alone: it opens and closes on its own
// evidence, which is the behaviour without sharing. SharedBreaker logs
// "redis unavailable", keeps retrying every PollInterval, and once Redis
// answers again publishes the local state if it changed meanwhile and
// applies the shared one; go-redis resubscribes by itself.
//
// A SharedBreaker is safe for concurrent use. Close it to stop sharing.
type SharedBreaker struct {
	b        *breaker.Breaker
	client   redis.UniversalClient
	key      string // the hash and the channel
	origin   string // this SharedBreaker, in the shared state
	timeout  time.Duration
	poll     time.Duration
	logger   *slog.Logger
	health   *health
	unlisten func() // removes the breaker listener

	// applying is the state being applied from Redis, plus 1; 0 when none.
	// The breaker's listener ignores a change to that state: it is the echo
	// of the remote change, not news to publish.
	applying atomic.Int32
	dirty    atomic.Bool // a local change not published yet
	stopped  atomic.Bool
	kick     chan struct{}

	ps     *redis.PubSub
	cancel context.CancelFunc
	done   chan struct{}
	once   sync.Once
	err    error

	seen int64 // the version of the shared state last seen; loop goroutine only
}

// ShareBreaker shares b's state under key (for instance "openai:gpt-4o")
// with every process that shares the same key on the same Redis, until
// Close. It subscribes, reads the shared state and applies it before it
// returns, bounded by ctx; when Redis is unavailable it logs, returns
// anyway, and keeps trying in the background. It fails only on invalid
// arguments. Options: [PollInterval], [Prefix], [Logger], [Observe],
// [Timeout].
//
// b should be the breaker of one target shared by every pipeline calling
// it ([middleware.UseBreaker]), or a model's own (llms.Model.Breaker); share
// each breaker once.
func ShareBreaker(ctx context.Context, client redis.UniversalClient, b *breaker.Breaker, key string, opts ...Option) (*SharedBreaker, error) {
	c, err := build(forBreaker, opts)
	var errs []error
	if client == nil {
		errs = append(errs, errors.New("resilientredis: ShareBreaker(nil client)"))
	}
	if b == nil {
		errs = append(errs, errors.New("resilientredis: ShareBreaker(nil breaker)"))
	}
	if key == "" {
		errs = append(errs, errors.New("resilientredis: ShareBreaker: empty key"))
	}
	if err := errors.Join(append(errs, err)...); err != nil {
		return nil, err
	}
	s := &SharedBreaker{
		b:       b,
		client:  client,
		key:     c.prefix + key,
		origin:  rand.Text(),
		timeout: c.timeout,
		poll:    c.poll,
		logger:  c.logger,
		health:  newHealth(c, c.prefix+key, observe.SharedLocal, "the breaker works alone"),
		kick:    make(chan struct{}, 1),
		done:    make(chan struct{}),
	}
	s.unlisten = b.OnStateChange(s.changed)
	if b.State() == observe.BreakerOpen || b.Forced() != breaker.NotForced {
		s.dirty.Store(true) // opened or forced before sharing: news for the others
	}

	// Subscribing dials, and go-redis sets up a new connection with its
	// own timeouts, not the context's: it is a bounded round trip too. The
	// channel counts as subscribed even when it fails; go-redis
	// resubscribes when it reconnects.
	s.ps = client.Subscribe(ctx) // no channel yet: no round trip
	_, err = roundTrip(ctx, s.timeout, func(ctx context.Context) (any, error) {
		if err := s.ps.Subscribe(ctx, s.key); err != nil {
			return nil, err
		}
		_, err := s.ps.Receive(ctx) // the subscription's confirmation
		return nil, err
	})
	switch {
	case err == nil:
		s.sync(ctx)
	case ctx.Err() == nil:
		s.health.failed(ctx, err)
	}

	lctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	s.cancel = stop
	go s.loop(lctx, s.ps.Channel())
	return s, nil
}

// Breaker returns the shared breaker.
func (s *SharedBreaker) Breaker() *breaker.Breaker { return s.b }

// Close stops sharing: it ends the background goroutine and the
// subscription. The breaker keeps its state and goes on alone. Close is
// idempotent; it returns the error of closing the subscription.
func (s *SharedBreaker) Close() error {
	s.once.Do(func() {
		s.stopped.Store(true)
		s.unlisten()
		s.cancel()
		<-s.done
		s.err = s.ps.Close()
	})
	return s.err
}

// changed is the breaker's listener: it runs on the goroutine that changed
// the state, so it only marks the change and wakes the loop.
func (s *SharedBreaker) changed(st observe.BreakerState) {
	if s.stopped.Load() || st == observe.BreakerHalfOpen {
		return
	}
	if s.applying.Load() == int32(st)+1 {
		return // the echo of a state applied from Redis
	}
	s.dirty.Store(true)
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

func (s *SharedBreaker) loop(ctx context.Context, msgs <-chan *redis.Message) {
	defer close(s.done)
	tick := time.NewTicker(s.poll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.kick:
			s.publish(ctx)
		case m, ok := <-msgs:
			if !ok {
				msgs = nil
				continue
			}
			s.message(ctx, m.Payload)
		case <-tick.C:
			s.sync(ctx)
		}
	}
}

// shared is the shared state as a script or a message reports it.
type shared struct {
	state     string // "open", "closed", or "" when there is none
	version   int64
	origin    string
	remaining time.Duration // of an open period
}

// The scripts take the hash as KEYS[1] and return the shared state after
// them as {state, version, origin, remaining ms}, or {} when there is none.
// The hash's fields: state, version, origin, until (Redis time, in ms). It
// expires a day after its last change.
var (
	readScript = redis.NewScript(breakerLua + `
return current()
`)
	// ARGV: origin, "forced_open" or "forced_closed". An operator's
	// forcing replaces any state.
	forceScript = redis.NewScript(breakerLua + `
if redis.call('HGET', KEYS[1], 'state') == ARGV[2] then
  return current()
end
return change(ARGV[2], ARGV[1], 0, -1)
`)
	// ARGV: origin, remaining ms. Opens until now + remaining, unless the
	// shared state is already open longer.
	openScript = redis.NewScript(breakerLua + `
local h = redis.call('HMGET', KEYS[1], 'state', 'version', 'until')
local untilms = now + tonumber(ARGV[2])
if forced(h[1]) or (h[1] == 'open' and tonumber(h[3]) >= untilms) then
  return current()
end
return change('open', ARGV[1], untilms, tonumber(ARGV[2]))
`)
	// ARGV: origin, the version the closer last saw. Closes an open or
	// forced state, unless the shared state changed since that version.
	closeScript = redis.NewScript(breakerLua + `
local h = redis.call('HMGET', KEYS[1], 'state', 'version')
if (h[1] ~= 'open' and not forced(h[1])) or tonumber(h[2]) ~= tonumber(ARGV[2]) then
  return current()
end
return change('closed', ARGV[1], 0, 0)
`)
)

const breakerLua = `
if redis.replicate_commands then pcall(redis.replicate_commands) end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function current()
  local h = redis.call('HMGET', KEYS[1], 'state', 'version', 'origin', 'until')
  if not h[1] then return {} end
  return {h[1], tonumber(h[2]), h[3], math.max(0, tonumber(h[4]) - now)}
end
local function forced(state)
  return state == 'forced_open' or state == 'forced_closed'
end
-- remaining < 0: a forcing, kept until an operator ends it.
local function change(state, origin, untilms, remaining)
  local v = redis.call('HINCRBY', KEYS[1], 'version', 1)
  redis.call('HSET', KEYS[1], 'state', state, 'origin', origin, 'until', string.format('%d', untilms))
  if remaining < 0 then
    remaining = 0
    redis.call('PERSIST', KEYS[1])
  else
    redis.call('PEXPIRE', KEYS[1], string.format('%d', remaining + 86400000))
  end
  redis.call('PUBLISH', KEYS[1], state .. ' ' .. v .. ' ' .. origin .. ' ' .. string.format('%d', remaining))
  return {state, v, origin, remaining}
end
`

// publish shares the local state when it changed: its forcing, open with
// its remaining delay, or closed. The reply is the shared state after the
// script, which may be newer than the local change: it is applied.
func (s *SharedBreaker) publish(ctx context.Context) {
	if !s.dirty.Swap(false) {
		return
	}
	var res []any
	var err error
	switch f := s.b.Forced(); {
	case f != breaker.NotForced:
		res, err = s.run(ctx, forceScript, s.origin, f.String())
	case s.b.State() == observe.BreakerOpen:
		// Never more than the longest hold: a replica must not hold the
		// others open longer than a hint would hold it.
		d := min(s.b.RemainingDelay(), s.b.MaxHold())
		if d <= 0 {
			return // the open period is over: nothing to hold the others to
		}
		res, err = s.run(ctx, openScript, s.origin, millis(d))
	case s.b.State() == observe.BreakerClosed:
		res, err = s.run(ctx, closeScript, s.origin, s.seen)
	default:
		return // half-open: the probe's outcome will be shared
	}
	if err != nil {
		s.dirty.Store(true)
		s.health.failed(ctx, err)
		return
	}
	s.health.ok(ctx)
	s.apply(ctx, s.parseReply(res))
}

// run runs one of the breaker's scripts on its hash, bounded by the
// timeout (see roundTrip). A script that runs late changes nothing wrong:
// an open keeps the longest period, and a close or an open that lost the
// race is versioned.
func (s *SharedBreaker) run(ctx context.Context, script *redis.Script, args ...any) ([]any, error) {
	return roundTrip(ctx, s.timeout, func(ctx context.Context) ([]any, error) {
		return script.Run(ctx, s.client, []string{s.key}, args...).Slice()
	})
}

// sync publishes a local change not published yet, then reads the shared
// state and applies it when it differs from the one last seen: the safety
// net under pub/sub.
func (s *SharedBreaker) sync(ctx context.Context) {
	if s.dirty.Load() {
		s.publish(ctx)
	}
	res, err := s.run(ctx, readScript)
	if err != nil {
		s.health.failed(ctx, err)
		return
	}
	s.health.ok(ctx)
	// A version that differs from the last seen is news, even a lower one:
	// the hash was deleted or Redis lost its data.
	if st := s.parseReply(res); st.version != s.seen && !s.dirty.Load() {
		s.apply(ctx, st)
	}
}

// message applies a change published by another replica. A local change
// not published yet wins: publishing it will apply whatever is newer.
func (s *SharedBreaker) message(ctx context.Context, payload string) {
	st, ok := s.parseMessage(payload)
	if !ok || st.version <= s.seen || s.dirty.Load() {
		return
	}
	s.apply(ctx, st)
}

// apply makes the local breaker follow the shared state st.
func (s *SharedBreaker) apply(ctx context.Context, st shared) {
	s.seen = st.version
	if st.origin == s.origin {
		return
	}
	switch st.state {
	case "forced_open", "forced_closed":
		f, to := breaker.ForcedOpen, observe.BreakerOpen
		if st.state == "forced_closed" {
			f, to = breaker.ForcedClosed, observe.BreakerClosed
		}
		if s.b.Forced() == f {
			return
		}
		s.applying.Store(int32(to) + 1)
		if f == breaker.ForcedOpen {
			s.b.ForceOpen()
		} else {
			s.b.ForceClosed()
		}
		s.applying.Store(0)
		s.logger.LogAttrs(ctx, slog.LevelInfo, "circuit "+strings.ReplaceAll(st.state, "_", " ")+" by a replica",
			slog.String(observe.KeyTarget, s.b.Name()))
	case "open":
		if st.remaining <= 0 || (s.b.Forced() == breaker.NotForced && s.b.State() == observe.BreakerOpen && s.b.RemainingDelay() >= st.remaining) {
			return
		}
		if s.b.Forced() != breaker.NotForced {
			// The forcing ended while this replica did not hear of it.
			s.applying.Store(int32(observe.BreakerClosed) + 1)
			s.b.Close()
		}
		s.applying.Store(int32(observe.BreakerOpen) + 1)
		s.b.HoldOpen(st.remaining)
		s.applying.Store(0)
		s.logger.LogAttrs(ctx, slog.LevelInfo, "circuit opened by a replica",
			slog.String(observe.KeyTarget, s.b.Name()), slog.Duration(observe.KeyDelay, st.remaining))
	case "closed":
		if s.b.State() == observe.BreakerClosed && s.b.Forced() == breaker.NotForced {
			return
		}
		s.applying.Store(int32(observe.BreakerClosed) + 1)
		s.b.Close()
		s.applying.Store(0)
		s.logger.LogAttrs(ctx, slog.LevelInfo, "circuit closed by a replica", slog.String(observe.KeyTarget, s.b.Name()))
	}
}

// parseReply reads a script's reply: {state, version, origin, remaining ms}
// or {}.
func (s *SharedBreaker) parseReply(res []any) shared {
	if len(res) != 4 {
		return shared{}
	}
	st := shared{}
	st.state, _ = res[0].(string)
	st.version, _ = res[1].(int64)
	st.origin, _ = res[2].(string)
	ms, _ := res[3].(int64)
	st.remaining = s.hold(ms)
	return st
}

// parseMessage reads a published change: "<state> <version> <origin> <remaining ms>".
func (s *SharedBreaker) parseMessage(payload string) (shared, bool) {
	f := strings.Fields(payload)
	if len(f) != 4 {
		return shared{}, false
	}
	v, err1 := strconv.ParseInt(f[1], 10, 64)
	ms, err2 := strconv.ParseInt(f[3], 10, 64)
	if err1 != nil || err2 != nil {
		return shared{}, false
	}
	return shared{state: f[0], version: v, origin: f[2], remaining: s.hold(ms)}, true
}

// hold is the open period of ms milliseconds read from Redis, at most the
// breaker's longest hold: a replica of an older version, or anything else
// writing the hash, may have published a longer one.
func (s *SharedBreaker) hold(ms int64) time.Duration {
	limit := s.b.MaxHold()
	switch {
	case ms <= 0:
		return 0
	case ms >= limit.Milliseconds(): // also keeps ms * 1e6 from overflowing
		return limit
	}
	return time.Duration(ms) * time.Millisecond
}

// SharedState reports whether the SharedBreaker reaches Redis, and what it does
// while it does not (package status lists it).
func (s *SharedBreaker) SharedState() observe.SharedState { return s.health.state() }
