// Package redact removes credentials from text before it reaches a log or
// an error message: [String] applies the rules, [Handler] wraps a
// slog.Handler so that every message, string, error and other value it
// logs goes through them.
//
// The rules cover the credential shapes that leak through error texts and
// logs, after the default rules of gitleaks: keys and tokens with a known
// prefix (OpenAI, Anthropic, AWS, Google, GitHub, GitLab, Slack, Stripe,
// Hugging Face and more), JSON web tokens, passwords in URLs, private key
// blocks, Authorization and Cookie headers, bearer tokens, and the values of
// fields whose name says they are secret (api_key, *_token, password,
// aws_secret_access_key, clientSecret, ...) in JSON, YAML, env and query
// string styles. Anything else is left alone: an error message stripped of
// its ids and numbers is useless to whoever reads the logs.
package redact
