package redact_test

import (
	"strings"
	"testing"

	"github.com/resilientgo/resilient/internal/redact"
	"github.com/resilientgo/resilient/internal/redact/redacttest"
)

// Whatever the text, String returns, redacting its result again changes
// nothing, and a secret of the kit written between two blanks of it is
// redacted.
func FuzzString(f *testing.F) {
	for _, rows := range families {
		for _, tt := range rows {
			f.Add(tt.in, 0)
		}
	}
	secrets := redacttest.Secrets()
	f.Fuzz(func(t *testing.T, s string, k int) {
		once := redact.String(s)
		if twice := redact.String(once); twice != once {
			t.Errorf("String(String(%q))\n got %q\nwant %q", s, twice, once)
		}
		secret := secrets[uint(k)%uint(len(secrets))]
		if strings.Contains(s, secret.Secret) {
			return // the secret outside its message may be in no shape at all
		}
		text := s + "\n" + secret.Text + "\n" + s
		if got := redact.String(text); strings.Contains(got, secret.Secret) {
			t.Errorf("%s: String(%q) = %q", secret.Shape, text, got)
		}
	})
}
