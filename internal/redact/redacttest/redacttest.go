// Package redacttest holds the secrets that the tests of every package
// plant in error texts, tool answers and logs, to check that none reaches
// a log line, an error or a model: one message per shape of credential,
// written as a tool, a server, a Go library or a gateway writes it.
package redacttest

import "strings"

// A Secret is a credential in the message that carries it.
type Secret struct {
	Shape  string // what it is and how it is written
	Text   string // the message: it holds Secret
	Secret string // what must not reach the reader
}

// Secrets are built from pieces, so that no scanner mistakes this file for
// a leak.
var (
	r   = strings.Repeat
	b62 = r("aB3dE5gH7k", 6)
	hex = r("0a1b2c3d", 8)
)

// Secrets returns the credentials, one per shape, each in its message. The
// slice is new at each call.
func Secrets() []Secret {
	list := []struct{ shape, before, secret, after string }{
		// Keys and tokens with a known prefix.
		{"OpenAI key", "Incorrect API key provided: ", "sk-proj-" + b62[:40], ". You can find your API key at https://platform.openai.com."},
		{"Anthropic key", "request rejected: x-api-key: ", "sk-ant-api03-" + b62[:40] + "-AA", " is not valid"},
		{"Google API key", "API key not valid. Please pass a valid API key: ", "AIza" + "SyA-1234567890abcdefghijklmnopqrstu", ""},
		{"AWS access key id", "The AWS Access Key Id you provided does not exist in our records: ", "AKIA" + "IOSFODNN7EXAMPLE", ""},
		{"GitHub token", "git clone https://", "ghp_" + b62[:36], "@github.com/shop/orders.git: exit status 128"},
		{"GitLab token", "GET /api/v4/projects: 401, PRIVATE-TOKEN ", "glpat-" + b62[:20], " revoked"},
		{"Slack bot token", "slack: invalid_auth for token ", "xoxb-" + "1234567890-1234567890-" + b62[:24], ""},
		{"Stripe key", "stripe: No such API key: ", "sk_live_" + b62[:24], ""},
		{"Hugging Face token", "huggingface: 401 for ", "hf_" + strings.ToLower(b62[:34]), ""},
		{"Groq key", "groq: invalid key ", "gsk_" + b62[:52], ""},
		{"SendGrid key", "sendgrid: 403 for ", "SG." + b62[:22] + "." + b62[:43], ""},
		{"JSON web token", "session expired: ", "eyJ" + "hbGciOiJIUzI1NiJ9" + "." + "eyJ" + "zdWIiOiIxMjM0In0" + "." + "c2lnbmF0dXJlc2lnbmF0dXJl", " (exp 1700000000)"},
		{"private key block", "cannot parse key: ", "-----BEGIN " + "RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA" + r("x", 64) + "\n-----END RSA PRIVATE KEY-----", ": asn1: structure error"},
		// Tokens in the path of a URL.
		{"Telegram bot token in a URL, as *url.Error prints it", `Post "https://api.telegram.org/bot`, "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11", `/sendMessage": dial tcp 149.154.167.220:443: i/o timeout`},
		{"Telegram bot token, bare", "telegram: bot ", "1234567890:AA" + b62[:33], " was blocked by the user"},
		{"Slack webhook", "POST https://hooks.slack.com/services/", "T00000000/B00000000/" + b62[:24], ": 404 no_service"},
		{"Discord webhook", "POST https://discord.com/api/webhooks/", "123456789012345678/" + b62[:60], ": 401"},
		// Passwords in URLs and DSNs.
		{"password in a URL", "dial postgres://app:", "S3cr3tPassw0rd", "@db.internal:5432/orders: connection refused"},
		{"password in a URL, holding /", `Get "https://user:`, "pa/ss-w0rd", `@host.example.com/x": EOF`},
		{"password in a URL, holding @ and #", "amqp://guest:", "p@ss#w0rd", "@rabbit:5672/: access refused"},
		{"password in a percent-encoded URL", "redirect=https%3A%2F%2Fbob%3A", "Hunter2pw", "%40db.example.com%2Fx failed"},
		{"password in a MySQL DSN", "open app:", "Hunter2pw", "@tcp(db:3306)/shop: access denied"},
		// Headers.
		{"Basic credentials in Go's print of an http.Header", "request headers: map[Authorization:[Basic ", "dXNlcjpodW50ZXIy", "] Content-Type:[application/json]]"},
		{"Basic credentials in escaped JSON", `body: "{\"Authorization\":\"Basic `, "dXNlcjpodW50ZXIy", `\",\"x\":1}"`},
		{"bearer token in a YAML list of headers", "headers:\n- Authorization: Bearer ", "tok_" + b62[:30], "\n- Accept: application/json"},
		{"API key in a YAML list of headers", "headers:\n- Accept: application/json\n- x-api-key: ", "k3y-" + b62[:20], "\n"},
		{"bearer token in a header line", "upstream echoed: Authorization: Bearer ", "9f8e7d6c5b4a" + b62[:20], "\r\nHost: api"},
		{"bearer token anywhere", "token rejected: bearer ", "abc.def-123456", ""},
		{"Basic credentials anywhere", "proxy said: use Basic ", "Ym9iOnMzY3JldC1wdw==", " next time"},
		{"Digest credentials", `Proxy-Authorization: Digest username="bob", response="`, "6629fae49393a05397450978507c4ef1", `"`},
		{"Cookie header", "Cookie: session=", b62[:20], "; theme=dark"},
		{"API key header in %#v of an http.Header", `http.Header{"X-Api-Key":[]string{"`, "k3y-" + b62[:24], `"}}`},
		{"Azure subscription key header", "Ocp-Apim-Subscription-Key: ", hex[:32], ""},
		// Fields named as secrets.
		{"api_key in a query string", "GET /v1/orders?api_key=", "abc123xyz789", "&q=1: 401"},
		{"api_key in percent-encoded JSON", "payload=%7B%22api_key%22%3A%22", "sk-" + b62[:30], "%22%7D"},
		{"password in JSON", `{"user":"bob","password":"`, "correct horse battery 9", `"}`},
		{"password in escaped JSON", `body: "{\"password\":\"`, "hunter2pw", `\",\"user\":\"bob\"}"`},
		{"password in doubly escaped JSON", `log: "body: \"{\\\"password\\\":\\\"`, "hunter3pw", `\\\"}\""`},
		{"api key in HTML-encoded JSON", "<pre>{&quot;api_key&quot;: &quot;", "abc123xyz789", "&quot;}</pre>"},
		{"client_secret in YAML", "config:\n  client_secret: ", "abcdef123456", "\n  region: eu"},
		{"password in Go's print of a struct", "login failed: {User:bob Password:", "hunter4pw", " Port:5432}"},
		{"password in Go's print of a map", "config map[password:", "hunter5pw", " user:bob]"},
		{"password in env", "DB_PASS=", "hunter6pw", " DB_USER=bob"},
		{"AWS secret in env", "aws_secret_access_key=", "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY", ""},
		{"password in a Kubernetes env list", "env:\n- name: DB_PASSWORD\n  value: ", "hunter7pw", "\n- name: REGION\n  value: eu"},
		{"header in a HAR name/value pair", `"headers":[{"name":"Authorization","value":"Bearer `, "tok_" + b62[:20], `"}]`},
		{"password in XML", "<login><user>bob</user><password>", "hunter8pw", "</password></login>"},
		{"token as a command line flag", "exec: deploy --token ", "tok" + hex[:20], " --env prod: exit status 1"},
		{"Azure storage key", "DefaultEndpointsProtocol=https;AccountName=shop;AccountKey=", b62 + "==", ";EndpointSuffix=core.windows.net"},
		{"signature of a signed URL", "GET https://storage.googleapis.com/b/o?X-Goog-Signature=", hex, "&X-Goog-Date=20240101: 403"},
		{"security token of a presigned URL", "GET https://b.s3.amazonaws.com/o?X-Amz-Security-Token=", "IQoJb3JpZ2luX2VjE" + b62[:30], "&X-Amz-Date=1: 403"},
	}
	out := make([]Secret, len(list))
	for i, s := range list {
		out[i] = Secret{Shape: s.shape, Text: s.before + s.secret + s.after, Secret: s.secret}
	}
	return out
}
