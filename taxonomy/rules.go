package taxonomy

import (
	"slices"
	"strconv"
	"strings"
)

// A textRule matches the lowercased error text. Text is the evidence of last
// resort: langchaingo's openai, anthropic, ollama, mistral and huggingface
// clients return untyped errors, so for them the text is all that is left.
// Every rule is anchored or phrased so that it cannot match inside unrelated
// numbers or words, and each has a table row built from a real provider
// message in classify_test.go, next to the rows of the texts it must not
// match.
type textRule struct {
	kind Kind
	name string                  // Class.Rule when it matches
	lit  string                  // a literal phrase, matched with strings.Contains
	re   *guarded                // or an anchored pattern
	test func(lower string) bool // or a test that reads numbers out of the text
	// serverStatus marks the one rule that reads the numbers the status
	// reader found (serverStatusWords), called directly so that the
	// lowered text stays on the stack
	serverStatus bool
	need         string // a literal every match of re or test contains: they run only when it is present
	// hinted, when not Unknown, is the kind when the text says the limit
	// lifts by itself: a retry hint ("Please retry in 12.3s") or a quota
	// counted per minute.
	hinted Kind
	// missing marks the rules that say the requested model does not exist
	// or is not available to the caller (Class.ModelMissing).
	missing bool
	// account marks the rules that say the caller's account or deployment
	// cannot serve the request, whatever it is (Class.AccountFailure).
	account bool
	// content marks the rules that say the provider refused the request
	// for what it says: never an account failure.
	content bool
	// grams are trigrams of lit or need: a text without one of them is
	// passed over without a scan.
	grams []uint16
}

func (r *textRule) match(t *lowered) bool {
	if !t.mayHold(r.grams) {
		return false
	}
	switch {
	case r.re != nil:
		// The literal check first: it is much faster than the pattern, which
		// Go cannot skip ahead through when it starts with \b.
		if r.re.windowed(t) {
			// The windows are found by scanning for the literals: a scan
			// for need first would read the text once more.
			return t.mayHold(r.grams) && r.re.matchWindows(t)
		}
		return strings.Contains(t.s, r.need) && r.re.matchIn(t)
	case r.serverStatus:
		return serverStatusWords(t)
	case r.test != nil:
		return strings.Contains(t.s, r.need) && r.test(t.s)
	}
	return strings.Contains(t.s, r.lit)
}

// class is the answer of a rule that matched.
func (r textRule) class() Class {
	return Class{Kind: r.kind, Rule: r.name, ModelMissing: r.missing, AccountFailure: r.account}
}

// marker is a literal phrase rule named `marker "<phrase>"`.
func marker(kind Kind, phrase string) textRule {
	return textRule{kind: kind, name: `marker "` + phrase + `"`, lit: phrase, grams: gramsOf(phrase)}
}

// pattern is an anchored regular expression rule with a readable name. need
// is a literal that every match contains; the expression runs only when the
// text holds it.
func pattern(kind Kind, name, need, expr string) textRule {
	return textRule{kind: kind, name: name, re: mustContain(need, expr), need: need, grams: gramsOf(need)}
}

// numbers is a rule that reads numbers out of the text with test, which runs
// only when the text holds need.
func numbers(kind Kind, name, need string, test func(lower string) bool) textRule {
	return textRule{kind: kind, name: name, test: test, need: need, grams: gramsOf(need)}
}

// withHint makes r answer kind instead when the text says the limit lifts
// by itself (see liftsByItself).
func withHint(r textRule, kind Kind) textRule {
	r.hinted = kind
	return r
}

// gated is a pattern whose prefilter need is a word of its family, common
// in texts it does not match ("limit", "length"): the expression runs only
// when the text also holds also, a rarer literal of it.
func gated(kind Kind, name, need, also, expr string) textRule {
	re := mustContain(need, expr)
	mustContain(also, expr)
	return numbers(kind, name, need, func(lower string) bool {
		return strings.Contains(lower, also) && re.MatchString(lower)
	})
}

// missingModel marks a rule as one that says the model is missing.
func missingModel(r textRule) textRule {
	r.missing = true
	return r
}

// accountFailure marks a rule as one that says the caller's account or
// deployment cannot serve the request.
func accountFailure(r textRule) textRule {
	r.account = true
	return r
}

// contentRefusal marks a rule as one that says the request was refused
// for its content.
func contentRefusal(r textRule) textRule {
	r.content = true
	return r
}

// accountFailures marks every rule of f as an account failure.
func accountFailures(f family) family {
	for i := range f.rules {
		f.rules[i].account = true
	}
	return f
}

// mustContain compiles expr and checks, once at start-up, that need is a
// plausible prefilter for it: a literal that the expression spells out.
func mustContain(need, expr string) *guarded {
	if need == "" || !strings.Contains(expr, need) {
		panic("taxonomy: prefilter " + strconv.Quote(need) + " is not a literal of " + expr)
	}
	return guard(expr)
}

// A family is a list of rules with a few words one of which every rule's
// literal (or prefilter) contains: a text holding none of them is passed
// over in a few scans instead of one per rule. newFamily checks the words
// against the rules once, at start-up.
type family struct {
	words     []string
	wordGrams [][]uint16
	rules     []textRule
}

func newFamily(words []string, rules ...textRule) family {
	for _, r := range rules {
		if !slices.ContainsFunc(words, func(w string) bool { return strings.Contains(r.lit+r.need, w) }) {
			panic("taxonomy: rule " + r.name + " holds none of the words of its family " + strings.Join(words, ", "))
		}
	}
	f := family{words: words, rules: rules}
	for _, w := range words {
		f.wordGrams = append(f.wordGrams, gramsOf(w))
	}
	return f
}

// first returns the first rule of the family that matches.
func (f *family) first(t *lowered) (*textRule, bool) {
	for i, w := range f.words {
		// The pair test only saves the scan: a word it lets through is
		// still looked for.
		if t.mayHold(f.wordGrams[i]) {
			if strings.Contains(t.s, w) {
				return firstMatch(f.rules, t)
			}
		}
	}
	return nil, false
}

func firstMatch(rules []textRule, t *lowered) (*textRule, bool) {
	for i := range rules {
		if rules[i].match(t) {
			return &rules[i], true
		}
	}
	return nil, false
}

// sizeLimitRules say that the request is larger than a limit of the
// account, whatever the status or code that carries it: Groq's 413 and
// OpenAI's 429 "Request too large for model ... on tokens per minute (TPM):
// Limit 6000, Requested 6294" (code rate_limit_exceeded), Anthropic's 429
// rate_limit_error "Extra usage is required for long context requests."
// Waiting cannot help, since the same request exceeds the same limit when
// the window resets; a smaller request can pass. So they are
// ContextOverflow, which the pipeline answers by compacting the prompt or
// splitting a batch of embedding inputs, never by waiting.
var sizeLimitRules = newFamily([]string{"requested", "context"},
	numbers(ContextOverflow, `pattern "request larger than the rate limit"`, "requested", requestedOverLimit),
	pattern(ContextOverflow, `pattern "long context needs extra usage"`, " context", `\brequired for (?:long|1m|extended) context\b`),
)

// serverStatusRE is a 5xx after the word error, status, code or http, or
// before a server's reason phrase: "error 503", "status: 502", "HTTP/2 500",
// "500 Internal ...". serverStatusWords runs it on the words around each
// 5xx of the text only: a stack trace holds many of the words and few
// such numbers.
var serverStatusRE = guard(`\b(?:error|status|code|http)[^a-z0-9]{0,3}5\d\d\b|(?:^|[\s(\[=])5\d\d (?:internal|bad gateway|service|gateway)`)

func serverStatusWords(t *lowered) bool {
	lower := t.s
	for _, p := range t.numbers() {
		// The expression reads at most "status" and three bytes before
		// the number, " bad gateway" after it.
		if serverStatusRE.MatchString(wordWindow(lower, p, 8, 13)) {
			return true
		}
	}
	return false
}

// requestedOverLimit reports whether the text asks for more than its limit
// in one request, as rate-limit messages write it: "Limit 6000, Used 5034,
// Requested 1443" is a request that waits for the window, "Limit 6000,
// Requested 6294" one that no window lets through.
func requestedOverLimit(lower string) bool {
	requested, ok := numberAfter(lower, "requested")
	if !ok {
		return false
	}
	limit, ok := numberAfter(lower, "limit")
	return ok && limit > 0 && requested > limit
}

