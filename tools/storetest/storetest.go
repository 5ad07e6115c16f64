// Package storetest checks that an implementation of tools.Store keeps the
// contract documented on that interface, so that a store of your own (Redis,
// a database) can be tested with the same steps as the in-memory one.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/resilientgo/resilient/tools"
)

// Run checks the contract on stores made by newStore, which must be
// empty (give each a fresh key prefix on a shared server). It runs no
// subtests, so that it may run inside a synctest bubble. Every
// lease and time to live in the steps is a multiple of unit, and the steps
// wait for records to expire with time.Sleep: run it inside
// testing/synctest with a unit of a second for a store that reads time.Now,
// or with a real unit the store resolves well (50 ms for Redis's PX) for a
// store with a clock of its own.
//
// The steps' verdicts hold when every run of six steps in a row (more than
// lie between a write and a step that relies on it) takes at most half a
// unit longer than it sleeps: a record checked later than that may have
// outlived a lease that was too long, or seen one too short end. A run
// that falls further behind (a busy machine) proves nothing either way, so
// its verdict is dropped and the steps run again on a new store with a unit
// four times longer, at most twice; the last run's verdict stands, late or
// not. In a synctest bubble a run never falls behind.
func Run(t *testing.T, newStore func(t *testing.T) tools.Store, unit time.Duration) {
	t.Helper()
	for attempt := 1; ; attempt++ {
		failures, late := sequence(newStore(t), unit)
		if late <= unit/2 || attempt == attempts {
			for _, f := range failures {
				t.Error(f)
			}
			if late > unit/2 {
				t.Logf("the steps ran %v behind their sleeps with a unit of %v", late, unit)
			}
			break
		}
		t.Logf("the steps ran %v behind their sleeps with a unit of %v (%d failed): again with %v", late, unit, len(failures), 4*unit)
		unit *= 4
	}
	race(t, newStore(t))
}

// attempts bounds the runs of the steps (see Run).
const attempts = 3

// claimed is what Claim or Get returned, comparable as a whole.
type claimed struct {
	Rec tools.Record
	OK  bool
	Err error
}

// renewed is what Renew returned.
type renewed struct {
	OK  bool
	Err error
}

