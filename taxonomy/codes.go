package taxonomy

import (
	"regexp"
	"strings"
)

// codeKinds maps a provider's machine-readable error code or type to a kind:
// read from the body by the transport, or from a typed SDK error (the AWS
// SDK's ErrorCode(), an OpenAI SDK's Code field). Codes are more specific
// than types, so the code is looked up first. Keys are lowercase.
var codeKinds = map[string]Kind{
	"insufficient_quota":                   Permanent,
	"billing_hard_limit_reached":           Permanent,
	"billing_not_active":                   Permanent,
	"invalid_api_key":                      Permanent,
	"authentication_error":                 Permanent,
	"permission_error":                     Permanent,
	"permission_denied":                    Permanent,
	"unauthenticated":                      Permanent,
	"account_deactivated":                  Permanent,
	"unsupported_country_region_territory": Permanent,
	"model_not_found":                      Permanent,
	"model_decommissioned":                 Permanent, // Groq
	"deploymentnotfound":                   Permanent, // Azure OpenAI
	"not_found_error":                      Permanent,
	"notfounderror":                        Permanent, // vLLM's type
	"not_found":                            Permanent, // Google's status
	"invalid_argument":                     Permanent, // Google's status
	"failed_precondition":                  Permanent, // Google's status: "User location is not supported"
	"content_policy_violation":             Permanent,
	"content_filter":                       Permanent,
	"image_parse_error":                    Permanent,
	"context_length_exceeded":              ContextOverflow,
	"context_window_exceeded":              ContextOverflow,
	"max_tokens_per_request":               ContextOverflow,
	"exceed_context_size_error":            ContextOverflow, // llama.cpp server
	"request_too_large":                    ContextOverflow,
	"rate_limit_exceeded":                  RateLimited,
	"rate_limit_error":                     RateLimited,
	"rate_limited":                         RateLimited, // Mistral type
	"throttling_error":                     RateLimited, // LiteLLM's type
	"resource_exhausted":                   RateLimited,
	"overloaded_error":                     Overloaded,
	"server_is_overloaded":                 Overloaded, // OpenAI's Responses API, an error event on a 200 stream
	"service_unavailable_error":            Overloaded, // its type
	"unavailable_error":                    Overloaded, // llama.cpp server's 503 "Loading model"
	"engine_overloaded":                    Overloaded,
	"unavailable":                          Overloaded,
	"server_error":                         Transient,
	"upstream_error":                       Transient, // a gateway's: its call to the provider failed
	"api_error":                            Transient,
	"internal":                             Transient,
	"internal_error":                       Transient,
	"deadline_exceeded":                    Transient,

	// The AWS SDK v2's exception names (smithy.APIError's ErrorCode), as
	// Bedrock Runtime documents them. ServiceQuotaExceededException is
	// documented as "You can resubmit your request later": a limit that
	// lifts, not an exhausted balance. ModelNotReadyException is a model
	// still loading, like Hugging Face's 503.
	"throttlingexception":           RateLimited,
	"toomanyrequestsexception":      RateLimited,
	"servicequotaexceededexception": RateLimited,
	"serviceunavailableexception":   Overloaded,
	"modelnotreadyexception":        Overloaded,
	"modeltimeoutexception":         Transient,
	"internalserverexception":       Transient,
	"modelstreamerrorexception":     Transient,
	"modelerrorexception":           Transient, // a 424: the model failed while processing the request
	"requesttimeoutexception":       Transient,
	"validationexception":           Permanent,
	"accessdeniedexception":         Permanent,
	"resourcenotfoundexception":     Permanent,
	"unrecognizedclientexception":   Permanent,
	"expiredtokenexception":         Permanent,
	"invalidsignatureexception":     Permanent,
}

// missingCodes are the codes that say the requested model does not exist or
// is not available to the caller (Class.ModelMissing).
var missingCodes = map[string]bool{
	"model_not_found":           true,
	"model_decommissioned":      true,
	"deploymentnotfound":        true,
	"not_found_error":           true,
	"notfounderror":             true,
	"not_found":                 true,
	"resourcenotfoundexception": true,
}

