package tools

import (
	"context"
	"errors"
	"sync"
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
//     true. When there is one (in flight with its lease running, or done
//     with its time to live running), it changes nothing and returns that
//     record with false. An expired record counts as absent: a holder that
//     crashed blocks its key for at most its lease.
//   - Complete stores result as the done record of key, owned by owner and
//     expiring after ttl, unless another owner's record is live, in which
//     case it changes nothing and returns [ErrLeaseLost]. So a holder whose
//     lease expired still records its result when nobody took the key over,
//     and the first completion among holders wins.
//   - Release deletes key's record when it is an in-flight record of owner,
//     expired or not, and does nothing otherwise.
//   - Get returns key's live record, if any.
//
// When a lease expires while its holder is still running, another caller may
// claim the key and run the tool a second time; the first holder's Complete
// then fails with ErrLeaseLost (logged as "lease lost"). The wrapper bounds
// the holder's context by the lease, so this happens only with a tool that
// ignores its context or a lease shorter than the call: choose the lease
// longer than the slowest call.
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

// MemoryStore is a [Store] in the process's memory: the default of
// [Idempotent]. It does not survive a restart and is not shared between
// processes. Expired records are swept as the store is used.
//
// A MemoryStore is safe for concurrent use; the zero value is not usable,
// use [NewMemoryStore].
type MemoryStore struct {
	mu      sync.Mutex
	records map[string]memoryRecord
	writes  int // since the last sweep
	sweepAt int // writes that trigger the next sweep
}

type memoryRecord struct {
	Record
	expires time.Time
}

var _ Store = (*MemoryStore)(nil)

// NewMemoryStore returns an empty in-memory store.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{records: make(map[string]memoryRecord)}
}

// live returns key's record when it has not expired. Called with mu held.
func (m *MemoryStore) live(key string, now time.Time) (memoryRecord, bool) {
	r, ok := m.records[key]
	return r, ok && now.Before(r.expires)
}

// put writes a record, sweeping expired ones once there have been as many
// writes since the last sweep as records were left by it (64 at least), so
// that sweeping costs O(1) per write. Called with mu held.
func (m *MemoryStore) put(key string, r memoryRecord, now time.Time) {
	m.records[key] = r
	m.writes++
	if m.writes < max(m.sweepAt, 64) {
		return
	}
	for k, r := range m.records {
		if !now.Before(r.expires) {
			delete(m.records, k)
		}
	}
	m.writes, m.sweepAt = 0, len(m.records)
}

// Len returns how many records the store holds, including expired ones not
// swept yet.
func (m *MemoryStore) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.records)
}

// Claim implements [Store].
func (m *MemoryStore) Claim(_ context.Context, key, owner string, lease time.Duration) (Record, bool, error) {
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if r, ok := m.live(key, now); ok {
		return r.Record, false, nil
	}
	r := memoryRecord{Record: Record{Owner: owner}, expires: now.Add(lease)}
	m.put(key, r, now)
	return r.Record, true, nil
}

// Complete implements [Store].
func (m *MemoryStore) Complete(_ context.Context, key, owner, result string, ttl time.Duration) error {
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if r, ok := m.live(key, now); ok && r.Owner != owner {
		return ErrLeaseLost
	}
	m.put(key, memoryRecord{Record: Record{Owner: owner, Done: true, Result: result}, expires: now.Add(ttl)}, now)
	return nil
}

// Release implements [Store].
func (m *MemoryStore) Release(_ context.Context, key, owner string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r, ok := m.records[key]; ok && r.Owner == owner && !r.Done {
		delete(m.records, key)
	}
	return nil
}

// Get implements [Store].
func (m *MemoryStore) Get(_ context.Context, key string) (Record, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r, ok := m.live(key, time.Now()); ok {
		return r.Record, true, nil
	}
	return Record{}, false, nil
}