// sequence runs the steps on s and returns their failures, and how far
// six steps in a row fell behind the time they slept at most.
func sequence(s tools.Store, unit time.Duration) (failures []string, late time.Duration) {
	ctx := context.Background()
	var slept time.Duration // in the step running
	sleep := func(d time.Duration) {
		slept += d
		time.Sleep(d)
	}
	claim := func(owner string, lease time.Duration) any {
		r, ok, err := s.Claim(ctx, "k", owner, lease)
		return claimed{r, ok, err}
	}
	get := func() any {
		r, ok, err := s.Get(ctx, "k")
		return claimed{r, ok, err}
	}
	claimOf := func(key, owner string, lease time.Duration) any {
		r, ok, err := s.Claim(ctx, key, owner, lease)
		return claimed{r, ok, err}
	}
	renew := func(key, owner string, lease time.Duration) any {
		ok, err := s.Renew(ctx, key, owner, lease)
		return renewed{ok, err}
	}
	getOf := func(key string) any {
		r, ok, err := s.Get(ctx, key)
		return claimed{r, ok, err}
	}
	// expire waits past the end of a lease or time to live of n units.
	expire := func(n int) { sleep(time.Duration(n)*unit + unit/2) }
	none := claimed{}
	steps := []struct {
		name string
		do   func() any
		want any
	}{
		{"an absent key is claimed", func() any { return claim("a", 2*unit) }, claimed{tools.Record{Owner: "a"}, true, nil}},
		{"an in-flight key is not", func() any { return claim("b", 2*unit) }, claimed{tools.Record{Owner: "a"}, false, nil}},
		{"Release by another owner does nothing", func() any { return s.Release(ctx, "k", "b") }, nil},
		{"Get sees the holder", get, claimed{tools.Record{Owner: "a"}, true, nil}},
		{"an expired lease is absent", func() any { expire(2); return get() }, none},
		{"and can be claimed", func() any { return claim("b", 2*unit) }, claimed{tools.Record{Owner: "b"}, true, nil}},
		{"the late holder's Complete loses", func() any { return s.Complete(ctx, "k", "a", "x", 10*unit) }, tools.ErrLeaseLost},
		{"the holder's Complete wins", func() any { return s.Complete(ctx, "k", "b", "done-b", 4*unit) }, nil},
		{"a done key is not claimed", func() any { return claim("c", 2*unit) }, claimed{tools.Record{Owner: "b", Done: true, Result: "done-b"}, false, nil}},
		{"Release leaves a done record", func() any { return s.Release(ctx, "k", "b") }, nil},
		{"Get sees the result", get, claimed{tools.Record{Owner: "b", Done: true, Result: "done-b"}, true, nil}},
		{"an expired result is absent", func() any { expire(4); return get() }, none},
		{"c claims", func() any { return claim("c", 2*unit) }, claimed{tools.Record{Owner: "c"}, true, nil}},
		{"c releases", func() any { return s.Release(ctx, "k", "c") }, nil},
		{"a released key is absent", get, none},
		{"d claims and its lease expires", func() any { claim("d", 2*unit); expire(2); return get() }, none},
		{"d's Complete after its lease stands when nobody took over", func() any { return s.Complete(ctx, "k", "d", "done-d", 4*unit) }, nil},
		{"Get sees d's result", get, claimed{tools.Record{Owner: "d", Done: true, Result: "done-d"}, true, nil}},
		{"d's result expires", func() any { expire(4); return get() }, none},
		{"e claims", func() any { return claim("e", 2*unit) }, claimed{tools.Record{Owner: "e"}, true, nil}},
		{"another key is claimed beside it", func() any {
			r, ok, err := s.Claim(ctx, "k2", "f", 2*unit)
			return claimed{r, ok, err}
		}, claimed{tools.Record{Owner: "f"}, true, nil}},
		{"and released without touching k", func() any { _ = s.Release(ctx, "k2", "f"); return get() }, claimed{tools.Record{Owner: "e"}, true, nil}},
		{"e's lease expires", func() any { expire(2); return get() }, none},
		{"e releases its expired claim", func() any { return s.Release(ctx, "k", "e") }, nil},
		{"then its Complete stands, as nobody holds the key", func() any { return s.Complete(ctx, "k", "e", "done-e", 4*unit) }, nil},
		{"Get sees e's result", get, claimed{tools.Record{Owner: "e", Done: true, Result: "done-e"}, true, nil}},
		{"e's result expires", func() any { expire(4); return get() }, none},
		{"g claims and its lease expires", func() any { claim("g", 2*unit); expire(2); return get() }, none},
		{"h's Complete over g's expired claim stands", func() any { return s.Complete(ctx, "k", "h", "done-h", 4*unit) }, nil},
		{"g's late Complete loses to h's result", func() any { return s.Complete(ctx, "k", "g", "done-g", 4*unit) }, tools.ErrLeaseLost},
		{"Get sees h's result", get, claimed{tools.Record{Owner: "h", Done: true, Result: "done-h"}, true, nil}},
		{"h's result expires", func() any { expire(4); return get() }, none},
		{"i claims", func() any { return claim("i", 2*unit) }, claimed{tools.Record{Owner: "i"}, true, nil}},
		{"i claims again: its own record, renewed", func() any {
			sleep(unit)
			return claim("i", 2*unit)
		}, claimed{tools.Record{Owner: "i"}, true, nil}},
		{"the renewed lease outlives the first", func() any { sleep(unit + unit/2); return get() }, claimed{tools.Record{Owner: "i"}, true, nil}},
		{"j cannot claim a renewed key", func() any { return claim("j", 2*unit) }, claimed{tools.Record{Owner: "i"}, false, nil}},
		{"the renewed lease ends", func() any { expire(1); return get() }, none},
		{"a done record is not its owner's to claim again", func() any {
			claim("k", 2*unit)
			_ = s.Complete(ctx, "k", "k", "done-k", 4*unit)
			return claim("k", 2*unit)
		}, claimed{tools.Record{Owner: "k", Done: true, Result: "done-k"}, false, nil}},

		// Renewals, on key "u".
		{"l claims u", func() any { return claimOf("u", "l", 2*unit) }, claimed{tools.Record{Owner: "l"}, true, nil}},
		{"another owner's renewal changes nothing", func() any { return renew("u", "x", 10*unit) }, renewed{false, nil}},
		{"l renews its own record", func() any { sleep(unit); return renew("u", "l", 2*unit) }, renewed{true, nil}},
		{"the renewed lease outlives the first", func() any { sleep(unit + unit/2); return getOf("u") }, claimed{tools.Record{Owner: "l"}, true, nil}},
		{"l releases", func() any { return s.Release(ctx, "u", "l") }, nil},
		{"a renewal after the release creates nothing", func() any { renew("u", "l", 2*unit); return getOf("u") }, none},
		{"m's renewal of its done record changes nothing", func() any {
			claimOf("u", "m", 2*unit)
			_ = s.Complete(ctx, "u", "m", "done-m", 2*unit)
			return renew("u", "m", 10*unit)
		}, renewed{false, nil}},

		// Records of unknown outcome, on keys "v" and "w".
		{"o claims v and marks it unknown", func() any {
			claimOf("v", "o", 2*unit)
			return s.MarkUnknown(ctx, "v", "o", 5*unit, 4*unit)
		}, nil},
		{"Get sees the record of unknown outcome", func() any { return getOf("v") }, claimed{tools.Record{Owner: "o", Unknown: true, Held: 5 * unit}, true, nil}},
		{"m's result expires on its time to live", func() any { expire(2); return getOf("u") }, none},
		{"while o's record outlives its lease", func() any { return getOf("v") }, claimed{tools.Record{Owner: "o", Unknown: true, Held: 5 * unit}, true, nil}},
		{"nobody claims it", func() any { return claimOf("v", "p", 2*unit) }, claimed{tools.Record{Owner: "o", Unknown: true, Held: 5 * unit}, false, nil}},
		{"nor its owner", func() any { return claimOf("v", "o", 2*unit) }, claimed{tools.Record{Owner: "o", Unknown: true, Held: 5 * unit}, false, nil}},
		{"its owner's renewal changes nothing", func() any { return renew("v", "o", 2*unit) }, renewed{false, nil}},
		{"another owner cannot mark it", func() any { return s.MarkUnknown(ctx, "v", "p", unit, unit) }, tools.ErrLeaseLost},
		{"its owner's Complete stores the result that came at last", func() any { return s.Complete(ctx, "v", "o", "done-o", 2*unit) }, nil},
		{"Get sees o's result", func() any { return getOf("v") }, claimed{tools.Record{Owner: "o", Done: true, Result: "done-o"}, true, nil}},
		{"a done record cannot be marked unknown", func() any { return s.MarkUnknown(ctx, "v", "o", unit, unit) }, tools.ErrLeaseLost},
		{"q marks an absent key unknown", func() any { return s.MarkUnknown(ctx, "w", "q", 3*unit, 4*unit) }, nil},
		{"Get sees q's record", func() any { return getOf("w") }, claimed{tools.Record{Owner: "q", Unknown: true, Held: 3 * unit}, true, nil}},
		{"another owner's Release leaves it", func() any { _ = s.Release(ctx, "w", "p"); return getOf("w") }, claimed{tools.Record{Owner: "q", Unknown: true, Held: 3 * unit}, true, nil}},
		{"its owner's Release deletes it", func() any { _ = s.Release(ctx, "w", "q"); return getOf("w") }, none},
		{"another owner's live claim cannot be marked", func() any {
			claimOf("w", "s", 2*unit)
			return s.MarkUnknown(ctx, "w", "t", unit, unit)
		}, tools.ErrLeaseLost},
		{"s's claim stands", func() any { return getOf("w") }, claimed{tools.Record{Owner: "s"}, true, nil}},
		{"s marks its claim unknown", func() any { return s.MarkUnknown(ctx, "w", "s", 3*unit, 2*unit) }, nil},
		{"the record of unknown outcome expires on its time to live", func() any { expire(2); return getOf("w") }, none},
	}
	behind := make([]time.Duration, len(steps)) // how far each step fell behind its sleeps
	for i, st := range steps {
		began := time.Now()
		slept = 0
		if got := st.do(); !same(got, st.want) {
			failures = append(failures, fmt.Sprintf("%s: got %+v, want %+v", st.name, got, st.want))
		}
		behind[i] = time.Since(began) - slept
	}
	for i := range behind {
		var sum time.Duration
		for _, b := range behind[i:min(i+span, len(behind))] {
			sum += b
		}
		late = max(late, sum)
	}
	return failures, late
}

// span is the number of steps in a row whose lateness adds up (see Run).
const span = 6

// same compares a step's result with the wanted one; an error matches the
// wanted error through wrapping.
func same(got, want any) bool {
	if err, ok := want.(error); ok {
		g, _ := got.(error)
		return errors.Is(g, err)
	}
	return got == want
}

// race claims one key from 100 goroutines at once: one wins. The lease
// is long enough that none of them ends before the last claim, however
// busy the machine.
func race(t *testing.T, s tools.Store) {
	t.Helper()
	var mu sync.Mutex
	winners := 0
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Go(func() {
			_, ok, err := s.Claim(context.Background(), "race", fmt.Sprint("owner-", i), time.Minute)
			if err != nil {
				t.Errorf("Claim: %v", err)
			}
			if ok {
				mu.Lock()
				winners++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if winners != 1 {
		t.Errorf("100 concurrent claims of one key: got %d winners, want 1", winners)
	}
}
