package taxonomy

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestPrepareBuildsGramsFromMinGramLen checks where a text starts to get
// its set of trigrams: from minGramLen bytes, ASCII or not.
func TestPrepareBuildsGramsFromMinGramLen(t *testing.T) {
	for _, tt := range []struct {
		text string
		want bool
	}{
		{strings.Repeat("a", minGramLen-1), false},
		{strings.Repeat("a", minGramLen), true},
		{"é" + strings.Repeat("a", minGramLen-3), false},
		{"é" + strings.Repeat("a", minGramLen-2), true},
	} {
		var text lowered
		text.prepare(tt.text)
		if text.hasGrams != tt.want {
			t.Errorf("prepare of %d bytes: set built %v, want %v", len(tt.text), text.hasGrams, tt.want)
		}
	}
}

// TestNumbersOfASet checks the numbers that may be statuses, as set and
// prepare find them: three digits from 4 or 5, standing alone, at the end
// of the text too, the first eight of them.
func TestNumbersOfASet(t *testing.T) {
	for _, tt := range []struct {
		text string
		want []int
	}{
		{"上游请求失败，返回的状态码: 503", []int{41}},
		{"上游请求失败，返回的状态码: 5030", nil},
		{"上游请求失败，返回的状态码: 123", nil},
		{"codes 401 402 403 404 405 406 407 408 409 seen", []int{6, 10, 14, 18, 22, 26, 30, 34}},
		{"an id 123 and a status 503 in a text of some length", []int{23}},
	} {
		for _, how := range []string{"set", "prepare"} {
			var text lowered
			if how == "set" {
				text.set(strings.ToLower(tt.text))
			} else {
				text.prepare(tt.text)
			}
			if got := text.numbers(); !slices.Equal(got, tt.want) {
				t.Errorf("%s(%q).numbers() = %v, want %v", how, tt.text, got, tt.want)
			}
		}
	}
}

// TestMayHoldAny checks the stems' test: any of them anywhere in the
// text, the first byte included.
func TestMayHoldAny(t *testing.T) {
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"input of a length", true},
		{"the kv cache", true},
		{"nothing to see here at all, not a thing", false},
		{"input prompt token batch context messages seq kv", true},
	} {
		var text lowered
		text.prepare(tt.text)
		if got := text.mayHoldAny(sizeWords); got != tt.want {
			t.Errorf("mayHoldAny(sizeWords) of %q = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// TestMemberValuesAreBounded checks that a body with more members than
// maxMembers is read for its first maxMembers values.
func TestMemberValuesAreBounded(t *testing.T) {
	body := strings.Repeat(`{"code": "x"} `, maxMembers+4)
	var text lowered
	text.prepare(body)
	var buf [maxMembers]string
	if got := memberValues(&text, text.s, memberKeys, buf[:0]); len(got) != maxMembers {
		t.Errorf("memberValues read %d values, want %d", len(got), maxMembers)
	}
}

// TestPrepareLowers checks the text prepare lowers: ASCII byte for byte,
// short or long, and anything else by strings.ToLower, a lone byte of
// 0x80 included (Go's error texts need not be UTF-8).
func TestPrepareLowers(t *testing.T) {
	long := strings.Repeat("Ab[Z]@` ", 40) // 320 bytes: three chunks of the pass
	for _, text := range []string{"Ab[Z]@`", long, "\x80AB[Z]", "\x80" + long, long + "\x80", "Énorme [AB]", long + "É"} {
		var lt lowered
		lt.prepare(text)
		ascii := !strings.ContainsFunc(text, func(r rune) bool { return r >= 0x80 })
		want := strings.ToLower(text)
		if lt.s != want || lt.ascii != ascii {
			t.Errorf("prepare(%.20q): %.20q, ascii %v; want %.20q, %v", text, lt.s, lt.ascii, want, ascii)
		}
	}
}

// TestFindingsAreBounded checks that a text naming more failures than
// maxFindings, in names and in clauses, keeps the first maxFindings of
// each and is still classified.
func TestFindingsAreBounded(t *testing.T) {
	text := strings.Repeat("InvalidParameter: invalid parameter.\n", maxFindings+2)
	var r reading
	r.read(text, strings.ToLower(text), true)
	if r.names.n != maxFindings || r.clues.n != maxFindings {
		t.Errorf("kept %d names and %d clues, want %d of each", r.names.n, r.clues.n, maxFindings)
	}
	if c := Classify(errors.New(text)); c.Kind != Permanent {
		t.Errorf("Classify = %v, want permanent", c)
	}
}
