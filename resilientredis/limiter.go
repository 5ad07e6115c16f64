package resilientredis

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/observe"
)

// Limiter is a [limit.Limiter] shared by every process that uses the
// same Redis, prefix and key: the replicas of a service together start at
// most n attempts per period, and, with [Tokens], spend at most that many
// tokens per period, so that the fleet stays under the provider account's
// limit.
//
// The limit is a sliding window: in any interval of one period, the
// attempts admitted number at most n, wherever the interval starts. Bursts
// are allowed up to the limit. Admission is decided by one Lua script on
// Redis's clock (TIME), never a client's, over a sorted set of the
// admissions of the last period. A caller over the limit is given the
// earliest time its attempt fits, takes that slot at once, and sleeps until
// then; so callers are served in the order they asked, and a wait longer
// than [MaxWait] (or than ctx's deadline) is refused at once with
// [limit.ErrLimited], without taking a slot. A caller that gives up
// while waiting gives its slot back.
//
// While Redis is unavailable the limiter fails open: it admits, and logs
// "redis unavailable". With [FailClosed] it refuses with an error matching
// [ErrUnavailable] instead.
//
// A token cost acquired before a request is an estimate; package llms
// tells the limiter what the request really used after it ([Limiter.Settle]).
//
// A Limiter is safe for concurrent use.
type Limiter struct {
	client     redis.UniversalClient
	keys       []string // the sorted set of admissions, the token count, the count of debits
	name       string
	requests   int // per period, 0: no request limit
	tokens     int // per period, 0: no token limit
	period     time.Duration
	maxWait    time.Duration
	timeout    time.Duration
	failClosed bool
	health     *health
}

var _ limit.Settler = (*Limiter)(nil)

// NewLimiter returns a limiter admitting at most requests attempts per
// period over all the processes sharing key (for instance "openai:gpt-4o";
// the account's limits apply to every replica). With [Tokens], requests may
// be 0 to limit tokens only. Every limiter sharing a key must have the same
// limits and period. Options: [Tokens], [MaxWait], [FailClosed],
// [Prefix], [Logger], [Observe], [Timeout].
func NewLimiter(client redis.UniversalClient, key string, requests int, period time.Duration, opts ...Option) (*Limiter, error) {
	c, err := build(forLimiter, opts)
	var errs []error
	if client == nil {
		errs = append(errs, errors.New("resilientredis: NewLimiter(nil client)"))
	}
	if key == "" {
		errs = append(errs, errors.New("resilientredis: NewLimiter: empty key"))
	}
	if requests < 0 || (requests == 0 && c.tokens == 0) || period < time.Millisecond {
		errs = append(errs, fmt.Errorf("resilientredis: NewLimiter(%q, %d, %v): need requests >= 1 (or Tokens) and a period of 1 ms at least", key, requests, period))
	}
	if err := errors.Join(append(errs, err)...); err != nil {
		return nil, err
	}
	if c.maxWait < 0 {
		c.maxWait = period
	}
	// The braces are a hash tag: both keys live in one Redis Cluster slot,
	// as a script's keys must.
	base := c.prefix + "{" + key + "}"
	action, detail := observe.SharedFailOpen, "admitting without the shared limit"
	if c.failClosed {
		action, detail = observe.SharedFailClosed, "refusing every attempt"
	}
	return &Limiter{
		client:     client,
		keys:       []string{base + ":log", base + ":tokens", base + ":debits"},
		name:       base,
		requests:   requests,
		tokens:     c.tokens,
		period:     period,
		maxWait:    c.maxWait,
		timeout:    c.timeout,
		failClosed: c.failClosed,
		health:     newHealth(c, base, action, detail),
	}, nil
}

