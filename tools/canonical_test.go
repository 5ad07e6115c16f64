package tools_test

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/resilientgo/resilient/tools"
)

// rawKey is the key of an input that is not canonicalized: the SHA-256 of
// its bytes.
func rawKey(name, in string) string {
	sum := sha256.Sum256([]byte(in))
	return name + ":" + hex.EncodeToString(sum[:])
}

// nested returns v inside n arrays, with a space inside every bracket.
func nested(n int, v string) string {
	return strings.Repeat("[ ", n) + v + strings.Repeat(" ]", n)
}

// Every input is keyed as DefaultKey's documentation says (specKey, built
// from encoding/json): the canonical form of what decodes without loss, the
// bytes of anything else. Each input that is canonicalized is written with
// spaces or escapes, so that its canonical form differs from its bytes and
// a canonicalizer that gave up on it would be noticed; each input that is
// not canonicalized would give a canonical form different from its bytes
// if it were taken for JSON.
func TestDefaultKeyFollowsItsSpecification(t *testing.T) {
	tests := []struct {
		in            string
		canonicalized bool
	}{
		// Containers, empty or not, and what surrounds them.
		{"{ }", true},
		{"[ ]", true},
		{" \t\r\n[ 1 ]\r\n\t ", true},
		{`{ "b" : [ 1 , { "d" : 2 , "c" : 3 } ] , "a" : { } }`, true},
		{nested(512, "1"), true},
		{nested(513, "1"), false},
		{nested(512, "[ ]"), true},
		{nested(511, `{ "a" : 1 }`), true},
		{nested(512, `{ "a" : 1 }`), false},
		{nested(512, `{ }`), true},
		// Numbers, as written, and what is not one.
		{"[ 10 , 0 , -0 , 9 ]", true},
		{" 100 ", true},
		{"[ -0.5e+3 , 1E-2 , 2e5 , 0.125 ]", true},
		{"[ - ]", false},
		{"[ -x ]", false},
		{"[ 1. ]", false},
		{"[ 1.x ]", false},
		{"[ 1e ]", false},
		{"[ 1e+ ]", false},
		{"[ 01 ]", false},
		{"[ .5 ]", false},
		{"[ +1 ]", false},
		// Literals.
		{"[ true , false , null ]", true},
		{"[ nul ]", false},
		{"[ True ]", false},
		// Strings: escapes decoded and written as Marshal writes them.
		{`[ "\b\f\n\r\t\/\\\"" ]`, true},
		{`[ "\u0020\u0041" ]`, true},
		{`[ "\u001f\u0000" ]`, true},
		{`[ "\u0080\u07ff\u0800\uffff" ]`, true},
		{`[ "<>&", "\u003c\u003e\u0026" ]`, true},
		{"[ \"\u2028\u2029\u2030\" ]", true},
		{`[ "\ud800\udc00", "\udbff\udfff", "\uD83D\uDE00" ]`, true},
		{`[ "\u00E9\u00e9\u00Ef" ]`, true},
		{`[ "\ud800\u0041" ]`, false},
		{`[ "\ud800\ud800" ]`, false},
		{`[ "\ud800\ue000" ]`, false},
		{`[ "\ud800\u00zz" ]`, false},
		{`[ "\ud800\u" ]`, false},
		{`[ "\udc00" ]`, false},
		{`[ "\udfff\udc00" ]`, false},
		{`[ "\u00g0" ]`, false},
		{`[ "\u00G0" ]`, false},
		{`[ "\u00/0" ]`, false},
		{`[ "\u00:0" ]`, false},
		{`[ "\u00@0" ]`, false},
		{`[ "\u00` + "`" + `0" ]`, false},
		{`[ "\x" ]`, false},
		{`[ "\U0041" ]`, false},
		{"[ \"a\tb\" ]", false},
		{"[ \"a\x1fb\" ]", false},
		// Keys are compared and sorted as they decode.
		{`{ "c\u0061" : 1 , "cb" : 2 }`, true},
		{`{ "<\u007a" : 1 , "<m" : 2 }`, true},
		{`{ "\u007a<" : 1 , "m<" : 2 }`, true},
		{`{ "b" : 1 , "a" : 2 , "c" : 3 }`, true},
		{`{ "a" : 1 , "b" : 2 }`, true},
		{`{"a\u0062":1,"ab":2}`, false},
		{`{"<\u0061":1,"<a":2}`, false},
		{`{"a":1,"b":2,"a":3}`, false},
		{`{"b":1,"a":2,"b":3}`, false},
		// Input that ends too early, or holds something else.
		{"{", false},
		{"[", false},
		{"{ ", false},
		{"[ 1", false},
		{"[ 1 ,", false},
		{`{"a":1,`, false},
		{`{"a"`, false},
		{`{"a":`, false},
		{`{"a":1`, false},
		{`"abc`, false},
		{`"ab\`, false},
		{`["\`, false},
		{`["\u12`, false},
		{`{"a":1,b":2}`, false},
		{`{x":1}`, false},
		{`{ "a" : 1 , }`, false},
		{`{ "x" : { "a" : 1 , }`, false},
		{`[ 1 , ]`, false},
		{`[[1,]`, false},
		{`{"a"x1}`, false},
		{`{"a":1;"b":2}`, false},
		{`[1;2]`, false},
		{`{"a":1]`, false},
		{`[1}`, false},
		{`{1:2}`, false},
		{"", false},
		{" ", false},
		// Bytes hashed in 4 KiB chunks: one exactly, and a partial last one.
		{strings.Repeat("x", 4096), false},
		{strings.Repeat("not json ", 1000), false},
	}
	for _, tt := range tests {
		got, want := tools.DefaultKey("t", tt.in), specKey("t", tt.in)
		if got != want {
			t.Errorf("DefaultKey(%.80q): got %s, want %s", tt.in, got, want)
		}
		if canonicalized := want != rawKey("t", tt.in); canonicalized != tt.canonicalized {
			t.Errorf("%.80q: canonicalized %v, the table says %v", tt.in, canonicalized, tt.canonicalized)
		}
	}
}

// A canonicalizer goes back to the pool when its buffers take 1 MiB at
// most; larger ones are left to the garbage collector.
func TestCanonicalizerPoolKeepsSmallBuffers(t *testing.T) {
	tests := []struct {
		out, scratch int
		want         bool
	}{
		{0, 0, true}, {1 << 20, 0, true}, {1 << 19, 1 << 19, true}, {1 << 20, 1, false}, {1<<20 + 1, 0, false},
	}
	for _, tt := range tests {
		if got := tools.Pooled(tt.out, tt.scratch); got != tt.want {
			t.Errorf("buffers of %d and %d bytes: pooled %v, want %v", tt.out, tt.scratch, got, tt.want)
		}
	}
}
