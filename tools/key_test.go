package tools_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/resilientgo/resilient/tools"
)

func TestDefaultKey(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		same bool
	}{
		{"keys reordered, spaces", `{"order":"4471","amount":2499}`, `{ "amount": 2499, "order": "4471" }`, true},
		{"escapes that decode alike", `{"a":"\u00e9\/"}`, `{"\u0061":"é/"}`, true},
		{"a surrogate pair and its character", `["\ud83d\ude00"]`, `["😀"]`, true},
		{"nested objects", `{"b":{"y":1,"x":[{"q":1,"p":2}]},"a":null}`, `{"a":null,"b":{"x":[{"p":2,"q":1}],"y":1}}`, true},
		{"a number as written", `{"amount":2499}`, `{"amount":2499.0}`, false},
		{"numbers past float64", `{"n":12345678901234567890}`, `{"n":12345678901234567891}`, false},
		{"a top-level number", "4471", " 4471\n", true},
		{"text", "charge 4471", "charge  4471", false},
		{"trailing words", `{"a":1} trailing`, `{"a":1}`, false},
		{"trailing bracket", `{"a":1}]`, `{"a":1}`, false},
		{"a second value", `{"a":1} {"a":1}`, `{"a":1}`, false},
		{"invalid UTF-8", "{\"iban\":\"DE\xff\"}", "{\"iban\":\"DE\xfe\"}", false},
		{"invalid UTF-8 and the replacement character", "{\"iban\":\"DE\xff\"}", `{"iban":"DE\ufffd"}`, false},
		{"duplicate keys", `{"to":"alice","to":"bob"}`, `{"to":"bob"}`, false},
		{"duplicate keys spelled apart", `{"to":"alice","t\u006f":"bob"}`, `{"to":"bob"}`, false},
		{"duplicate keys, other order", `{"to":"alice","to":"bob"}`, `{"to":"bob","to":"alice"}`, false},
		{"duplicate keys, other spaces", `{"to":"alice", "to":"bob"}`, `{"to":"alice","to":"bob"}`, false},
		{"lone surrogates", `["\ud800"]`, `["\udbff"]`, false},
		{"a lone surrogate and the replacement character", `["\ud800"]`, `["\ufffd"]`, false},
		{"raw bytes of a canonical form", `{"a":1}`, `{"a":1}`, true},
	}
	for _, tt := range tests {
		if got := tools.DefaultKey("charge", tt.a) == tools.DefaultKey("charge", tt.b); got != tt.same {
			t.Errorf("%s: DefaultKey(%q) == DefaultKey(%q): got %v, want %v", tt.name, tt.a, tt.b, got, tt.same)
		}
	}
	if got := tools.DefaultKey("charge", "x"); !strings.HasPrefix(got, "charge:") || len(got) != len("charge:")+64 {
		t.Errorf("DefaultKey: got %q, want charge:<sha-256 hex>", got)
	}
}

