package taxonomy

import (
	"regexp"
	"strconv"
	"strings"
)

// A textRule matches the lowercased error text. Text is the evidence of last
// resort: langchaingo's openai, anthropic, ollama, mistral and huggingface
// clients return untyped errors, so for them the text is all that is left.
// Every rule is anchored or phrased so that it cannot match inside unrelated
// numbers or words, and each has a table row built from a real provider
// message in classify_test.go.
type textRule struct {
	kind Kind
	name string         // Class.Rule when it matches
	lit  string         // a literal phrase, matched with strings.Contains
	re   *regexp.Regexp // or an anchored pattern
	need string         // a literal every match of re contains: the pattern runs only when it is present
	// hinted, when not Unknown, is the kind when the text also carries a
	// retry hint ("Please retry in 12.3s"): the provider says the limit
	// lifts by itself.
	hinted Kind
}

func (r textRule) match(lower string) bool {
	if r.re != nil {
		// The literal check first: it is much faster than the pattern, which
		// Go cannot skip ahead through when it starts with \b.
		return strings.Contains(lower, r.need) && r.re.MatchString(lower)
	}
	return strings.Contains(lower, r.lit)
}

// marker is a literal phrase rule named `marker "<phrase>"`.
func marker(kind Kind, phrase string) textRule {
	return textRule{kind: kind, name: `marker "` + phrase + `"`, lit: phrase}
}

// pattern is an anchored regular expression rule with a readable name. need
// is a literal that every match contains; the expression runs only when the
// text holds it.
func pattern(kind Kind, name, need, expr string) textRule {
	return textRule{kind: kind, name: name, re: mustContain(need, expr), need: need}
}

// mustContain compiles expr and checks, once at start-up, that need is a
// plausible prefilter for it: a literal that the expression spells out.
func mustContain(need, expr string) *regexp.Regexp {
	if need == "" || !strings.Contains(expr, need) {
		panic("taxonomy: prefilter " + strconv.Quote(need) + " is not a literal of " + expr)
	}
	return regexp.MustCompile(expr)
}

// A statusText finds the HTTP status inside the text of a client that
// flattens it into a string.
type statusText struct {
	need string // a literal every match contains
	re   *regexp.Regexp
}

func status(need, expr string) statusText { return statusText{need, mustContain(need, expr)} }

// statusTexts are tried in order; the first match wins and only 4xx and 5xx
// count.
var statusTexts = []statusText{
	// openai, anthropic, ernie: "API returned unexpected status code: 429: ..."
	// huggingface: "failed to run inference: unexpected status code: 503, body: ..."
	status("unexpected status code", `unexpected status code:? (\d{3})\b`),
	// mistral: "(HTTP Error 429) {...}"
	status("(http error ", `\(http error (\d{3})\)`),
	// googleai when flattened: "googleapi: Error 429: ..."
	status("googleapi: error ", `googleapi: error (\d{3})\b`),
	// *googleapi.Error without a message: "googleapi: got HTTP response code 503 with body: ..."
	status("googleapi: got http response code ", `googleapi: got http response code (\d{3})\b`),
	// bedrock when flattened: "https response error StatusCode: 429, RequestID: ..."
	status("statuscode: ", `\bstatuscode: (\d{3})\b`),
	// generic gateways and SDKs: "status 503", "status code 500", "status: 429", "status=502"
	status("status", `\bstatus(?:[ _]code)?[:=]? ?(\d{3})\b`),
	// "HTTP 429", "HTTP/1.1 503"
	status("http", `\bhttp(?:/\d(?:\.\d)?)? (\d{3})\b`),
}

