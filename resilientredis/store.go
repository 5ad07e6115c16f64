package resilientredis

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/tools"
)

// Store is a [tools.Store] on Redis, shared by every process that uses the
// same Redis and prefix: a mutating tool wrapped with
// tools.Idempotent(store) runs once per input across all the replicas of a
// service, as long as Redis keeps its records (see "Exactly once" in the
// package documentation).
//
// A record is a Redis hash at prefix+key with the fields owner, done ("0" in
// flight, "1" done, "2" of unknown outcome), result and, for a record of
// unknown outcome, held (in ms), expiring with the lease or the time to
// live (PEXPIRE, on Redis's clock). Claim, Renew, Complete, Release and
// MarkUnknown are each one Lua script, atomic on the server: Claim creates
// the record unless one exists and returns the existing one otherwise;
// Renew extends the lease of the caller's own in-flight record and nothing
// else; Complete writes the result unless another owner's record is live;
// Release deletes the caller's own record unless it is done; MarkUnknown
// turns the caller's record into one of unknown outcome. Get is one HMGET.
//
// A Claim that finds its own owner's in-flight record has claimed the key:
// go-redis retries a command whose reply was lost (a connection reset after
// Redis ran the script), and the retry finds the record the first run made.
// A Claim that fails after its command was sent (a timeout, a lost reply
// not retried, the caller giving up) may have run in Redis, or may still
// run there, leaving an in-flight record nobody owns that would make the
// next identical call wait for the whole lease. So the Store abandons the
// claim in the background: a script deletes the owner's in-flight record,
// or, when there is none yet, marks the owner as gone so that its claim,
// should it land later, changes nothing. The background retries, like
// Release, until Redis answers, for at most the lease. Each one is a
// goroutine; while Redis is down only one Claim a second sends a command,
// so they number at most about one per second of the lease, plus the
// claims in flight when Redis failed. A renewal that fails is never undone:
// it may land late, and then only extends a lease its holder still wants
// (a renewal that lands after the holder's release or completion finds no
// in-flight record of its owner and changes nothing); if it does not land,
// the record stands until its lease ends, and the next renewal, a third of
// a lease later, extends it.
//
// While Redis is unavailable, Claim and Get fail with an error matching
// [ErrUnavailable] (at once, but for one call a second that tries Redis),
// and the tools wrapper turns a failed Claim into an internal failure of
// the call without running the tool: a double charge is worse than a failed
// call. Complete, Release and MarkUnknown retry until their context ends
// (the tools wrapper gives them 10 s), so a result is not lost to a blip.
//
// A Store is safe for concurrent use.
type Store struct {
	client      redis.UniversalClient
	prefix      string
	timeout     time.Duration
	health      *health
	replication replication // WaitReplicas

	abandons sync.WaitGroup // the claims being abandoned in the background
}

var _ tools.Store = (*Store)(nil)

// NewStore returns a Store on client. It asks the server whether it
// persists its data (CONFIG GET appendonly and save, bounded by [Timeout])
// and logs "redis without persistence" once when it reports neither an
// append-only file nor snapshots: a restart would forget every record, and
// a call could run twice. A server that refuses CONFIG (managed services,
// ACLs) or does not answer is not reported. Options: [Prefix], [Logger],
// [Observe], [Timeout].
func NewStore(client redis.UniversalClient, opts ...Option) (*Store, error) {
	c, err := build(forStore, opts)
	if client == nil {
		err = errors.Join(err, errors.New("resilientredis: NewStore(nil client)"))
	}
	if err != nil {
		return nil, err
	}
	r, err := newReplication(client, c)
	if err != nil {
		return nil, err
	}
	checkPersistence(client, c)
	return &Store{
		client:      client,
		prefix:      c.prefix,
		timeout:     c.timeout,
		health:      newHealth(c, c.prefix+"*", observe.SharedFailClosed, "tool calls fail without running"),
		replication: r,
	}, nil
}

