package redact

import "strings"

// String returns s with the credentials it plainly contains replaced by
// [Redacted] (see the package documentation for the shapes). It is safe
// for concurrent use.
func String(s string) string {
	// Replacements only remove text and add Redacted, which holds no
	// keyword, so the keywords of the original text stay a superset.
	lower := strings.ToLower(s)
	for i := range rules {
		r := &rules[i]
		if r.matchesKeyword(lower) && r.re.MatchString(s) {
			s = r.re.ReplaceAllString(s, r.replacement)
		}
	}
	return s
}

func (r *rule) matchesKeyword(lower string) bool {
	for _, k := range r.keywords {
		if strings.Contains(lower, k) {
			return true
		}
	}
	return false
}
