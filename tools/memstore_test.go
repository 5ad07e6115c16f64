package tools_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/tools"
	"github.com/resilientgo/resilient/tools/storetest"
)

// found lists which of keys have a live record.
func found(t *testing.T, s tools.Store, keys ...string) []bool {
	t.Helper()
	got := make([]bool, len(keys))
	for i, k := range keys {
		_, ok, err := s.Get(t.Context(), k)
		if err != nil {
			t.Fatal(err)
		}
		got[i] = ok
	}
	return got
}

func claim(t *testing.T, s tools.Store, key string) error {
	t.Helper()
	_, ok, err := s.Claim(t.Context(), key, "owner-"+key, time.Minute)
	if err == nil && !ok {
		t.Fatalf("claim %s: held by another", key)
	}
	return err
}

func complete(t *testing.T, s tools.Store, key string) {
	t.Helper()
	if err := s.Complete(t.Context(), key, "owner-"+key, "done", time.Hour); err != nil {
		t.Fatalf("complete %s: %v", key, err)
	}
}

func TestMemoryStoreEvictsTheOldestDoneRecord(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := tools.NewMemoryStore(tools.MaxRecords(3))
		// Completed in the order b, a, c: b is the oldest done record,
		// although a was claimed first.
		for _, k := range []string{"a", "b", "c"} {
			_ = claim(t, s, k)
		}
		for _, k := range []string{"b", "a", "c"} {
			time.Sleep(time.Second)
			complete(t, s, k)
		}
		if err := claim(t, s, "d"); err != nil {
			t.Fatal(err)
		}
		if got, want := fmt.Sprint(found(t, s, "a", "b", "c", "d")), "[true false true true]"; got != want || s.Len() != 3 {
			t.Errorf("a, b, c, d held: got %s with %d records, want %s with 3", got, s.Len(), want)
		}
	})
}

func TestMemoryStoreNeverEvictsACallInFlight(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := tools.NewMemoryStore(tools.MaxRecords(2))
		_ = claim(t, s, "x")
		_ = claim(t, s, "y")
		if err := claim(t, s, "z"); !errors.Is(err, tools.ErrStoreFull) {
			t.Fatalf("third claim with two in flight: got %v, want ErrStoreFull", err)
		}
		complete(t, s, "x")
		if err := claim(t, s, "z"); err != nil {
			t.Fatalf("claim once x is done: %v", err)
		}
		if got, want := fmt.Sprint(found(t, s, "x", "y", "z")), "[false true true]"; got != want {
			t.Errorf("x, y, z held: got %s, want %s", got, want)
		}
	})
}

// A full store of calls in flight does not run the tool: a double charge is
// worse than a failed call.
func TestIdempotentFullStoreDoesNotRunTheTool(t *testing.T) {
	store := tools.NewMemoryStore(tools.MaxRecords(1))
	_, _, _ = store.Claim(t.Context(), "another call", "someone", time.Minute)
	charge := newCounted("charge", charges)
	got, err := mustWrap(t, charge, tools.Idempotent(store)).Call(t.Context(), "order 4471")
	if got != "Error: charge failed internally (*fmt.wrapError)" || err != nil || charge.calls() != 0 {
		t.Errorf("got (%q, %v) after %d executions, want an internal failure and none", got, err, charge.calls())
	}
}

func TestMemoryStoreExpiresWhileIdle(t *testing.T) {
	tests := []struct {
		name string
		ttl  func(i int) time.Duration
	}{
		{"one time to live", func(int) time.Duration { return time.Minute }},
		{"more times to live than queues", func(i int) time.Duration { return time.Duration(1+i%20) * time.Second }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := tools.NewMemoryStore()
				for i := range 1000 {
					k := fmt.Sprint(i)
					_, _, _ = s.Claim(t.Context(), k, "o", time.Minute)
					_ = s.Complete(t.Context(), k, "o", "done", tt.ttl(i))
				}
				time.Sleep(2 * time.Minute) // nobody calls the store
				if got := s.Len(); got != 0 {
					t.Errorf("records after they all expired, without a call: got %d, want 0", got)
				}
			})
		})
	}
}

func TestMemoryStoreCloseStopsTheTimer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := tools.NewMemoryStore()
		for i := range 100 {
			_, _, _ = s.Claim(t.Context(), fmt.Sprint(i), "o", time.Minute)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Minute)
		if got := s.Len(); got != 100 {
			t.Errorf("records after Close and their expiry: got %d, want 100 (no timer)", got)
		}
		// Calls still work, and remove expired records as they go.
		if _, ok, err := s.Claim(t.Context(), "new", "o", time.Minute); !ok || err != nil {
			t.Errorf("claim after Close: got (%v, %v)", ok, err)
		}
		if got := s.Len(); got >= 100 {
			t.Errorf("records after a call: got %d, want fewer than 100", got)
		}
	})
}

