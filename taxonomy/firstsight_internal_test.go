package taxonomy

import (
	"strings"
	"testing"
	"time"
)

// TestFirstSightClues checks what the words of the first-sight families
// (issue 24) mean together, and that each needs all of its words: an
// account named beside a broken connection is no account refused, "reset"
// of a connection is no quota that resets.
func TestFirstSightClues(t *testing.T) {
	tests := []struct {
		words   string
		kind    Kind
		decided string
	}{
		{"account paused", Permanent, "account refused"},
		{"organization deactivated", Permanent, "account refused"},
		{"account socket closed", Transient, "connection broken"},
		{"service paused", Unknown, ""},
		{"sslv3 alert handshake failure", Permanent, "tls refused"},
		{"alert socket closed", Transient, "connection broken"},
		{"ssl wrong version number", Permanent, "tls refused"},
		{"wrong version number", Unknown, ""},
		{"tls socket closed", Transient, "connection broken"},
		{"quota replenished", RateLimited, "quota refilled"},
		{"usage resets", RateLimited, "quota refilled"},
		{"quota socket closed", Transient, "connection broken"},
		{"socket reset", Transient, "connection broken"},
		{"deserialize unknown field", Programming, "cannot decode the reply"},
		{"deserialize unknown value", Permanent, "unknown … value"},
		{"unknown field", Permanent, "unknown … field"},
		{"deserialize unknown field line", Unknown, ""},
		{"no capacity", Overloaded, "no capacity"},
		{"insufficient capacity", Overloaded, "no capacity"},
		{"capacity socket closed", Transient, "connection broken"},
		{"no socket closed", Transient, "connection broken"},
		{"authorization failed", Permanent, "credential refused"},
		{"authorization", Unknown, ""},
		{"failed", Unknown, ""},
		{"access token invalid", Permanent, "credential refused"},
		{"api tokens revoked", Permanent, "credential refused"},
		{"invalid tokens", Unknown, ""},
		{"no auth", Permanent, "credential refused"},
		{"auth", Unknown, ""},
		{"api key not set", Permanent, "credential refused"},
		{"api key set", Unknown, ""},
	}
	for _, tt := range tests {
		m, decided, ok := nameMeaning(tt.words, strings.ToLower(tt.words), nil)
		if !ok {
			m.kind = Unknown
		}
		if m.kind != tt.kind || decided != tt.decided {
			t.Errorf("the words %q mean %v, %q; want %v, %q", tt.words, m.kind, decided, tt.kind, tt.decided)
		}
	}
}

// TestIdentifierAt checks which words open a flag or a backquoted name:
// two hyphens after a space or at the start, not three and not inside a
// word; a closed pair of backquotes.
func TestIdentifierAt(t *testing.T) {
	tests := []struct {
		text string
		want string
	}{
		{"--jinja is required", "--jinja"},
		{"requires --tool-call-parser to be set", "--tool-call-parser"},
		{"requires --tool-call-parser-", "--tool-call-parser"},
		{"requires --jinja", "--jinja"},
		{"x--jinja", ""},
		{"a ---jinja", ""},
		{"a -jinja", ""},
		{"field `status` missing", "`status`"},
		{"field `status", ""},
		{"field `status' missing", ""},
	}
	for _, tt := range tests {
		i := strings.IndexAny(tt.text, "abcdefghijklmnopqrstuvwxyz")
		if strings.Contains(tt.text, "-j") || strings.Contains(tt.text, "-t") || strings.Contains(tt.text, "`") {
			i = strings.IndexAny(tt.text, "-`")
			for i < len(tt.text) && (tt.text[i] == '-' || tt.text[i] == '`') {
				i++
			}
		}
		j := i
		for j < len(tt.text) && isNameByte(tt.text[j]) {
			j++
		}
		got, end := identifierAt(tt.text, i, j)
		if got != tt.want {
			t.Errorf("identifierAt(%q, %d, %d) = %q, want %q", tt.text, i, j, got, tt.want)
		}
		if got != "" && tt.text[end-len(got):end] != got {
			t.Errorf("identifierAt(%q) ends at %d, not after %q", tt.text, end, got)
		}
		if got == "" && end != j {
			t.Errorf("identifierAt(%q) = \"\", ends at %d, want %d", tt.text, end, j)
		}
	}
}

// TestClockDuration checks the waits written as a clock: .NET's TimeSpan,
// its day count, its bounds, a full stop or a fraction after it.
func TestClockDuration(t *testing.T) {
	tests := []struct {
		s    string
		want time.Duration
		ok   bool
	}{
		{"00:00:05", 5 * time.Second, true},
		{"00:10:00.", 10 * time.Minute, true},
		{"00:00:05.1234567 more", 5 * time.Second, true},
		{"1:02:03", time.Hour + 2*time.Minute + 3*time.Second, true},
		{"0.05:00:00", 5 * time.Hour, true},
		{"5.03:23:11", MaxWaitHint, true},
		{"24:00:00", MaxWaitHint, true},
		{"1.23:00:00", MaxWaitHint, true},
		{"0.05:59:59", 5*time.Hour + 59*time.Minute + 59*time.Second, true},
		{"1.24:00:00", 0, false},
		{"00:60:00", 0, false},
		{"00:00:60", 0, false},
		{"00:59:59", 59*time.Minute + 59*time.Second, true},
		{"123456789:00:00", MaxWaitHint, true},
		{"99999999999999999999:00:00", 0, false},
		{"x.00:00:05", 0, false},
		{"00:00.05:00", 0, false},
		{"00:05", 0, false},
		{"00:00:05:00", 0, false},
		{"5.5 seconds", 0, false},
		{"12", 0, false},
		{"", 0, false},
		{":00:05", 0, false},
	}
	for _, tt := range tests {
		got, ok := clockDuration(tt.s)
		if got != tt.want || ok != tt.ok {
			t.Errorf("clockDuration(%q) = %v, %v; want %v, %v", tt.s, got, ok, tt.want, tt.ok)
		}
	}
}

// TestReaderEdges checks the edges of the reader's scan: a word in
// capitals is a name from seven letters; at most maxNames names are looked
// up; an OS error number is read after errno or WinError only; a
// backquoted word keeps the negation before it; the words of a non-ASCII
// text are read as an ASCII one's.
func TestReaderEdges(t *testing.T) {
	tests := []struct {
		text         string
		names, clues int
		errno        bool
	}{
		{"ABORTED", 1, 0, false},
		{"ABORTE", 0, 0, false},
		{strings.Repeat("FooBar ", maxNames) + "InvalidParameter", 0, 0, false},
		{strings.Repeat("FooBar ", maxNames-1) + "InvalidParameter", 1, 1, false},
		{"ValueError 104 retries", 0, 0, false},
		{"an error 104 retries", 0, 0, false},
		{"[Errno 104] reset", 0, 0, true},
		{"[WinError 10054] closed", 0, 0, true},
		{"the value is not `allowed`", 0, 1, false},
		{"the value is `allowed`", 0, 0, false},
		{"错误：InvalidParameter", 1, 1, false},
	}
	for _, tt := range tests {
		var r reading
		r.read(tt.text, strings.ToLower(tt.text), !strings.ContainsFunc(tt.text, func(r rune) bool { return r >= 0x80 }))
		if r.names.n != tt.names || r.clues.n != tt.clues || r.errno.found() != tt.errno {
			t.Errorf("read(%.40q): %d names, %d clues, errno %v; want %d, %d, %v",
				tt.text, r.names.n, r.clues.n, r.errno.found(), tt.names, tt.clues, tt.errno)
		}
	}
}
