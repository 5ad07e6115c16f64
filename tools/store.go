package tools

import (
	"context"
	"errors"
	"time"
)

// Store keeps the idempotency records of mutating tools (see [Idempotent]).
// A record is in flight, claimed by one owner for a lease, or done, holding
// the result for a time to live. Each method must be atomic with respect to
// the others, across every process sharing the store; a Redis
// implementation needs one SET NX PX for Claim (or a short Lua script when
// Claim also reads) and a compare-owner Lua script for Complete and Release.
//
// The contract, precisely:
//
//   - Claim creates an in-flight record for key, owned by owner and expiring
//     after lease, when there is no live record for key, and returns it with
//     true. When the live record is owner's own in-flight record, it renews
//     its lease (to expire after lease from now) and returns it with true:
//     a holder keeps its claim by claiming again, and a Claim retried after
//     its reply was lost finds the caller's own record. When there is
//     another live record (another owner's in flight, or any done one), it
//     changes nothing and returns that record with false. An expired record
//     counts as absent: a holder that crashed blocks its key for at most its
//     lease.
//   - Complete stores result as the done record of key, owned by owner and
//     expiring after ttl, unless another owner's record is live, in which
//     case it changes nothing and returns [ErrLeaseLost]. So a holder whose
//     lease expired still records its result when nobody took the key over,
//     and the first completion among holders wins.
//   - Release deletes key's record when it is an in-flight record of owner,
//     expired or not, and does nothing otherwise.
//   - Get returns key's live record, if any.
//
// The wrapper renews its claim every third of the lease while the tool runs,
// even after the call that started it was abandoned, so a slow or stuck tool
// keeps its key until it really ends. A lease expires only when its holder's
// process is gone (crashed, or cut off from the store for a whole lease):
// then another caller may claim the key and run the tool a second time, and
// a holder that comes back finds Complete failing with ErrLeaseLost (logged
// as "lease lost").
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
	// Complete stores owner's result for key, or returns ErrLeaseLost.
	Complete(ctx context.Context, key, owner, result string, ttl time.Duration) error
	// Release deletes owner's in-flight record for key, if it still stands.
	Release(ctx context.Context, key, owner string) error
	// Get returns key's live record and whether there is one.
	Get(ctx context.Context, key string) (Record, bool, error)
}

// Record is the state of one key in a [Store].
type Record struct {
	// Owner identifies the call that claimed the key (random per call).
	Owner string
	// Done is false while the call is in flight, true once its result is stored.
	Done bool
	// Result is the stored result when Done.
	Result string
}

// ErrLeaseLost is returned by [Store.Complete] when another owner holds the
// key: the caller's lease expired and someone else claimed it.
var ErrLeaseLost = errors.New("tools: idempotency lease lost to another owner")
