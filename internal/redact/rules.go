package redact

import (
	"fmt"
	"regexp"
)

// rule is one credential shape. A rule applies only to text that contains
// one of its keywords (lower case), which is cheaper to check than the
// expression. The groups named "keep" (before the secret) and "tail"
// (after it), when present, are kept around the replacement.
type rule struct {
	name        string
	keywords    []string
	re          *regexp.Regexp
	replacement string // Redacted, with the keep and tail groups around it
}

func newRule(name string, keywords []string, expr string) rule {
	re := regexp.MustCompile(expr)
	replacement := Redacted
	if re.SubexpIndex("keep") >= 0 {
		replacement = "${keep}" + replacement
	}
	if re.SubexpIndex("tail") >= 0 {
		replacement += "${tail}"
	}
	return rule{name: name, keywords: keywords, re: re, replacement: replacement}
}

// Redacted replaces each secret.
const Redacted = "[REDACTED]"

// secretName matches the name of a field that holds a secret: one that ends
// in password, secret, credentials and the like, or whose last parts are
// <qualifier>_key or *_token (api_key, aws_secret_access_key, x-api-key,
// refresh_token, AWS_SESSION_TOKEN), or their camelCase spellings (apiKey,
// accessToken). A bare "key" or a *_key that says nothing of secrecy
// (cache_key, primary_key), and plurals (max_tokens), are not secret names.
// It starts at a word boundary and takes in whole names joined by _ . -, so
// that the boundary before aws in aws_secret_access_key counts.
const secretName = `\b(?:` +
	`[A-Za-z0-9_.-]*(?i:password|passwd|passphrase|secret|credentials?)` +
	`|(?i:(?:[a-z0-9]+[_.-])*(?:(?:api|access|secret|private|signing|encryption|master|client|auth|account|subscription|app|admin|service|session|refresh|bearer|oauth|id)[_.-]?(?:key|token)|token|pwd)|(?:[a-z0-9]+[_.-])+pass)` +
	`|[A-Za-z0-9]*(?:[Aa]pi|[Aa]ccess|[Ss]ecret|[Pp]rivate|[Ss]igning|[Ee]ncryption|[Mm]aster|[Cc]lient|[Aa]uth|[Aa]ccount|[Ss]ubscription|[Aa]pp|[Aa]dmin|[Ss]ervice)(?:Key|KEY)` +
	`|[A-Za-z0-9]*[a-z0-9]Token` +
	`)`

// assignment is what follows a secret name before its value: an optional
// closing quote (escaped in JSON embedded in a string), then = : => or :=.
const assignment = `\\?["']?\s*(?:=>|:=|[:=])`

var secretNameKeywords = []string{"pass", "pwd", "secret", "token", "key", "credential"}

