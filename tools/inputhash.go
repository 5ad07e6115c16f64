package tools

import (
	"math/bits"
	"math/rand/v2"
)

// inputSeed seeds inputHash, once per process: the repeat counter's hashes
// never leave the process (a run lives in one), so they need not be stable
// across processes, and a random seed keeps one process's collisions from
// being another's.
var inputSeed = rand.Uint64()

// The multipliers of wyhash (final version), the hash the Go runtime falls
// back on for its maps when the CPU has no AES instructions. None of them
// is valid UTF-8 at any offset, so no 8 bytes of text equal one and zero a
// lane's product.
const (
	wyp0 = 0xa0761d6478bd642f
	wyp1 = 0xe7037ed1a0b428db
	wyp2 = 0x8ebc6af09c88c6e3
	wyp3 = 0x589965cc75374cc3
	wyp4 = 0x1d8e4e27c47d124f
)

// inputHash is a fast, seeded, non-cryptographic 64-bit hash of s: the
// wyhash construction (each 16 bytes folded into the state by one 64x64->128
// bit multiply), over four independent lanes so that the multiplies
// overlap. It reads about 30 GB/s on a current x86 core, two to three times
// the runtime's AES hash behind hash/maphash, because a tool's input is
// hashed on every call under a run and can be large. It resists accidental
// collisions (2^-64 for unrelated inputs), not crafted ones: it decides
// only when a run is stuck, never what is stored or returned.
func inputHash(seed uint64, s string) uint64 {
	n := uint64(len(s))
	a, b, c, d := seed^wyp0, seed^wyp1, seed^wyp2, seed^wyp3
	for len(s) > 64 {
		a = wymix(le64(s)^wyp1, le64(s[8:])^a)
		b = wymix(le64(s[16:])^wyp2, le64(s[24:])^b)
		c = wymix(le64(s[32:])^wyp3, le64(s[40:])^c)
		d = wymix(le64(s[48:])^wyp4, le64(s[56:])^d)
		s = s[64:]
	}
	h := a ^ wymix(b, wyp1) ^ wymix(c, wyp2) ^ wymix(d, wyp3)
	for len(s) > 16 {
		h = wymix(le64(s)^wyp1, le64(s[8:])^h)
		s = s[16:]
	}
	// The last 0 to 16 bytes, little-endian, zero-padded; the length,
	// mixed in last, tells "a" from "a\x00".
	var x, y uint64
	for i := len(s) - 1; i >= 8; i-- {
		y = y<<8 | uint64(s[i])
	}
	for i := min(len(s), 8) - 1; i >= 0; i-- {
		x = x<<8 | uint64(s[i])
	}
	return wymix(wyp1^n, wymix(x^wyp1, y^h))
}

// wymix folds the 128-bit product of a and b into 64 bits.
func wymix(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// le64 reads the first 8 bytes of s, little-endian (one load once
// compiled).
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