// The scripts take the record's key as KEYS[1]. A record's hash may also
// hold fields "abandoned:<owner>", left by abandonScript; a hash without an
// owner field is no record.
var (
	// ARGV: owner, lease in ms. Returns {1} when the key is owner's (an
	// in-flight record of owner's has its lease renewed), the
	// live record of another owner (or owner's done or unknown one) as
	// {0, owner, done, result, held}, or {2} when owner abandoned this claim.
	claimScript = redis.NewScript(`
local r = redis.call('HMGET', KEYS[1], 'owner', 'done', 'result', 'abandoned:' .. ARGV[1], 'held')
if r[1] then
  if r[1] == ARGV[1] and r[2] == '0' then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return {1}
  end
  return {0, r[1], r[2], r[3], r[5]}
end
if r[4] then
  return {2}
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'done', '0')
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {1}
`)
	// ARGV: owner, lease in ms. Extends the lease of owner's in-flight
	// record and returns 1; returns 0, changing nothing, when there is
	// none.
	renewClaimScript = redis.NewScript(`
local r = redis.call('HMGET', KEYS[1], 'owner', 'done')
if r[1] == ARGV[1] and r[2] == '0' then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
`)
	// ARGV: owner, result, time to live in ms. Returns 1 when stored, 0 when
	// another owner's record is live (the lease was lost).
	completeScript = redis.NewScript(`
local o = redis.call('HGET', KEYS[1], 'owner')
if o and o ~= ARGV[1] then
  return 0
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'done', '1', 'result', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`)
	// ARGV: owner. Deletes the record when it is owner's and not done (in
	// flight or unknown).
	releaseScript = redis.NewScript(`
local r = redis.call('HMGET', KEYS[1], 'owner', 'done')
if r[1] == ARGV[1] and r[2] ~= '1' then
  redis.call('DEL', KEYS[1])
end
return 0
`)
	// ARGV: owner, held in ms, time to live in ms. Makes owner's record (or
	// a new one) a record of unknown outcome and returns 1; returns 0,
	// changing nothing, when the record is another owner's or done.
	unknownScript = redis.NewScript(`
local r = redis.call('HMGET', KEYS[1], 'owner', 'done')
if (r[1] and r[1] ~= ARGV[1]) or r[2] == '1' then
  return 0
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'done', '2', 'held', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`)
	// ARGV: owner, lease in ms. Undoes a claim whose caller got no answer:
	// deletes owner's in-flight record; when there is no record, marks
	// owner as gone for the lease, so that its claim, landing later, makes
	// none. Another owner's record means owner's claim made nothing.
	abandonScript = redis.NewScript(`
local r = redis.call('HMGET', KEYS[1], 'owner', 'done')
if r[1] == ARGV[1] and r[2] == '0' then
  redis.call('DEL', KEYS[1])
elseif not r[1] then
  redis.call('HSET', KEYS[1], 'abandoned:' .. ARGV[1], '1')
  if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[2]) then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
  end
end
return 0
`)
)

// Claim implements [tools.Store]. After a failure it abandons owner's
// claim in the background (see [Store]).
func (s *Store) Claim(ctx context.Context, key, owner string, lease time.Duration) (tools.Record, bool, error) {
	res, sent, err := do(ctx, s, "claim", key, func(ctx context.Context) ([]any, error) {
		return s.eval(ctx, claimScript, s.prefix+key, owner, millis(lease)).Slice()
	})
	switch {
	case err != nil:
	case len(res) == 1 && res[0] == int64(1):
		return tools.Record{Owner: owner}, true, nil
	case len(res) == 5:
		return record(res[1], res[2], res[3], res[4]), false, nil
	case len(res) == 1 && res[0] == int64(2):
		err = fmt.Errorf("resilientredis: claim %s%s: owner %s abandoned this claim after a failure: a new call needs a new owner", s.prefix, key, owner)
	default:
		err = &UnavailableError{Op: "claim", Key: s.prefix + key, Err: fmt.Errorf("unexpected reply %v", res)}
	}
	if sent {
		s.abandon(key, owner, lease)
	}
	return tools.Record{}, false, err
}

// abandon undoes owner's claim of key, which failed after its command was
// sent, in the background: the first round trip at once (it follows the
// claim on the wire), then until Redis answers or the lease has passed. A
// claim that lands later than a lease after that blocks its key for one
// lease at most.
func (s *Store) abandon(key, owner string, lease time.Duration) {
	s.abandons.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), lease)
		defer cancel()
		_, _ = undo(ctx, s.health, s.timeout, func(ctx context.Context) (any, error) {
			return nil, abandonScript.Run(ctx, s.client, []string{s.prefix + key}, owner, millis(lease)).Err()
		})
	})
}

// Renew implements [tools.Store]. A renewal that fails is not undone: it
// only extends a lease, and the record it renews is the holder's to keep
// (see [Store]).
func (s *Store) Renew(ctx context.Context, key, owner string, lease time.Duration) (bool, error) {
	renewed, _, err := do(ctx, s, "renew", key, func(ctx context.Context) (int64, error) {
		return renewClaimScript.Run(ctx, s.client, []string{s.prefix + key}, owner, millis(lease)).Int64()
	})
	return renewed == 1, err
}

