package tools

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"slices"
	"sync"
	"time"

	"github.com/resilientgo/resilient/taxonomy"
)

// DefaultMaxRecords is how many records a [MemoryStore] holds when
// [MaxRecords] is not given.
const DefaultMaxRecords = 10_000

// ErrStoreFull is returned by [MemoryStore.Claim] (and Complete or
// MarkUnknown, when its record is gone) when the store holds its maximum of
// records and every one is in flight or of unknown outcome: none may be
// evicted, and the tool is not run.
var ErrStoreFull = errors.New("tools: memory store full of calls in flight")

// MemoryStore is a [Store] in the process's memory: the default of
// [Idempotent]. It does not survive a restart and is not shared between
// processes.
//
// It holds at most a maximum of records ([MaxRecords], 10 000 by default).
// When a new record would pass it, the oldest done record is evicted (a
// repeat of that call runs the tool again); a record in flight or of
// unknown outcome is never evicted, since its tool may still run, and when
// every record is one of those, Claim fails with [ErrStoreFull] rather than
// run the tool unguarded.
//
// Expired records are removed a few at a time: by each call, and while the
// store is idle by a timer armed for the next expiry, which starts a
// goroutine only while it removes records and is stopped by [MemoryStore.Close].
// No call removes more than a few hundred records, whatever the store holds;
// the memory of removed records, their index included, returns to the
// garbage collector. A store that is dropped without Close is collected once
// its last record has expired.
//
// A MemoryStore is safe for concurrent use; the zero value is not usable,
// use [NewMemoryStore].
type MemoryStore struct {
	max  int
	err  error // invalid options, returned by Err
	seed maphash.Seed

	mu     sync.Mutex
	shards []memoryShard
	n      int            // records held
	queues []*memoryQueue // at most maxQueues of each kind
	work   int            // records removed or copied by the current call or tick
	most   int            // the most work of any call or tick, for tests

	timer   *time.Timer // armed for the next expiry while records are held
	armed   bool        // timer is pending or its tick has not locked mu yet
	timerAt time.Time
	closed  bool
	tickOut chan struct{} // the tick that Close waits for reports here
}

// A MemoryStoreOption configures a [MemoryStore].
// Options follow the rule of every option of the library, stated on
// [github.com/resilientgo/resilient.Option].
type MemoryStoreOption func(*MemoryStore)

// MaxRecords bounds how many records the store holds, in flight and done
// together. It must be at least 1: a store given less reports it with
// [MemoryStore.Err], fails every claim with that error, and makes
// [Idempotent] report it to [New]. Default: 10 000 ([DefaultMaxRecords]).
func MaxRecords(n int) MemoryStoreOption {
	return func(m *MemoryStore) {
		if n < 1 {
			m.fail(fmt.Errorf("tools: MaxRecords(%d): must be at least 1", n))
			return
		}
		m.max = n
	}
}

func (m *MemoryStore) fail(err error) { m.err = errors.Join(m.err, err) }

// Err returns the problems of the options the store was made with, nil
// when they were valid: a programming failure. A store whose options were
// invalid fails every [MemoryStore.Claim] with it, before it holds
// anything.
func (m *MemoryStore) Err() error {
	if m.err == nil {
		return nil
	}
	return taxonomy.WithClass(m.err, taxonomy.Class{Kind: taxonomy.Programming, Rule: "invalid store options"})
}

var _ Store = (*MemoryStore)(nil)

// NewMemoryStore returns an empty in-memory store.
func NewMemoryStore(opts ...MemoryStoreOption) *MemoryStore {
	m := &MemoryStore{max: DefaultMaxRecords, seed: maphash.MakeSeed(), tickOut: make(chan struct{}, 1)}
	for _, o := range opts {
		if o == nil {
			m.fail(errors.New("tools: nil MemoryStoreOption"))
			continue
		}
		o(m)
	}
	// About a thousand records per shard at the most: rebuilding a shard
	// whose records have mostly gone then copies a few hundred.
	shards := 1
	for shards*1024 < m.max && shards < 4096 {
		shards *= 2
	}
	m.shards = make([]memoryShard, shards)
	return m
}

