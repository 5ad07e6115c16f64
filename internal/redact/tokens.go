package redact

import (
	"regexp"
	"strings"
)

// prefixed is a key or token that a known prefix announces, after the
// default rules of gitleaks. It is looked for where one of its prefixes
// starts a word; re, anchored there, matches the whole token (its group
// "secret", when it has one, is what is replaced: a webhook's path after
// its host) and check, when set, rejects look-alikes.
type prefixed struct {
	name     string
	prefixes []string
	re       *regexp.Regexp
	secret   int // the index of the group "secret", -1 if none
	check    func(token string) bool
}

func token(name string, prefixes []string, expr string, check ...func(string) bool) prefixed {
	re := regexp.MustCompile(`^(?:` + expr + `)`)
	p := prefixed{name: name, prefixes: prefixes, re: re, secret: re.SubexpIndex("secret")}
	if len(check) > 0 {
		p.check = check[0]
	}
	return p
}

// hasDigit reports whether s holds a digit: a random key of 20 characters
// does, a word joined by hyphens ("sk-learn-compatible") does not.
func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

var prefixedTokens = []prefixed{
	// Model providers and the services agents call.
	token("OpenAI, Anthropic, DeepSeek or OpenRouter key", []string{"sk-"}, `sk-[A-Za-z0-9_-]{8,}`,
		func(s string) bool { return len(s) >= 23 || hasDigit(s) }),
	token("Groq key", []string{"gsk_"}, `gsk_[A-Za-z0-9]{20,}`),
	token("xAI key", []string{"xai-"}, `xai-[A-Za-z0-9]{20,}`),
	token("Perplexity key", []string{"pplx-"}, `pplx-[A-Za-z0-9]{20,}`),
	token("Replicate token", []string{"r8_"}, `r8_[A-Za-z0-9]{30,}`),
	token("Fireworks key", []string{"fw_"}, `fw_[A-Za-z0-9]{20,}`),
	token("LangSmith key", []string{"lsv2_"}, `lsv2_(?:pt|sk)_[A-Za-z0-9_]{20,}`),
	token("Tavily key", []string{"tvly-"}, `tvly-[A-Za-z0-9-]{20,}`),
	token("Hugging Face token", []string{"hf_", "api_org_"}, `(?:hf|api_org)_[A-Za-z0-9]{30,}`),
	token("Google API key", []string{"AIza"}, `AIza[0-9A-Za-z_-]{35}`),
	token("Google OAuth token or client secret", []string{"ya29.", "GOCSPX-"}, `ya29\.[0-9A-Za-z_-]{20,}|GOCSPX-[0-9A-Za-z_-]{20,}`),
	token("AWS access key id", []string{"AKIA", "ASIA", "ABIA", "ACCA", "A3T"}, `(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b`),
	token("AWS Bedrock key", []string{"ABSK", "bedrock-api-key-"}, `ABSK[A-Za-z0-9+/]{60,}={0,2}|bedrock-api-key-[A-Za-z0-9+/=%-]{20,}`),
	token("Databricks token", []string{"dapi"}, `dapi[a-f0-9]{32}`),
	// Code hosts and package registries.
	token("GitHub token", []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, `gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}`),
	token("GitLab token", []string{"glpat-", "gldt-", "glft-", "glrt-", "glptt-", "glcbt-", "glimt-", "glagent-", "gloas-", "glsoat-", "glffct-", "GR1348941"},
		`(?:glpat|gldt|glft|glrt|glptt|glcbt|glimt|glagent|gloas|glsoat|glffct)-[0-9A-Za-z_.-]{20,}|GR1348941[\w-]{20,}`),
	token("npm token", []string{"npm_"}, `npm_[A-Za-z0-9]{36}`),
	token("PyPI token", []string{"pypi-"}, `pypi-AgEIcHlwaS5vcmc[\w-]{50,}`),
	// Chat, mail and payments.
	token("Slack token", []string{"xox", "xapp-"}, `xox[abposre](?:\.xox[bp])?-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{10,}`),
	token("Stripe key", []string{"sk_", "rk_", "whsec_"}, `[rs]k_(?:live|test|prod)_[A-Za-z0-9]{8,}|whsec_[A-Za-z0-9+/=]{16,}`),
	token("SendGrid key", []string{"SG."}, `SG\.[\w-]{16,}\.[\w-]{16,}`),
	token("Mailgun key", []string{"key-"}, `key-[0-9a-f]{32}\b`),
	token("Twilio key", []string{"SK"}, `SK[0-9a-fA-F]{32}\b`),
	token("Square token", []string{"sq0atp-", "sq0csp-", "EAAA"}, `sq0atp-[0-9A-Za-z_-]{22,}|sq0csp-[0-9A-Za-z_-]{43,}|EAAA[A-Za-z0-9_-]{60,}`),
	// Clouds, vaults and developer services.
	token("DigitalOcean token", []string{"dop_v1_", "doo_v1_", "dor_v1_"}, `do[opr]_v1_[a-f0-9]{64}`),
	token("Shopify token", []string{"shpat_", "shpca_", "shppa_", "shpss_"}, `shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}`),
	token("HashiCorp Vault token", []string{"hvs.", "hvb."}, `hv[sb]\.[\w-]{24,}`),
	token("Doppler token", []string{"dp.pt.", "dp.st.", "dp.ct.", "dp.sa.", "dp.scim.", "dp.audit."}, `dp\.(?:pt|st|ct|sa|scim|audit)\.[A-Za-z0-9]{40,}`),
	token("Pulumi token", []string{"pul-"}, `pul-[a-f0-9]{40}`),
	token("Postman key", []string{"PMAK-"}, `PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}`),
	token("Grafana token", []string{"glc_", "glsa_"}, `glc_[A-Za-z0-9+/]{32,}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}`),
	token("New Relic key", []string{"NRAK-"}, `NRAK-[A-Z0-9]{27}`),
	token("Sentry token", []string{"sntrys_", "sntryu_"}, `sntry[su]_[A-Za-z0-9+/=_]{40,}`),
	token("Notion token", []string{"ntn_", "secret_"}, `ntn_[0-9]{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43}`),
	token("Linear key", []string{"lin_api_"}, `lin_api_[A-Za-z0-9]{40}`),
	token("Atlassian token", []string{"ATATT3"}, `ATATT3[A-Za-z0-9_=-]{100,}`),
	token("PlanetScale token", []string{"pscale_tkn_", "pscale_pw_", "pscale_oauth_"}, `pscale_(?:tkn|pw|oauth)_[A-Za-z0-9=._-]{32,}`),
	token("Heroku key", []string{"HRKU-"}, `HRKU-[A-Za-z0-9_-]{40,}`),
	token("1Password service account token", []string{"ops_eyJ"}, `ops_eyJ[A-Za-z0-9+/=_-]{100,}`),
	// header.payload.signature, the header being base64 JSON ("eyJ" is {").
	token("JSON web token", []string{"eyJ"}, `eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*`),
	// Tokens in the path of a URL.
	token("Telegram bot token in a URL", []string{"bot"}, `bot(?P<secret>\d{5,16}:[A-Za-z0-9_-]{20,64})`),
	token("Slack webhook", []string{"hooks.slack.com/"}, `hooks\.slack\.com/(?:services|workflows|triggers)/(?P<secret>[A-Za-z0-9+/_-]+)`),
	token("Discord webhook", []string{"discord.com/api/webhooks/", "discordapp.com/api/webhooks/"},
		`discord(?:app)?\.com/api/webhooks/(?P<secret>\d+/[A-Za-z0-9_-]{20,})`),
	token("Microsoft Teams webhook", []string{"webhook.office.com/"}, `webhook\.office\.com/webhookb2/(?P<secret>[A-Za-z0-9@/_-]+)`),
}