var rules = []rule{
	newRule("private key block", []string{"private key"},
		`(?s)(?P<keep>-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----).*?(?:-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----|$)`),
	// scheme://user:password@host, for any scheme (postgres, redis, amqp,
	// https, ...); the password runs to the last @ before the host.
	newRule("password in a URL", []string{"://"},
		`(?P<keep>\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/?#@"'<>]*:)[^\s/?#"'<>]+(?P<tail>@)`),
	// Go's MySQL DSN: user:password@tcp(host)/db.
	newRule("password in a MySQL DSN", []string{"@tcp(", "@unix("},
		`(?P<keep>[\w.-]+:)[^\s@/:]+(?P<tail>@(?:tcp|unix)\()`),

	// Keys and tokens with a known prefix.
	newRule("OpenAI or Anthropic key", []string{"sk-"}, `\bsk-[A-Za-z0-9_-]{8,}`),
	newRule("Stripe key", []string{"sk_", "rk_", "whsec_"}, `\b(?:[rs]k_(?:live|test|prod)_[A-Za-z0-9]{8,}|whsec_[A-Za-z0-9+/=]{16,})`),
	newRule("AWS access key id", []string{"akia", "asia", "abia", "acca", "a3t"}, `\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b`),
	newRule("AWS Bedrock key", []string{"absk", "bedrock-api-key-"}, `\b(?:ABSK[A-Za-z0-9+/]{60,}={0,2}|bedrock-api-key-[A-Za-z0-9+/=%-]{20,})`),
	newRule("Google API key", []string{"aiza"}, `\bAIza[0-9A-Za-z_-]{35}`),
	newRule("Google OAuth token or client secret", []string{"ya29.", "gocspx-"}, `\b(?:ya29\.[0-9A-Za-z_-]{20,}|GOCSPX-[0-9A-Za-z_-]{20,})`),
	newRule("GitHub token", []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, `\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})`),
	newRule("GitLab token", []string{"glpat-", "gldt-", "glft-", "glrt-", "glptt-", "glcbt-", "glimt-", "glagent-", "gloas-", "glsoat-", "glffct-", "gr1348941"},
		`\b(?:(?:glpat|gldt|glft|glrt|glptt|glcbt|glimt|glagent|gloas|glsoat|glffct)-[0-9A-Za-z_.-]{20,}|GR1348941[\w-]{20,})`),
	newRule("Slack token", []string{"xox", "xapp-"}, `\b(?:xox[abposre](?:\.xox[bp])?-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{10,})`),
	newRule("Slack webhook", []string{"hooks.slack.com"}, `(?P<keep>hooks\.slack\.com/(?:services|workflows|triggers)/)[A-Za-z0-9+/_-]+`),
	newRule("Hugging Face token", []string{"hf_", "api_org_"}, `\b(?:hf|api_org)_[A-Za-z0-9]{30,}`),
	newRule("package registry token", []string{"npm_", "pypi-"}, `\b(?:npm_[A-Za-z0-9]{36}|pypi-AgEIcHlwaS5vcmc[\w-]{50,})`),
	newRule("SendGrid key", []string{"sg."}, `\bSG\.[\w-]{16,}\.[\w-]{16,}`),
	newRule("other prefixed token", []string{"_v1_", "shp", "hvs.", "hvb.", "gsk_", "xai-", "pplx-", "dapi"},
		`\b(?:do[opr]_v1_[a-f0-9]{64}|shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}|hv[sb]\.[\w-]{24,}|gsk_[A-Za-z0-9]{20,}|xai-[A-Za-z0-9]{20,}|pplx-[A-Za-z0-9]{20,}|dapi[a-f0-9]{32})`),
	// header.payload.signature, the header being base64 JSON ("eyJ" is {").
	newRule("JSON web token", []string{"eyj"}, `\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*`),

	// Credentials named as such.
	//
	// An Authorization header's credentials: a scheme and the rest of the
	// line, or one long token. "authorization: card declined" is left alone.
	newRule("Authorization header", []string{"authorization"},
		`(?i)(?P<keep>\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?)(?:(?:bearer|basic|digest|token|apikey|aws4-hmac-sha256|negotiate|ntlm)\s+[^\r\n"']+|[^\s"']{16,})`),
	newRule("Cookie header", []string{"cookie"}, `(?i)(?P<keep>\b(?:set-)?cookie["']?\s*:\s*["']?)[^\r\n"']+`),
	// A bearer token anywhere else: one with a digit or punctuation in it,
	// or a long one, so that "bearer token missing" is left alone.
	newRule("bearer token", []string{"bearer"},
		`(?i)(?P<keep>\bbearer\s+)(?:[A-Za-z0-9._~+/-]*[0-9._~+/-][A-Za-z0-9._~+/-]*|[A-Za-z]{20,})=*`),
	// Signed URLs and keys passed as query parameters.
	newRule("query parameter", []string{"sig=", "signature=", "credential=", "security-token=", "key="},
		`(?i)(?P<keep>[?&](?:sig|signature|x-amz-signature|x-amz-credential|x-amz-security-token|x-goog-signature|x-goog-credential|key)=)[^&\s"'#]+`),
	newRule("secret field, double-quoted", secretNameKeywords,
		fmt.Sprintf(`(?P<keep>%s%s\s*")(?:[^"\\\r\n]|\\.)+`, secretName, assignment)),
	newRule("secret field, quoted in escaped JSON", secretNameKeywords,
		fmt.Sprintf(`(?P<keep>%s%s\s*\\")[^"\\\r\n]+`, secretName, assignment)),
	newRule("secret field, single-quoted", secretNameKeywords,
		fmt.Sprintf(`(?P<keep>%s%s\s*')[^'\r\n]+`, secretName, assignment)),
	newRule("secret field", secretNameKeywords,
		fmt.Sprintf(`(?P<keep>%s%s[ \t]*)(?:\[REDACTED\]|[^\s"'\\&,;)}\]]+)`, secretName, assignment)),
}