// Tuning of the incremental expiry.
const (
	// perCall is how much work (records removed, or copied by a rebuilt
	// shard) each call spends on expired records: it stops once it reaches
	// it.
	perCall = 8
	// perTick is the same for one tick of the idle timer, which holds the
	// lock for tens of microseconds and re-arms tickGap later while more
	// records have expired.
	perTick = 256
	// tickGap is the least time between two ticks: callers get the lock in
	// between, and a tick that could not remove anything (which is a bug)
	// would wake the timer a hundred times a second instead of spinning.
	tickGap = 10 * time.Millisecond
	// maxQueues bounds the queues of each kind (unsettled: in flight or
	// unknown; done): one per lease or time to live in use.
	maxQueues = 8
)

// memoryRecord is a record, linked into the queue of records that entered
// with the same lease or time to live, oldest first.
type memoryRecord struct {
	Record
	key        string
	expires    time.Time
	entered    time.Time
	queue      *memoryQueue
	prev, next *memoryRecord
}

// memoryShard is one part of the index by key. Maps keep their memory when
// entries are deleted, so a shard whose records have mostly gone is copied
// into a map of its size.
type memoryShard struct {
	records map[string]*memoryRecord
	peak    int // the most records since records was made
}

type queueKey struct {
	done bool
	d    time.Duration
}

// memoryQueue holds the records that entered with one lease or time to
// live, in the order they entered, which is the order they expire (unless
// more than maxQueues durations are in use and a record was put in the
// queue of the nearest one: it is then removed late, but never served).
type memoryQueue struct {
	key        queueKey
	head, tail *memoryRecord // oldest, newest
}

// Len returns how many records the store holds, including expired ones not
// removed yet.
func (m *MemoryStore) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.n
}

// Claim implements [Store].
func (m *MemoryStore) Claim(_ context.Context, key, owner string, lease time.Duration) (Record, bool, error) {
	if err := m.Err(); err != nil {
		return Record{}, false, err
	}
	now := m.begin()
	defer m.end()
	if r := m.get(key); r != nil {
		switch {
		case now.Before(r.expires) && r.Owner == owner && !r.Done && !r.Unknown:
			// The owner claims its own record again: it renews its lease.
			m.unqueue(r)
			r.expires = now.Add(lease)
			m.enqueue(r, now, queueKey{done: false, d: lease})
			return r.Record, true, nil
		case now.Before(r.expires):
			return r.Record, false, nil
		}
		m.remove(r)
	}
	if !m.makeRoom() {
		return Record{}, false, fmt.Errorf("%w (%d records)", ErrStoreFull, m.n)
	}
	r := &memoryRecord{Record: Record{Owner: owner}, key: key, expires: now.Add(lease)}
	m.index(r)
	m.enqueue(r, now, queueKey{done: false, d: lease})
	return r.Record, true, nil
}

// Renew implements [Store].
func (m *MemoryStore) Renew(_ context.Context, key, owner string, lease time.Duration) (bool, error) {
	now := m.begin()
	defer m.end()
	r := m.get(key)
	if r == nil || !now.Before(r.expires) || r.Owner != owner || r.Done || r.Unknown {
		return false, nil
	}
	m.unqueue(r)
	r.expires = now.Add(lease)
	m.enqueue(r, now, queueKey{done: false, d: lease})
	return true, nil
}

// Complete implements [Store].
func (m *MemoryStore) Complete(_ context.Context, key, owner, result string, ttl time.Duration) error {
	return m.settle(key, Record{Owner: owner, Done: true, Result: result}, ttl,
		func(r *memoryRecord) bool { return r.Owner != owner })
}