// MarkUnknown implements [tools.Store]. It retries while Redis is
// unavailable, until ctx ends.
func (s *Store) MarkUnknown(ctx context.Context, key, owner string, held, ttl time.Duration) error {
	marked, err := retry(ctx, s, "mark unknown", key, func(ctx context.Context) (int64, error) {
		return s.eval(ctx, unknownScript, s.prefix+key, owner, millis(held), millis(ttl)).Int64()
	})
	if err == nil && marked == 0 {
		return tools.ErrLeaseLost
	}
	return err
}

// Complete implements [tools.Store]. It retries while Redis is unavailable,
// until ctx ends.
func (s *Store) Complete(ctx context.Context, key, owner, result string, ttl time.Duration) error {
	stored, err := retry(ctx, s, "complete", key, func(ctx context.Context) (int64, error) {
		return s.eval(ctx, completeScript, s.prefix+key, owner, result, millis(ttl)).Int64()
	})
	if err == nil && stored == 0 {
		return tools.ErrLeaseLost
	}
	return err
}

// Release implements [tools.Store]. It retries while Redis is unavailable,
// until ctx ends.
func (s *Store) Release(ctx context.Context, key, owner string) error {
	_, err := retry(ctx, s, "release", key, func(ctx context.Context) (any, error) {
		return nil, releaseScript.Run(ctx, s.client, []string{s.prefix + key}, owner).Err()
	})
	return err
}

// Get implements [tools.Store].
func (s *Store) Get(ctx context.Context, key string) (tools.Record, bool, error) {
	res, _, err := do(ctx, s, "get", key, func(ctx context.Context) ([]any, error) {
		return s.client.HMGet(ctx, s.prefix+key, "owner", "done", "result", "held").Result()
	})
	if err != nil || len(res) != 4 || res[0] == nil {
		return tools.Record{}, false, err
	}
	return record(res[0], res[1], res[2], res[3]), true, nil
}

// do is one round trip of s (see attempt), whose failure it turns into an
// *UnavailableError, or ctx's error when the caller gave up.
func do[T any](ctx context.Context, s *Store, op, key string, f func(context.Context) (T, error)) (T, bool, error) {
	v, sent, err := attempt(ctx, s.health, s.timeout, f)
	switch {
	case err == nil:
	case ctx.Err() != nil:
		err = ctx.Err()
	default:
		err = &UnavailableError{Op: op, Key: s.prefix + key, Err: err}
	}
	return v, sent, err
}

// retry runs f, a round trip of s, until Redis answers, ctx ends or the
// client is closed (see retryRound).
func retry[T any](ctx context.Context, s *Store, op, key string, f func(context.Context) (T, error)) (T, error) {
	return retryRound(ctx, func(ctx context.Context) (T, error) {
		v, _, err := do(ctx, s, op, key, f)
		return v, err
	})
}

// retryRound runs round, one round trip, until it succeeds, ctx ends or the
// client is closed, waiting 50 ms, then twice as long up to 1 s, between
// tries. It returns the last failure when ctx ends first.
func retryRound[T any](ctx context.Context, round func(context.Context) (T, error)) (T, error) {
	var last error
	for wait := 50 * time.Millisecond; ; wait = min(2*wait, time.Second) {
		v, err := round(ctx)
		switch {
		case err == nil:
			return v, nil
		case errors.Is(err, redis.ErrClosed):
			return v, err // nothing will ever answer
		case ctx.Err() == nil:
			last = err
		case last == nil:
			return v, err
		default:
			return v, last
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return v, last
		case <-t.C:
		}
	}
}

// maxHeld bounds the Held of a record read from Redis: a field that says
// more (corrupt, or written by something else) reads as this.
const maxHeld = 365 * 24 * time.Hour

// record builds a Record from the fields of its hash: done is "0" in
// flight, "1" done, "2" of unknown outcome, held for held ms.
func record(owner, done, result, held any) tools.Record {
	r := tools.Record{Done: done == "1", Unknown: done == "2"}
	r.Owner, _ = owner.(string)
	r.Result, _ = result.(string)
	if ms, err := strconv.ParseInt(fmt.Sprint(held), 10, 64); r.Unknown && err == nil {
		r.Held = time.Duration(min(max(ms, 0), maxHeld.Milliseconds())) * time.Millisecond
	}
	return r
}

// millis returns d in whole milliseconds, at least 1: PX and PEXPIRE take
// positive milliseconds.
func millis(d time.Duration) int64 { return max(d.Milliseconds(), 1) }

// SharedState reports whether the Store reaches Redis, and what it does
// while it does not (package status lists it).
func (s *Store) SharedState() observe.SharedState { return s.health.state() }
