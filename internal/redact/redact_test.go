package redact_test

import (
	"strings"
	"testing"

	"github.com/resilientgo/resilient/internal/redact"
)

// Secrets are built from pieces, so that no scanner mistakes this file for
// a leak.
var (
	r    = strings.Repeat
	hex  = r("0a1b2c3d", 8) // 64 hex digits
	b62  = r("aB3dE5gH7k", 6)
	aws  = "AKIA" + "IOSFODNN7EXAMPLE"
	jwt  = "eyJ" + "hbGciOiJIUzI1NiJ9" + "." + "eyJ" + "zdWIiOiIxMjM0In0" + "." + "c2lnbmF0dXJlc2lnbmF0dXJl"
	pkey = "-----BEGIN " + "RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA" + r("x", 64) + "\n-----END RSA PRIVATE KEY-----"
)

func TestString(t *testing.T) {
	const X = redact.Redacted
	tests := []struct{ name, in, want string }{
		// Passwords in URLs.
		{"postgres URL", "dial postgres://app:pw@db.internal:5432/orders failed", "dial postgres://app:" + X + "@db.internal:5432/orders failed"},
		{"redis URL", "redis://default:s3cr3t@cache:6379/0", "redis://default:" + X + "@cache:6379/0"},
		{"URL without a user", "redis://:s3cr3t@cache:6379", "redis://:" + X + "@cache:6379"},
		{"password with an @", "amqp://guest:p@ss@rabbit/", "amqp://guest:" + X + "@rabbit/"},
		{"https URL", `GET "https://bob:hunter2@api.example.com/v1"`, `GET "https://bob:` + X + `@api.example.com/v1"`},
		{"MySQL DSN", "open app:hunter2@tcp(db:3306)/shop: refused", "open app:" + X + "@tcp(db:3306)/shop: refused"},
		// AWS.
		{"AWS access key id", "aws: " + aws + " not authorized", "aws: " + X + " not authorized"},
		{"AWS secret, env", "aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY", "aws_secret_access_key=" + X},
		{"AWS secret, YAML", "AWS_SECRET_ACCESS_KEY: wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY\nregion: eu", "AWS_SECRET_ACCESS_KEY: " + X + "\nregion: eu"},
		{"AWS session token", "AWS_SESSION_TOKEN=IQoJb3JpZ2luX2VjE" + b62, "AWS_SESSION_TOKEN=" + X},
		// Slack.
		{"Slack bot token", "slack xoxb-" + "1234567890-1234567890-" + b62[:24], "slack " + X},
		{"Slack app token", "token xapp-" + "1-A0123456789-1234567890123-" + hex, "token " + X},
		{"Slack webhook", "POST https://hooks.slack.com/services/T000/B000/" + b62[:24] + ": 404",
			"POST https://hooks.slack.com/services/" + X + ": 404"},
		// GitHub and GitLab.
		{"GitHub token", "github ghp_" + b62[:36], "github " + X},
		{"GitHub fine-grained token", "github_pat_" + b62[:22] + "_" + b62[:40], X},
		{"GitLab token", "PRIVATE-TOKEN glpat-" + b62[:20], "PRIVATE-TOKEN " + X},
		// Model providers.
		{"OpenAI key", "Incorrect API key provided: sk-proj-" + b62[:40] + ".", "Incorrect API key provided: " + X + "."},
		{"Anthropic key", "x-api-key: sk-ant-api03-" + b62[:40], "x-api-key: " + X},
		{"Google API key", "google key AIza" + "SyA-1234567890abcdefghijklmnopqrstu", "google key " + X},
		{"Google OAuth token", "ya29." + b62[:40] + " expired", X + " expired"},
		{"Hugging Face token", "hf_" + strings.ToLower(b62[:34]), X},
		{"Groq key", "gsk_" + b62[:52], X},
		// Tokens and headers.
		{"JSON web token", "session " + jwt + " expired", "session " + X + " expired"},
		{"bearer header", "Authorization: Bearer " + jwt, "Authorization: " + X},
		{"basic header in JSON", `{"authorization": "Basic dXNlcjpwYXNz"}`, `{"authorization": "` + X + `"}`},
		{"bearer anywhere", "token rejected: bearer abc.def-123", "token rejected: bearer " + X},
		{"cookie header", "Cookie: session=" + b62[:20] + "; theme=dark", "Cookie: " + X},
		{"private key block", "bad key: " + pkey + " (parse error)", "bad key: -----BEGIN RSA PRIVATE KEY-----" + X + " (parse error)"},
		{"private key block cut short", "key: -----BEGIN " + "PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "key: -----BEGIN PRIVATE KEY-----" + X},
		// Stripe and others.
		{"Stripe secret key", "stripe: sk_live_" + b62[:24], "stripe: " + X},
		{"Stripe webhook secret", "whsec_" + b62[:32], X},
		{"SendGrid key", "SG." + b62[:22] + "." + b62[:43], X},
		{"npm token", "npm_" + b62[:36], X},
		{"DigitalOcean token", "dop_v1_" + hex, X},
		// Fields named as secrets, in every style.
		{"api_key in a query", "GET /v1/x?api_key=abc123&q=1", "GET /v1/x?api_key=" + X + "&q=1"},
		{"token in a query", "GET /hook?token=abc123", "GET /hook?token=" + X},
		{"signature in a query", "GET /b/o?X-Amz-Signature=" + hex + "&X-Amz-Date=1", "GET /b/o?X-Amz-Signature=" + X + "&X-Amz-Date=1"},
		{"api_key in JSON", `body {"api_key": "abc123", "id": 7}`, `body {"api_key": "` + X + `", "id": 7}`},
		{"password in JSON with spaces", `{"password":"correct horse battery"}`, `{"password":"` + X + `"}`},
		{"password in JSON with an escaped quote", `{"password":"ab\"cd"}`, `{"password":"` + X + `"}`},
		{"password in escaped JSON", `body: "{\"password\":\"hunter2\",\"user\":\"bob\"}"`, `body: "{\"password\":\"` + X + `\",\"user\":\"bob\"}"`},
		{"password, env", "password=hunter2 user=bob", "password=" + X + " user=bob"},
		{"password, single-quoted", "PGPASSWORD='hunter 2' psql", "PGPASSWORD='" + X + "' psql"},
		{"client secret, YAML", "client_secret: abcdef123456", "client_secret: " + X},
		{"camelCase names", `{"apiKey":"k1","accessToken":"t1","clientSecret":"s1"}`, `{"apiKey":"` + X + `","accessToken":"` + X + `","clientSecret":"` + X + `"}`},
		{"Azure connection string", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + b62 + "==;EndpointSuffix=core", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + X + ";EndpointSuffix=core"},
		{"DB_PASS", "DB_PASS=hunter2", "DB_PASS=" + X},
		{"Go map printed", "map[password:hunter2 user:bob]", "map[password:" + X + " user:bob]"},
		{"already redacted", "password=" + X, "password=" + X},

		// Left alone.
		{"token counts", "max_tokens: 4096, 5000 tokens: too many", "max_tokens: 4096, 5000 tokens: too many"},
		{"token type", "token_type: bearer", "token_type: bearer"},
		{"bearer named", "missing bearer token", "missing bearer token"},
		{"keys that are not secrets", "primary_key: id, cache_key=user:7, idempotency_key=charge:ab12, monkey=banana",
			"primary_key: id, cache_key=user:7, idempotency_key=charge:ab12, monkey=banana"},
		{"look-alike words", "risk-free task-force sk-short", "risk-free task-force sk-short"},
		{"authorization as a word", "payment authorization: card declined", "payment authorization: card declined"},
		{"a port number", "dial tcp 10.0.0.7:35429: connection refused", "dial tcp 10.0.0.7:35429: connection refused"},
		{"a URL with a port", "GET http://host:8080/path?page=2", "GET http://host:8080/path?page=2"},
		{"a URL with a user only", "ssh://git@github.com/org/repo.git", "ssh://git@github.com/org/repo.git"},
		{"an email address", "mail bob@example.com: mailbox full", "mail bob@example.com: mailbox full"},
		{"a time", "at 2024-01-01T10:00:00Z", "at 2024-01-01T10:00:00Z"},
		{"key as a word", "the key: missing", "the key: missing"},
		{"a password rule", "passwords must be 8 characters", "passwords must be 8 characters"},
		{"a keyboard", "keyboard: qwerty", "keyboard: qwerty"},
		{"a secretary", "secretary: Ann", "secretary: Ann"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		if got := redact.String(tt.in); got != tt.want {
			t.Errorf("%s: String(%q)\n got %q\nwant %q", tt.name, tt.in, got, tt.want)
		}
	}
}

type credentials struct {
	User     string
	Password []byte
	Port     int
}

func TestText(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{nil, "<nil>"},
		{"s", "s"},
		{[]byte("password=hunter2"), "password=hunter2"},
		{credentials{"bob", []byte("hunter2"), 5432}, "{bob hunter2 %!s(int=5432)}"},
		{&credentials{"bob", []byte("hunter2"), 5432}, "&{bob hunter2 %!s(int=5432)}"},
		{map[string][]byte{"password": []byte("hunter2")}, "map[password:hunter2]"},
		{struct{ N int }{7}, "{N:7}"},
		{[]int{1, 2}, "[1 2]"},
	}
	for _, tt := range tests {
		if got := redact.Text(tt.in); got != tt.want {
			t.Errorf("Text(%#v): got %q, want %q", tt.in, got, tt.want)
		}
	}
}
