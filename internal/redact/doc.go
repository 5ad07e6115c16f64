// Package redact removes credentials from text before it reaches a log, an
// error message or a model: [String] applies the rules, [Handler] wraps a
// slog.Handler so that every message, string, error and other value it
// logs goes through them.
//
// The rules cover the credential shapes that leak through error texts and
// logs, after the default rules of gitleaks (docs/redaction.md lists them
// with examples):
//
//   - keys and tokens with a known prefix (OpenAI, Anthropic, AWS, Google,
//     GitHub, GitLab, Slack, Stripe, Hugging Face and some thirty more), JSON
//     web tokens, and tokens in the path of a URL (Telegram bots, Slack,
//     Discord and Teams webhooks);
//   - passwords in URLs, whatever characters they hold, and in MySQL DSNs;
//   - private key blocks;
//   - Authorization and Cookie headers, bearer tokens and Basic credentials
//     anywhere;
//   - the values of fields whose name says they are secret (api_key,
//     X-Api-Key, *_token, password, client_secret, aws_secret_access_key,
//     ...) written as JSON, YAML, env, Go's print of a map or an
//     http.Header, a query string, XML, a command line flag, or a
//     name/value pair (Kubernetes' env, HAR's headers);
//   - all of these inside a string inside a string (JSON in a JSON string,
//     Go's %q), percent-encoded (URLs, form bodies) or HTML-encoded, up to
//     two such encodings deep.
//
// Anything else is left alone: an error message stripped of its ids and
// numbers is useless to whoever reads it, model or human. The cost is
// linear in the length of the text: each place where a secret may start is
// looked at over a bounded stretch.
package redact