// accountCodes are the codes that say the caller's account or deployment
// cannot serve the request (Class.AccountFailure): a key refused, a
// permission missing, a balance used up, an account shut off, a country
// not served. The missingCodes are account failures as well.
var accountCodes = map[string]bool{
	"insufficient_quota":                   true,
	"billing_hard_limit_reached":           true,
	"billing_not_active":                   true,
	"invalid_api_key":                      true,
	"authentication_error":                 true,
	"permission_error":                     true,
	"permission_denied":                    true,
	"unauthenticated":                      true,
	"account_deactivated":                  true,
	"unsupported_country_region_territory": true,
	"accessdeniedexception":                true,
	"unrecognizedclientexception":          true,
	"expiredtokenexception":                true,
	"invalidsignatureexception":            true,
}

// A codeRule is an entry of codeKinds with its rule names built once.
type codeRule struct {
	kind          Kind
	missing       bool
	account       bool
	code, typ     string // `code "x"` and `type "x"` for the lowercase name x
	lowercaseName string
}

var codeRules = func() map[string]codeRule {
	rules := make(map[string]codeRule, len(codeKinds))
	for name, kind := range codeKinds {
		rules[name] = codeRule{kind: kind, missing: missingCodes[name], account: accountCodes[name], code: `code "` + name + `"`, typ: `type "` + name + `"`, lowercaseName: name}
	}
	return rules
}()

// lookupCode finds a provider code or type, whatever its case.
func lookupCode(name string) (codeRule, bool) {
	r, ok := codeRules[name]
	if !ok {
		r, ok = codeRules[strings.ToLower(name)]
	}
	return r, ok
}

// codeClass and typeClass name the decision with the provider's own
// spelling: `code "ThrottlingException"`, `type "overloaded_error"`. The
// lowercase spelling's name was built once.
func (r codeRule) codeClass(name string) Class { return r.named(name, r.code, `code "`) }
func (r codeRule) typeClass(name string) Class { return r.named(name, r.typ, `type "`) }

func (r codeRule) named(name, lowercaseRule, prefix string) Class {
	rule := lowercaseRule
	if name != r.lowercaseName {
		rule = prefix + name + `"`
	}
	return Class{Kind: r.kind, Rule: rule, ModelMissing: r.missing, AccountFailure: r.account}
}

// grpcCodeRE finds the status code in a gRPC error's text, "rpc error: code =
// ResourceExhausted desc = ...": googleai/vertex and palm speak gRPC, and a
// flattened status is all the text keeps of it.
var grpcCodeRE = regexp.MustCompile(`rpc error: code = ([a-z]+)`)

type grpcClass struct {
	kind    Kind
	rule    string
	account bool // the caller's credentials or permissions (Class.AccountFailure)
}

// grpcCodes maps the lowercased gRPC code names that decide a kind. Unknown and
// OK are absent on purpose.
var grpcCodes = map[string]grpcClass{
	"canceled":           {Canceled, "grpc code Canceled", false},
	"deadlineexceeded":   {Transient, "grpc code DeadlineExceeded", false},
	"aborted":            {Transient, "grpc code Aborted", false},
	"internal":           {Transient, "grpc code Internal", false},
	"resourceexhausted":  {RateLimited, "grpc code ResourceExhausted", false},
	"unavailable":        {Overloaded, "grpc code Unavailable", false},
	"invalidargument":    {Permanent, "grpc code InvalidArgument", false},
	"failedprecondition": {Permanent, "grpc code FailedPrecondition", false},
	"outofrange":         {Permanent, "grpc code OutOfRange", false},
	"notfound":           {Permanent, "grpc code NotFound", false},
	"permissiondenied":   {Permanent, "grpc code PermissionDenied", true},
	"unauthenticated":    {Permanent, "grpc code Unauthenticated", true},
	"unimplemented":      {Programming, "grpc code Unimplemented", false},
}

