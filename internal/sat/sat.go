// Package sat adds counts without overflow: a sum past the largest value
// of its type stays at that value, and one below the smallest at that, so
// that a counter fed a huge number from the wire (a provider reporting
// 2^63-1 tokens) saturates instead of wrapping around to a negative count
// that every limit would then admit.
package sat

import (
	"sync/atomic"
	"unsafe"
)

// Integer is a signed integer type a counter is kept in: int, int64 and
// types built on them, such as time.Duration.
type Integer interface {
	~int | ~int64
}

// Add returns a+b, or the largest value of T when the sum would pass it,
// the smallest when it would fall below it.
func Add[T Integer](a, b T) T {
	s := a + b
	switch {
	case b > 0 && s < a:
		return Max[T]()
	case b < 0 && s > a:
		return ^Max[T]()
	}
	return s
}

// Max returns the largest value of T.
func Max[T Integer]() T {
	var zero T
	bits := 8 * unsafe.Sizeof(zero)
	return T(^uint64(0) >> (65 - bits)) // all ones but the sign bit
}

// AddInt64 adds d to *p as [Add] does, atomically, and returns the new
// value.
func AddInt64(p *atomic.Int64, d int64) int64 {
	for {
		old := p.Load()
		if n := Add(old, d); p.CompareAndSwap(old, n) {
			return n
		}
	}
}
