// Package resilientredis shares the state of the resilience middleware
// among the replicas of a service, on Redis (github.com/redis/go-redis/v9):
// idempotency records, rate limits, circuit breaker state and concurrency
// limits. An agent service behind a load balancer needs all four: a retried
// payment that lands on another replica must not charge twice, N replicas
// each keeping under a provider's limit exceed it together, each replica
// should not have to discover an outage on its own, and N replicas each
// sending 8 requests at once to a deployment sized for 8 overload it.
//
// The in-memory versions (tools.MemoryStore, limit.LocalLimiter, a
// breaker.Breaker of its own, limit.Bulkhead) stay the defaults; this package is
// separate so that a program without Redis does not link go-redis.
//
//	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
//
//	store, err := resilientredis.NewStore(rdb)
//	charge := resilient.Tool(chargeTool, resilient.Idempotent(store))
//
//	limiter, err := resilientredis.NewLimiter(rdb, "openai", 500, time.Minute)
//	model := resilient.Model(llm, resilient.RateLimit(limiter))
//
//	shared, err := resilientredis.ShareBreaker(ctx, rdb, model.Breaker(), "openai")
//	defer shared.Close()
//
//	sem, err := resilientredis.NewSemaphore(rdb, "vllm", 8)
//	defer sem.Close()
//	model := resilient.Model(llm, resilient.ConcurrencyLimit(sem, 10*time.Second))
//
// # Idempotency store
//
// [Store] implements tools.Store: a claim, a renewal, a completion, a
// release and the mark of a hung call are each one Lua script, atomic on
// the server, and leases and times to live run on Redis's clock. Two
// replicas calling a mutating tool with the same input execute it once;
// the second waits for the first and returns its result. A holder that
// dies mid-call blocks its key until its lease ends, and then a later call
// may run. A claim whose reply was lost counts as the caller's, a claim
// that failed is undone, and a renewal that failed is not (see [Store]).
//
// # Exactly once
//
// The guarantee holds while Redis keeps its records. A Redis that restarts
// without persistence forgets them all, and a payment in flight or already
// done may run again; so may records lost in a failover to a replica
// (replication is asynchronous; see [WaitReplicas]) or evicted to make
// room. For idempotency
// records, configure Redis with
//
//	appendonly yes
//	appendfsync always          # everysec may lose the last ~2 s in a crash
//	maxmemory-policy noeviction
//
// [NewStore] logs "redis without persistence" when the server reports
// neither an append-only file nor snapshots. docs/exactly-once.md in the
// repository states the guarantee fault by fault: lost replies, timeouts,
// failover, clock skew, leases that expire while a tool still runs.
//
// # Shared rate limit
//
// [Limiter] implements limit.Limiter with a sliding window kept in
// Redis and decided by a Lua script on Redis's clock: all the replicas
// together admit at most n attempts (and, with [Tokens], n tokens) in any
// window of one period. An attempt over the limit waits for the earliest
// slot, in the order asked, up to [MaxWait]. The in-process default is
// limit.LocalLimiter.
//
// # Shared circuit breaker
//
// [ShareBreaker] links a breaker.Breaker to the breakers of the other
// replicas: an open (from failures, or held open by a Retry-After over the
// cap) holds the others open for the rest of its period, at most the
// breaker's longest hold (middleware.MaxHold, 5 min by default), and a
// close closes them. Changes travel by pub/sub, and a poll every [PollInterval] is the
// safety net: a replica learns of another's change usually within
// milliseconds, and at worst within PollInterval (1 s by default) plus
// three round trips (see [SharedBreaker]).
//
// # Shared concurrency limit
//
// [Semaphore] implements limit.Semaphore: all the replicas together
// hold at most n slots, so given to resilient.ConcurrencyLimit it bounds the
// attempts in flight to a target across the fleet. A slot is a token in a
// sorted set scored by the end of its lease on Redis's clock; its holder
// renews the lease every [Lease]/3 (15 s by default), so a holder that
// crashed frees its slot within one lease, and a release removes only the
// caller's own token. Waiters line up in their process, and the first one
// asks Redis when a release is announced (pub/sub), when the earliest
// lease ends, or at the latest every [PollInterval]: a process costs Redis
// a round trip per release and per poll, however many callers wait.
//
// # Timeouts
//
// Every round trip is bounded by [Timeout] (1 s) whatever the go-redis
// client's options: without ContextTimeoutEnabled, go-redis ignores a
// context's deadline and waits for its own ReadTimeout (3 s by default),
// so each command runs on a goroutine of its own and the caller is
// answered at the timeout. The command may still run in Redis afterwards
// (a stalled Redis runs what it received when it wakes), and each feature
// makes that safe: a Store abandons a claim that failed and never undoes a
// renewal (it only extends a lease its holder wants), a late limiter
// admission takes a slot nobody uses (the fleet admits one attempt fewer,
// never one more), a semaphore gives back and bars the token of an
// acquire that gave up, so that it holds no slot when it lands, and
// breaker changes are versioned. A goroutine left
// running holds a pooled connection until the client's own timeouts end
// its command, so the client's pool size bounds them.
//
// # Redis unavailable
//
// Redis being down or unreachable never takes the agent down, and never
// panics. Each feature logs "redis unavailable" (at the first failure, then
// at most once a minute, with the feature, the key, what it does meanwhile
// and the error) and "redis reachable again" when it answers. Every round
// trip is bounded by [Timeout] (1 s), and while Redis is down a Store, a
// Limiter or a Semaphore tries one round trip a second, the other calls taking the
// unavailable path at once: an outage costs the agent one timeout a second,
// not one per call. Errors match [ErrUnavailable].
//
// [Observe] sends the same two transitions to observers, once each, as
// observe.SharedStateUnavailable (feature, key, and what it does
// meanwhile: fail_open, local or fail_closed, as the table below says) and
// observe.SharedStateRestored (how long Redis was down): resilientotel
// counts them, observe.Log writes them as the two lines above. Given
// with a [Logger], a log observer is not sent them, so that no line is
// written twice.
//
//	feature         while Redis is unavailable                      why
//
//	Store.Claim     fails at once: the tool call is an internal     a double charge is worse
//	                failure ("Error: <tool> failed internally       than a failed call
//	                (*resilientredis.UnavailableError)") and the
//	                tool does not run (fail_closed); a claim that
//	                was sent is abandoned once Redis answers
//	Store.Complete  retries until its context ends (10 s from the   the result of a call that
//	Store.Release   tools wrapper); after that the record stays     ran must not be lost to
//	                in flight until its lease ends                  a blip
//	Limiter         admits (fail_open); with FailClosed, refuses    a limiter outage should
//	                with an error matching ErrUnavailable           not stop every call
//	SharedBreaker   the local breaker works alone (local); local    the breaker's own evidence
//	                changes are published, and the shared state     still protects the replica
//	                applied, within PollInterval once Redis is back
//	Semaphore       admits up to n at once in each process          each replica stays as bounded
//	                (local); with FailClosed, refuses with an error as with a limit of its own;
//	                matching ErrUnavailable. A slot held is freed   an outage of Redis is not
//	                by its lease when its release does not land     one of the agent
//
// # Keys
//
// Every key and channel starts with a prefix ([Prefix]): by default
// "resilient:idempotency:", "resilient:limiter:", "resilient:breaker:" and
// "resilient:semaphore:". A semaphore is one key, which expires with its
// last lease, and a channel of the same name.
// A limiter's keys share a hash tag, so every script touches one Redis
// Cluster slot. The scripts need Redis 6.2 or later.
//
// # Cluster and Sentinel
//
// Every feature takes a redis.UniversalClient: a *redis.Client, a
// *redis.ClusterClient, or Sentinel's failover client. A failover may lose
// what the old master had not replicated: idempotency records (those calls
// may run again) and a limiter's log (it may admit up to a window more).
// [WaitReplicas] makes a Store wait for its replicas after each claim and
// completion, so that a claim survives a failover, at the cost of failing
// calls while no replica follows the master. docs/exactly-once.md in the
// repository has the measurements.
//
// # Concurrency
//
// Store, Limiter, SharedBreaker and Semaphore are safe for concurrent use;
// build one per process (per key) and share it, with one go-redis client.
package resilientredis