// overrideRules refine a status: quota exhaustion is permanent even when it
// arrives as a 429, and a 400 whose text says the context was exceeded (or
// the request is too large) is a context overflow, not a bad request.
var (
	quotaRules = []textRule{
		marker(Permanent, "insufficient_quota"), // OpenAI code, in some proxies' texts
		// OpenAI's 429 insufficient_quota message. Gemini words its free-tier
		// per-minute limits the same way but adds "Please retry in 12.3s":
		// with that hint it is a rate limit, not an exhausted quota.
		{kind: Permanent, name: `marker "exceeded your current quota"`, lit: "exceeded your current quota", hinted: RateLimited},
		marker(Permanent, "credit balance is too low"),  // Anthropic 400 billing message
		marker(Permanent, "billing_hard_limit_reached"), // OpenAI code
		marker(Permanent, "billing hard limit"),         // OpenAI message
	}
	overflowRules = []textRule{
		marker(ContextOverflow, "maximum context length"),               // OpenAI, vLLM, DeepSeek, Groq, mistral
		marker(ContextOverflow, "context_length_exceeded"),              // OpenAI code
		marker(ContextOverflow, "prompt is too long"),                   // Anthropic
		marker(ContextOverflow, "exceeds the maximum number of tokens"), // Gemini
		marker(ContextOverflow, "input is too long"),                    // Bedrock ValidationException
		marker(ContextOverflow, "`inputs` tokens + `max_new_tokens`"),   // Hugging Face TGI
		marker(ContextOverflow, "reduce the length of the messages"),    // OpenAI-compatible servers
		marker(ContextOverflow, "context window"),                       // "exceeds the context window", "context_window_exceeded" below
		marker(ContextOverflow, "context_window_exceeded"),              // Azure, Cerebras codes
		// Cohere "too many tokens: total number of tokens in the prompt cannot
		// exceed ...". The colon keeps Bedrock's ThrottlingException "Too many
		// tokens, please wait before trying again." (a rate limit) out.
		marker(ContextOverflow, "too many tokens:"),
		marker(ContextOverflow, "request_too_large"), // Anthropic 413 type
		pattern(ContextOverflow, `pattern "exceeds the context length"`, "context ", // Ollama "input length exceeds the context length", llama.cpp "exceeds the available context size"
			`exceeds? (?:the )?(?:available |maximum )?context (?:length|size)`),
		// Anthropic 400 "input length and `max_tokens` exceed context limit: 187254 + 20000 > 204698, ..."
		pattern(ContextOverflow, `pattern "exceed context limit"`, "context limit", `\bexceeds? (?:the )?context limit\b`),
		// Embedding requests too large as a whole, which a smaller batch fixes:
		// OpenAI 400 "Requested 453357 tokens, max 300000 tokens per request"
		// (code max_tokens_per_request, below) and Azure OpenAI 400 "Too many
		// inputs. The max number of inputs is 16. ...".
		pattern(ContextOverflow, `pattern "max tokens per request"`, "tokens per request", `\bmax(?:imum)? \d+ tokens per request\b`),
		marker(ContextOverflow, "too many inputs"),
	}
)

