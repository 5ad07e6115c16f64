package resilientredis

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	mrand "math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/observe"
)

// The bounds of a [Semaphore]'s arguments.
const (
	// MaxSlots is the most slots a Semaphore may have: its sorted set
	// holds one member per slot taken (and one per token barred, see
	// [Semaphore]), and each acquire counts the slots.
	MaxSlots = 10000
	// MaxKeyLen is the longest key, in bytes, a Semaphore accepts (before
	// the prefix).
	MaxKeyLen = 256
	// MaxLease is the longest lease ([Lease]): a holder that dies keeps its
	// slot that long.
	MaxLease = time.Hour
	// MaxSemaphoreWait bounds how long [Semaphore.Acquire] waits for a
	// slot, whatever wait it is given.
	MaxSemaphoreWait = 10 * time.Minute
)

// Semaphore is a [limit.Semaphore] shared by every process that uses
// the same Redis, prefix and key: the replicas of a service together hold
// at most n slots at once, so that, given to resilient.ConcurrencyLimit
// (or middleware.ConcurrencyLimit), at most n attempts are in flight to the
// target across the fleet.
//
// # Slots and leases
//
// The slots taken are a sorted set at prefix+key whose members are the
// holders' tokens (26 random characters, one per Acquire) and whose scores
// are the times their leases end, on Redis's clock (TIME, never a
// client's). Acquire, renewal and release are each one Lua script, atomic
// on the server: an acquire first drops the holders whose lease ended,
// then takes a slot if fewer than n remain. A holder renews its lease every
// [Lease]/3 while it holds the slot, so a holder whose process crashed,
// stopped or lost Redis frees its slot one lease after its last renewal at
// most. A release removes the caller's own token and nothing else: a
// release after the lease was lost, when another caller may hold the slot
// since, frees nothing of theirs. A renewal that finds its token gone
// (Redis was unreachable for most of a lease, or the process was paused)
// takes a slot again when one is free, and otherwise logs "semaphore lease
// lost": the call goes on, and the fleet holds one more than n until it
// ends. The key expires when the last lease does, so an idle semaphore
// leaves nothing in Redis. A slot whose release is never called is renewed
// for as long as its process lives, like a slot of limit.Bulkhead that
// is never given back.
//
// # Waiting
//
// A caller that finds every slot taken waits up to the wait it is given
// (at most [MaxSemaphoreWait], and never past ctx's end), then fails with
// an error matching limit.ErrConcurrency. Waiting does not poll Redis
// for every waiter: the waiters of one process line up, and only the first
// asks Redis, when a slot may have freed up:
//
//   - a release publishes on the channel prefix+key, and each process's
//     first waiter, subscribed while it waits, tries at once: a slot passes
//     from one replica to another in about two round trips;
//   - a release in the same process wakes the first waiter without Redis;
//   - when nothing is announced, the first waiter asks again when the
//     earliest lease ends (the holder may be dead) or after half to all of
//     [PollInterval] (1 s by default, at random, so that the processes do
//     not ask together), whichever comes first: the safety net for a
//     message lost while the subscription reconnects.
//
// So a process costs Redis at most one round trip per release announced
// plus one per poll while it has waiters, whatever their number. Within a
// process, waiters are served in the order they came; across processes,
// the first waiters race for a slot that frees up, and there is no order.
// A caller that does not wait (maxWait 0) asks Redis once, outside the
// line. The subscription is opened by the first wait and kept until
// [Semaphore.Close].
//
// # Redis unavailable
//
// By default the semaphore fails open to a limit of its own: while Redis is
// unavailable each process admits up to n attempts at once on a local
// bulkhead (limit.Bulkhead), so the fleet admits up to n per replica,
// and it logs "redis unavailable" (see [Logger]). A limit that stopped
// every call while Redis is down would turn a Redis outage into an outage
// of the agent; n per process keeps each replica as bounded as
// resilient.MaxConcurrent would. With [FailClosed], Acquire fails instead
// with an error matching [ErrUnavailable], which the pipeline reports as a
// refusal of the concurrency limit. A release is one round trip, made by
// the pipeline before it hands the attempt's result over, so a Redis that
// stalls delays that result by [Timeout] at most (and only one release a
// second, the others skipping Redis while it is down). A release Redis does
// not take is retried in the background until Redis answers (the slot is
// freed when its lease ends anyway, since the renewals stop). While Redis is down, one round trip a second is tried, and the
// other calls take the unavailable path at once.
//
// # Acquisitions that gave up
//
// An acquire whose round trip ran out of time (or whose caller gave up)
// may still run in Redis afterwards: a stalled Redis runs what it received
// when it wakes. An acquisition that gave up holds no slot afterwards: its
// token is given back and barred for a lease, in the background, until
// Redis takes it. The give-back goes at once, so that a stalled Redis
// usually receives it right behind the take, and runs both when it wakes;
// if it could not be sent then (a new connection waits for Redis's
// greeting), the take's slot is freed at the first round trip Redis
// answers, within a second of waking. Either way the take, whether it
// landed before the bar or lands after, holds no slot past that. A release
// after a renewal that failed (which may land later still, and would take
// the slot again) bars the token too, and a release Redis did not take is
// given back the same way. The tokens waiting to be given back are at most
// [MaxGiveBacks] per Semaphore, given back by one goroutine, all in one
// round trip. A bar is a member of the sorted set scored below zero, never
// counted as a slot, dropped when its lease ends: the bars number at most
// the acquisitions and renewals that failed within one lease. Only a take
// held up on its way for longer than a lease after its bar takes a slot
// nobody uses, until its lease ends: the fleet then admits one fewer,
// never one more.
//
// A Semaphore is safe for concurrent use. Build one per process and key,
// and share it.
type Semaphore struct {
	client     redis.UniversalClient
	key        string // the sorted set of holders, and the channel of releases
	n          int
	lease      time.Duration
	timeout    time.Duration
	poll       time.Duration
	failClosed bool
	local      *limit.Bulkhead // while Redis is unavailable, failing open
	health     *health
	logger     *slog.Logger

	waiting atomic.Int32  // callers lined up in this process
	turn    chan struct{} // holds one value: taken by the first waiter
	wake    chan struct{} // a slot may have freed up

	mu     sync.Mutex
	sub    *subscription // the releases announced, from the first wait to Close
	closed bool

	giving giveBacks // the tokens to give back and bar
}

