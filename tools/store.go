package tools

import (
	"context"
	"errors"
	"time"
)

// Store keeps the idempotency records of mutating tools (see [Idempotent]).
// A record is in flight, claimed by one owner for a lease; done, holding
// the result for a time to live; or of unknown outcome, when its call
// outlived the claim's maximum lifetime ([MaxClaim]) with the tool still
// running, kept for a time to live too. Each method must be atomic with
// respect to the others, across every process sharing the store; a Redis
// implementation needs a short Lua script for each.
//
// The contract, precisely:
//
//   - Claim creates an in-flight record for key, owned by owner and expiring
//     after lease, when there is no live record for key, and returns it with
//     true. When the live record is owner's own in-flight record, it renews
//     its lease and returns it with true: a Claim retried after its reply
//     was lost finds the caller's own record. When there is another live
//     record (another owner's in flight, or any done or unknown one), it
//     changes nothing and returns that record with false. An expired record
//     counts as absent: a holder that crashed blocks its key for at most its
//     lease.
//   - Renew extends the lease of owner's in-flight record of key to expire
//     after lease from now, and reports whether there was one. It never
//     creates nor deletes a record, so a renewal that lands late (after the
//     holder's Complete, Release or MarkUnknown, or after the record
//     expired) changes nothing.
//   - Complete stores result as the done record of key, owned by owner and
//     expiring after ttl, unless another owner's record is live, in which
//     case it changes nothing and returns [ErrLeaseLost]. So a holder whose
//     lease expired still records its result when nobody took the key over,
//     a holder whose call was marked unknown records the result that came
//     at last, and the first completion among holders wins.
//   - Release deletes key's record when it is owner's and not done (in
//     flight, expired or not, or of unknown outcome), and does nothing
//     otherwise.
//   - MarkUnknown turns owner's in-flight record of key, expired or not,
//     into a record of unknown outcome that says the call had held its key
//     for held, expiring after ttl, and returns [ErrLeaseLost] when another
//     owner's record is live or key has a done record (it then changes
//     nothing). It creates the record when key has none.
//   - Get returns key's live record, if any.
//
// The wrapper renews its claim every third of the lease while the tool runs,
// even after the call that started it was abandoned, so a slow or stuck tool
// keeps its key until it returns, for at most the claim's maximum lifetime;
// then it marks the record unknown. A renewal that fails (the store did not
// answer in time) is tried again at the next third of the lease: it never
// releases the record. A lease expires only when its holder's process is
// gone (crashed, or cut off from the store for a whole lease): then another
// caller may claim the key and run the tool a second time, and a holder
// that comes back finds Complete failing with ErrLeaseLost (logged as
// "lease lost").
//
// Errors other than ErrLeaseLost mean the store could not answer. A Claim
// that fails is an internal failure of the call, and the tool is not run.
//
// Implementations must be safe for concurrent use. Package
// [github.com/resilientgo/resilient/tools/storetest] checks one against this
// contract.
type Store interface {
	// Claim creates owner's in-flight record for key unless a live record
	// exists, and reports which record now stands and whether it is owner's.
	Claim(ctx context.Context, key, owner string, lease time.Duration) (Record, bool, error)
	// Renew extends the lease of owner's in-flight record for key, and
	// reports whether it stood.
	Renew(ctx context.Context, key, owner string, lease time.Duration) (bool, error)
	// Complete stores owner's result for key, or returns ErrLeaseLost.
	Complete(ctx context.Context, key, owner, result string, ttl time.Duration) error
	// Release deletes owner's record for key if it stands and is not done.
	Release(ctx context.Context, key, owner string) error
	// MarkUnknown records that owner's call of key held it for held with
	// its outcome unknown, or returns ErrLeaseLost.
	MarkUnknown(ctx context.Context, key, owner string, held, ttl time.Duration) error
	// Get returns key's live record and whether there is one.
	Get(ctx context.Context, key string) (Record, bool, error)
}

// Record is the state of one key in a [Store].
type Record struct {
	// Owner identifies the call that claimed the key (unique to the call).
	Owner string
	// Done is false while the call is in flight, true once its result is stored.
	Done bool
	// Result is the stored result when Done.
	Result string
	// Unknown is true when the call outlived its claim's maximum lifetime
	// ([MaxClaim]) with the tool still running: its holder stopped renewing
	// and the outcome is unknown. Done is then false. A call with the same
	// key ends the run with [ErrOutcomeUnknown] instead of running the tool,
	// until the record expires, or the tool returns and its holder stores
	// the result (or releases the key after a failure).
	Unknown bool
	// Held is, when Unknown, how long the call had held its key when its
	// holder marked it so.
	Held time.Duration
}

// ErrLeaseLost is returned by [Store.Complete] and [Store.MarkUnknown]
// when another owner holds the key: the caller's lease expired and someone
// else claimed it.
var ErrLeaseLost = errors.New("tools: idempotency lease lost to another owner")