// Close at the very instant the timer fires, in either order, waits for
// the tick; the bubble's end checks that no goroutine is left.
func TestMemoryStoreCloseAsTheTimerFires(t *testing.T) {
	for range 20 {
		synctest.Test(t, func(t *testing.T) {
			s := tools.NewMemoryStore()
			_, _, _ = s.Claim(t.Context(), "k", "o", time.Second)
			time.Sleep(time.Second)
			_ = s.Close()
			_ = s.Close()
		})
	}
}

// After most records expire, the memory they took is returned: the
// records, and the index that held them (one record in a hundred stays, so
// that the index is not simply dropped).
func TestMemoryStoreReleasesMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("fills a store with 200 000 records")
	}
	synctest.Test(t, func(t *testing.T) {
		heap := func() uint64 {
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			return ms.HeapAlloc
		}
		const n = 200_000
		s := tools.NewMemoryStore(tools.MaxRecords(n))
		before := heap()
		for i := range n {
			k := fmt.Sprintf("charge:%064d", i)
			_, _, _ = s.Claim(context.Background(), k, "owner", time.Minute)
			ttl := time.Hour
			if i%100 == 0 {
				ttl = 3 * time.Hour
			}
			_ = s.Complete(context.Background(), k, "owner", "charged 4471: txn-1", ttl)
		}
		full := heap()
		time.Sleep(2 * time.Hour) // idle: the timer removes them
		after := heap()
		if s.Len() != n/100 || after > before+(full-before)/20 {
			t.Errorf("heap: %d KiB empty, %d KiB with %d records, %d KiB after they expired (%d left); want at most 5%% of the growth kept",
				before>>10, full>>10, n, after>>10, s.Len())
		}
		runtime.KeepAlive(s)
	})
}

// No call does more than a bounded amount of work, however many records
// the store holds and however many expire at once: the records it removes
// or copies stay within what the store's tuning allows (a few per call, a
// few hundred per tick, and a shard rebuilt from at most a quarter of its
// peak). BenchmarkMemoryStoreAt1M reports the same at a million records,
// with the time the worst call took.
func TestMemoryStoreWorkPerCallIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("fills stores with 100 000 records")
	}
	for _, idle := range []bool{false, true} {
		// The two run side by side, and with nothing else of the package:
		// the test itself is sequential, as TestMemoryStoreReleasesMemory,
		// which reads the heap, must be.
		t.Run(fmt.Sprintf("idle=%v", idle), func(t *testing.T) {
			t.Parallel()
			workPerCall(t, idle)
		})
	}
}

// workPerCall fills a store, lets every record expire, then fills it again
// and past its bound, and checks the most work of one call or tick.
func workPerCall(t *testing.T, idle bool) {
	synctest.Test(t, func(t *testing.T) {
		const n = 100_000
		s := tools.NewMemoryStore(tools.MaxRecords(n))
		ctx := context.Background()
		call := func(key string, ttl time.Duration) {
			_, _, _ = s.Claim(ctx, key, "o", time.Minute)
			_ = s.Complete(ctx, key, "o", "done", ttl)
		}
		for i := range n {
			call(fmt.Sprint("fill", i), time.Hour)
		}
		if !idle {
			_ = s.Close() // the calls alone remove what expires
		}
		time.Sleep(2 * time.Hour) // all expire together
		for i := range n {
			call(fmt.Sprint("evict", i), 24*time.Hour)
		}
		for i := range n { // the store is full: each call evicts one
			call(fmt.Sprint("more", i), 24*time.Hour)
		}
		if got := tools.MostStoreWork(s); got > 600 {
			t.Errorf("idle timer %v: the most work of one call or tick: %d records, want at most 600", idle, got)
		}
		_ = s.Close()
	})
}

func TestMemoryStoreKeepsTheStoreContract(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		storetest.Run(t, func(*testing.T) tools.Store { return tools.NewMemoryStore() }, time.Second)
	})
}

// Without MaxRecords, a store holds 10 000 records (MaxRecords below 1 is
// refused: TestMemoryStoreSizeIsRefusedBelowOne).
func TestMemoryStoreDefaultSize(t *testing.T) {
	s := tools.NewMemoryStore()
	defer s.Close()
	for i := range tools.DefaultMaxRecords {
		if _, ok, err := s.Claim(t.Context(), fmt.Sprint(i), "o", time.Minute); !ok || err != nil {
			t.Fatalf("claim %d: got (%v, %v), want it claimed", i, ok, err)
		}
	}
	if _, _, err := s.Claim(t.Context(), "one more", "o", time.Minute); !errors.Is(err, tools.ErrStoreFull) {
		t.Errorf("claim %d: got %v, want ErrStoreFull", tools.DefaultMaxRecords+1, err)
	}
}

