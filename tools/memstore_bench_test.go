package tools_test

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/resilientgo/resilient/tools"
)

// BenchmarkMemoryStoreAt1M measures the worst single call of a store that
// holds a million records, reported as worst-µs (and p999-µs) of wall time
// beside the mean; on a shared machine the wall time of a call includes
// whatever preempted it, the garbage collector's workers included.
// worst-cpu-µs is the most CPU time one call took on its thread (Linux
// only), which the machine's load does not inflate. worst-records is the most records one call (or
// one tick of the idle timer) removed or copied, which is what bounds the
// time it holds the lock, whatever the load. Each operation claims and completes a new key. In expiry=evict the
// records live an hour, so the store stays full and each new record evicts
// the oldest done one; in expiry=mass all million expire at once just as
// the operations start. impl=sweep is the store before the bound: one map
// under one mutex, swept whole once writes since the last sweep outnumber
// what it left.
//
//	go test -run '^$' -bench MemoryStoreAt1M -benchtime 1000000x ./tools/
func BenchmarkMemoryStoreAt1M(b *testing.B) {
	const n = 1_000_000
	for _, expiry := range []string{"evict", "mass"} {
		for _, impl := range []string{"sweep", "memory"} {
			b.Run("expiry="+expiry+"/impl="+impl, func(b *testing.B) {
				var s tools.Store = newSweepStore()
				var m *tools.MemoryStore
				if impl == "memory" {
					m = tools.NewMemoryStore(tools.MaxRecords(n))
					defer m.Close()
					s = m
				}
				ctx := context.Background()
				ttl := time.Hour
				if expiry == "mass" {
					ttl = 3 * time.Second
				}
				start := time.Now()
				for i := range n {
					k := fmt.Sprintf("fill:%064d", i)
					_, _, _ = s.Claim(ctx, k, "owner", time.Minute)
					_ = s.Complete(ctx, k, "owner", "charged 4471: txn-1", ttl)
				}
				if expiry == "mass" {
					time.Sleep(time.Until(start.Add(ttl)))
				}
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				var durations []time.Duration
				var worstCPU time.Duration
				measure := func(f func()) {
					c0, _ := threadCPU()
					t0 := time.Now()
					f()
					took := time.Since(t0)
					if c1, ok := threadCPU(); ok {
						worstCPU = max(worstCPU, c1-c0)
					}
					durations = append(durations, took)
				}
				i := 0
				for b.Loop() {
					k := fmt.Sprintf("call:%064d", i)
					i++
					measure(func() { _, _, _ = s.Claim(ctx, k, "owner", time.Minute) })
					measure(func() { _ = s.Complete(ctx, k, "owner", "charged 4471: txn-1", time.Hour) })
				}
				slices.Sort(durations)
				b.ReportMetric(float64(durations[len(durations)-1].Microseconds()), "worst-µs")
				b.ReportMetric(float64(durations[len(durations)*999/1000].Microseconds()), "p999-µs")
				if _, ok := threadCPU(); ok {
					b.ReportMetric(float64(worstCPU.Microseconds()), "worst-cpu-µs")
				}
				if m != nil {
					b.ReportMetric(float64(tools.MostStoreWork(m)), "worst-records")
				}
			})
		}
	}
}

// sweepStore is the in-memory store as it was before it had a bound: one
// map, swept whole under its mutex.
type sweepStore struct {
	mu      sync.Mutex
	records map[string]sweepRecord
	writes  int
	sweepAt int
}

type sweepRecord struct {
	tools.Record
	expires time.Time
}

func newSweepStore() *sweepStore { return &sweepStore{records: make(map[string]sweepRecord)} }

func (m *sweepStore) live(key string, now time.Time) (sweepRecord, bool) {
	r, ok := m.records[key]
	return r, ok && now.Before(r.expires)
}

func (m *sweepStore) put(key string, r sweepRecord, now time.Time) {
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

func (m *sweepStore) Claim(_ context.Context, key, owner string, lease time.Duration) (tools.Record, bool, error) {
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if r, ok := m.live(key, now); ok {
		return r.Record, false, nil
	}
	r := sweepRecord{Record: tools.Record{Owner: owner}, expires: now.Add(lease)}
	m.put(key, r, now)
	return r.Record, true, nil
}

func (m *sweepStore) Complete(_ context.Context, key, owner, result string, ttl time.Duration) error {
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if r, ok := m.live(key, now); ok && r.Owner != owner {
		return tools.ErrLeaseLost
	}
	m.put(key, sweepRecord{Record: tools.Record{Owner: owner, Done: true, Result: result}, expires: now.Add(ttl)}, now)
	return nil
}

func (m *sweepStore) Release(context.Context, string, string) error { return nil }

func (m *sweepStore) Renew(context.Context, string, string, time.Duration) (bool, error) {
	return true, nil
}

func (m *sweepStore) MarkUnknown(context.Context, string, string, time.Duration, time.Duration) error {
	return nil
}

func (m *sweepStore) Get(context.Context, string) (tools.Record, bool, error) {
	return tools.Record{}, false, nil
}
