package tools

import (
	"sync"

	"github.com/resilientgo/resilient/run"
)

// repeatWindow is how many distinct calls a run remembers for its repeat
// limit (run.RepeatLimit): past it, the call least recently made is
// forgotten. A call made again within the last repeatWindow distinct calls
// of the run keeps its count, so the limit holds for every loop shorter
// than that; a run's repeat memory stays under about 48 KiB however long
// the run lives.
const repeatWindow = 1024

type repeatsKey struct{}

// repeatsOf returns the run's repeat counter, made on first use.
func repeatsOf(r *run.Run) *repeats {
	return r.Local(repeatsKey{}, func() any {
		return &repeats{index: make(map[uint64]int32)}
	}).(*repeats)
}

// repeats counts the calls of one run by their hash, remembering the
// repeatWindow calls most recently made (a least-recently-used list over a
// slice). It is safe for concurrent use.
type repeats struct {
	mu         sync.Mutex
	index      map[uint64]int32 // call hash -> slot
	slots      []repeatSlot
	head, tail int32 // most and least recently used slot; -1 when empty
}

type repeatSlot struct {
	hash       uint64
	count      int64 // in the padding an int32 would leave
	prev, next int32 // towards head and towards tail; -1 at the ends
}

// add counts one more call with hash h and returns how many the run has
// made within its window.
func (c *repeats) add(h uint64) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if i, ok := c.index[h]; ok {
		s := &c.slots[i]
		s.count++ // 64 bits: no run makes enough calls to overflow it
		c.unlink(i)
		c.push(i)
		return int(s.count)
	}
	var i int32
	if len(c.slots) < repeatWindow {
		i = int32(len(c.slots))
		c.slots = append(c.slots, repeatSlot{})
		if i == 0 {
			c.head, c.tail = -1, -1
		}
	} else {
		i = c.tail
		c.unlink(i)
		delete(c.index, c.slots[i].hash)
	}
	c.slots[i] = repeatSlot{hash: h, count: 1}
	c.index[h] = i
	c.push(i)
	return 1
}

func (c *repeats) unlink(i int32) {
	s := &c.slots[i]
	if s.prev >= 0 {
		c.slots[s.prev].next = s.next
	} else {
		c.head = s.next
	}
	if s.next >= 0 {
		c.slots[s.next].prev = s.prev
	} else {
		c.tail = s.prev
	}
}

func (c *repeats) push(i int32) {
	s := &c.slots[i]
	s.prev, s.next = -1, c.head
	if c.head >= 0 {
		c.slots[c.head].prev = i
	} else {
		c.tail = i
	}
	c.head = i
}

// repeatHash returns the hash that identifies a call for the repeat limit:
// that of its idempotency key when it has one (computed anyway, so the
// input is read once), that of its exact input otherwise. Exact bytes, not
// canonical JSON: a model stuck in a loop re-sends the call it made, byte
// for byte, and canonicalising would read and copy the input several times
// on every call. Calls that differ in whitespace only count apart; to count
// them as one, give the tool KeyFunc(DefaultKey) (a canonical key), or
// bound the run with a ToolCallLimit. The tool's name seeds the hash, so
// two tools given the same input count apart.
func repeatHash(name, key, input string) uint64 {
	seed, s := inputSeed^'i', input
	if key != "" {
		seed, s = inputSeed^'k', key
	}
	return inputHash(inputHash(seed, name), s)
}