// settle makes rec key's record, expiring after ttl, in place of the
// record there (expired or not) or as a new one, unless the record there
// is live and taken says it is not rec's owner's to settle (ErrLeaseLost).
func (m *MemoryStore) settle(key string, rec Record, ttl time.Duration, taken func(*memoryRecord) bool) error {
	now := m.begin()
	defer m.end()
	r := m.get(key)
	switch {
	case r != nil && now.Before(r.expires) && taken(r):
		return ErrLeaseLost
	case r != nil:
		// The record moves to the queue of its kind, in place.
		m.unqueue(r)
	case !m.makeRoom():
		return fmt.Errorf("%w (%d records)", ErrStoreFull, m.n)
	default:
		r = &memoryRecord{key: key}
		m.index(r)
	}
	r.Record = rec
	r.expires = now.Add(ttl)
	m.enqueue(r, now, queueKey{done: rec.Done, d: ttl})
	return nil
}

// Release implements [Store].
func (m *MemoryStore) Release(_ context.Context, key, owner string) error {
	m.begin()
	defer m.end()
	if r := m.get(key); r != nil && r.Owner == owner && !r.Done {
		m.remove(r)
	}
	return nil
}

// MarkUnknown implements [Store]. A record of unknown outcome is never
// evicted, as one in flight: its tool may still run.
func (m *MemoryStore) MarkUnknown(_ context.Context, key, owner string, held, ttl time.Duration) error {
	return m.settle(key, Record{Owner: owner, Unknown: true, Held: held}, ttl,
		func(r *memoryRecord) bool { return r.Owner != owner || r.Done })
}

// Get implements [Store].
func (m *MemoryStore) Get(_ context.Context, key string) (Record, bool, error) {
	now := m.begin()
	defer m.end()
	if r := m.get(key); r != nil && now.Before(r.expires) {
		return r.Record, true, nil
	}
	return Record{}, false, nil
}

// Close stops the timer that removes expired records while the store is
// idle, waiting for a removal in progress; when it returns, no goroutine of
// the store runs. The store still answers afterwards, removing expired
// records as it is called. Close always returns nil.
func (m *MemoryStore) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	ticking := m.armed && !m.timer.Stop() // it fired: its tick waits for mu
	m.armed = false
	m.mu.Unlock()
	if ticking {
		<-m.tickOut
	}
	return nil
}

// begin starts a call: it takes the lock and removes a few expired
// records. end ends it: it arms the timer and lets go of the lock.
func (m *MemoryStore) begin() time.Time {
	now := time.Now()
	m.mu.Lock()
	expired := false
	defer func() {
		if !expired {
			m.mu.Unlock() // expire panicked: a store left locked hangs every caller
		}
	}()
	m.work = 0
	m.expire(now, perCall)
	expired = true
	return now
}

func (m *MemoryStore) end() {
	defer m.mu.Unlock() // even if arm panics: a store left locked hangs every caller
	m.arm()
}

// The methods below are called with mu held.

func (m *MemoryStore) shard(key string) *memoryShard {
	return &m.shards[maphash.String(m.seed, key)&uint64(len(m.shards)-1)]
}

func (m *MemoryStore) get(key string) *memoryRecord {
	return m.shard(key).records[key]
}

// index adds r to its shard.
func (m *MemoryStore) index(r *memoryRecord) {
	s := m.shard(r.key)
	if s.records == nil {
		s.records = make(map[string]*memoryRecord)
	}
	s.records[r.key] = r
	s.peak = max(s.peak, len(s.records))
	m.n++
}

// enqueue appends r to the queue of records entering now with qk.
func (m *MemoryStore) enqueue(r *memoryRecord, now time.Time, qk queueKey) {
	r.entered = now
	q := m.queueFor(qk)
	r.queue, r.prev = q, q.tail
	if q.tail != nil {
		q.tail.next = r
	} else {
		q.head = r
	}
	q.tail = r
}

// queueFor returns the queue of records entering with qk's duration, made
// if there is room for one more queue of its kind, the queue of the
// nearest duration otherwise.
func (m *MemoryStore) queueFor(qk queueKey) *memoryQueue {
	var nearest *memoryQueue
	kind := 0
	for _, q := range m.queues {
		switch {
		case q.key == qk:
			return q
		case q.key.done != qk.done:
			continue
		}
		kind++
		// On a tie the first queue is kept; the other is as near, and
		// taking it would do as well (so "<=" here is an equivalent
		// mutant).
		if nearest == nil || distance(q.key.d, qk.d) < distance(nearest.key.d, qk.d) {
			nearest = q
		}
	}
	if kind >= maxQueues {
		return nearest
	}
	q := &memoryQueue{key: qk}
	m.queues = append(m.queues, q)
	return q
}