// A key keeps its value across versions: records that a shared store holds
// from before an upgrade are still found. The values are those of the
// version before canonicalization became strict.
func TestDefaultKeyIsStable(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{ "order": "4471", "amount": 2499 }`, "charge:ed9cdda2b84fdcd3e2079f1c697568f79e41a23be39f2cabb2f6d54e42495209"},
		{"order 4471", "charge:8d3dde9674182b0b43540fa134eeab1f0b3e406d58eb8831db0b4b93f6991560"},
		{`{"tags":["a","b"], "note":"<b> & é\u2028"}`, "charge:167de2c66a08c25e201326abbc05bc427c31d15be6db971a9d1ea8aac79f785d"},
	}
	for _, tt := range tests {
		if got := tools.DefaultKey("charge", tt.in); got != tt.want {
			t.Errorf("DefaultKey(%q): got %s, want %s", tt.in, got, tt.want)
		}
	}
}

// FuzzKey checks DefaultKey against its specification: an input that is
// one JSON value decoding without loss is keyed by what encoding/json
// writes for that value, any other input by its bytes; and two inputs with
// the same key are the same call.
//
// CI runs it for 15 s; run it longer by hand with
//
//	go test -run '^$' -fuzz '^FuzzKey$' -fuzztime 10m ./tools/
func FuzzKey(f *testing.F) {
	seeds := [][2]string{
		{"{\"iban\":\"DE\xff\"}", "{\"iban\":\"DE\xfe\"}"},
		{`{"a":1}]`, `{"a":1}`},
		{`{"to": "alice", "to": "bob"}`, `{"to":"bob"}`},
		{`["\ud800"]`, `["\ufffd"]`},
		{`{"b":[1,{"d":"<&>","c":"\u2028"}],"a":-0.5e+3}`, `{"a":-0.5e+3,"b":[1,{"c":"\u2028","d":"\u003c\u0026\u003e"}]}`},
		{`"\ud83d\ude00"`, `"😀"`},
		{"4471", " 4471\n"},
		{`{"k":"\u0000\b\f\n\r\t\u001f\u007f"}`, `{"k":"\u0000"}`},
		{`{}`, `[]`},
		{`[[[[[[[[[[1]]]]]]]]]]`, `[1]`},
		{"", " "},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, in := range []string{a, b} {
			if got, want := tools.DefaultKey("t", in), specKey("t", in); got != want {
				t.Fatalf("DefaultKey(%q): got %s, want %s", in, got, want)
			}
		}
		if tools.DefaultKey("t", a) == tools.DefaultKey("t", b) && !sameCall(a, b) {
			t.Fatalf("DefaultKey(%q) == DefaultKey(%q), but they are different calls", a, b)
		}
	})
}

// specKey is DefaultKey as its documentation specifies it, built from
// encoding/json.
func specKey(name, in string) string {
	sum := sha256.Sum256([]byte(in))
	if v, ok := decodeLossless(in); ok {
		canonical, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		sum = sha256.Sum256(canonical)
	}
	return name + ":" + hex.EncodeToString(sum[:])
}

// sameCall reports whether a and b are the same call: the same bytes, or
// the same JSON value decoded without loss.
func sameCall(a, b string) bool {
	if a == b {
		return true
	}
	va, oka := decodeLossless(a)
	vb, okb := decodeLossless(b)
	return oka && okb && reflect.DeepEqual(va, vb)
}

// decodeLossless decodes in with encoding/json (numbers as written) when
// the decoded value says all that in says: valid UTF-8, one JSON value, no
// object with the same key twice, no escaped lone surrogate, no value
// inside more than 512 containers (an empty container may be the 513th).
func decodeLossless(in string) (any, bool) {
	if !utf8.ValidString(in) || !json.Valid([]byte(in)) || loneSurrogate(in) {
		return nil, false
	}
	dec := json.NewDecoder(strings.NewReader(in))
	dec.UseNumber()
	type level struct {
		object bool
		keys   map[string]bool
		key    bool // the next string token of an object is a key
	}
	var stack []level
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, false
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			if len(stack) > 0 && stack[len(stack)-1].object {
				stack[len(stack)-1].key = true
			}
			stack = append(stack, level{object: tok == json.Delim('{'), keys: map[string]bool{}, key: true})
			if len(stack) > 513 {
				return nil, false
			}
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			continue
		}
		if len(stack) == 0 || !stack[len(stack)-1].object {
			if len(stack) > 512 {
				return nil, false // a value inside more than 512 containers
			}
			continue
		}
		top := &stack[len(stack)-1]
		switch {
		case top.key:
			k := tok.(string)
			if top.keys[k] {
				return nil, false
			}
			top.keys[k] = true
		case len(stack) > 512:
			return nil, false
		}
		top.key = !top.key
	}
	var v any
	dec = json.NewDecoder(bytes.NewReader([]byte(in)))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	return v, true
}

// loneSurrogate reports whether a JSON text escapes a surrogate that is not
// part of a pair (decoders turn it into U+FFFD).
func loneSurrogate(in string) bool {
	for i := 0; i < len(in); i++ {
		if in[i] != '\\' {
			continue
		}
		i++
		if i >= len(in) || in[i] != 'u' || i+5 > len(in) {
			continue
		}
		r := hexRune(in[i+1 : i+5])
		i += 4
		switch {
		case r < 0xd800 || r > 0xdfff:
		case r >= 0xdc00:
			return true
		case i+7 > len(in) || in[i+1:i+3] != `\u`:
			return true
		default:
			if lo := hexRune(in[i+3 : i+7]); lo < 0xdc00 || lo > 0xdfff {
				return true
			}
			i += 6
		}
	}
	return false
}

func hexRune(s string) rune {
	b, err := hex.DecodeString(s)
	if err != nil {
		return -1
	}
	return rune(b[0])<<8 | rune(b[1])
}
