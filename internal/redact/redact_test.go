package redact_test

import (
	"strings"
	"testing"

	"github.com/resilientgo/resilient/internal/redact"
	"github.com/resilientgo/resilient/internal/redact/redacttest"
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
	tg   = "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11" // Telegram's example bot token
)

// X is what a secret becomes.
const X = redact.Redacted

type row struct{ name, in, want string }

// families are the shapes of secrets, each with the rows that must be
// redacted and the near misses that must stay as they are.
var families = map[string][]row{
	"passwords in URLs": {
		{"postgres", "dial postgres://app:pw@db.internal:5432/orders failed", "dial postgres://app:" + X + "@db.internal:5432/orders failed"},
		{"redis", "redis://default:s3cr3t@cache:6379/0", "redis://default:" + X + "@cache:6379/0"},
		{"no user", "redis://:s3cr3t@cache:6379", "redis://:" + X + "@cache:6379"},
		{"an @ in the password", "amqp://guest:p@ss@rabbit/", "amqp://guest:" + X + "@rabbit/"},
		{"https, in quotes", `GET "https://bob:hunter2@api.example.com/v1"`, `GET "https://bob:` + X + `@api.example.com/v1"`},
		{"a / in the password, as *url.Error prints it", `Get "https://user:pa/ss@host.example.com/x": EOF`, `Get "https://user:` + X + `@host.example.com/x": EOF`},
		{"a ? in the password", "https://user:pa?ss@host/x", "https://user:" + X + "@host/x"},
		{"@ and # in the password", "amqp://guest:p@ss#w0rd@rabbit:5672/", "amqp://guest:" + X + "@rabbit:5672/"},
		{"slashes in the password", "https://user:a/b/c@host", "https://user:" + X + "@host"},
		{"an IPv6 host", "http://bob:pw@[::1]:8080/x", "http://bob:" + X + "@[::1]:8080/x"},
		{"percent-encoded", "redirect=https%3A%2F%2Fbob%3Ahunter2%40db.example.com%2Fx", "redirect=https%3A%2F%2Fbob%3A" + X + "%40db.example.com%2Fx"},
		{"in escaped JSON", `{\"dsn\":\"postgres://app:pw@db/x\"}`, `{\"dsn\":\"postgres://app:` + X + `@db/x\"}`},
		{"an email in the query", "https://bob:pw@host/x?email=ann@example.com", "https://bob:" + X + "@host/x?email=ann@example.com"},
		{"MySQL DSN", "open app:hunter2@tcp(db:3306)/shop: refused", "open app:" + X + "@tcp(db:3306)/shop: refused"},
		{"MySQL DSN, / and @ in the password", "dsn=app:p@ss/w@tcp(db:3306)/shop", "dsn=app:" + X + "@tcp(db:3306)/shop"},
		{"MySQL DSN over a socket", "app:pw@unix(/tmp/mysql.sock)/shop", "app:" + X + "@unix(/tmp/mysql.sock)/shop"},
		{"a token as the user", "https://ghp_" + b62[:36] + ":x-oauth-basic@github.com/o/r", "https://" + X + ":" + X + "@github.com/o/r"},
		// Left alone.
		{"a port", "GET http://host:8080/path?page=2", "GET http://host:8080/path?page=2"},
		{"a port, an email in the path", "GET http://localhost:8080/users/bob@example.com: 404", "GET http://localhost:8080/users/bob@example.com: 404"},
		{"a port, an email in the query", "GET http://api:8080/users?email=a@b.com failed", "GET http://api:8080/users?email=a@b.com failed"},
		{"a user only", "ssh://git@github.com/org/repo.git", "ssh://git@github.com/org/repo.git"},
		{"a scoped package", "https://registry.npmjs.org/@types/node", "https://registry.npmjs.org/@types/node"},
		{"a time in the query", "http://host/a?t=10:30&by=bob@example.com", "http://host/a?t=10:30&by=bob@example.com"},
		{"an email", "mail bob@example.com: mailbox full", "mail bob@example.com: mailbox full"},
	},
	"keys and tokens with a known prefix": {
		{"OpenAI key", "Incorrect API key provided: sk-proj-" + b62[:40] + ".", "Incorrect API key provided: " + X + "."},
		{"OpenAI legacy key", "key sk-" + b62[:48], "key " + X},
		{"Anthropic key", "x-api-key: sk-ant-api03-" + b62[:40], "x-api-key: " + X},
		{"OpenRouter key", "sk-or-v1-" + hex, X},
		{"a short key with a digit", "panic: sk-live-SECRET123", "panic: " + X},
		{"Groq key", "gsk_" + b62[:52], X},
		{"xAI key", "xai-" + b62[:40], X},
		{"Perplexity key", "pplx-" + b62[:40], X},
		{"Replicate token", "r8_" + b62[:37], X},
		{"Fireworks key", "fw_" + b62[:24], X},
		{"LangSmith key", "lsv2_pt_" + hex[:32] + "_" + hex[:10], X},
		{"Tavily key", "tvly-dev-" + b62[:32], X},
		{"Hugging Face token", "hf_" + strings.ToLower(b62[:34]), X},
		{"Google API key", "google key AIza" + "SyA-1234567890abcdefghijklmnopqrstu", "google key " + X},
		{"Google OAuth token", "ya29." + b62[:40] + " expired", X + " expired"},
		{"Google client secret", "GOCSPX-" + b62[:28], X},
		{"AWS access key id", "aws: " + aws + " not authorized", "aws: " + X + " not authorized"},
		{"AWS Bedrock key", "ABSK" + b62 + "aB3d", X},
		{"Databricks token", "dapi" + hex[:32], X},
		{"GitHub token", "github ghp_" + b62[:36], "github " + X},
		{"GitHub fine-grained token", "github_pat_" + b62[:22] + "_" + b62[:40], X},
		{"GitLab token", "PRIVATE-TOKEN glpat-" + b62[:20], "PRIVATE-TOKEN " + X},
		{"npm token", "npm_" + b62[:36], X},
		{"PyPI token", "pypi-AgEIcHlwaS5vcmc" + b62, X},
		{"Slack bot token", "slack xoxb-" + "1234567890-1234567890-" + b62[:24], "slack " + X},
		{"Slack app token", "token xapp-" + "1-A0123456789-1234567890123-" + hex, "token " + X},
		{"Stripe secret key", "stripe: sk_live_" + b62[:24], "stripe: " + X},
		{"Stripe webhook secret", "whsec_" + b62[:32], X},
		{"SendGrid key", "SG." + b62[:22] + "." + b62[:43], X},
		{"Mailgun key", "mailgun key-" + hex[:32] + " rejected", "mailgun " + X + " rejected"},
		{"Twilio key", "SK" + hex[:32], X},
		{"Square token", "sq0atp-" + b62[:22], X},
		{"DigitalOcean token", "dop_v1_" + hex, X},
		{"Shopify token", "shpat_" + hex[:32], X},
		{"Vault token", "hvs." + b62[:24], X},
		{"Doppler token", "dp.pt." + b62[:43], X},
		{"Pulumi token", "pul-" + hex[:40], X},
		{"Postman key", "PMAK-" + hex[:24] + "-" + hex[:34], X},
		{"Grafana token", "glsa_" + b62[:32] + "_" + hex[:8], X},
		{"New Relic key", "NRAK-" + strings.ToUpper(b62[:27]), X},
		{"Sentry token", "sntrys_" + b62[:50], X},
		{"Notion token", "ntn_" + "12345678901" + b62[:35], X},
		{"Linear key", "lin_api_" + b62[:40], X},
		{"Atlassian token", "ATATT3" + b62 + b62, X},
		{"PlanetScale token", "pscale_tkn_" + b62[:40], X},
		{"Heroku key", "HRKU-" + b62[:60], X},
		{"1Password token", "ops_eyJ" + b62 + b62, X},
		{"JSON web token", "session " + jwt + " expired", "session " + X + " expired"},
		// Left alone.
		{"words with a prefix inside", "risk-free task-force ask-me", "risk-free task-force ask-me"},
		{"a short sk-", "sk-short sk-learn-compatible", "sk-short sk-learn-compatible"},
		{"an AWS-like word", "AKIAB ASIA-Pacific", "AKIAB ASIA-Pacific"},
		{"a Stripe object id", "charge ch_3MmlLrLkdIwHu7ix0snN0B15 for cus_NffrFeUfNV2Hib", "charge ch_3MmlLrLkdIwHu7ix0snN0B15 for cus_NffrFeUfNV2Hib"},
		{"ids of model providers", "req_8f3a9b2c1d chatcmpl-9xYz12AbC msg_01XFDUDYJgAACzvnptvVoYEL toolu_01A09q90qw90lq917835lq9 org-AbC123",
			"req_8f3a9b2c1d chatcmpl-9xYz12AbC msg_01XFDUDYJgAACzvnptvVoYEL toolu_01A09q90qw90lq917835lq9 org-AbC123"},
		{"a SHA-256", "sha256:" + hex, "sha256:" + hex},
		{"a UUID", "order 123e4567-e89b-12d3-a456-426614174000 not found", "order 123e4567-e89b-12d3-a456-426614174000 not found"},
		{"an order number", "order ORD-2024-000123 and #A1B2C3D4E5F6G7H8 shipped", "order ORD-2024-000123 and #A1B2C3D4E5F6G7H8 shipped"},
		{"an ARN", "arn:aws:iam::123456789012:role/agent is not authorized", "arn:aws:iam::123456789012:role/agent is not authorized"},
		{"a Mailgun-like word", "cache key-value store", "cache key-value store"},
	},
	"tokens in URL paths": {
		{"Telegram, as *url.Error prints it", `Post "https://api.telegram.org/bot` + tg + `/sendMessage": dial tcp 149.154.167.220:443: i/o timeout`,
			`Post "https://api.telegram.org/bot` + X + `/sendMessage": dial tcp 149.154.167.220:443: i/o timeout`},
		{"Telegram, a file URL", "GET https://api.telegram.org/file/bot" + tg + "/photos/1.jpg: 404", "GET https://api.telegram.org/file/bot" + X + "/photos/1.jpg: 404"},
		{"Telegram, bare", "TELEGRAM_TOKEN is 1234567890:AA" + b62[:33] + " (bot)", "TELEGRAM_TOKEN is " + X + " (bot)"},
		{"Telegram, percent-encoded", "url=https%3A%2F%2Fapi.telegram.org%2Fbot" + tg + "%2FgetMe", "url=https%3A%2F%2Fapi.telegram.org%2Fbot" + X + "%2FgetMe"},
		{"Slack webhook", "POST https://hooks.slack.com/services/T000/B000/" + b62[:24] + ": 404", "POST https://hooks.slack.com/services/" + X + ": 404"},
		{"Discord webhook", "POST https://discord.com/api/webhooks/123456789012345678/" + b62[:60] + ": 401", "POST https://discord.com/api/webhooks/" + X + ": 401"},
		{"Teams webhook", "POST https://shop.webhook.office.com/webhookb2/" + hex[:8] + "@" + hex[:8] + "/IncomingWebhook/" + hex[:32] + "/" + hex[:8] + ": 400",
			"POST https://shop.webhook.office.com/webhookb2/" + X + ": 400"},
		// Left alone.
		{"a robot", "robot 123456: ready; chatbot 42", "robot 123456: ready; chatbot 42"},
		{"a port", "dial tcp 10.0.0.7:35429: connection refused", "dial tcp 10.0.0.7:35429: connection refused"},
		{"a time", "at 2024-01-01T10:00:00Z, 12:30:45", "at 2024-01-01T10:00:00Z, 12:30:45"},
		{"an id and a word", "error 12345:Abc happened", "error 12345:Abc happened"},
		{"a bot's path", "GET /bot/status: 200", "GET /bot/status: 200"},
	},
	"private key blocks": {
		{"RSA", "bad key: " + pkey + " (parse error)", "bad key: -----BEGIN RSA PRIVATE KEY-----" + X + " (parse error)"},
		{"cut short", "key: -----BEGIN " + "PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "key: -----BEGIN PRIVATE KEY-----" + X},
		{"in a JSON string", `{"private_key":"-----BEGIN ` + `PRIVATE KEY-----\nMIIEvQ\n-----END PRIVATE KEY-----\n"}`, `{"private_key":"` + X + `"}`},
		{"OpenSSH", "-----BEGIN " + "OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----", "-----BEGIN OPENSSH PRIVATE KEY-----" + X},
		{"a header left open hides nothing", "-----BEGIN PRIVATE KEY\nhttps://u:pw@h\n-----BEGIN X", "-----BEGIN PRIVATE KEY\nhttps://u:" + X + "@h\n-----BEGIN X"},
		// Left alone.
		{"a certificate", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----"},
	},
	"headers": {
		{"bearer, a header line", "Authorization: Bearer " + jwt, "Authorization: " + X},
		{"basic, JSON", `{"authorization": "Basic dXNlcjpwYXNz"}`, `{"authorization": "` + X + `"}`},
		{"basic, Go's print of an http.Header", "request headers: map[Authorization:[Basic dXNlcjpwYXNzd29yZA==] Content-Type:[application/json]]",
			"request headers: map[Authorization:[" + X + "] Content-Type:[application/json]]"},
		{"basic, %#v of an http.Header", `http.Header{"Authorization":[]string{"Basic dXNlcjpwYXNz"}, "Accept":[]string{"*/*"}}`,
			`http.Header{"Authorization":[]string{"` + X + `"}, "Accept":[]string{"*/*"}}`},
		{"basic, escaped JSON", `body: "{\"Authorization\":\"Basic dXNlcjpwYXNzd29yZA==\",\"x\":1}"`, `body: "{\"Authorization\":\"` + X + `\",\"x\":1}"`},
		{"bearer, a YAML list", "headers:\n- Authorization: Bearer abcdef123456\n- Accept: application/json", "headers:\n- Authorization: " + X + "\n- Accept: application/json"},
		{"bearer, a quoted YAML list", "headers:\n  - 'Authorization: Bearer abcdef123456'", "headers:\n  - 'Authorization: " + X + "'"},
		{"bearer, curl", `curl -H "Authorization: Bearer abc123" https://api`, `curl -H "Authorization: ` + X + `" https://api`},
		{"bearer, percent-encoded", "h=Authorization%3A%20Bearer%20abc123def", "h=Authorization%3A%20" + X},
		{"bearer, form-encoded", "h=Authorization%3A+Bearer+abc123def&x=1", "h=Authorization%3A+" + X + "&x=1"},
		{"token scheme", "Authorization: token ghx" + hex[:20], "Authorization: " + X},
		{"digest", `Proxy-Authorization: Digest username="bob", response="` + hex[:32] + `"` + "\nHost: x", "Proxy-Authorization: " + X + "\nHost: x"},
		{"AWS signature", "Authorization: AWS4-HMAC-SHA256 Credential=" + aws + "/20240101/us-east-1/s3/aws4_request, Signature=" + hex, "Authorization: " + X},
		{"no scheme", "authorization=" + hex[:32], "authorization=" + X},
		{"an unknown scheme", "Authorization: Custom " + hex[:20], "Authorization: " + X},
		{"cookie", "Cookie: session=" + b62[:20] + "; theme=dark", "Cookie: " + X},
		{"set-cookie in Go's print of an http.Header", "map[Set-Cookie:[sid=" + b62[:20] + "; HttpOnly]]", "map[Set-Cookie:[" + X + "]]"},
		{"bearer anywhere", "token rejected: bearer abc.def-123", "token rejected: bearer " + X},
		{"basic anywhere", "proxy said: use Basic Ym9iOnMzY3JldC1wdw== next time", "proxy said: use Basic " + X + " next time"},
		{"API key header, Go's print of an http.Header", "map[Content-Type:[application/json] X-Api-Key:[abc123def456]]", "map[Content-Type:[application/json] X-Api-Key:[" + X + "]]"},
		{"API key header, a YAML list", "- x-api-key: abcdef123456\n- accept: json", "- x-api-key: " + X + "\n- accept: json"},
		{"Azure subscription key", "Ocp-Apim-Subscription-Key: " + hex[:32], "Ocp-Apim-Subscription-Key: " + X},
		{"Google API key header", "X-Goog-Api-Key: abc123xyz", "X-Goog-Api-Key: " + X},
		// Left alone.
		{"authorization as a word", "payment authorization: card declined", "payment authorization: card declined"},
		{"bearer named", "missing bearer token", "missing bearer token"},
		{"basic as a word", "Basic plan; basic auth failed; Basic 12345678", "Basic plan; basic auth failed; Basic 12345678"},
		{"other headers", "map[Accept:[application/json] X-Request-Id:[req_8f3a9b2c]]", "map[Accept:[application/json] X-Request-Id:[req_8f3a9b2c]]"},
		{"cookie as a word", "cookie consent required", "cookie consent required"},
	},
	"fields named as secrets": {
		{"query string", "GET /v1/x?api_key=abc123&q=1", "GET /v1/x?api_key=" + X + "&q=1"},
		{"query string, token", "GET /hook?token=abc123", "GET /hook?token=" + X},
		{"query string, key", "GET /v1/models?key=abc123&alt=json", "GET /v1/models?key=" + X + "&alt=json"},
		{"query string, signature", "GET /b/o?X-Amz-Signature=" + hex + "&X-Amz-Date=1", "GET /b/o?X-Amz-Signature=" + X + "&X-Amz-Date=1"},
		{"query string, SAS signature", "GET /c/b?sv=2022&sig=abc%2Bdef%3D&se=1", "GET /c/b?sv=2022&sig=" + X + "&se=1"},
		{"JSON", `body {"api_key": "abc123", "id": 7}`, `body {"api_key": "` + X + `", "id": 7}`},
		{"JSON with spaces in the value", `{"password":"correct horse battery"}`, `{"password":"` + X + `"}`},
		{"JSON with an escaped quote", `{"password":"ab\"cd"}`, `{"password":"` + X + `"}`},
		{"escaped JSON", `body: "{\"password\":\"hunter2\",\"user\":\"bob\"}"`, `body: "{\"password\":\"` + X + `\",\"user\":\"bob\"}"`},
		{"doubly escaped JSON", `"{\\\"password\\\":\\\"hunter2\\\"}"`, `"{\\\"password\\\":\\\"` + X + `\\\"}"`},
		{"JSON with \\u escapes", `{\u0022api_key\u0022:\u0022abc123\u0022}`, `{\u0022api_key\u0022:\u0022` + X + `\u0022}`},
		{"percent-encoded JSON", "q=%7B%22api_key%22%3A%22sk-abc%22%7D", "q=%7B%22api_key%22%3A%22" + X + "%22%7D"},
		{"percent-encoded JSON, spaced", "q=%7B%22api_key%22%3A+%22abc123%22%7D", "q=%7B%22api_key%22%3A+%22" + X + "%22%7D"},
		{"percent-encoded query", "next=%2Fcb%3Fapi_key%3Dabc123%26q%3D1", "next=%2Fcb%3Fapi_key%3D" + X + "%26q%3D1"},
		{"form body", "grant_type=client_credentials&client_secret=abc123&scope=x", "grant_type=client_credentials&client_secret=" + X + "&scope=x"},
		{"HTML-encoded JSON", "&quot;api_key&quot;: &quot;abc123&quot;", "&quot;api_key&quot;: &quot;" + X + "&quot;"},
		{"env", "password=hunter2 user=bob", "password=" + X + " user=bob"},
		{"env, DB_PASS", "DB_PASS=hunter2", "DB_PASS=" + X},
		{"env, AWS secret", "aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY", "aws_secret_access_key=" + X},
		{"env, AWS session token", "AWS_SESSION_TOKEN=IQoJb3JpZ2luX2VjE" + b62, "AWS_SESSION_TOKEN=" + X},
		{"shell, single-quoted", "PGPASSWORD='hunter 2' psql", "PGPASSWORD='" + X + "' psql"},
		{"shell, export", `export OPENAI_API_KEY="abc123"`, `export OPENAI_API_KEY="` + X + `"`},
		{"YAML", "client_secret: abcdef123456", "client_secret: " + X},
		{"YAML, AWS", "AWS_SECRET_ACCESS_KEY: wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY\nregion: eu", "AWS_SECRET_ACCESS_KEY: " + X + "\nregion: eu"},
		{"YAML, a word at the end of its line", "db:\n  password: letmein\n  user: bob", "db:\n  password: " + X + "\n  user: bob"},
		{"YAML, a list", "- api_key: abc123\n- region: eu", "- api_key: " + X + "\n- region: eu"},
		{"YAML flow", "{password: hunter, user: bob}", "{password: " + X + ", user: bob}"},
		{"camelCase names", `{"apiKey":"k1","accessToken":"t1","clientSecret":"s1"}`, `{"apiKey":"` + X + `","accessToken":"` + X + `","clientSecret":"` + X + `"}`},
		{"Go map", "map[password:hunter2 user:bob]", "map[password:" + X + " user:bob]"},
		{"Go map of quoted strings", `map["token":"abc123" "user":"bob"]`, `map["token":"` + X + `" "user":"bob"]`},
		{"Go struct, %+v", "{User:bob Password:hunter2 Port:5432}", "{User:bob Password:" + X + " Port:5432}"},
		{"url.Values", "map[api_key:[abc123] q:[shoes]]", "map[api_key:[" + X + "] q:[shoes]]"},
		{"Azure connection string", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + b62 + "==;EndpointSuffix=core", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + X + ";EndpointSuffix=core"},
		{"Ruby hash", `{:api_key => "abc123"}`, `{:api_key => "` + X + `"}`},
		{"Go :=", `apiKey := "abc123"`, `apiKey := "` + X + `"`},
		{"XML", "<login><user>bob</user><password>hunter2</password></login>", "<login><user>bob</user><password>" + X + "</password></login>"},
		{"command line flag", "exec: deploy --token abc123 --env prod", "exec: deploy --token " + X + " --env prod"},
		{"command line flag with =", "mysql --password=hunter2 -u bob", "mysql --password=" + X + " -u bob"},
		{"Kubernetes env", "env:\n- name: DB_PASSWORD\n  value: hunter2\n- name: REGION\n  value: eu", "env:\n- name: DB_PASSWORD\n  value: " + X + "\n- name: REGION\n  value: eu"},
		{"HAR headers", `[{"name":"Authorization","value":"Bearer abc.def"},{"name":"Accept","value":"json"}]`, `[{"name":"Authorization","value":"` + X + `"},{"name":"Accept","value":"json"}]`},
		{"Postman keys", `{"key":"X-Api-Key","value":"abc123","type":"text"}`, `{"key":"X-Api-Key","value":"` + X + `","type":"text"}`},
		{"fields between a pair's name and value", `{"name":"Authorization","note":"password=hunter2","value":"Bearer abc123"}`,
			`{"name":"Authorization","note":"password=` + X + `","value":"` + X + `"}`},
		{"a reference left open hides nothing", "secret: ${X\npassword=hunter2", "secret: " + X + "\npassword=" + X},
		{"Docker config", `{"auths":{"ghcr.io":{"auth":"Ym9iOnMzY3JldA=="}}}`, `{"auths":{"ghcr.io":{"auth":"` + X + `"}}}`},
		{"a scheme before the key", "api_key: Bearer abc123", "api_key: " + X},
		{"already redacted", "password=" + X + " token: " + X, "password=" + X + " token: " + X},
		// Left alone.
		{"counts of tokens", "max_tokens: 4096, 5000 tokens: too many, max_token=12", "max_tokens: 4096, 5000 tokens: too many, max_token=12"},
		{"a token type", "token_type: bearer", "token_type: bearer"},
		{"pagination and a tokenizer's tokens", `{"page_token":"CAUQAA","nextPageToken":"abc123","eos_token":"</s>"}`, `{"page_token":"CAUQAA","nextPageToken":"abc123","eos_token":"</s>"}`},
		{"keys that are not secrets", "primary_key: id, cache_key=user:7, idempotency_key=charge:ab12, monkey=banana",
			"primary_key: id, cache_key=user:7, idempotency_key=charge:ab12, monkey=banana"},
		{"ids named after secrets", "private_key_id: 9f8e7d, client_id=abc123, secret_name: prod-db", "private_key_id: 9f8e7d, client_id=abc123, secret_name: prod-db"},
		{"a key as a word", "the key: missing", "the key: missing"},
		{"prose after a name", "invalid api_key: must start with sk-; wrong password: try again", "invalid api_key: must start with sk-; wrong password: try again"},
		{"a word saying what is wrong", "api_key: missing\npassword=invalid, token: expired", "api_key: missing\npassword=invalid, token: expired"},
		{"placeholders", `{"api_key": null, "token": "${OPENAI_API_KEY}", "password": "", "secret": "****", "auth": "<nil>"}`,
			`{"api_key": null, "token": "${OPENAI_API_KEY}", "password": "", "secret": "****", "auth": "<nil>"}`},
		{"an environment variable", "api_key=$OPENAI_API_KEY; client_secret: {{ .Values.secret }}", "api_key=$OPENAI_API_KEY; client_secret: {{ .Values.secret }}"},
		{"the shell's directory", "PWD=/home/bob OLDPWD=/tmp", "PWD=/home/bob OLDPWD=/tmp"},
		{"words", "passwords must be 8 characters; keyboard: qwerty; secretary: Ann; passport: 12AB; compass=north; bypass=1",
			"passwords must be 8 characters; keyboard: qwerty; secretary: Ann; passport: 12AB; compass=north; bypass=1"},
		{"auth as a word", `{"auth": "required"} auth: failed`, `{"auth": "required"} auth: failed`},
		{"comparisons and paths", "if token == nil; std::token::Kind", "if token == nil; std::token::Kind"},
		{"a non-secret pair", "- name: REGION\n  value: eu-west-1", "- name: REGION\n  value: eu-west-1"},
		{"percent-encoded ids", "q=%7B%22order_id%22%3A%22A123%22%7D", "q=%7B%22order_id%22%3A%22A123%22%7D"},
		{"empty", "", ""},
	},
}

func TestString(t *testing.T) {
	for family, rows := range families {
		t.Run(family, func(t *testing.T) {
			for _, tt := range rows {
				if got := redact.String(tt.in); got != tt.want {
					t.Errorf("%s: String(%q)\n got %q\nwant %q", tt.name, tt.in, got, tt.want)
				}
			}
		})
	}
}

// Redacting twice changes nothing more.
func TestStringIsIdempotent(t *testing.T) {
	for _, rows := range families {
		for _, tt := range rows {
			once := redact.String(tt.in)
			if twice := redact.String(once); twice != once {
				t.Errorf("%s: String(String(%q))\n got %q\nwant %q", tt.name, tt.in, twice, once)
			}
		}
	}
}

// Every secret of the kit the other packages' tests use is redacted, and
// the text around it is kept.
func TestStringRedactsTheKit(t *testing.T) {
	for _, s := range redacttest.Secrets() {
		got := redact.String(s.Text)
		if strings.Contains(got, s.Secret) || !strings.Contains(got, X) {
			t.Errorf("%s: String(%q) = %q", s.Shape, s.Text, got)
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