var _ limit.Semaphore = (*Semaphore)(nil)

// NewSemaphore returns a semaphore of n slots shared by every process that
// shares key (for instance "openai:gpt-4o") on the same Redis. n must be
// between 1 and [MaxSlots]; the key must not be empty nor longer than
// [MaxKeyLen] bytes. Every semaphore sharing a key must have the same n.
// Options: [Lease], [PollInterval], [FailClosed], [Prefix], [Logger],
// [Observe], [Timeout]. NewSemaphore sends nothing to Redis. Close it to end the
// subscription its waiters open.
func NewSemaphore(client redis.UniversalClient, key string, n int, opts ...Option) (*Semaphore, error) {
	c, err := build(forSemaphore, opts)
	var errs []error
	if client == nil {
		errs = append(errs, errors.New("resilientredis: NewSemaphore(nil client)"))
	}
	switch {
	case key == "":
		errs = append(errs, errors.New("resilientredis: NewSemaphore: empty key"))
	case len(key) > MaxKeyLen:
		errs = append(errs, fmt.Errorf("resilientredis: NewSemaphore: a key of %d bytes, more than %d", len(key), MaxKeyLen))
	}
	if n < 1 || n > MaxSlots {
		errs = append(errs, fmt.Errorf("resilientredis: NewSemaphore(%q, %d): need 1 to %d slots", key, n, MaxSlots))
	}
	if err == nil && (c.lease < 3*c.timeout || c.lease > MaxLease) {
		errs = append(errs, fmt.Errorf("resilientredis: Lease(%v): must be from three times the Timeout (%v) to %v: a renewal every lease/3 that runs out of time must leave room for one more",
			c.lease, 3*c.timeout, MaxLease))
	}
	if err := errors.Join(append(errs, err)...); err != nil {
		return nil, err
	}
	local, _ := limit.NewBulkhead(n) // n >= 1
	action, detail := observe.SharedLocal, fmt.Sprintf("admitting up to %d at once in this process", n)
	if c.failClosed {
		action, detail = observe.SharedFailClosed, "refusing every attempt"
	}
	s := &Semaphore{
		client:     client,
		key:        c.prefix + key,
		n:          n,
		lease:      c.lease,
		timeout:    c.timeout,
		poll:       c.poll,
		failClosed: c.failClosed,
		local:      local,
		health:     newHealth(c, c.prefix+key, action, detail),
		logger:     c.logger,
		turn:       make(chan struct{}, 1),
		wake:       make(chan struct{}, 1),
	}
	s.turn <- struct{}{}
	return s, nil
}

// Size returns the number of slots.
func (s *Semaphore) Size() int { return s.n }