// caselessDetectors are the detectors whose words are looked for in
// the lower-case text: the names of fields, bearer and Basic credentials.
func caselessDetectors() []detector {
	var ds []detector
	for _, w := range nameWords {
		ds = append(ds, detector{w, name, false})
	}
	return append(ds, detector{"bearer", bearer, true}, detector{"basic ", basic, true})
}

// casedDetectors are the detectors whose words are looked for in the text
// as it is: prefixed tokens, Telegram bot tokens, URLs, MySQL DSNs and
// private key blocks.
func casedDetectors() []detector {
	var ds []detector
	for i := range prefixedTokens {
		p := &prefixedTokens[i]
		for _, prefix := range p.prefixes {
			ds = append(ds, detector{prefix, func(t *text, i int) int { return t.prefixed(p, i) }, true})
		}
	}
	return append(ds, detector{":A", telegram, false}, detector{"://", url, false}, detector{"@tcp(", dsn, false},
		detector{"@unix(", dsn, false}, detector{"-----BEGIN ", block, false})
}

// prefixed records the token p that starts at s[start], where a word
// starts, if it is one, and returns its end, or -1.
func (t *text) prefixed(p *prefixed, start int) int {
	m := p.re.FindStringSubmatchIndex(t.s[start:min(len(t.s), start+maxToken+1)])
	if m == nil || p.check != nil && !p.check(t.s[start:start+m[1]]) {
		return -1
	}
	if k := p.secret; k > 0 {
		t.add(start+m[2*k], start+m[2*k+1])
	} else {
		t.add(start, start+m[1])
	}
	return start + m[1]
}