// grpcKind classifies the gRPC code in the text, if there is one.
func grpcKind(t *lowered) (Class, bool) {
	lower := t.s
	if t.index(lower, rpcErrorLit) < 0 {
		return Class{}, false
	}
	m := grpcCodeRE.FindStringSubmatchIndex(lower)
	if m == nil {
		return Class{}, false
	}
	g, ok := grpcCodes[lower[m[2]:m[3]]]
	if ok && g.kind == Overloaded && connectionBroken(t) {
		// UNAVAILABLE around a connection that broke under the call:
		// grpc-go's "transport is closing" (grpc/grpc-go#3994, its README's
		// FAQ: "the connection the RPC is using was closed") and
		// "connection error: desc = ... connection refused". The next
		// attempt dials again; the server's capacity is not in question.
		return Class{Kind: Transient, Rule: g.rule + ", connection broken"}, true
	}
	return Class{Kind: g.kind, Rule: g.rule, AccountFailure: g.account}, ok
}

// clueConnectionBroken is the rule of the reader's clue of a connection
// that broke (see concepts.clue).
const clueConnectionBroken = `words "connection broken"`

// connectionBroken reports whether the text's clauses say a connection
// broke (the reader's "connection broken" clue).
func connectionBroken(t *lowered) bool {
	for _, f := range t.reading().clues.all() {
		if f.rule == clueConnectionBroken {
			return true
		}
	}
	return false
}

// textCode finds a provider code written in the text: a "type", "code" or
// "status" member of a JSON body that a client or proxy pasted into its
// message (`{"type":"error","error":{"type":"not_found_error",...}}`,
// Python's `{'type': 'overloaded_error'}`, Gemini's "status":
// "RESOURCE_EXHAUSTED"), or an AWS exception name ("AccessDeniedException:
// ...", boto3's "An error occurred (ThrottlingException) when calling ...").
// The first one codeKinds knows decides. Like the error type read by the
// transport, it is broader than the status, so it decides only when no
// status did.
func textCode(t *lowered) (Class, bool) {
	lower := t.s
	var buf [maxMembers]string
	for _, name := range memberValues(t, lower, jsonCodeKeys, buf[:0]) {
		if r, ok := lookupCode(name); ok {
			return r.typeClass(name), true
		}
	}
	if !t.mayHold(exceptionLit.grams) {
		return Class{}, false
	}
	for rest := lower; ; {
		i := strings.Index(rest, "exception")
		if i < 0 {
			return Class{}, false
		}
		start := i
		for start > 0 && rest[start-1] >= 'a' && rest[start-1] <= 'z' {
			start--
		}
		if r, ok := lookupCode(rest[start : i+len("exception")]); ok {
			return Class{Kind: r.kind, Rule: `exception "` + rest[start:i+len("exception")] + `"`, ModelMissing: r.missing, AccountFailure: r.account}, true
		}
		rest = rest[i+len("exception"):]
	}
}

var (
	exceptionLit = lit("exception")
	rpcErrorLit  = lit("rpc error: code = ")
)

// jsonCodeKeys are the members of an error body that hold a code or type, in
// both quotings.
var jsonCodeKeys = lits(`"type"`, `"code"`, `"status"`, `'type'`, `'code'`)

// memberValues appends the quoted value of every member of a body pasted
// into the text that one of keys names: key by key, each in the order of
// the text, as many as values has room for.
func memberValues(t *lowered, s string, keys []literal, values []string) []string {
	if strings.IndexByte(s, '"') < 0 && strings.IndexByte(s, '\'') < 0 {
		return values // no quote, no member
	}
	for _, key := range keys {
		if !t.mayHold(key.grams) {
			continue
		}
		for rest := s; len(values) < cap(values); {
			i := strings.Index(rest, key.s)
			if i < 0 {
				break
			}
			rest = rest[i+len(key.s):]
			if value, ok := quotedValue(rest); ok {
				values = append(values, value)
			}
		}
	}
	return values
}

// maxMembers bounds the member values read of one text.
const maxMembers = 16

// quotedValue reads `: "value"` (or single-quoted) at the start of s.
func quotedValue(s string) (string, bool) {
	s, colon := strings.CutPrefix(strings.TrimLeft(s, " "), ":")
	if !colon {
		return "", false
	}
	s = strings.TrimLeft(s, " ")
	for _, quote := range []string{`"`, `'`} {
		if rest, quoted := strings.CutPrefix(s, quote); quoted {
			value, _, closed := strings.Cut(rest, quote)
			return value, closed
		}
	}
	return "", false
}