// numberAfter reads the number after the first word w that a number
// follows: "limit 6000", "limit: 30,000", "requested ~4251". w must start a
// word: the "limit" of "ratelimit 5" is not one.
func numberAfter(lower, w string) (int64, bool) {
	for from := 0; ; {
		i := strings.Index(lower[from:], w)
		if i < 0 {
			return 0, false
		}
		start := from + i
		from = start + len(w)
		if start > 0 && isWordByte(lower[start-1]) {
			continue
		}
		rest := strings.TrimPrefix(lower[from:], ":")
		rest = strings.TrimPrefix(rest, " ")
		rest = strings.TrimPrefix(rest, "~")
		n, digits := int64(0), 0
	number:
		for j := 0; j < len(rest) && digits < 18; j++ {
			switch c := rest[j]; {
			case isDigit(c):
				n = n*10 + int64(c-'0')
				digits++
			case c == ',' && digits > 0: // "30,000"
			default:
				break number
			}
		}
		if digits > 0 {
			return n, true
		}
	}
}

func isWordByte(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'z' || c == '_' }

// overflowRules say that the prompt does not fit the model's context window.
// Their wording is more specific than any status or provider code: local
// servers send it with a 500 (llama.cpp's "Context size has been exceeded."),
// and AWS with a generic ValidationException. Only a 429 keeps its own
// meaning: a per-minute token limit says "reduce the prompt length" too.
var overflowRules = newFamily([]string{"context", "token", "too long", "too large", "length", "too_large", "too many inputs", "must have less than", "payload", "truncate prompt"},
	marker(ContextOverflow, "maximum context length"),  // OpenAI, vLLM, DeepSeek, Groq, Mistral, Fireworks "model maximum context length"
	marker(ContextOverflow, "context_length_exceeded"), // OpenAI code
	// xAI's code for a prompt over the model's window: "Failed to start
	// sampling: [input_too_large] Current message (1149677 tokens) exceeds
	// budget (975424 tokens)".
	marker(ContextOverflow, "input_too_large"),
	marker(ContextOverflow, "exceeds the maximum number of tokens"), // Gemini
	marker(ContextOverflow, "`inputs` tokens + `max_new_tokens`"),   // Hugging Face TGI, Together
	marker(ContextOverflow, "reduce the length of the messages"),    // OpenAI-compatible servers
	marker(ContextOverflow, "context window"),                       // "exceeds the context window", "exceed context window of 2048"
	marker(ContextOverflow, "context_window_exceeded"),              // Azure, Cerebras codes
	marker(ContextOverflow, "exceed_context_size_error"),            // llama.cpp server type
	// Cohere "too many tokens: total number of tokens in the prompt cannot
	// exceed ...". The colon keeps Bedrock's ThrottlingException "Too many
	// tokens, please wait before trying again." (a rate limit) out.
	marker(ContextOverflow, "too many tokens:"),
	// Mistral 400 "Too many tokens in batch. Max is 16384 got 17555" (an
	// embedding batch), "too many tokens in the request": the request as a
	// whole is too large, which a smaller one fixes. Bedrock's rate limit
	// says "Too many tokens, please wait" or "Too many tokens per day".
	pattern(ContextOverflow, `pattern "too many tokens in the request"`, "too many tokens ",
		`\btoo many tokens (?:in|for) (?:the |this |a |your )?(?:batch|request|prompt|input|messages?|context)\b`),
	marker(ContextOverflow, "request_too_large"), // Anthropic 413 type
	// Anthropic "prompt is too long: 210000 tokens > 200000 maximum", Bedrock
	// "Input is too long for requested model.", vLLM "Input prompt (9000
	// tokens) is too long", llama.cpp "Input is too large to process".
	// "The prompt length" or "a too long tool name" do not match: the
	// subject must be the prompt or the input itself.
	pattern(ContextOverflow, `pattern "prompt or input is too long"`, "too long",
		`\b(?:prompt|input)(?: \([^)]{0,40}\))? (?:is )?too long\b`),
	pattern(ContextOverflow, `pattern "prompt or input is too large"`, "too large",
		`\b(?:prompt|input)(?: \([^)]{0,40}\))? (?:is )?too large\b`),
	// The request as a whole over the size the service takes: Cloudflare
	// Workers AI's 3006 "Request is too large" (a 413). OpenAI's "Request
	// too large for gpt-4o ... on tokens per min" is a size limit, matched
	// before.
	pattern(ContextOverflow, `pattern "request is too large"`, "too large", `\brequest (?:body |payload )?is too large\b`),
	// Hugging Face TGI "Input validation error: `inputs` must have less than
	// 2048 tokens. Given: 2222".
	pattern(ContextOverflow, `pattern "inputs must have less than n tokens"`, "must have less than ",
		`\binputs\W{0,2} must have less than \d+ tokens\b`),
	// LM Studio "Reached context length of 32000 tokens with model ... that
	// does not currently support mid-generation context overflow".
	pattern(ContextOverflow, `pattern "reached the context length"`, "context ",
		`\b(?:reached|hit) (?:the |its )?(?:maximum |max )?context (?:length|size|window|limit)\b`),
	marker(ContextOverflow, "context overflow"),
	// Ollama "input length exceeds the context length", llama.cpp "exceeds the
	// available context size", "Prompt tokens (9000) exceeds context size (8192)".
	pattern(ContextOverflow, `pattern "exceeds the context length"`, "context ",
		`exceeds? (?:the )?(?:available |maximum |model'?s? )?context (?:length|size)`),
	// Anthropic 400 "input length and `max_tokens` exceed context limit: 187254 + 20000 > 204698, ..."
	pattern(ContextOverflow, `pattern "exceed context limit"`, "context limit", `\bexceeds? (?:the )?context limit\b`),
	// llama.cpp 500 "Context size has been exceeded.", "context length exceeded".
	pattern(ContextOverflow, `pattern "context size exceeded"`, "context ",
		`\bcontext (?:size|length) (?:has been |was |is )?exceeded\b`),
	// LM Studio: "Trying to keep the first 10136 tokens when context the
	// overflows. However, the model is loaded with context length of only
	// 7866 tokens, which is not enough."
	// The prompt compared with the window: SGLang "The input (61709 tokens)
	// is longer than the model's context length (40960 tokens).", LM Studio
	// "The number of tokens to keep from the initial prompt is greater than
	// the context length".
	gated(ContextOverflow, `pattern "longer than the context length"`, "context ", " than the ",
		`\b(?:longer|greater|larger) than the (?:model\\?'?s? )?context (?:length|size|window)\b`),
	// Bedrock's request validation: "Malformed input request: expected
	// maxLength: 42000, actual: 46735" (a prompt or an embedding input over
	// the model's limit) and "Value at 'body' failed to satisfy constraint:
	// Member must have length less than or equal to 25000000" (the whole
	// body). Other fields' constraints are not sizes of the prompt.
	pattern(ContextOverflow, `pattern "expected maxlength"`, "expected maxlength: ", `expected maxlength: \d+, actual: \d+`),
	pattern(ContextOverflow, `pattern "body over its length constraint"`, "value at 'body' failed to satisfy constraint: member must have length ",
		`value at 'body' failed to satisfy constraint: member must have length less than\b`),
	// SGLang "Input length (160062 tokens) exceeds the maximum allowed
	// length (59862 tokens).", and llama.cpp's "Cannot truncate prompt with
	// n_keep (15028) >= n_ctx (7424)" (the part of the prompt it must keep
	// is larger than the window).
	gated(ContextOverflow, `pattern "input exceeds the maximum length"`, "length", "exceeds ",
		`\b(?:input|prompt) length (?:\(\d+ tokens\) )?exceeds (?:the )?(?:maximum|max) (?:allowed )?length\b`),
	marker(ContextOverflow, "cannot truncate prompt"),
	// A context already full that the server will not shift or truncate
	// to make room: llama.cpp's server sends "context shift is disabled"
	// when a slot runs out of context (ggml-org/llama.cpp#13577, the
	// send_error it removed; ggml-org/llama.cpp#16983 after the context
	// filled), and llama-box behind GPUStack logs the same
	// (gpustack/gpustack#1241). A shorter prompt fits.
	pattern(ContextOverflow, `pattern "context shift disabled"`, "context shift",
		`\bcontext shift(?:ing)? (?:is |was )?(?:disabled|not enabled|off)\b`),
	// A session or a sequence over its maximum length, with no number:
	// LMDeploy's api_client "exceed session max length. Please end the
	// session." (InternLM/lmdeploy#732) and its gradio server's "exceed
	// session max length. PLease restart the session" (InternLM/lmdeploy#1204),
	// Volcengine's "exceed max_sequence_length". The request, or the session
	// it extends, is longer than the model takes.
	gated(ContextOverflow, `pattern "exceeds the session or sequence length"`, "length", "exceed",
		`\bexceed(?:s|ed)? (?:the )?(?:(?:session|sequence)[ _]max(?:imum)?|max(?:imum)?[ _](?:session|sequence))[ _]length\b`),
	pattern(ContextOverflow, `pattern "context length of only"`, "context length of only ",
		`\bcontext length of only \d+`),
	marker(ContextOverflow, "when context the overflows"),
	// xAI "This model's maximum prompt length is 131072 but the request
	// contains 140000 tokens", vLLM "is longer than the maximum model length".
	pattern(ContextOverflow, `pattern "maximum prompt length"`, " length",
		`\bmaximum (?:prompt|input) length is \d+|longer than the maximum model length\b`),
	// Embedding requests too large as a whole, which a smaller batch fixes:
	// OpenAI 400 "Requested 453357 tokens, max 300000 tokens per request"
	// (code max_tokens_per_request) and Azure OpenAI 400 "Too many inputs.
	// The max number of inputs is 16. ...".
	pattern(ContextOverflow, `pattern "max tokens per request"`, "tokens per request", `\bmax(?:imum)? \d+ tokens per request\b`),
	marker(ContextOverflow, "too many inputs"),
	// A request too large in bytes, which a smaller one fixes: Gemini 400
	// "Request payload size exceeds the limit: 20971520 bytes.", a proxy's
	// 413 "Request Entity Too Large".
	pattern(ContextOverflow, `pattern "payload too large"`, "payload", `\bpayload (?:size )?(?:exceeds|is too large|too large)\b`),
	marker(ContextOverflow, "request entity too large"),
)