var (
	// acquireScript admits one attempt of a cost, now or at the earliest
	// time it fits in a sliding window, on Redis's clock in milliseconds.
	//
	// KEYS: the sorted set of admissions (member "<id>:<cost>", score the
	// admission time), the sum of their costs and the count of debits
	// among them (both kept only with a token limit). A debit, member
	// "+<id>:<cost>", is added by settleScript: it counts tokens, not a
	// request. ARGV: request limit (0: none), token limit (0: none),
	// window, cost, longest acceptable wait, member id. Returns {1, wait}
	// when admitted after wait, {0, wait} when the wait would be longer
	// than acceptable, {-1, 0} when the cost can never fit.
	//
	// Admissions are kept in time order of their slots, so the earliest
	// slot for a new one is found by dropping the oldest until both limits
	// hold for the rest: the new one goes at the oldest dropped one's time
	// plus the window, when that one leaves every window that contains the
	// new one.
	acquireScript = redis.NewScript(`
if redis.replicate_commands then pcall(redis.replicate_commands) end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rmax, tmax, win = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local cost, maxwait = tonumber(ARGV[4]), tonumber(ARGV[5])
local function costof(m) return tonumber(string.match(m, ':(%d+)$')) end
local function debit(m) return string.sub(m, 1, 1) == '+' end

local old = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - win)
if #old > 0 then
  if tmax > 0 then
    local freed, debits = 0, 0
    for _, m in ipairs(old) do
      freed = freed + costof(m)
      if debit(m) then debits = debits + 1 end
    end
    if redis.call('DECRBY', KEYS[2], freed) < 0 then redis.call('SET', KEYS[2], 0, 'KEEPTTL') end
    if debits > 0 and redis.call('DECRBY', KEYS[3], debits) < 0 then redis.call('SET', KEYS[3], 0, 'KEEPTTL') end
  end
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - win)
end

local count = redis.call('ZCARD', KEYS[1])
local tokens = 0
if tmax > 0 then
  tokens = tonumber(redis.call('GET', KEYS[2]) or '0')
  count = count - tonumber(redis.call('GET', KEYS[3]) or '0')
end
local at = now
if (rmax > 0 and count + 1 > rmax) or (tmax > 0 and tokens + cost > tmax) then
  at = nil
  local fc, ft, start = 0, 0, 0
  while not at do
    local batch = redis.call('ZRANGE', KEYS[1], start, start + 99, 'WITHSCORES')
    if #batch == 0 then break end
    for i = 1, #batch, 2 do
      if not debit(batch[i]) then fc = fc + 1 end
      ft = ft + costof(batch[i])
      if (rmax == 0 or count - fc + 1 <= rmax) and (tmax == 0 or tokens - ft + cost <= tmax) then
        at = math.max(now, tonumber(batch[i + 1]) + win)
        break
      end
    end
    start = start + 100
  end
  if not at then return {-1, 0} end
end

local wait = at - now
if wait > maxwait then return {0, wait} end
redis.call('ZADD', KEYS[1], string.format('%d', at), ARGV[6] .. ':' .. ARGV[4])
local ttl = at + win - now + 1000
if redis.call('PTTL', KEYS[1]) < ttl then redis.call('PEXPIRE', KEYS[1], string.format('%d', ttl)) end
if tmax > 0 then
  redis.call('INCRBY', KEYS[2], cost)
  if redis.call('PTTL', KEYS[2]) < ttl then redis.call('PEXPIRE', KEYS[2], string.format('%d', ttl)) end
end
return {1, wait}
`)
	// settleScript charges tokens used beyond an attempt's estimate: a
	// debit admitted now, counting tokens and no request, which leaves the
	// window as an admission does. KEYS as acquireScript's; ARGV: window,
	// tokens, member id.
	settleScript = redis.NewScript(`
if redis.replicate_commands then pcall(redis.replicate_commands) end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local win = tonumber(ARGV[1])
redis.call('ZADD', KEYS[1], string.format('%d', now), '+' .. ARGV[3] .. ':' .. ARGV[2])
redis.call('INCRBY', KEYS[2], tonumber(ARGV[2]))
redis.call('INCR', KEYS[3])
local ttl = win + 1000
for _, k in ipairs(KEYS) do
  if redis.call('PTTL', k) < ttl then redis.call('PEXPIRE', k, string.format('%d', ttl)) end
end
return 0
`)
	// refundScript gives back the slot of an attempt whose caller gave up
	// while waiting for it. KEYS as acquireScript's; ARGV: member, "1" when
	// tokens are counted.
	refundScript = redis.NewScript(`
if redis.call('ZREM', KEYS[1], ARGV[1]) == 1 and ARGV[2] == '1' then
  redis.call('DECRBY', KEYS[2], tonumber(string.match(ARGV[1], ':(%d+)$')))
end
return 0
`)
)