// textRules are tried in order when neither a status nor a typed error
// decided. Canceled and programming come first (they must never be retried),
// then permanent markers, then the retryable kinds.
var textRules = []textRule{
	// Canceled. OpenAI's client replaces context.Canceled with this fixed string.
	pattern(Canceled, `marker "request cancelled"`, "request cancel", `\brequest cancell?ed\b`),
	marker(Canceled, "context canceled"),       // flattened context.Canceled
	marker(Canceled, "operation was canceled"), // net: dial canceled by the context

	// Programming errors: retrying cannot fix the code.
	marker(Programming, "not implemented"),
	marker(Programming, "unsupported protocol scheme"),        // a base URL without http(s)://
	marker(Programming, "unsupported message type"),           // anthropic, bedrock, googleai: a role the client cannot send
	marker(Programming, "unsupported content type"),           // anthropic, mistral: a content part the client cannot send
	marker(Programming, "only one of content / multicontent"), // openai ErrContentExclusive

	// Permanent: seed 000's markers, then model-not-found and content policy.
	marker(Permanent, "not a valid image"),
	marker(Permanent, "invalid image"),
	marker(Permanent, "image data is not"),
	marker(Permanent, "unsupported image"),  // OpenAI
	marker(Permanent, "image is not valid"), // Gemini "Provided image is not valid."
	pattern(Permanent, `marker "does not appear to be a valid image"`, "does not appear to be a valid ", `does not appear to be a valid (?:\w+ )?image`), // Anthropic
	marker(Permanent, "illegal base64 data"), // Ollama
	marker(Permanent, "invalid base64"),      // Bedrock
	marker(Permanent, "login expired"),
	marker(Permanent, "login failed"),
	marker(Permanent, "re-auth"),
	marker(Permanent, "unauthorized"),
	marker(Permanent, "invalid api key"),
	marker(Permanent, "invalid_api_key"),
	marker(Permanent, "incorrect api key"),                                                      // OpenAI "Incorrect API key provided"
	marker(Permanent, "invalid x-api-key"),                                                      // Anthropic
	marker(Permanent, "api key not valid"),                                                      // Gemini
	marker(Permanent, "authentication_error"),                                                   // Anthropic type
	marker(Permanent, "permission_error"),                                                       // Anthropic type
	marker(Permanent, "security token included in the request"),                                 // Bedrock UnrecognizedClientException
	marker(Permanent, "model_not_found"),                                                        // OpenAI code
	pattern(Permanent, `marker "model not found"`, "not found", `\bmodel (?:\S+ )?not found\b`), // Ollama `model "llama3" not found, try pulling it first`, Cohere
	marker(Permanent, "does not exist or you do not have access"),                               // OpenAI model_not_found message
	marker(Permanent, "content_policy_violation"),                                               // OpenAI images code
	marker(Permanent, "content management policy"),                                              // Azure OpenAI content filter
	marker(Permanent, "content_filter"),
	marker(Permanent, "safety system"),                                        // OpenAI "rejected as a result of our safety system"
	pattern(Permanent, `marker "blocked:"`, "blocked: ", `(?:^|: )blocked: `), // googleai *genai.BlockedError
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
	// A bare 429 counts only where it stands alone: not in a port (":35429"),
	// not in a longer number ("4290").
	pattern(RateLimited, `marker "429"`, "429", `(?:^|[\s(\[=])429(?:$|[\s).,:;\]])`),

	// Overloaded.
	marker(Overloaded, "overloaded"), // Anthropic overloaded_error, OpenAI "The server is overloaded"
	pattern(Overloaded, `marker "529"`, "529", `(?:^|[\s(\[=])529(?:$|[\s).,:;\]])`),
	marker(Overloaded, "service unavailable"),
	marker(Overloaded, "serviceunavailable"),                                       // Bedrock ServiceUnavailableException
	pattern(Overloaded, `marker "server busy"`, "busy", `\bserver (?:is )?busy\b`), // Ollama "server busy, please try again."
	marker(Overloaded, "over capacity"),
	marker(Overloaded, "high demand"),
	marker(Overloaded, "currently loading"), // Hugging Face "Model gpt2 is currently loading"

	// Transient: seed 000's list, transport texts, and langchaingo's stream read failures.
	pattern(Transient, `marker "5xx"`, "5", `\b(?:error|status|code|http)[^a-z0-9]{0,3}5\d\d\b|(?:^|[\s(\[=])5\d\d (?:internal|bad gateway|service|gateway)`),
	marker(Transient, "internal server error"),
	marker(Transient, "bad gateway"),
	pattern(Transient, `marker "gateway timeout"`, "gateway time", `gateway time-?out`),
	marker(Transient, "connection error"),
	marker(Transient, "connection refused"),
	marker(Transient, "connection reset"),
	marker(Transient, "connection closed"),
	marker(Transient, "other side closed"),
	marker(Transient, "fetch failed"),
	marker(Transient, "reset before headers"),
	marker(Transient, "upstream connect error"),
	marker(Transient, "terminated"),
	marker(Transient, "network error"),     // OpenAI "network error: failed to reach API server"
	marker(Transient, "failed to reach"),   // idem
	marker(Transient, "request timeout"),   // OpenAI "request timeout: API call exceeded deadline"
	marker(Transient, "deadline exceeded"), // a flattened context.DeadlineExceeded
	marker(Transient, "timed out"),
	marker(Transient, "timeout"),
	marker(Transient, "broken pipe"),
	marker(Transient, "unexpected eof"),
	pattern(Transient, `marker "EOF"`, "eof", `(?:^|: )eof$`),
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
	marker(Transient, "use of closed network connection"),
	marker(Transient, "tls handshake"),
	marker(Transient, "retry your request"), // OpenAI 500 "You can retry your request"
	marker(Transient, "try again later"),
	marker(Transient, "temporarily unavailable"),
}

// codeKinds maps a provider's machine-readable error code or type, read from
// the body by the transport, to a kind. Codes are more specific than types,
// so the code is looked up first.
var codeKinds = map[string]Kind{
	"insufficient_quota":                   Permanent,
	"billing_hard_limit_reached":           Permanent,
	"invalid_api_key":                      Permanent,
	"authentication_error":                 Permanent,
	"permission_error":                     Permanent,
	"permission_denied":                    Permanent,
	"unauthenticated":                      Permanent,
	"account_deactivated":                  Permanent,
	"unsupported_country_region_territory": Permanent,
	"model_not_found":                      Permanent,
	"not_found_error":                      Permanent,
	"content_policy_violation":             Permanent,
	"content_filter":                       Permanent,
	"image_parse_error":                    Permanent,
	"context_length_exceeded":              ContextOverflow,
	"context_window_exceeded":              ContextOverflow,
	"request_too_large":                    ContextOverflow,
	"max_tokens_per_request":               ContextOverflow,
	"rate_limit_exceeded":                  RateLimited,
	"rate_limit_error":                     RateLimited,
	"resource_exhausted":                   RateLimited,
	"throttlingexception":                  RateLimited,
	"overloaded_error":                     Overloaded,
	"engine_overloaded":                    Overloaded,
	"unavailable":                          Overloaded,
	"serviceunavailableexception":          Overloaded,
	"server_error":                         Transient,
	"api_error":                            Transient,
	"internal":                             Transient,
	"internal_error":                       Transient,
	"deadline_exceeded":                    Transient,
}

