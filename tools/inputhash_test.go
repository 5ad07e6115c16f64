package tools

import (
	"fmt"
	"hash/maphash"
	"strings"
	"testing"
)

// Every byte of the input counts, at every length: whatever lane, tail
// loop or padded last word a byte falls into, changing any bit of it
// changes the hash.
func TestInputHashReadsEveryBit(t *testing.T) {
	base := []byte(strings.Repeat(`{"path":"notes.md","text":"line of the document"},`, 10))
	for n := 0; n <= 300; n++ {
		s := string(base[:n])
		h := inputHash(inputSeed, s)
		for i := range n {
			for bit := range 8 {
				b := []byte(s)
				b[i] ^= 1 << bit
				if inputHash(inputSeed, string(b)) == h {
					t.Fatalf("length %d: flipping bit %d of byte %d leaves the hash unchanged", n, bit, i)
				}
			}
		}
	}
}

// The length is part of the hash: trailing zero bytes, which the last
// word's padding would otherwise hide, make another input.
func TestInputHashTellsLengthsApart(t *testing.T) {
	seen := map[uint64]int{}
	for n := range 200 {
		h := inputHash(inputSeed, "a"+strings.Repeat("\x00", n))
		if m, ok := seen[h]; ok {
			t.Fatalf(`"a" followed by %d and by %d zero bytes hash alike`, n, m)
		}
		seen[h] = n
	}
}

// Inputs that differ little, as a model's successive tool calls do, do not
// collide, and the seed changes every hash.
func TestInputHashHasNoCollisionsOnSimilarInputs(t *testing.T) {
	const n = 200_000
	seen := make(map[uint64]string, n)
	for i := range n {
		s := fmt.Sprintf(`{"query":"weather in city %d","units":"metric"}`, i)
		h := inputHash(inputSeed, s)
		if prev, ok := seen[h]; ok {
			t.Fatalf("%q and %q hash alike", prev, s)
		}
		seen[h] = s
		if inputHash(inputSeed+1, s) == h {
			t.Fatalf("%q hashes alike under two seeds", s)
		}
	}
}

// The repeat hash tells tools apart, and a key from an input equal to it;
// with a key, the input is not read.
func TestRepeatHashSeparatesNamesAndKeys(t *testing.T) {
	hashes := map[uint64]string{}
	for _, c := range []struct{ name, key, input string }{
		{"search", "", `{"q":"x"}`},
		{"fetch", "", `{"q":"x"}`},
		{"search", `{"q":"x"}`, `{"q":"x"}`},
		{"searc", "", `h{"q":"x"}`},
	} {
		h := repeatHash(c.name, c.key, c.input)
		if prev, ok := hashes[h]; ok {
			t.Fatalf("%+v hashes like %s", c, prev)
		}
		hashes[h] = fmt.Sprintf("%+v", c)
		if again := repeatHash(c.name, c.key, c.input); again != h {
			t.Fatalf("%+v hashed twice gives two hashes", c)
		}
	}
	if repeatHash("search", "k1", "a") != repeatHash("search", "k1", "b") {
		t.Error("two inputs with one key count apart")
	}
}

// BenchmarkInputHash compares the repeat counter's hash of a 100 KB input
// with hash/maphash, which it replaced:
//
//	go run ./internal/cmd/benchrounds -pkg ./tools -bench InputHash -base impl=maphash -rounds 10
func BenchmarkInputHash(b *testing.B) {
	input := strings.Repeat(`{"n":1,"text":"line 1 of the document"},`, 2600)[:100<<10]
	seed := maphash.MakeSeed()
	var sink uint64
	b.Run("impl=maphash", func(b *testing.B) {
		b.SetBytes(int64(len(input)))
		for b.Loop() {
			sink += maphash.String(seed, input)
		}
	})
	b.Run("impl=inputHash", func(b *testing.B) {
		b.SetBytes(int64(len(input)))
		for b.Loop() {
			sink += inputHash(inputSeed, input)
		}
	})
	_ = sink
}
