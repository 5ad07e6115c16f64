package tools

import "github.com/resilientgo/resilient/internal/redact"

// Redact returns s with the credentials it plainly contains replaced by
// "[REDACTED]" and the rest as it was: keys and tokens of well-known
// shapes (OpenAI, Anthropic, AWS, Google, GitHub, GitLab, Slack, Stripe,
// Hugging Face, ...), JSON web tokens, tokens in URL paths (Telegram bots,
// webhooks), passwords in URLs, private key blocks, Authorization and
// Cookie headers, bearer tokens and Basic credentials, and the values of
// fields named like api_key, X-Api-Key, *_token, client_secret, password or
// aws_secret_access_key, in JSON, YAML, env, query string, Go's print of a
// map or an http.Header, XML and command line styles, also when escaped in
// a string, percent-encoded or HTML-encoded (docs/redaction.md lists them).
// Its cost is linear in the length of s. It is the default [Redactor] and
// is safe for concurrent use.
func Redact(s string) string { return redact.String(s) }
