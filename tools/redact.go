package tools

import "github.com/resilientgo/resilient/internal/redact"

// Redact returns s with the credentials it plainly contains replaced by
// "[REDACTED]": keys and tokens of well-known shapes (OpenAI, Anthropic,
// AWS, Google, GitHub, GitLab, Slack, Stripe, Hugging Face, ...), JSON web
// tokens, passwords in URLs, private key blocks, Authorization and Cookie
// headers, bearer tokens, and the values of fields named like api_key,
// *_token, client_secret, password or aws_secret_access_key, in JSON, YAML,
// env and query string styles. It is the default [Redactor] and is safe for
// concurrent use.
func Redact(s string) string { return redact.String(s) }