// unloadableRules say that a local runner cannot load the model: it does not
// fit the machine's memory. Ollama sends it with a 500, which would
// otherwise be retried; the same request fails the same way until someone
// frees memory or picks a smaller model.
var unloadableRules = newFamily([]string{"memory", "resources", "load"},
	// Ollama "model requires more system memory (5.3 GiB) than is available (4.4 GiB)".
	pattern(Permanent, `pattern "requires more memory than is available"`, "memory",
		`\brequires more (?:system |gpu |video )?memory\b`),
	// LM Studio "Model loading was stopped due to insufficient system
	// resources", "Not enough resources to load the model".
	pattern(Permanent, `pattern "insufficient resources to load the model"`, "resources",
		`\b(?:insufficient (?:system )?resources|not enough (?:system )?resources to (?:load|run))\b`),
	// llama.cpp through Ollama: "error loading model: unable to allocate
	// CUDA_Host buffer", "failed to allocate buffer", a CUDA out of memory.
	// The GPU has no room for the model: Ollama "llama runner process has
	// terminated: CUDA error: out of memory", "CUDA out of memory", "GPU out
	// of memory".
	pattern(Permanent, `pattern "gpu out of memory"`, "memory",
		`\b(?:cuda|gpu|vram|rocm|hip|metal)\b[^.\n]{0,20}\bout of memory\b`),
	pattern(Permanent, `pattern "error loading model: out of memory"`, "load",
		`\b(?:error loading|failed to load|unable to load) (?:the )?model\b.{0,80}(?:(?:unable|failed) to allocate|out of memory)`),
	// LocalAI "could not load model: rpc error: code = Unavailable desc =
	// error reading from server: EOF", after it tried every backend; "failed
	// loading model". The gRPC code inside is the backend's, not the call's.
	pattern(Permanent, `pattern "could not load the model"`, "load",
		`\b(?:could not|couldn't|failed to|unable to) load (?:the )?model\b|\bfailed loading model\b`),
)

// billingRules say that the account cannot pay for the request: quota or
// credits used up, a spending limit reached, billing not set up. They are
// permanent even when they arrive as a 429. Rate limits whose text merely
// mentions billing ("Upgrade to Dev Tier today at .../settings/billing"),
// a pricing tier or a trial key are not matched: every rule names the
// exhausted balance or the inactive account.
var billingRules = accountFailures(newFamily([]string{"quota", "credit", "billing", "account", "insufficient", "limit", "payment", "organi", "been ", "used up ", "不足", "欠费"},
	marker(Permanent, "insufficient_quota"), // OpenAI code, in some proxies' texts
	// OpenAI's 429 insufficient_quota message. Gemini words its free-tier
	// per-minute limits the same way but adds "Please retry in 12.3s", or
	// names the per-minute quota it counts: with either it is a rate limit,
	// not an exhausted quota.
	withHint(marker(Permanent, "exceeded your current quota"), RateLimited),
	// A quota whose limit is 0: no wait lets a request through (see
	// liftsByItself). Gemini's free tier for a model it does not serve
	// free, "Quota exceeded for metric: ..., limit: 0"
	// (google-gemini/gemini-cli#22486, continuedev/continue#10062); the
	// rate limit a retry outlives says "limit: 20".
	numbers(Permanent, `pattern "quota limit of 0"`, "limit: 0", func(lower string) bool {
		return strings.Contains(lower, "quota") && zeroLimit(lower)
	}),
	marker(Permanent, "credit balance is too low"),  // Anthropic 400 billing message
	marker(Permanent, "billing_hard_limit_reached"), // OpenAI code
	marker(Permanent, "billing hard limit"),         // OpenAI message
	marker(Permanent, "billing_not_active"),         // OpenAI type of "Your account is not active"
	// OpenAI 429 "Your account is not active, please check your billing
	// details", an account deactivated or suspended.
	pattern(Permanent, `pattern "account is not active"`, "account ",
		`\baccount (?:is |has been |was )?(?:not active|inactive|deactivated|disabled|suspended)\b`),
	// An organization, project or key shut off or not yet allowed: OpenAI
	// "This organization has been disabled.", "Your organization must be
	// verified to stream this model.", Gemini 403 "Permission denied:
	// Consumer 'api_key:...' has been suspended.".
	// The pattern starts with its literal, so the matcher skips to it.
	pattern(Permanent, `pattern "disabled or suspended"`, "has been ", `has been (?:disabled|restricted|deactivated|suspended|banned|blocked)\b`),
	marker(Permanent, "organization must be verified"),
	// xAI 429 "has either used all available credits or reached its monthly
	// spending limit", Grok "You have run out of credits", OpenRouter 402
	// "This request requires more credits", DeepSeek 402 "Insufficient
	// Balance", OpenRouter "Insufficient credits".
	pattern(Permanent, `pattern "credits used up"`, "credit",
		`\b(?:exceeded (?:your |the )?(?:monthly |daily )?(?:included |free )?credits?|used (?:up )?(?:all )?(?:(?:of )?(?:your|the|available) )*credits?|(?:run|ran) out of credits?|out of credits?|requires more credits?|no credits? (?:left|remaining)|credits? (?:have been |has been |are |is )?(?:exhausted|depleted|used up))\b`),
	// No way to pay on file: Together "Your Together AI account needs a
	// credit card on file to use this app", "a payment method is required".
	// OpenAI's rate limits of unpaid accounts say "Please add a payment
	// method to your account to increase your rate limit": not matched.
	pattern(Permanent, `pattern "needs a payment method"`, "credit card",
		`\b(?:needs?|requires?) a (?:valid )?credit card\b|\bno credit card on file\b`),
	pattern(Permanent, `pattern "payment method required"`, "payment method",
		`\b(?:needs?|requires?) a (?:valid )?payment method\b|\bpayment method (?:is )?required\b|\bno payment method\b`),
	insufficientBalance,
	// A limit counted per month, which no retry of this call outlives:
	// Cohere's trial key "limited to 1000 API calls / month". A limit per
	// day is left to the status (OpenRouter's 429 "free-models-per-day" is
	// retried as a rate limit, Groq's tokens per day carry "Please try
	// again in 7m12s"); with a retry hint the wait is the answer here too.
	withHint(gated(Permanent, `pattern "limit per month"`, "limit", "month",
		`\blimit(?:ed)?\b[^.\n]{0,40}?(?:\bper[- ]|/ ?)month\b`), RateLimited),
	// Chinese providers' balance: Zhipu's 1113 "余额不足或无可用资源包,请充值"
	// (balance insufficient or no resource package, please top up), "额度不足"
	// (quota insufficient), "账户已欠费" (account in arrears).
	insufficientBalanceZh,
	marker(Permanent, "欠费"),
	// A free allocation spent until it resets: Cloudflare Workers AI's 3036
	// "You have used up your daily free allocation of 10,000 neurons". A
	// share of it used ("used up 40% of your daily allocation") is not.
	pattern(Permanent, `pattern "allocation used up"`, "used up ",
		`\bused up (?:all )?(?:of )?(?:your |the )?(?:daily |monthly )?(?:free )?(?:allocation|quota)\b`),
	// xAI "reached its monthly spending limit", Anthropic "You have reached
	// your specified API usage limits. You will regain access on 2026-04-01".
	pattern(Permanent, `pattern "spending limit reached"`, " limit",
		`\b(?:monthly spending limit|spending limit (?:reached|exceeded)|reached (?:its|your|the) (?:monthly )?spend(?:ing)? limit|specified api usage limits?)\b`),
))

