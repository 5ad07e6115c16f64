package tools_test

import (
	"crypto/sha256"
	"fmt"
	"testing"

	"github.com/resilientgo/resilient/internal/benchcpu"
	"github.com/resilientgo/resilient/tools"
)

// BenchmarkDefaultKey measures the idempotency key of a JSON input (its
// canonical form, hashed), against the SHA-256 of as many bytes, ready in
// memory (what=sha256): the floor of any key of that input, and so the
// share of the canonicalization.
func BenchmarkDefaultKey(b *testing.B) {
	for _, size := range []int{1 << 10, 100 << 10} {
		input := jsonOfSize(size)
		b.Run(fmt.Sprintf("size=%dKB/what=key", size>>10), func(b *testing.B) {
			b.SetBytes(int64(len(input)))
			b.ReportAllocs()
			stop := benchcpu.Start(b)
			for b.Loop() {
				_ = tools.DefaultKey("tool", input)
			}
			stop()
		})
		b.Run(fmt.Sprintf("size=%dKB/what=sha256", size>>10), func(b *testing.B) {
			bytes := []byte(input) // the floor: the canonical form is as long
			b.SetBytes(int64(len(input)))
			b.ReportAllocs()
			stop := benchcpu.Start(b)
			for b.Loop() {
				_ = sha256.Sum256(bytes)
			}
			stop()
		})
	}
}
