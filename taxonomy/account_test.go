package taxonomy_test

import (
	"errors"
	"testing"

	"github.com/resilientgo/resilient/taxonomy"
)

// accountCases are the rows that tell an account failure (another key,
// account or deployment may serve the request) from a failure of the
// request itself (every account answers the same), beyond the rows of the
// other tables, which assert Class.AccountFailure on every auth, billing
// and missing-model text they hold.
func accountCases() []classifyCase {
	P, R, T := taxonomy.Permanent, taxonomy.RateLimited, taxonomy.Transient
	azureFilter := "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766"
	return []classifyCase{
		// ---- the account: another key may serve the same request ----
		// Gemini answers an invalid key with a 400 INVALID_ARGUMENT: the
		// status decides the kind, the words say whose failure it is.
		{"gemini 400 API key not valid (googleapi, reason API_KEY_INVALID)", errors.New("googleapi: Error 400: API key not valid. Please pass a valid API key."),
			account("status 400", 400)},
		{"openai 401 invalid_api_key through the openai client", taxonomy.WithEvidence(openai(401, "Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys."),
			taxonomy.Evidence{Status: 401, ErrorCode: "invalid_api_key", ErrorType: "invalid_request_error"}),
			taxonomy.Class{Kind: P, Rule: `code "invalid_api_key"`, Status: 401, Code: "invalid_api_key", AccountFailure: true}},
		{"openai 429 insufficient_quota through the openai client", taxonomy.WithEvidence(openai(429, "You exceeded your current quota, please check your plan and billing details."),
			taxonomy.Evidence{Status: 429, ErrorCode: "insufficient_quota", ErrorType: "insufficient_quota"}),
			taxonomy.Class{Kind: P, Rule: `code "insufficient_quota"`, Status: 429, Code: "insufficient_quota", AccountFailure: true}},
		{"google gRPC Unauthenticated", errors.New("rpc error: code = Unauthenticated desc = Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential."),
			account("grpc code Unauthenticated", 0)},
		{"openrouter 402 without words (openrouter.ai/docs/errors: insufficient credits)", openai(402, ""),
			account("status 402", 402)},
		{"azure model not available in the region (Azure/terraform-provider-azapi#662)", errors.New("The requested model azureml://registries/azureml/models/Phi-3.5-vision-instruct is not available in region East US 2."),
			missing(`pattern "model not available in the region"`, 0)},
		{"a tool not available in a region is no missing model", errors.New("The tool web_search is not available in region East US 2."),
			class(taxonomy.Unknown, "no rule matched", 0)},
		{"azure 404 DeploymentNotFound", taxonomy.WithEvidence(openai(404, "The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again."),
			taxonomy.Evidence{Status: 404, ErrorCode: "DeploymentNotFound"}),
			taxonomy.Class{Kind: P, Rule: `code "DeploymentNotFound"`, Status: 404, Code: "DeploymentNotFound", ModelMissing: true, AccountFailure: true}},

		// ---- the request: every account answers the same ----
		{"openai 400 invalid request (a role the API does not take)", openai(400, "Invalid value: 'tool'. Supported values are: 'system', 'assistant', 'user', 'function'."),
			class(P, "status 400", 400)},
		{"openai 400 malformed tool schema (strict function calling)", openai(400, "Invalid schema for function 'get_weather': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'location'."),
			class(P, "status 400", 400)},
		{"azure 400 content filter (openai/openai-python#331)", taxonomy.WithEvidence(openai(400, azureFilter), taxonomy.Evidence{Status: 400, ErrorCode: "content_filter"}),
			taxonomy.Class{Kind: P, Rule: `code "content_filter"`, Status: 400, Code: "content_filter"}},
		{"azure's content filter words carried by a 403", openai(403, azureFilter),
			class(P, "status 403", 403)},
		{"openrouter 403 moderation flag (openrouter.ai/docs/errors)", openai(403, "Your chosen model requires moderation and your input was flagged"),
			class(P, "status 403", 403)},
		{"openai 400 invalid_prompt flagged by moderation", openai(400, "Invalid prompt: your prompt was flagged as potentially violating our usage policy. Please try again with a different prompt: https://platform.openai.com/docs/guides/reasoning#advice-on-prompting"),
			class(P, "status 400", 400)},
		{"openrouter 403 guardrail permission_denied: the request, not the key", taxonomy.WithEvidence(openai(403, "Request blocked: prompt injection patterns detected"),
			taxonomy.Evidence{Status: 403, ErrorCode: "permission_denied"}),
			taxonomy.Class{Kind: P, Rule: `code "permission_denied"`, Status: 403, Code: "permission_denied"}},
		{"gemini 403 blocked for safety", errors.New("googleapi: Error 403: Candidate was blocked due to SAFETY"),
			class(P, "status 403", 403)},
		{"openai 401 account deactivated (code account_deactivated)", openai(401, "Your account has been deactivated. If you believe this is an error, contact us through our help center at help.openai.com."),
			account(`pattern "account is not active"`, 401)},

		// ---- not permanent: no account failure, whatever the words ----
		{"groq 429 rate limit with a link to the billing page", openai(429, "Rate limit reached for model `llama-3.3-70b-versatile` in organization `org_01` service tier `on_demand` on requests per minute (RPM): Limit 30, Used 30, Requested 1. Please try again in 2s. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing"),
			taxonomy.Class{Kind: R, Rule: "status 429", Status: 429, RetryAfter: 2e9, WaitSource: taxonomy.WaitRetryAfter}},
		{"a 401 the provider says to retry (x-should-retry: true)", taxonomy.WithEvidence(openai(401, "Incorrect API key provided"), taxonomy.Evidence{Status: 401, ShouldRetry: "true"}),
			taxonomy.Class{Kind: T, Rule: "status 401; x-should-retry: true", Status: 401}},
		{"a 500 that mentions billing", openai(500, "The billing service failed to answer. Please retry your request."),
			class(T, "status 500", 500)},
	}
}

// TestAccountFailureOnlyWhenPermanent: whatever rule decided, only a
// permanent failure is an account failure, and every missing model is one.
func TestAccountFailureOnlyWhenPermanent(t *testing.T) {
	for _, tt := range classifyCases() {
		got := taxonomy.Classify(tt.err)
		if got.AccountFailure && got.Kind != taxonomy.Permanent {
			t.Errorf("%s: %+v is an account failure but not permanent", tt.name, fields(got))
		}
		if got.ModelMissing && got.Kind == taxonomy.Permanent && !got.AccountFailure {
			t.Errorf("%s: %+v is a missing model but no account failure", tt.name, fields(got))
		}
	}
}