// serverOverloadRules say in words that the server, the model or the
// service itself is overloaded, busy or at capacity: the server's own
// state, which another model or a later attempt may avoid, not the
// caller's usage. They decide over a 429 and where no status is known (see
// decide): Moonshot's 429 "The engine is currently overloaded, please try
// again later", OpenAI's 429 "That model is currently overloaded with other
// requests", Zhipu's 429 1305 "该模型当前访问量过大" (the model's traffic is
// too high), Kiro "The model is temporarily busy", Eigent "We're
// experiencing high traffic", iFlytek Spark "系统繁忙，请稍后再试" (the
// system is busy), a relay's "当前模型负载过高" (the model's load is too
// high), Claude Code "Server is temporarily limiting requests (not your
// usage limit)". A 429 about the caller's usage ("you exceeded your rate
// limit") holds none of these and stays a rate limit; so does one-api's
// "当前分组上游负载已饱和" (the group's upstream load saturated), which
// the relay sends for its upstream's 429s to its own keys. Vertex AI's
// RESOURCE_EXHAUSTED "Unable to submit request because the service is
// temporarily out of capacity" (googleapis/google-cloud-java#11195 and
// #10983) is the service's state too, not the caller's quota.
//
// The adverbs before "overloaded", "busy" or "limiting" are at most four:
// the bound lets a long text be matched in windows around those words.
var serverOverloadRules = newFamily([]string{"overloaded", "busy", "traffic", " load", "capacity", "limiting", "繁忙", "负载", "访问量"},
	pattern(Overloaded, `pattern "server overloaded"`, "overloaded",
		`\b(?:server|model|service|system|llm|engine|runner|backend|worker|gpu|api|endpoint|upstream|cluster|provider)s? (?:is |are |was |were |has been |have been |seems |appears to be )?(?:currently |temporarily |now |still |too |being |getting |severely |heavily |very |a bit |slightly ){0,4}overloaded\b`),
	serverBusy,
	pattern(Overloaded, `pattern "experiencing high traffic"`, "traffic",
		`\b(?:experiencing|under|seeing|receiving) (?:an? )?(?:unusually |extremely |very |exceptionally )?(?:high|heavy|elevated) (?:traffic|volumes? of traffic)\b`),
	pattern(Overloaded, `pattern "under heavy load"`, " load",
		`\b(?:experiencing|under|seeing|receiving) (?:an? )?(?:unusually |extremely |very |exceptionally )?(?:high|heavy|elevated) load\b`),
	pattern(Overloaded, `pattern "server at capacity"`, "capacity",
		`\b(?:server|model|service|system|engine|backend|cluster|provider)s? (?:is |are )?(?:currently |temporarily )?(?:at|over|out of) (?:full )?capacity\b`),
	pattern(Overloaded, `pattern "server limiting requests"`, "limiting",
		`\b(?:server|service|system|api)s? (?:is |are )?(?:currently |temporarily ){0,4}limiting (?:all )?requests\b`),
	pattern(Overloaded, `pattern "system busy (zh)"`, "繁忙", `(?:系统|服务器?|模型|引擎|平台|接口)(?:当前|目前|正在)?繁忙`),
	pattern(Overloaded, `pattern "load too high (zh)"`, "负载", `负载(?:过高|过载|太高|过大)`),
	pattern(Overloaded, `pattern "traffic too high (zh)"`, "访问量", `访问量(?:过|太)大`),
)

// serverBusy says whatever serves the model has no room for one more
// request now: Ollama "server busy, please try again." and "llm busy - no
// slots available", Hugging Face "Model too busy, unable to get response
// in less than 60 second(s)", Kiro "The model is temporarily busy".
var serverBusy = pattern(Overloaded, `marker "server busy"`, "busy",
	`\b(?:server|model|service|system|llm|engine|runner|backend|worker|gpu|api|endpoint|upstream|cluster|provider)s? (?:is |are )?(?:currently |temporarily |now |still |too |very |extremely ){0,4}busy\b`)

// overloadedWord says the server is short of capacity. It also decides over
// a 500 (see decide): Anthropic sends "Overloaded" as a 500 api_error too.
var overloadedWord = marker(Overloaded, "overloaded")

// insufficientBalance says the account's balance is spent: DeepSeek 402
// "Insufficient Balance", OpenRouter "Insufficient credits", MiniMax
// "insufficient balance (1008)". It is the one billing rule that decides
// over a 500 too (see decide).
var insufficientBalance = pattern(Permanent, `pattern "insufficient balance"`, "insufficient ",
	`\binsufficient (?:account )?(?:balance|credits?|funds)\b`)

// insufficientBalanceZh is insufficientBalance in Chinese: Zhipu's 1113
// "余额不足或无可用资源包,请充值" (balance insufficient or no resource package,
// please top up), "额度不足" (quota insufficient), and the zhipuai SDK's
// APIInternalError, a 500 around "账户余额不足，冻结余额失败" (account balance
// insufficient). It decides over a 500 too.
var insufficientBalanceZh = pattern(Permanent, `pattern "insufficient balance (zh)"`, "不足", `(?:余额|额度|资源包)不足`)

// modelNamed is the start of the model-missing patterns: "model",
// "models/" or "model: ", then at most one name, quoted or not, then a
// space.
const modelNamed = "\\bmodels?(?:/|:? )?(?:[\x60'\"][^\x60'\"]{1,100}[\x60'\"]|[\\w.:/-]{1,100})? "

// missingModelRules are the text rules that say the model is missing or
// retired. They also mark a Permanent decided by a status or code as
// [Class.ModelMissing]: a 400 "The model x has been decommissioned" is fixed
// by another model, as a 404 is.
var missingModelRules = newFamily([]string{"model", "deployment", "does not exist", "no endpoints", "not found", "decommissioned", "supported", "have access to "},
	slices.DeleteFunc(slices.Clone(textRules), func(r textRule) bool { return !r.missing })...)

// accountRules are the rules that say the caller's account or deployment
// cannot serve the request (a key refused, a balance used up). They also
// mark a Permanent decided by a status or code as [Class.AccountFailure]:
// Gemini's 400 "API key not valid" is fixed by another key, as a 401 is.
var accountRules = newFamily(append([]string{"auth", "api key", "api_key", "x-api-key", "access denied", "login", "permission", "security token", "token", "supported"},
	billingRules.words...),
	append(slices.DeleteFunc(slices.Clone(textRules), func(r textRule) bool { return !r.account }), billingRules.rules...)...)

// contentRules say that the provider refused the request for what it
// says: a content filter, a safety block, a moderation flag. They keep a
// refusal that arrives as a 403 from being read as an account failure
// (OpenRouter's "403: Your chosen model requires moderation and your input
// was flagged"): every account would refuse the same request.
var contentRules = newFamily([]string{"content", "safety", "blocked", "finish", "flagged", "prompt injection", "内容"},
	append(slices.DeleteFunc(slices.Clone(textRules), func(r textRule) bool { return !r.content }),
		// A moderation flag on the request: OpenRouter "your input was
		// flagged", OpenAI "Invalid prompt: your prompt was flagged as
		// potentially violating our usage policy". An account flagged for
		// abuse is not matched: the subject must be the request.
		pattern(Permanent, `pattern "input was flagged"`, "flagged",
			`\b(?:input|prompt|content|request|message|messages|output|response|image) (?:was |were |has been |is )?flagged\b`),
		// OpenRouter's guardrails, 403 permission_denied: "Request blocked:
		// prompt injection patterns detected".
		marker(Permanent, "prompt injection"),
	)...)