// distance returns how far apart a and b are.
func distance(a, b time.Duration) time.Duration { return max(a-b, b-a) }

// remove deletes r from its shard and its queue, and rebuilds the shard
// when most of its records have gone, so that their memory is released.
func (m *MemoryStore) remove(r *memoryRecord) {
	s := m.shard(r.key)
	delete(s.records, r.key)
	m.n--
	m.work++
	switch n := len(s.records); {
	case n == 0:
		s.records, s.peak = nil, 0
	case n <= s.peak/4 && s.peak >= 16:
		m.work += n
		fresh := make(map[string]*memoryRecord, n)
		for k, v := range s.records {
			fresh[k] = v
		}
		s.records, s.peak = fresh, n
	}
	m.unqueue(r)
}

// unqueue takes r out of its queue, dropping the queue when it empties.
func (m *MemoryStore) unqueue(r *memoryRecord) {
	q := r.queue
	if r.prev != nil {
		r.prev.next = r.next
	} else {
		q.head = r.next
	}
	if r.next != nil {
		r.next.prev = r.prev
	} else {
		q.tail = r.prev
	}
	r.prev, r.next, r.queue = nil, nil, nil
	if q.head == nil {
		m.queues = slices.DeleteFunc(m.queues, func(e *memoryQueue) bool { return e == q })
	}
}

// expire removes expired records from the heads of the queues until the
// call's work (records removed, or copied by a rebuilt shard) reaches
// budget.
func (m *MemoryStore) expire(now time.Time, budget int) {
	// From the last queue to the first: remove drops a queue that it
	// empties, which moves only the queues already visited. (The queues
	// left once the budget is spent are visited and not touched: there are
	// at most 2 * maxQueues of them.)
	for i := len(m.queues) - 1; i >= 0; i-- {
		q := m.queues[i]
		for m.work < budget && q.head != nil && !now.Before(q.head.expires) {
			m.remove(q.head)
		}
	}
}

// makeRoom evicts the oldest done record when the store is full, and
// reports whether there is room for one more record.
func (m *MemoryStore) makeRoom() bool {
	if m.n < m.max {
		return true
	}
	var oldest *memoryRecord
	for _, q := range m.queues {
		if q.key.done && (oldest == nil || q.head.entered.Before(oldest.entered)) {
			oldest = q.head
		}
	}
	if oldest == nil {
		return false // every record is in flight or unknown
	}
	m.remove(oldest)
	return true
}

// arm schedules the timer for the next expiry, unless it is already
// scheduled for that or sooner, or the store holds no record (the store
// may then be collected) or is closed.
func (m *MemoryStore) arm() {
	m.most = max(m.most, m.work)
	if m.closed {
		return
	}
	var next time.Time
	for _, q := range m.queues {
		if next.IsZero() || q.head.expires.Before(next) {
			next = q.head.expires
		}
	}
	if m.armed {
		if !next.IsZero() && !next.Before(m.timerAt) {
			return
		}
		if !m.timer.Stop() {
			return // it fired: its tick, waiting for mu, arms again
		}
		m.armed = false
	}
	if next.IsZero() {
		return
	}
	d := max(time.Until(next), tickGap)
	if m.timer == nil {
		m.timer = time.AfterFunc(d, m.tick)
	} else {
		m.timer.Reset(d)
	}
	m.armed, m.timerAt = true, next
}

// tick removes expired records while the store is idle.
func (m *MemoryStore) tick() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		select {
		case m.tickOut <- struct{}{}: // Close is waiting for this tick
		default:
		}
		return
	}
	m.armed = false
	m.work = 0
	m.expire(time.Now(), perTick)
	m.arm()
}