// Acquire implements [limit.Limiter]: it blocks until an attempt that
// counts one request and cost tokens may start. cost below 1 counts as 1; a
// cost over the token limit is refused with [limit.ErrLimited]. It
// returns ctx's error when ctx ends while waiting, and
// [limit.ErrLimited] when the wait would be longer than [MaxWait] or
// than ctx's deadline allows. While Redis is unavailable it admits (or, with
// [FailClosed], returns an error matching [ErrUnavailable]).
func (l *Limiter) Acquire(ctx context.Context, cost int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	cost = max(cost, 1)
	if l.tokens > 0 && cost > l.tokens {
		return fmt.Errorf("resilientredis: limiter %s: a cost of %d tokens is over the limit of %d per %v: %w",
			l.name, cost, l.tokens, l.period, limit.ErrLimited)
	}
	maxWait := l.maxWait
	if deadline, ok := ctx.Deadline(); ok {
		maxWait = min(maxWait, time.Until(deadline))
	}
	// While Redis is down, one caller a second tries it. An acquire that
	// times out may still take a slot in Redis, unused: the fleet admits one
	// attempt fewer in that window, never one more.
	member := rand.Text()
	res, _, err := attempt(ctx, l.health, l.timeout, func(ctx context.Context) ([]int64, error) {
		return acquireScript.Run(ctx, l.client, l.keys,
			l.requests, l.tokens, l.period.Milliseconds(), cost, max(maxWait.Milliseconds(), 0), member).Int64Slice()
	})
	switch {
	case err != nil && ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		return l.unavailable(err)
	case len(res) != 2:
		return &UnavailableError{Op: "acquire", Key: l.name, Err: errors.New("unexpected reply")}
	}
	wait := time.Duration(res[1]) * time.Millisecond
	switch res[0] {
	case 0:
		return fmt.Errorf("resilientredis: limiter %s: the next slot is %v away, more than the wait allowed (%v): %w",
			l.name, wait, maxWait.Round(time.Millisecond), limit.ErrLimited)
	case -1:
		return fmt.Errorf("resilientredis: limiter %s: a cost of %d never fits: %w", l.name, cost, limit.ErrLimited)
	}
	if wait <= 0 {
		return nil
	}
	t := time.NewTimer(wait)
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		t.Stop()
		l.refund(ctx, member+":"+strconv.Itoa(cost))
		return ctx.Err()
	}
}

// unavailable is Acquire's answer while Redis is unavailable: admit, or
// refuse with FailClosed.
func (l *Limiter) unavailable(err error) error {
	if l.failClosed {
		return &UnavailableError{Op: "acquire", Key: l.name, Err: err}
	}
	return nil
}

// refund gives back a slot taken by a caller that gave up waiting for it.
// It is best effort: a slot not given back only makes the fleet slower.
func (l *Limiter) refund(ctx context.Context, member string) {
	counted := "0"
	if l.tokens > 0 {
		counted = "1"
	}
	ctx = context.WithoutCancel(ctx)
	_, err := roundTrip(ctx, l.timeout, func(ctx context.Context) (any, error) {
		return nil, refundScript.Run(ctx, l.client, l.keys, member, counted).Err()
	})
	if err != nil {
		l.health.failed(ctx, err)
	}
}

// Settle implements [limit.Settler]: the tokens an attempt used beyond
// the estimate it acquired are charged to the shared window at once, as a
// debit of their own that counts tokens but no request, so that the next
// attempts of every replica wait for them; the debit leaves the window one
// period later, as an admission does. An estimate above the truth is not
// given back: its tokens stay counted until its admission leaves the
// window, so the fleet admits fewer tokens for one period at most, never
// more. A Limiter without [Tokens] does nothing.
//
// Settle makes one round trip, bounded by [Timeout] and made even when ctx
// has ended (the tokens were spent all the same). While Redis is
// unavailable it makes none, and the tokens go uncharged.
func (l *Limiter) Settle(ctx context.Context, estimated, actual int) {
	extra := actual - max(estimated, 1)
	if l.tokens == 0 || extra <= 0 {
		return
	}
	_, _, _ = attempt(context.WithoutCancel(ctx), l.health, l.timeout, func(ctx context.Context) (any, error) {
		return nil, settleScript.Run(ctx, l.client, l.keys, l.period.Milliseconds(), extra, rand.Text()).Err()
	})
}

// SharedState reports whether the Limiter reaches Redis, and what it does
// while it does not (package status lists it).
func (l *Limiter) SharedState() observe.SharedState { return l.health.state() }

// String describes the limit, as "60 requests and 100000 tokens per 1m0s,
// shared under resilient:limiter:{openai}".
func (l *Limiter) String() string {
	var parts []string
	if l.requests > 0 {
		parts = append(parts, strconv.Itoa(l.requests)+" requests")
	}
	if l.tokens > 0 {
		parts = append(parts, strconv.Itoa(l.tokens)+" tokens")
	}
	return strings.Join(parts, " and ") + " per " + l.period.String() + ", shared under " + l.health.key
}