// textRules are tried in order when neither a status nor a typed error
// decided. The client's own timeout comes first (its text also says
// "canceled"), then canceled and programming (they must never be retried),
// then permanent markers, then the retryable kinds.
var textRules = []textRule{
	// net/http's http.Client.Timeout: "net/http: request canceled
	// (Client.Timeout exceeded while awaiting headers)". The client timed
	// out; the caller did not give up.
	marker(Transient, "client.timeout exceeded"),

	// Canceled. OpenAI's client replaces context.Canceled with this fixed string.
	pattern(Canceled, `marker "request cancelled"`, "request cancel", `\brequest cancell?ed\b`),
	marker(Canceled, "context canceled"),       // flattened context.Canceled
	marker(Canceled, "operation was canceled"), // net: dial canceled by the context
	// The caller aborted: fetch's "AbortError: The user aborted a request.",
	// the TypeScript SDKs' APIUserAbortError "Request was aborted.", "This
	// operation was aborted". "Connection aborted" is the network's, below.
	pattern(Canceled, `pattern "request aborted"`, "abort",
		`\b(?:request|operation) (?:was |has been )?aborted\b|\buser aborted\b|\babort ?error\b`),
	pattern(Canceled, `pattern "cancelled error"`, "cancel", `\bcancell?ed ?error\b`), // Python asyncio.CancelledError, axios CanceledError

	// A runtime panic written inside an error body the caller received
	// (the unclosed "{" of a JSON object before it): a relay or a server
	// that crashed under the request and recovered to report it, as a 500
	// in all but name. new-api's and one-api's recovery middleware answer
	// {"error":{"message":"Panic detected, error: runtime error: invalid
	// memory address or nil pointer dereference. ...","type":"new_api_panic"}}
	// (QuantumNous/new-api#4369; songquanpeng/one-api
	// middleware/recover.go, "one_api_panic"). Another attempt may take
	// another path through the server.
	numbers(Transient, `pattern "a server's panic"`, "runtime error: ", func(lower string) bool {
		return insideBody(lower, runtimePanic(lower))
	}),
	// Programming errors: retrying cannot fix the code.
	// A runtime panic in the caller's own process: Go's runtime errors
	// ("runtime error: invalid memory address or nil pointer dereference",
	// j178/chatgpt#14; "index out of range [3] with length 3"). The same
	// call crashes the same way until the code changes.
	numbers(Programming, `pattern "a runtime panic"`, "runtime error: ", func(lower string) bool {
		return runtimePanic(lower) >= 0
	}),
	// A function called with arguments it does not take, in Python's words
	// (CPython's TypeError: "create() got an unexpected keyword argument
	// 'stream_options'", simonw/llm-openrouter#11, EleutherAI/lm-evaluation-harness#1205;
	// "missing 1 required positional argument"; "takes 2 positional
	// arguments but 3 were given") and openai-python's required_args
	// ("Missing required arguments; Expected either ('model' and
	// 'prompt')", modelscope/ms-agent#300): the caller's code does not fit
	// the library it calls.
	pattern(Programming, `pattern "call with arguments it does not take"`, "argument",
		`\bgot an unexpected keyword argument\b|\bmissing \d+ required (?:positional |keyword-only )?arguments?\b|\btakes (?:from \d+ to )?\d+ positional arguments? but \d+ (?:were|was) given\b|\bmissing required arguments; expected either\b`),
	marker(Programming, "not implemented"),
	marker(Programming, "unsupported protocol scheme"), // a base URL without http(s)://
	// The same in other clients: httpx "Request URL is missing an 'http://'
	// or 'https://' protocol", "has an unsupported protocol 'ttp://'", Node's
	// "Only HTTP(S) protocols are supported".
	pattern(Programming, `pattern "url without a usable protocol"`, "protocol",
		`\b(?:missing an? (?:'https?://'(?: or 'https?://')? )?|unsupported )protocol\b|\bonly https?\(s\) protocols are supported\b`),
	// requests' MissingSchema: "Invalid URL '127.0.0.1:8000/generate': No
	// scheme supplied. Perhaps you meant https://...?" (THUDM/AgentTuning#31,
	// metaodi/osmapi#61 with a base URL without http://).
	marker(Programming, "no scheme supplied"),
	marker(Programming, "unsupported message type"),           // anthropic, bedrock, googleai: a role the client cannot send
	marker(Programming, "unsupported content type"),           // anthropic, mistral: a content part the client cannot send
	marker(Programming, "only one of content / multicontent"), // openai ErrContentExclusive
	// The client's types do not fit the response: "json: cannot unmarshal
	// string into Go struct field Response.choices of type []openai.Choice".
	pattern(Programming, `pattern "json: cannot unmarshal into a Go type"`, "json: ",
		`\bjson: (?:cannot unmarshal .{1,200} into go (?:struct field|value of type)|unsupported (?:type|value): |error calling marshaljson)`),
	// A base URL that does not parse: `parse "localhost:11434/api/chat":
	// first path segment in URL cannot contain colon`.
	pattern(Programming, `pattern "invalid url"`, "parse \"",
		`(?:^|: )parse "[^"]*": (?:missing protocol scheme|first path segment|invalid |net/url: )`),
	marker(Programming, "no host in request url"),
	marker(Programming, "net/http: invalid header field"), // an API key with a newline in it
	// A request body that does not match its length, such as one read by
	// an earlier attempt: net/http's "http: ContentLength=812 with Body
	// length 0".
	pattern(Programming, `pattern "body shorter than its length"`, "contentlength=", `\bhttp: contentlength=\d+ with body length \d+`),

	// TLS and certificates: the same handshake fails the same way.
	marker(Permanent, "x509: "),                            // unknown authority, expired, hostname mismatch
	marker(Permanent, "tls: failed to verify certificate"), // crypto/tls
	marker(Permanent, "certificate verify failed"),         // OpenSSL, Python ssl
	// OpenSSL's reasons for a chain it cannot verify
	// (X509_verify_cert_error_string), as Node prints them alone:
	// "request to https://... failed, reason: self-signed certificate in
	// certificate chain" (SELF_SIGNED_CERT_IN_CHAIN, Chanzhaoyu/chatgpt-web#794,
	// microsoft/teams.ts#383), "unable to get local issuer certificate"
	// (UNABLE_TO_GET_ISSUER_CERT_LOCALLY, ai-genie/chatgpt-vscode#89),
	// "unable to verify the first certificate"; curl's "SSL certificate
	// problem: self signed certificate in certificate chain". A
	// TLS-intercepting proxy or a missing CA fails every handshake the
	// same way.
	pattern(Permanent, `pattern "certificate chain not verified"`, "signed certificate", `\bself[- ]signed certificate\b`),
	pattern(Permanent, `pattern "certificate chain not verified"`, "issuer certificate", `\bunable to get (?:local )?issuer certificate\b`),
	pattern(Permanent, `pattern "certificate chain not verified"`, "verify the first certificate", `\bunable to verify the first certificate\b`),
	marker(Permanent, "first record does not look like a tls"),     // https:// to a plain HTTP port
	marker(Permanent, "server gave http response to https client"), // idem, net/http
	// The TLS alerts a handshake ends with when the two sides cannot agree
	// (crypto/tls's alert texts, "remote error: tls: handshake failure"): the
	// next handshake disagrees the same way. A handshake that timed out or
	// was cut ("tls handshake timeout", "tls handshake eof") is transient,
	// below.
	pattern(Permanent, `pattern "tls alert"`, "tls: ",
		`\btls: (?:handshake failure|bad certificate|unknown certificate authority|protocol version not supported|unrecognized name|certificate required|no application protocol|unsupported certificate|certificate (?:revoked|expired|unknown))\b`),

	// Permanent: the markers of the original retry design, then
	// model-not-found and content policy.
	marker(Permanent, "not a valid image"),
	marker(Permanent, "invalid image"),
	marker(Permanent, "image data is not"),
	marker(Permanent, "unsupported image"),  // OpenAI
	marker(Permanent, "image is not valid"), // Gemini "Provided image is not valid."
	pattern(Permanent, `marker "does not appear to be a valid image"`, "does not appear to be a valid ", `does not appear to be a valid (?:\w+ )?image`), // Anthropic
	marker(Permanent, "illegal base64 data"), // Ollama
	pattern(Permanent, `pattern "image too large"`, "image ", `\bimage (?:exceeds|is too large|too large)\b`), // Anthropic "image exceeds 5 MB maximum"
	marker(Permanent, "invalid base64"), // Bedrock
	accountFailure(marker(Permanent, "login expired")),
	accountFailure(marker(Permanent, "login failed")),
	accountFailure(marker(Permanent, "re-auth")),
	accountFailure(marker(Permanent, "unauthorized")),
	// Refused whoever asks again: Azure 401 "Access denied due to invalid
	// subscription key or wrong API endpoint", "User x is not authorized to
	// access model y", Bedrock "Your account is not authorized to invoke
	// this API operation.".
	accountFailure(marker(Permanent, "access denied")),
	accountFailure(pattern(Permanent, `pattern "not authorized"`, "not authori", `\bnot authori[sz]ed\b`)),
	accountFailure(marker(Permanent, "invalid api key")),
	// A credential the provider does not take, in the words that name a
	// token rather than a key: Cohere "invalid api token", "Access token
	// expired", "invalid bearer token". The same token fails the same way.
	accountFailure(pattern(Permanent, `pattern "invalid token"`, "token",
		`\b(?:invalid|incorrect|expired|revoked) (?:api[ _-]?|access[ _-]?|auth(?:entication)?[ _-]?|bearer |session )token\b|\b(?:api|access|auth|bearer) token (?:is |was |has )?(?:invalid|incorrect|expired|(?:been )?revoked)\b`)),
	// No key sent at all: OpenAI 401 "You didn't provide an API key. You need
	// to provide your API key in an Authorization header using Bearer auth".
	accountFailure(pattern(Permanent, `pattern "no api key"`, "provide an api key", `\b(?:didn't|did not) provide an api key\b`)),
	// A key missing, or one the server cannot tell from a missing one:
	// Langflow "Invalid or missing API key", "Missing API key", "API key is
	// missing". Sending again without a key fails the same way.
	accountFailure(gated(Permanent, `pattern "missing api key"`, "api key", "missing",
		`\bmissing (?:or (?:invalid|incorrect) )?api key\b|\bapi key (?:is |was )?missing\b`)),
	// Google's PERMISSION_DENIED "The caller does not have permission",
	// "Permission denied: ...", "insufficient permissions".
	accountFailure(pattern(Permanent, `pattern "permission denied"`, "permission",
		`\bpermission denied\b|\b(?:does not|doesn't|do not|don't) have (?:the )?permissions?\b|\binsufficient permissions?\b`)),
	// Requests the API refuses as written: OpenAI "Unsupported parameter:
	// 'max_tokens' is not supported with this model.", "Unrecognized request
	// argument supplied", "Unknown parameter", Mistral "Extra inputs are
	// not permitted", Bedrock "Malformed input request", "Invocation of
	// model ID x with on-demand throughput isn't supported", a model that
	// "does not support tools".
	pattern(Permanent, `pattern "unsupported parameter"`, "unsupported ", `\bunsupported (?:parameter|value|argument)s?\b`),
	marker(Permanent, "unknown parameter"),
	marker(Permanent, "unrecognized request argument"),
	marker(Permanent, "extra inputs are not permitted"),
	marker(Permanent, "extra fields not permitted"), // the same refusal in pydantic 1's words (Fireworks)
	marker(Permanent, "malformed input request"),
	// A conversation the model's chat format does not take: Perplexity
	// "user or tool message(s) should alternate with assistant message(s)",
	// Hugging Face chat templates "Conversation roles must alternate
	// user/assistant/user/assistant/...", Gemini "multiturn requests
	// alternate between user and model". The same messages fail the same
	// way.
	pattern(Permanent, `pattern "roles must alternate"`, "alternate",
		`\b(?:must|should) alternate\b|\balternate between (?:the )?["']?(?:user|assistant|model)\b`),
	// Cohere's validation errors open with these words: "invalid request:
	// message must be at least 1 token long or tool results must be
	// specified.", "invalid request: valid input_type must be provided".
	pattern(Permanent, `pattern "invalid request:"`, "invalid request: ", `(?:^|[\s"'{:])invalid request: `),
	accountFailure(marker(Permanent, "invalid_api_key")),
	accountFailure(marker(Permanent, "incorrect api key")),                      // OpenAI "Incorrect API key provided"
	accountFailure(marker(Permanent, "invalid x-api-key")),                      // Anthropic
	accountFailure(marker(Permanent, "api key not valid")),                      // Gemini
	accountFailure(marker(Permanent, "authentication_error")),                   // Anthropic type
	accountFailure(marker(Permanent, "permission_error")),                       // Anthropic type
	accountFailure(marker(Permanent, "security token included in the request")), // Bedrock UnrecognizedClientException
	missingModel(marker(Permanent, "model_not_found")),                          // OpenAI code
	missingModel(marker(Permanent, "does not exist or you do not have access")), // OpenAI model_not_found message
	// The caller may not use the model: OpenAI 403 "Project `proj_x` does
	// not have access to model `gpt-4o`", Bedrock AccessDeniedException
	// "You don't have access to the model with the specified model ID.".
	missingModel(pattern(Permanent, `pattern "no access to the model"`, "have access to ",
		`\b(?:do not|don't|does not|doesn't) have access to (?:the )?models?\b`)),
	// The model, named or not, is missing or retired: Ollama `model "llama3"
	// not found, try pulling it first`, Cohere "model 'xlarge' not found",
	// Gemini "models/gemini-pro is not found for API version v1beta", vLLM
	// "The model `x` does not exist.", Ollama `The model "llama3.1:8b" was not
	// found`, Groq "The model `x` has been decommissioned and is no longer
	// supported". The name is one token (quoted or not) between "model" and
	// the verb, so "model ... tool x was not found" does not match.
	missingModel(pattern(Permanent, `pattern "model not found"`, "not found", modelNamed+`(?:(?:is|was) )?not found\b`)),
	missingModel(pattern(Permanent, `pattern "model does not exist"`, "does not exist", modelNamed+`does not exist\b`)),
	missingModel(pattern(Permanent, `pattern "model decommissioned"`, "decommissioned", modelNamed+`(?:has been |was )?decommissioned\b`)),
	// A model name the provider does not take: Bedrock ValidationException
	// "The provided model identifier is invalid.", "Model x is not
	// supported", "invalid model".
	missingModel(pattern(Permanent, `pattern "invalid model"`, "model ", `model (?:id |identifier |name )?is (?:invalid|not valid|unknown)\b`)),
	missingModel(marker(Permanent, "invalid model")),
	missingModel(marker(Permanent, "unknown model")),
	// Cloudflare Workers AI's 5007 "No such model @cf/meta/llama-4-scout or
	// task". A "no such modelfile" is no model.
	missingModel(pattern(Permanent, `pattern "no such model"`, "no such model", `\bno such model\b`)),
	missingModel(pattern(Permanent, `pattern "model not supported"`, "supported", modelNamed+`(?:is |are )?not supported\b`)),
	// A model this region or deployment does not offer: Azure "The
	// requested model azureml://registries/azureml/models/Phi-3.5-vision-instruct
	// is not available in region East US 2.". Another region may have it.
	missingModel(pattern(Permanent, `pattern "model not available in the region"`, "model",
		modelNamed+`is not available in (?:the |this |your )?(?:region|location)\b`)),
	// Azure OpenAI DeploymentNotFound "The API deployment for this resource
	// does not exist", OpenRouter "No endpoints found for x" (and "that
	// support tool use", "matching your guardrail restrictions").
	missingModel(pattern(Permanent, `pattern "deployment does not exist"`, "deployment", `\bdeployment\b[\w ]{0,40} (?:does not exist|(?:was )?not found)\b`)),
	missingModel(pattern(Permanent, `pattern "no endpoints found"`, "no endpoints ", `\bno endpoints (?:found|available)\b`)),
	// A local server with nothing to serve: LM Studio 400 "No models
	// loaded. Please load a model in the developer page or use the 'lms
	// load' command.".
	missingModel(pattern(Permanent, `pattern "no model loaded"`, "no model", `no models? (?:is |are )?(?:currently )?loaded\b`)),
	// The requested output exceeds what the model can write, whatever the
	// prompt: Anthropic "max_tokens: 64000 > 32000, which is the maximum
	// allowed number of output tokens", OpenAI "max_tokens is too large: 5000.
	// This model supports at most 4096 completion tokens", Bedrock "The
	// maximum tokens you requested exceeds the model limit". Compacting the
	// prompt cannot help; the option must change. (An overflow of prompt plus
	// max_tokens says "context length" and is matched before.)
	// Each wording has a rule of its own: a literal the text holds or not
	// costs one scan, an alternation of them a run of the matcher.
	pattern(Permanent, `pattern "max_tokens over the output limit"`, "maximum allowed number of output tokens", `maximum allowed number of output tokens\b`),
	pattern(Permanent, `pattern "max_tokens over the output limit"`, "max_tokens is too large", `max_tokens is too large\b`),
	pattern(Permanent, `pattern "max_tokens over the output limit"`, "maximum tokens you requested exceeds", `maximum tokens you requested exceeds\b`),
	// The caller's country or region is not served: OpenAI "Country, region,
	// or territory not supported", Gemini "User location is not supported for
	// the API use".
	accountFailure(pattern(Permanent, `pattern "location not supported"`, "not supported",
		`\b(?:country|region|territory|location)\b[^.]{0,30}?\bnot supported\b`)),
	// A feature the model or the API does not offer, after the rules that
	// say which one.
	pattern(Permanent, `pattern "not supported"`, " supported", `\b(?:is|are) not supported\b|\b(?:isn't|aren't) supported\b`),
	// A feature only some models take: openai-python "Invalid content type.
	// image_url is only supported by certain models.".
	pattern(Permanent, `pattern "only supported by certain models"`, "only supported ", `\bonly supported (?:by|for|with|on) (?:certain|some|specific|select) models\b`),
	pattern(Permanent, `pattern "model does not support"`, "support",
		`\bdoes(?: not|n't) support (?:tools?|tool (?:use|calling|choice)|function calling|images?|vision|streaming|system (?:messages?|prompts?)|audio|json mode|structured outputs?)\b`),
	contentRefusal(marker(Permanent, "content_policy_violation")),  // OpenAI images code
	contentRefusal(marker(Permanent, "content management policy")), // Azure OpenAI content filter
	contentRefusal(marker(Permanent, "content_filter")),
	contentRefusal(marker(Permanent, "content filtering policy")), // Anthropic 400 "Output blocked by content filtering policy"
	// A tool definition the API refuses: OpenAI "Invalid schema for function
	// 'x': In context=(), object schema missing properties." (code
	// invalid_function_parameters), DeepSeek "schema must be a JSON Schema
	// of 'type: "object"'". The same tools fail every call.
	pattern(Permanent, `pattern "invalid tool schema"`, "schema", `\binvalid (?:json )?schema for (?:function|tool)\b|\bschema must be a json schema\b`),
	contentRefusal(marker(Permanent, "safety system")), // OpenAI "rejected as a result of our safety system"
	// Chinese providers' content filters: "您的请求包含不安全内容，已被系统拦截"
	// (your request holds unsafe content and was blocked), "输入内容包含敏感
	// 内容" (the input holds sensitive content), "违规内容" (content that breaks
	// the rules).
	contentRefusal(pattern(Permanent, `pattern "unsafe content (zh)"`, "内容", `(?:不安全|敏感|违规)内容`)),
	contentRefusal(pattern(Permanent, `marker "blocked:"`, "blocked: ", `(?:^|: )blocked: `)), // googleai *genai.BlockedError
	// Gemini's safety blocks as clients word them: "Candidate was blocked due
	// to SAFETY", "Message is being blocked for reason: SAFETY", "Blocked by
	// safety settings", "Check the `response.prompt_feedback` to see if the
	// prompt was blocked", "finish_reason: SAFETY" (or RECITATION,
	// PROHIBITED_CONTENT, BLOCKLIST, SPII).
	contentRefusal(pattern(Permanent, `pattern "blocked for safety"`, "blocked",
		`\bblocked\b[^.]{0,40}?\b(?:safety|prohibited_content|recitation|blocklist|spii)\b|\bprompt was blocked\b`)),
	contentRefusal(pattern(Permanent, `pattern "finish reason safety"`, "finish", `\bfinish_?reason\W{0,4}(?:safety|prohibited_content|recitation|blocklist|spii)\b`)),
	pattern(Permanent, `marker "completed due to"`, "completed due to ", `\bcompleted due to (?:max_tokens|refusal|\w+)\b`), // Bedrock stop reasons as errors

	// Rate limited.
	marker(RateLimited, "rate limit"),
	marker(RateLimited, "rate_limit"),
	marker(RateLimited, "ratelimit"),
	marker(RateLimited, "rate-limit"),
	marker(RateLimited, "too many requests"),
	marker(RateLimited, "throttl"),                     // Bedrock ThrottlingException, "throttled"
	marker(RateLimited, "resource has been exhausted"), // Gemini 429 RESOURCE_EXHAUSTED
	marker(RateLimited, "resource_exhausted"),
	marker(RateLimited, "resourceexhausted"), // the gRPC code's Go name: "ResourceExhausted: Worker local total request limit reached"
	// Chinese providers (Baidu ERNIE, Qwen, Zhipu): "访问过于频繁，请稍候再试"
	// (requests too frequent, try again shortly), "请求过于频繁", "调用太频繁".
	pattern(RateLimited, `pattern "requests too frequent (zh)"`, "频繁", `(?:访问|请求|调用)(?:过于|太|过)频繁`),
	// Google Cloud's per-metric quotas: "Quota exceeded for quota metric
	// 'Generate Content API requests per minute'", "Quota exceeded for
	// aiplatform.googleapis.com/generate_content_requests_per_minute...". An
	// exhausted balance ("You exceeded your current quota") is matched before.
	marker(RateLimited, "quota exceeded for"),
	// A window's limit: Cerebras "Tokens per minute limit exceeded".
	pattern(RateLimited, `pattern "per minute limit exceeded"`, " per ", `\b(?:tokens?|requests?) per (?:minute|min|hour|day|second)\b[^.]{0,20}?\b(?:limit|exceeded|reached)\b`),
	marker(RateLimited, "too many tokens"),          // Bedrock "Too many tokens, please wait before trying again." (an overflow says "too many tokens:")
	marker(RateLimited, "no deployments available"), // LiteLLM's router: every deployment cooling down after 429s
	// AWS ThrottlingException "Your request rate is too high. Reduce the
	// frequency of requests.", "Request too frequent".
	marker(RateLimited, "request rate is too high"),
	marker(RateLimited, "reduce the frequency of"),
	pattern(RateLimited, `pattern "requests too frequent"`, "too frequent", `\brequests? (?:is |are )?too frequent`),
	// A per-second or concurrency limit by its short name: Baidu's (ERNIE,
	// Qianfan) error 18 "Open api qps request limit reached", "QPS limit
	// exceeded", "concurrency limit reached". A daily request limit is not
	// matched: it does not lift within a retry.
	pattern(RateLimited, `pattern "qps limit reached"`, "limit ", `\b(?:qps|rps|concurrency) (?:request )?limit (?:reached|exceeded)\b`),
	// A bare 429 counts only where it stands alone: not in a port (":35429"),
	// not in a longer number ("4290").
	pattern(RateLimited, `marker "429"`, "429", `(?:^|[\s(\[=])429(?:$|[\s).,:;\]])`),
	// The status's name written as one word, as .NET's HttpStatusCode
	// (Semantic Kernel's retry handler: "Reason: TooManyRequests. Will retry
	// after 9000ms") and google.api_core's exception classes name it.
	marker(RateLimited, "toomanyrequests"),

	// Overloaded.
	overloadedWord, // Anthropic overloaded_error, OpenAI "The server is overloaded"
	pattern(Overloaded, `marker "529"`, "529", `(?:^|[\s(\[=])529(?:$|[\s).,:;\]])`),
	marker(Overloaded, "service unavailable"),
	marker(Overloaded, "serviceunavailable"), // Bedrock ServiceUnavailableException
	serverBusy,                               // whatever serves the model has no room for one more request now
	// A runner whose parallel slots are all taken: ollama-python's "no
	// slots available after 10 retries". A slot frees when a request ends.
	pattern(Overloaded, `pattern "no free slot"`, "slot", `\bno (?:free |idle |available )?slots? (?:are |is )?(?:available|free|left)\b`),
	// Google's UNAVAILABLE "The service is currently unavailable."
	pattern(Overloaded, `pattern "service is unavailable"`, "service is ", `\bservice is (?:currently |temporarily )?unavailable\b`),
	marker(Overloaded, "over capacity"),
	marker(Overloaded, "high demand"),
	marker(Overloaded, "currently loading"), // Hugging Face "Model gpt2 is currently loading"
	// A model not ready yet: warming up, being pulled (Hugging Face
	// chat-ui "Currently pulling model from Ollama, please try again later").
	marker(Overloaded, "warming up"),
	pattern(Overloaded, `pattern "currently pulling the model"`, "currently ", `\bcurrently (?:pulling|downloading) (?:the )?model\b`),
	// Short of capacity: Mistral "Service tier capacity exceeded", "out of
	// capacity", Cloudflare Workers AI "Capacity temporarily exceeded".
	// Cloudflare Workers AI's 3040, "Out of capacity": "No more data
	// centers to forward the request to"; "no more replicas available".
	pattern(Overloaded, `pattern "no more servers"`, "no more ",
		`\bno more (?:data ?cent(?:er|re)s|servers|replicas|instances|gpus|workers) (?:available|left|to forward|to route)\b`),
	pattern(Overloaded, `pattern "out of capacity"`, "capacity", `\b(?:out of|at|no|insufficient) capacity\b|\bcapacity (?:temporarily )?(?:exceeded|exhausted)\b`),
	marker(Overloaded, "too many connections"),           // Bedrock 503 "Too many connections, please wait before trying again."
	marker(Overloaded, "unable to process your request"), // Bedrock ServiceUnavailableException "Bedrock is unable to process your request."
	// Envoy's own 503s, in front of Azure, Vertex and self-hosted servers: no
	// backend answered, so another model is the better bet.
	marker(Overloaded, "no healthy upstream"),
	marker(Overloaded, "upstream connect error"),
	marker(Overloaded, "reset before headers"),
	// A gateway whose call to the provider behind it failed, and says no
	// more: "Upstream request failed" (OpenCode's and sub2api's gateways).
	// Its status, when the text holds one, decided before; the next call
	// may go through.
	marker(Transient, "upstream request failed"),

	// Transient: the original retry pattern, transport texts, and
	// langchaingo's stream read failures.
	textRule{kind: Transient, name: `marker "5xx"`, serverStatus: true},
	marker(Transient, "internal server error"),
	marker(Transient, "bad gateway"),
	pattern(Transient, `marker "gateway timeout"`, "gateway time", `gateway time-?out`),
	marker(Transient, "connection error"),
	marker(Transient, "connection refused"),
	marker(Transient, "actively refused"), // Windows WSAECONNREFUSED: "the target machine actively refused it"
	marker(Transient, "connection reset"),
	marker(Transient, "connection aborted"),                                                   // Python "('Connection aborted.', ConnectionResetError(...))"
	marker(Transient, "forcibly closed by the remote host"),                                   // Windows WSAECONNRESET
	marker(Transient, "socket hang up"),                                                       // Node
	pattern(Transient, `pattern "econnreset"`, "econn", `\beconn(?:reset|refused|aborted)\b`), // Node's errno names: "read ECONNRESET", "(ECONNRESET)"
	marker(Transient, "etimedout"),
	// Routes that come and go: ENETUNREACH, EHOSTUNREACH as net's texts.
	marker(Transient, "network is unreachable"),
	marker(Transient, "no route to host"),
	marker(Transient, "eai_again"), // a DNS lookup that may succeed next time
	// A name the resolver did not find, in each runtime's words: Go's
	// "lookup x: no such host", Node's "getaddrinfo ENOTFOUND x"
	// (waylaidwanderer/node-chatgpt-api#66), macOS's EAI_NONAME "nodename
	// nor servname provided, or not known" (Zero6992/chatGPT-discord-bot#352,
	// binary-husky/gpt_academic#178), glibc's "Name or service not known",
	// Windows' "getaddrinfo failed" (WSAHOST_NOT_FOUND), Dart's "Failed host
	// lookup". Transient by the
	// convention of docs/testing.md ("A name not resolved"): the same words
	// come from a misspelt host and from a resolver or a network that is
	// not there yet, which the next attempt may find.
	pattern(Transient, `pattern "name not resolved"`, "no such host", `\bno such host\b`),
	pattern(Transient, `pattern "name not resolved"`, "getaddrinfo ", `\bgetaddrinfo (?:enotfound|failed)\b`),
	pattern(Transient, `pattern "name not resolved"`, "nodename nor servname provided", `\bnodename nor servname provided\b`),
	pattern(Transient, `pattern "name not resolved"`, "name or service not known", `\bname or service not known\b`),
	pattern(Transient, `pattern "name not resolved"`, "failed host lookup", `\bfailed host lookup\b`), // Dart's SocketException
	// HTTP/2 connections that died under the request: "http2: client
	// connection lost", "http2: client conn not usable", "http2: server sent
	// GOAWAY and closed the connection".
	pattern(Transient, `pattern "http2 connection lost"`, "http2: ",
		`\bhttp2: (?:client connection lost|client conn(?:ection)? (?:not usable|force closed)|timeout awaiting response headers)`),
	marker(Transient, "unexpected end of json input"), // a body cut off mid-JSON
	// A JSON parser that found nothing where the body should start: an
	// empty body or a page in its place, from a server that failed under
	// the request (DeepSeek during its outage). Python's json "Expecting
	// value: line 1 column 1 (char 0)", Rust's serde_json "EOF while parsing
	// a value at line 1 column 0".
	marker(Transient, "expecting value: line 1 column 1 (char 0)"),
	marker(Transient, "eof while parsing a value at line 1 column 0"),
	// The same status names as one word for the gateway failures:
	// HttpStatusCode.BadGateway, GatewayTimeout; google.api_core's BadGateway.
	// Whole words only: a setting named gatewayTimeoutMs is no failure.
	pattern(Transient, `pattern "badgateway"`, "badgateway", `\bbadgateway\b`),
	pattern(Transient, `pattern "gatewaytimeout"`, "gatewaytimeout", `\bgatewaytimeout\b`),
	// A stream cut under the reader: Go's HTTP/2 "http2: response body
	// closed", OkHttp's "unexpected end of stream on https://...".
	marker(Transient, "response body closed"),
	marker(Transient, "unexpected end of stream"),
	// A body or a stream cut before its end, in clients' words: aiohttp's
	// ClientPayloadError "Response payload is not completed" and its
	// TransferEncodingError "Not enough data to satisfy transfer length
	// header"; requests' ChunkedEncodingError around urllib3's ProtocolError
	// "Connection broken: IncompleteRead(...)" or "InvalidChunkLength(...)";
	// node-fetch's FetchError "Invalid response body while trying to fetch
	// ...: Premature close" and Node's ERR_STREAM_PREMATURE_CLOSE; nginx's
	// "upstream prematurely closed connection"; reqwest's "error decoding
	// response body" when it ends the text or a read under it failed ("...:
	// error reading a body from connection"), not when the decoder names
	// what it could not parse.
	pattern(Transient, `pattern "payload not completed"`, "payload", `\bpayload is not complete(?:d)?\b`),
	marker(Transient, "not enough data to satisfy transfer length"),
	marker(Transient, "chunkedencodingerror"),
	marker(Transient, "incompleteread"),
	marker(Transient, "invalidchunklength"),
	pattern(Transient, `pattern "premature close"`, "premature", `premature[ _]close\b|\bprematurely closed\b`),
	pattern(Transient, `pattern "error decoding response body"`, "error decoding response body",
		`\berror decoding response body(?:[\s"')\]}]*$|: error reading)`),
	// Ollama's runner died under the request (a crash, a GPU reset): "model
	// runner has unexpectedly stopped, this may be due to resource
	// limitations or an internal error". A model that cannot load at all
	// is matched before, by the unloadable rules.
	marker(Transient, "runner has unexpectedly stopped"),
	// Gemini "An internal error has occurred. Please retry or report in ...",
	// "Internal error encountered."
	pattern(Transient, `pattern "an internal error occurred"`, "internal error", `\ban internal error (?:has )?occurred\b|\binternal error encountered\b`),
	marker(Transient, "connection closed"),
	marker(Transient, "other side closed"),
	marker(Transient, "fetch failed"),
	marker(Transient, "terminated"),
	marker(Transient, "network error"),     // OpenAI "network error: failed to reach API server"
	marker(Transient, "failed to reach"),   // idem
	marker(Transient, "request timeout"),   // OpenAI "request timeout: API call exceeded deadline"
	marker(Transient, "deadline exceeded"), // a flattened context.DeadlineExceeded
	marker(Transient, "deadline expired"),  // Google's DEADLINE_EXCEEDED "Deadline expired before operation could complete."
	marker(Transient, "timed out"),
	marker(Transient, "timeout"),
	marker(Transient, "broken pipe"),
	marker(Transient, "unexpected eof"),
	// A bare EOF ends a clause: at the end of the text, or before the quote
	// or bracket of a body that wrapped it (`{"error":"...": EOF"}`).
	pattern(Transient, `marker "EOF"`, "eof", `(?:^|: )eof\b`),
	pattern(Transient, `marker "no response"`, " response", `(?:^|: )(?:no|empty) response$`), // anthropic.ErrEmptyResponse, openai's empty choices
	marker(Transient, "error reading streaming response"),                                     // openai stream read failure
	marker(Transient, "error reading stream response"),                                        // mistral
	marker(Transient, "issue scanning response"),                                              // anthropic
	marker(Transient, "error in stream mode"),                                                 // googleai
	marker(Transient, "expect single candidate in stream mode"),                               // googleai in-band error
	marker(Transient, "an error was encountered while running the model"),                     // ollama in-band error
	marker(Transient, "server_error"),                                                         // OpenAI type
	marker(Transient, "stream error"),                                                         // HTTP/2 RST_STREAM
	marker(Transient, "goaway"),                                                               // HTTP/2 GOAWAY
	marker(Transient, "server closed idle connection"),
	marker(Transient, "transport connection broken"), // net/http: "HTTP/1.x transport connection broken: malformed HTTP response"
	marker(Transient, "connection broken:"),          // urllib3 ProtocolError "Connection broken: IncompleteRead(...)" (see "payload not completed")
	marker(Transient, "use of closed network connection"),
	marker(Transient, "tls handshake"),
	marker(Transient, "retry your request"),     // OpenAI 500 "You can retry your request"
	marker(Transient, "try your request again"), // Bedrock InternalServerException "Try your request again."
	// A server that could not be reached this time: Ollama's CLI "could not
	// connect to ollama app, is it running?", "Unable to connect to API",
	// aiohttp's ClientConnectorError "Cannot connect to host x:443 ssl".
	pattern(Transient, `pattern "could not connect"`, "connect", `\b(?:could not|couldn't|cannot|can't|unable to|failed to) connect\b`),
	marker(Transient, "server misbehaving"),                   // Go's resolver: "lookup x on 127.0.0.53:53: server misbehaving"
	marker(Transient, "temporary failure in name resolution"), // EAI_AGAIN as glibc words it
	marker(Transient, "try again later"),
	marker(Transient, "temporarily unavailable"),
}

// runtimePanics are Go's runtime errors, as a recovered panic prints them
// (runtime/panic.go, runtime/error.go): a program that crashed.
var runtimePanics = [...]string{
	"runtime error: invalid memory address or nil pointer dereference",
	"runtime error: index out of range",
	"runtime error: slice bounds out of range",
	"runtime error: integer divide by zero",
}

// runtimePanic returns where the text reports a runtime panic, or -1.
func runtimePanic(lower string) int {
	for _, p := range runtimePanics {
		if i := strings.Index(lower, p); i >= 0 {
			return i
		}
	}
	return -1
}

// insideBody reports whether the byte at i lies inside a JSON object the
// text pastes: an object opened before it and not closed since. No byte
// (i < 0) lies inside one.
func insideBody(lower string, i int) bool {
	open := strings.LastIndexByte(lower[:max(i, 0)], '{')
	return open >= 0 && !strings.Contains(lower[open:i], "}")
}