// InUse returns how many slots the fleet holds now: the leases that have
// not ended, on Redis's clock, counted in Redis in one round trip (one
// script on the semaphore's one key, so one slot of a Cluster), bounded by
// [Timeout]. Slots taken on the local bulkhead while Redis was unavailable
// are not among them. While Redis is unavailable it fails at once (but for
// one round trip a second, as every operation of the semaphore) with the
// client's error.
func (s *Semaphore) InUse(ctx context.Context) (int, error) {
	n, _, err := attempt(ctx, s.health, s.timeout, func(ctx context.Context) (int64, error) {
		return inUseScript.Run(ctx, s.client, []string{s.key}).Int64()
	})
	if err != nil {
		return 0, fmt.Errorf("resilientredis: semaphore %s: in use: %w", s.key, err)
	}
	return int(n), nil
}

// Acquire implements [limit.Semaphore]: it takes a slot, waiting up to
// maxWait (at most [MaxSemaphoreWait]) for one, and returns the function
// that gives it back, which is safe to call more than once. It returns a
// *limit.ConcurrencyError (matching limit.ErrConcurrency) when
// no slot freed up in time, ctx's error when ctx ended first, and, with
// [FailClosed], an error matching [ErrUnavailable] while Redis is
// unavailable.
func (s *Semaphore) Acquire(ctx context.Context, maxWait time.Duration) (func(), error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	start := time.Now()
	deadline := start.Add(waitBound(maxWait))
	token := rand.Text()
	// With callers already waiting here, a newcomer lines up behind them
	// rather than take a slot one of them was woken for.
	if s.waiting.Load() == 0 || maxWait <= 0 {
		release, next, err := s.try(ctx, token, deadline)
		switch {
		case release != nil:
			return release, nil
		case err != nil || next < 0 || maxWait <= 0:
			return nil, s.refused(err, start)
		}
	}
	s.waiting.Add(1)
	defer s.waiting.Add(-1)
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case <-s.turn:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-t.C:
		return nil, s.refused(nil, start)
	}
	defer func() { s.turn <- struct{}{} }()
	s.subscribe()
	// The first waiter asks at once (the slots that freed up while it
	// waited for its turn went to the callers ahead, whose wake-ups it may
	// have missed), then whenever a slot may have freed up.
	for {
		select { // a release from now on wakes this waiter again
		case <-s.wake:
		default:
		}
		release, next, err := s.try(ctx, token, deadline)
		switch {
		case release != nil:
			return release, nil
		case err != nil || next < 0 || !time.Now().Before(deadline):
			return nil, s.refused(err, start)
		}
		t.Reset(min(next, time.Until(deadline), s.jitteredPoll()))
		select {
		case <-s.wake:
		case <-t.C:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// waitBound is how long Acquire waits at most when given maxWait.
func waitBound(maxWait time.Duration) time.Duration { return min(max(maxWait, 0), MaxSemaphoreWait) }

// refused returns err, or when it is nil, the error of a caller who waited
// since start and found no slot.
func (s *Semaphore) refused(err error, start time.Time) error {
	if err != nil {
		return err
	}
	return &limit.ConcurrencyError{Limit: s.n, Waited: time.Since(start).Round(time.Millisecond), Shared: s.key}
}

// jitteredPoll returns half to all of the poll interval, at random.
func (s *Semaphore) jitteredPoll() time.Duration {
	half := s.poll / 2
	return half + mrand.N(s.poll-half+1)
}

// try asks Redis for a slot once for token. It returns the slot's release,
// or how long until the earliest lease ends when every slot is taken. While
// Redis is unavailable it takes a slot of the local bulkhead instead,
// waiting for one until deadline (or fails with FailClosed); next is then
// -1, as it is when the caller gave up.
func (s *Semaphore) try(ctx context.Context, token string, deadline time.Time) (release func(), next time.Duration, err error) {
	res, sent, err := attempt(ctx, s.health, s.timeout, func(ctx context.Context) ([]int64, error) {
		return takeScript.Run(ctx, s.client, []string{s.key}, s.n, s.lease.Milliseconds(), token).Int64Slice()
	})
	if err == nil && (len(res) != 2 || res[0] == 2) {
		err = fmt.Errorf("unexpected reply %v", res)
	}
	if err != nil && sent {
		// The take may run in Redis later (a stalled Redis runs what it
		// received when it wakes): it must take nothing then.
		s.giveBack(token)
	}
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, -1, ctx.Err()
	case err != nil && s.failClosed:
		return nil, -1, &UnavailableError{Op: "acquire", Key: s.key, Err: err}
	case err != nil:
		release, err := s.local.Acquire(ctx, time.Until(deadline))
		var full *limit.ConcurrencyError
		if errors.As(err, &full) {
			err = nil // the caller's refusal, with the time it waited
		}
		return release, -1, err
	case res[0] == 1:
		return s.hold(token), 0, nil
	}
	// The time until the earliest lease ends, read from Redis: clamped
	// to the lease, plus a few milliseconds for the clocks' granularity.
	wait := time.Duration(min(max(res[1], 0), s.lease.Milliseconds()))*time.Millisecond + 5*time.Millisecond
	return nil, wait, nil
}

// notify wakes this process's first waiter, if any: a slot may be free.
func (s *Semaphore) notify() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Close ends the subscription to the releases of other processes, and
// waits until its goroutine is done. Slots held stay held until released;
// the semaphore keeps working, its waiters polling Redis without being
// told of releases. Close is idempotent.
func (s *Semaphore) Close() error {
	s.mu.Lock()
	sub := s.sub
	s.closed, s.sub = true, nil
	s.mu.Unlock()
	if sub == nil {
		return nil
	}
	return sub.close()
}

// The scripts take the sorted set of holders as KEYS[1], whose members are
// tokens. A token holding a slot is scored by the end of its lease, in ms
// on Redis's clock; a token barred from taking one (its acquisition gave
// up, or its holder released the slot after a renewal failed) is scored by
// minus the end of its bar, so that it never counts as a slot. Each script
// first drops the leases and bars that ended, and keeps the key alive as
// long as its longest lease or bar.
var (
	// ARGV: n, lease in ms, token. Returns {1, 0} when token holds a slot
	// (also when it already did: go-redis sends a script again when its
	// reply was lost), {2, 0} when token is barred, or {0, ms until the
	// earliest lease ends}.
	takeScript = redis.NewScript(semaphoreLua + `
local score = redis.call('ZSCORE', KEYS[1], ARGV[3])
if score and tonumber(score) > 0 then
  return {1, 0}
elseif score then
  return {2, 0}
end
if slots() < n then
  take()
  return {1, 0}
end
local first = redis.call('ZRANGEBYSCORE', KEYS[1], 0, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
return {0, tonumber(first[2]) - now}
`)
	// ARGV: n, lease in ms, token. Extends token's lease and returns 1; when
	// the lease was lost, takes a slot again and returns 2 if one is free,
	// or returns 0 (also when token is barred).
	renewScript = redis.NewScript(semaphoreLua + `
local score = redis.call('ZSCORE', KEYS[1], ARGV[3])
local r = 1
if score and tonumber(score) < 0 then
  return 0
elseif not score then
  if slots() >= n then
    return 0
  end
  r = 2
end
take()
return r
`)
	// ARGV: n (unused), bar in ms, tokens. Removes each token's slot,
	// announcing the free slots on the channel named as the key; with a bar
	// over 0, then bars each token for that long, so that a take or a
	// renewal of it that lands later takes nothing.
	giveBackScript = redis.NewScript(semaphoreLua + `
local freed = false
for i = 3, #ARGV do
  local score = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if score and tonumber(score) > 0 then
    redis.call('ZREM', KEYS[1], ARGV[i])
    freed = true
  end
  if lease > 0 and not (score and tonumber(score) < 0) then
    redis.call('ZADD', KEYS[1], string.format('%d', -(now + lease)), ARGV[i])
  end
end
if freed then
  redis.call('PUBLISH', KEYS[1], '1')
end
if lease > 0 and redis.call('PTTL', KEYS[1]) < lease then
  redis.call('PEXPIRE', KEYS[1], string.format('%d', lease))
end
return 0
`)
)

// inUseScript counts the leases of KEYS[1] that have not ended on Redis's
// clock, as the scripts above count slots, without dropping anything.
var inUseScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
return redis.call('ZCOUNT', KEYS[1], '(' .. string.format('%d', now), '+inf')
`)

const semaphoreLua = `
if redis.replicate_commands then pcall(redis.replicate_commands) end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n, lease = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], string.format('%d', -now), string.format('%d', now))
local function slots()
  return redis.call('ZCOUNT', KEYS[1], '(0', '+inf')
end
local function take()
  redis.call('ZADD', KEYS[1], string.format('%d', now + lease), ARGV[3])
  if redis.call('PTTL', KEYS[1]) < lease then
    redis.call('PEXPIRE', KEYS[1], string.format('%d', lease))
  end
end
`

// SharedState reports whether the Semaphore reaches Redis, and what it does
// while it does not (package status lists it).
func (s *Semaphore) SharedState() observe.SharedState { return s.health.state() }