// The index has a shard per thousand records or so (a power of two), and
// at most 4096 shards however large the store.
func TestMemoryStoreShards(t *testing.T) {
	tests := []struct{ max, shards int }{
		{1, 1}, {1024, 1}, {1025, 2}, {2048, 2}, {2049, 4}, {tools.DefaultMaxRecords, 16},
		{4096 * 1024, 4096}, {4096*1024 + 1, 4096}, {1 << 40, 4096},
	}
	for _, tt := range tests {
		if got := tools.StoreShards(tools.NewMemoryStore(tools.MaxRecords(tt.max))); got != tt.shards {
			t.Errorf("MaxRecords(%d): %d shards, want %d", tt.max, got, tt.shards)
		}
	}
}

// Past eight leases (or times to live) in use, a record joins the queue of
// the nearest one: it is removed when it comes to the head of that queue,
// late, and never served meanwhile.
func TestMemoryStoreQueueOfTheNearestLease(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := tools.NewMemoryStore()
		defer s.Close()
		for i := 1; i <= 8; i++ { // queues of 10s, 20s, ... 80s
			_, _, _ = s.Claim(t.Context(), fmt.Sprint("k", i), "o", time.Duration(i)*10*time.Second)
		}
		_, _, _ = s.Claim(t.Context(), "short", "o", time.Second) // behind k1, in the 10s queue
		time.Sleep(2 * time.Second)
		if _, held, _ := s.Get(t.Context(), "short"); held || s.Len() != 9 {
			t.Errorf("after its lease: held %v, %d records; want it not served, not removed yet (9 records)", held, s.Len())
		}
		time.Sleep(9 * time.Second) // k1 expires at 10s, and the record behind it goes too
		if got := s.Len(); got != 7 {
			t.Errorf("after the 10s lease: %d records, want 7", got)
		}
	})
}

// Each call removes at most 8 expired records, from every queue.
func TestMemoryStoreExpiresAFewPerCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := tools.NewMemoryStore()
		_ = s.Close() // no idle timer: only the calls remove records
		for i := range 20 {
			lease := time.Second // two queues, of 12 and 8 records
			if i%5 < 2 {
				lease = 2 * time.Second
			}
			_, _, _ = s.Claim(t.Context(), fmt.Sprint(i), "o", lease)
		}
		time.Sleep(3 * time.Second)
		for _, want := range []int{12, 4, 0} {
			_, _, _ = s.Get(t.Context(), "absent")
			if got := s.Len(); got != want {
				t.Fatalf("after a call: %d records, want %d", got, want)
			}
		}
	})
}

// A shard of the index that held 16 records or more is rebuilt (its
// records copied into a map of their size) when a quarter of its peak is
// left; a smaller one is not. The call that rebuilds it does the work of
// the record it removes and of those it copies.
func TestMemoryStoreRebuildsAShardFromAQuarterOfItsPeak(t *testing.T) {
	tests := []struct {
		peak, rebuiltAt int // records held at the most; left when rebuilt, 0 for never
	}{
		{16, 4}, {40, 10}, {15, 0},
	}
	for _, tt := range tests {
		s := tools.NewMemoryStore(tools.MaxRecords(1024)) // one shard
		for i := range tt.peak {
			_, _, _ = s.Claim(t.Context(), fmt.Sprint(i), "o", time.Minute)
		}
		for left := tt.peak - 1; left > 0; left-- {
			_ = s.Release(t.Context(), fmt.Sprint(left), "o")
			want := 1
			if left <= tt.rebuiltAt {
				want = 1 + tt.rebuiltAt
			}
			if got := tools.MostStoreWork(s); got != want {
				t.Fatalf("peak %d, %d left: the most work of a call is %d, want %d", tt.peak, left, got, want)
			}
		}
		_ = s.Close()
	}
}

// While the store is idle, the timer removes a few hundred expired records
// at a time, 10ms apart, until none is left: a tick does not run again at
// once, so that callers get in between.
func TestMemoryStoreTicksAreApart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := tools.NewMemoryStore()
		defer s.Close()
		for i := range 600 {
			_, _, _ = s.Claim(t.Context(), fmt.Sprint(i), "o", time.Second)
		}
		time.Sleep(time.Second + 5*time.Millisecond) // one tick
		if got := s.Len(); got == 0 || got > 600-200 {
			t.Errorf("after one tick: %d records, want some removed and some left", got)
		}
		time.Sleep(time.Second)
		if got := s.Len(); got != 0 {
			t.Errorf("after many ticks: %d records, want 0", got)
		}
	})
}

// The idle timer is brought forward when a record that expires sooner
// arrives: it removes that record at its expiry, not at the later one the
// timer was set for.
func TestMemoryStoreTimerComesForward(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := tools.NewMemoryStore()
		defer s.Close()
		_, _, _ = s.Claim(t.Context(), "long", "o", time.Hour)
		_, _, _ = s.Claim(t.Context(), "short", "o", time.Second)
		time.Sleep(2 * time.Second)
		if got := s.Len(); got != 1 {
			t.Errorf("after the short lease, idle: %d records, want 1", got)
		}
	})
}
