package redact

import (
	"strconv"
	"unicode/utf8"
)

// MaxText bounds each text that the library keeps of an error or a value
// it did not make (the text of each attempt in a final error, a log
// attribute, a tool's message to the model): 4 KiB, enough for a
// provider's error and the head of an HTML page or a dump, and the same
// whatever the size of what was returned.
const MaxText = 4 << 10

// Keep returns the text the library keeps of s: s redacted by f ([String]
// when f is nil) when it is at most [MaxText] bytes long; else its first
// MaxText bytes or fewer, redacted, followed by "…[cut N bytes]", N the
// bytes left out. The cut falls on a rune boundary and before any secret
// that [String] finds across it, so that no part of a secret is shown; the
// search reads a bounded stretch after the cut (as long as the longest
// secret a rule finds), so the cost does not grow with s.
//
// Every text the library keeps goes through Keep, once: the error values
// themselves are left whole, for errors.Is and errors.As.
func Keep(s string, f func(string) string) string {
	if f == nil {
		f = String
	}
	if len(s) <= MaxText {
		return f(s)
	}
	cut := safeCut(s, MaxText)
	return f(s[:cut]) + "…[cut " + strconv.Itoa(len(s)-cut) + " bytes]"
}

// safeCut returns where to cut s so as to keep at most n bytes of it: at a
// rune boundary, and before any secret found across the cut.
func safeCut(s string, n int) int {
	var f finder
	f.scan(s[:min(len(s), n+maxBlock)], nil, 0)
	cut := n
	for moved := true; moved; {
		moved = false
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		for _, sp := range f.spans {
			if sp.start < cut && cut < sp.end {
				cut, moved = sp.start, true
			}
		}
	}
	return cut
}