// A codeRule is an entry of codeKinds with its rule names built once.
type codeRule struct {
	kind          Kind
	code, typ     string // `code "x"` and `type "x"` for the lowercase name x
	lowercaseName string
}

var codeRules = func() map[string]codeRule {
	rules := make(map[string]codeRule, len(codeKinds))
	for name, kind := range codeKinds {
		rules[name] = codeRule{kind: kind, code: `code "` + name + `"`, typ: `type "` + name + `"`, lowercaseName: name}
	}
	return rules
}()

// lookupCode finds a provider code or type, whatever its case.
func lookupCode(name string) (codeRule, bool) {
	if name == "" {
		return codeRule{}, false
	}
	r, ok := codeRules[name]
	if !ok {
		r, ok = codeRules[strings.ToLower(name)]
	}
	return r, ok
}

// codeRule and typeRule name the decision with the provider's own spelling.
func (r codeRule) codeRule(name string) string {
	if name == r.lowercaseName {
		return r.code
	}
	return `code "` + name + `"`
}

func (r codeRule) typeRule(name string) string {
	if name == r.lowercaseName {
		return r.typ
	}
	return `type "` + name + `"`
}

// grpcCodeRE finds the status code in a gRPC error's text, "rpc error: code =
// ResourceExhausted desc = ...": googleai/vertex and palm speak gRPC, and a
// flattened status is all the text keeps of it.
var grpcCodeRE = regexp.MustCompile(`rpc error: code = ([a-z]+)`)

type grpcClass struct {
	kind Kind
	rule string
}

// grpcCodes maps the lowercased gRPC code names that decide a kind. Unknown and
// OK are absent on purpose.
var grpcCodes = map[string]grpcClass{
	"canceled":           {Canceled, "grpc code Canceled"},
	"deadlineexceeded":   {Transient, "grpc code DeadlineExceeded"},
	"aborted":            {Transient, "grpc code Aborted"},
	"internal":           {Transient, "grpc code Internal"},
	"resourceexhausted":  {RateLimited, "grpc code ResourceExhausted"},
	"unavailable":        {Overloaded, "grpc code Unavailable"},
	"invalidargument":    {Permanent, "grpc code InvalidArgument"},
	"failedprecondition": {Permanent, "grpc code FailedPrecondition"},
	"outofrange":         {Permanent, "grpc code OutOfRange"},
	"notfound":           {Permanent, "grpc code NotFound"},
	"permissiondenied":   {Permanent, "grpc code PermissionDenied"},
	"unauthenticated":    {Permanent, "grpc code Unauthenticated"},
	"unimplemented":      {Programming, "grpc code Unimplemented"},
}

// grpcKind classifies the gRPC code in the text, if there is one.
func grpcKind(lower string) (Class, bool) {
	if !strings.Contains(lower, "rpc error: code = ") {
		return Class{}, false
	}
	m := grpcCodeRE.FindStringSubmatchIndex(lower)
	if m == nil {
		return Class{}, false
	}
	g, ok := grpcCodes[lower[m[2]:m[3]]]
	return Class{Kind: g.kind, Rule: g.rule}, ok
}

// statusRules holds the rule names "status 400" to "status 599", built once so
// that deciding by status allocates nothing.
var statusRules = func() (names [200]string) {
	for i := range names {
		names[i] = "status " + strconv.Itoa(400+i)
	}
	return names
}()

// statusRule returns the rule name of a status decision.
func statusRule(status int) string {
	if status >= 400 && status < 400+len(statusRules) {
		return statusRules[status-400]
	}
	return "status " + strconv.Itoa(status)
}

// statusKind maps an HTTP status to a kind; ok is false for statuses that are
// not failures (1xx to 3xx).
func statusKind(status int) (Kind, bool) {
	switch {
	case status == 429:
		return RateLimited, true
	case status == 503, status == 529:
		return Overloaded, true
	case status == 413:
		return ContextOverflow, true
	case status == 408, status == 409, status == 425:
		return Transient, true
	case status == 501, status == 505:
		return Permanent, true
	case status >= 500 && status <= 599:
		return Transient, true
	case status >= 400 && status <= 499:
		return Permanent, true
	}
	return Unknown, false
}

func firstMatch(rules []textRule, lower string) (textRule, bool) {
	for _, r := range rules {
		if r.match(lower) {
			return r, true
		}
	}
	return textRule{}, false
}