// telegram finds a Telegram bot token written bare, 123456789:AA...: a bot
// id, a colon, and 35 characters starting with A. colon is where ":A" is.
func telegram(t *text, colon int) int {
	s := t.s
	start := colon
	for start > 0 && colon-start < 16 && isDigit(s[start-1]) {
		start--
	}
	if colon-start < 5 || !startsWord(s, start) {
		return -1
	}
	end := colon + 1
	for end < len(s) && end-colon <= 41 && (isWordByte(s[end]) || s[end] == '-') {
		end++
	}
	if n := end - colon - 1; n < 33 || n > 40 {
		return -1
	}
	t.add(start, end)
	return end
}

// bearer finds a bearer token anywhere: one with a digit or a sign in it,
// or a long one, so that "bearer token missing" is left alone.
func bearer(t *text, i int) int {
	s := t.s
	k := i + len("bearer")
	if k == len(s) || s[k] != ' ' && s[k] != '\t' {
		return -1
	}
	start := skipBlanks(s, k)
	end := start
	for end < len(s) && end-start < maxToken && isToken68(s[end]) {
		end++
	}
	for end < len(s) && s[end] == '=' {
		end++
	}
	if v := s[start:end]; len(v) < 20 && !credentialLike(v) {
		return -1
	}
	t.add(start, end)
	return end
}

// isToken68 reports whether c can be part of HTTP's token68, the syntax of
// bearer tokens and Basic credentials.
func isToken68(c byte) bool {
	return isWordByte(c) || c == '-' || c == '.' || c == '~' || c == '+' || c == '/'
}

// basic finds Basic credentials anywhere: "basic" and the base64 of
// user:password.
func basic(t *text, i int) int {
	s := t.s
	start := skipBlanks(s, i+len("basic "))
	end := start
	for end < len(s) && end-start < maxToken && (isToken68(s[end]) || s[end] == '=') {
		end++
	}
	if end-start < 8 || !basicCredentials(s[start:end]) {
		return -1
	}
	t.add(start, end)
	return end
}

// block finds a private key block that starts at s[begin], from the line
// after BEGIN to the END line included, or to the end of the text when the
// block is cut short.
func block(t *text, begin int) int {
	s := t.s
	header := boundedIndex(s, begin+len("-----BEGIN "), "-----", 100)
	if header < 0 || !strings.Contains(s[begin:header], "PRIVATE KEY") ||
		strings.ContainsFunc(s[begin+len("-----BEGIN "):header], func(r rune) bool { return !('A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == ' ') }) {
		return -1
	}
	start := header + len("-----")
	if strings.HasPrefix(s[start:], Redacted) {
		return start + len(Redacted)
	}
	end := min(len(s), start+maxBlock)
	if e := boundedIndex(s, start, "-----END ", maxBlock); e >= 0 {
		if f := boundedIndex(s, e+len("-----END "), "-----", 100); f >= 0 {
			end = f + len("-----")
		}
	}
	t.add(start, end)
	return end
}
