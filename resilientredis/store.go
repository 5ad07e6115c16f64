package resilientredis

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/resilientgo/resilient/tools"
)

// Store is a [tools.Store] on Redis, shared by every process that uses the
// same Redis and prefix: a mutating tool wrapped with
// tools.Idempotent(store) runs once per input across all the replicas of a
// service.
//
// A record is a Redis hash at prefix+key with the fields owner, done ("0" in
// flight, "1" done) and result, expiring with the lease or the time to live
// (PEXPIRE, on Redis's clock). Claim, Complete and Release are each one Lua
// script, atomic on the server: Claim creates the record unless one exists
// and returns the existing one otherwise; Complete writes the result unless
// another owner's record is live; Release deletes the caller's own
// in-flight record. Get is one HMGET.
//
// While Redis is unavailable, Claim and Get fail with an error matching
// [ErrUnavailable] (at once, but for one call a second that tries Redis),
// and tools.New turns a failed Claim into an internal failure of the call
// without running the tool: a double charge is worse than a failed call.
// Complete and Release retry until their context ends (the tools wrapper
// gives them 10 s), so a result is not lost to a blip.
//
// A Store is safe for concurrent use.
type Store struct {
	client  redis.UniversalClient
	prefix  string
	timeout time.Duration
	health  *health
}

var _ tools.Store = (*Store)(nil)

// NewStore returns a Store on client. Options: [Prefix], [WithLogger],
// [Timeout].
func NewStore(client redis.UniversalClient, opts ...Option) (*Store, error) {
	c, err := build(forStore, opts)
	if client == nil {
		err = errors.Join(err, errors.New("resilientredis: NewStore(nil client)"))
	}
	if err != nil {
		return nil, err
	}
	return &Store{
		client:  client,
		prefix:  c.prefix,
		timeout: c.timeout,
		health:  newHealth(c, c.prefix+"*", "tool calls fail without running"),
	}, nil
}

// The scripts take the record's key as KEYS[1].
var (
	// ARGV: owner, lease in ms. Returns {1} when claimed, or the live record
	// as {0, owner, done, result}.
	claimScript = redis.NewScript(`
local r = redis.call('HMGET', KEYS[1], 'owner', 'done', 'result')
if r[1] then
  return {0, r[1], r[2], r[3]}
end
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'done', '0')
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {1}
`)
	// ARGV: owner, result, time to live in ms. Returns 1 when stored, 0 when
	// another owner's record is live (the lease was lost).
	completeScript = redis.NewScript(`
local o = redis.call('HGET', KEYS[1], 'owner')
if o and o ~= ARGV[1] then
  return 0
end
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'done', '1', 'result', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`)
	// ARGV: owner. Deletes the record when it is owner's and in flight.
	releaseScript = redis.NewScript(`
local r = redis.call('HMGET', KEYS[1], 'owner', 'done')
if r[1] == ARGV[1] and r[2] == '0' then
  redis.call('DEL', KEYS[1])
end
return 0
`)
)

// Claim implements [tools.Store].
func (s *Store) Claim(ctx context.Context, key, owner string, lease time.Duration) (tools.Record, bool, error) {
	var res []any
	err := s.do(ctx, "claim", key, func(ctx context.Context) (err error) {
		res, err = claimScript.Run(ctx, s.client, []string{s.prefix + key}, owner, millis(lease)).Slice()
		return err
	})
	switch {
	case err != nil:
		return tools.Record{}, false, err
	case len(res) == 1:
		return tools.Record{Owner: owner}, true, nil
	case len(res) == 4:
		return record(res[1], res[2], res[3]), false, nil
	}
	return tools.Record{}, false, &UnavailableError{Op: "claim", Key: s.prefix + key, Err: errors.New("unexpected reply")}
}

// Complete implements [tools.Store]. It retries while Redis is unavailable,
// until ctx ends.
func (s *Store) Complete(ctx context.Context, key, owner, result string, ttl time.Duration) error {
	var stored int64
	err := s.retry(ctx, "complete", key, func(ctx context.Context) (err error) {
		stored, err = completeScript.Run(ctx, s.client, []string{s.prefix + key}, owner, result, millis(ttl)).Int64()
		return err
	})
	if err == nil && stored == 0 {
		return tools.ErrLeaseLost
	}
	return err
}

// Release implements [tools.Store]. It retries while Redis is unavailable,
// until ctx ends.
func (s *Store) Release(ctx context.Context, key, owner string) error {
	return s.retry(ctx, "release", key, func(ctx context.Context) error {
		return releaseScript.Run(ctx, s.client, []string{s.prefix + key}, owner).Err()
	})
}

// Get implements [tools.Store].
func (s *Store) Get(ctx context.Context, key string) (tools.Record, bool, error) {
	var res []any
	err := s.do(ctx, "get", key, func(ctx context.Context) (err error) {
		res, err = s.client.HMGet(ctx, s.prefix+key, "owner", "done", "result").Result()
		return err
	})
	if err != nil || len(res) != 3 || res[0] == nil {
		return tools.Record{}, false, err
	}
	return record(res[0], res[1], res[2]), true, nil
}

// do runs one round trip bounded by the store's timeout, and turns its
// failure into an *UnavailableError, or ctx's error when the caller gave up.
// While Redis is down, only one round trip a second is tried; the others
// fail at once.
func (s *Store) do(ctx context.Context, op, key string, f func(context.Context) error) error {
	if err := s.health.admit(); err != nil {
		return &UnavailableError{Op: op, Key: s.prefix + key, Err: err}
	}
	rctx, cancel := context.WithTimeout(ctx, s.timeout)
	err := f(rctx)
	cancel()
	switch {
	case err == nil:
		s.health.ok(ctx)
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	}
	s.health.failed(ctx, err)
	return &UnavailableError{Op: op, Key: s.prefix + key, Err: err}
}

// retry runs f until Redis answers or ctx ends, waiting 50 ms, then twice
// as long up to 1 s, between tries. It returns the last failure when ctx
// ends first.
func (s *Store) retry(ctx context.Context, op, key string, f func(context.Context) error) error {
	var last error
	for wait := 50 * time.Millisecond; ; wait = min(2*wait, time.Second) {
		err := s.do(ctx, op, key, f)
		switch {
		case err == nil:
			return nil
		case ctx.Err() == nil:
			last = err
		case last == nil:
			return err
		default:
			return last
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return last
		case <-t.C:
		}
	}
}

// record builds a Record from the fields of its hash.
func record(owner, done, result any) tools.Record {
	r := tools.Record{Done: done == "1"}
	r.Owner, _ = owner.(string)
	r.Result, _ = result.(string)
	return r
}

// millis returns d in whole milliseconds, at least 1: PX and PEXPIRE take
// positive milliseconds.
func millis(d time.Duration) int64 { return max(d.Milliseconds(), 1) }
