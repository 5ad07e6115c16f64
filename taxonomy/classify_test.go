package taxonomy_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/resilientgo/resilient/taxonomy"
)

// Provider message shapes. Each helper reproduces the exact fmt string of a
// langchaingo v0.1.14 client, as its source writes it; the messages inside
// are the providers' own.

// openai returns the openai client's non-2xx error: a bare *errors.errorString.
func openai(status int, message string) error {
	if message == "" {
		return fmt.Errorf("API returned unexpected status code: %d", status)
	}
	return fmt.Errorf("API returned unexpected status code: %d: %s", status, message)
}

// anthropic returns the anthropic client's error, wrapped as anthropicllm.go does.
func anthropic(inner error) error {
	return fmt.Errorf("anthropic: failed to create message: %w", inner)
}

// anthropicStatus is anthropic's non-2xx error.
func anthropicStatus(status int, message string) error {
	if message == "" {
		return anthropic(fmt.Errorf("API returned unexpected status code: %d", status))
	}
	return anthropic(fmt.Errorf("API returned unexpected status code: %d: %s", status, message))
}

// huggingface is the huggingface client's non-200 error.
func huggingface(status int, body string) error {
	errUnexpectedStatusCode := errors.New("unexpected status code")
	if body == "" {
		return fmt.Errorf("failed to run inference: %w", fmt.Errorf("%w: %d", errUnexpectedStatusCode, status))
	}
	return fmt.Errorf("failed to run inference: %w", fmt.Errorf("%w: %d, body: %s", errUnexpectedStatusCode, status, body))
}

// mistral is mistral-go's error for a status it does not retry.
func mistral(status int, body string) error {
	return fmt.Errorf("(HTTP Error %d) %s", status, body)
}

// bedrock is the AWS SDK's error chain, with the status behind HTTPStatusCode().
func bedrock(status int, attempts int, exception error) error {
	var inner error = &fakeResponseError{status: status, err: exception}
	if attempts > 0 {
		inner = fmt.Errorf("exceeded maximum number of attempts, %d, %w", attempts, inner)
	}
	return &fakeOperationError{service: "Bedrock Runtime", operation: "InvokeModel", err: inner}
}

// googleai is generative-ai-go's *apierror.APIError wrapping *googleapi.Error.
func googleai(status int, message string, header http.Header) error {
	return &fakeAPIError{
		code: status,
		err:  &fakeGoogleAPIError{Code: status, Message: message, Header: header},
	}
}

// postErr is the *url.Error of an HTTP POST that failed in transport.
func postErr(rawURL string, err error) error {
	return &url.Error{Op: "Post", URL: rawURL, Err: err}
}

// syscallErr is a *net.OpError around a syscall failure, as net/http returns it.
func syscallErr(op, call string, errno syscall.Errno) error {
	return &net.OpError{
		Op:     op,
		Net:    "tcp",
		Source: &net.TCPAddr{IP: net.IPv4(10, 0, 0, 2), Port: 52514},
		Addr:   &net.TCPAddr{IP: net.IPv4(104, 18, 6, 192), Port: 443},
		Err:    os.NewSyscallError(call, errno),
	}
}

// jsonSyntaxError is the real *json.SyntaxError for body.
func jsonSyntaxError(body string) error {
	var v any
	return json.Unmarshal([]byte(body), &v)
}

// fakeAPIError has the method set of googleai's *apierror.APIError.
type fakeAPIError struct {
	code int
	err  *fakeGoogleAPIError
}

func (e *fakeAPIError) Error() string {
	return fmt.Sprintf("googleapi: Error %d: %s", e.code, e.err.Message)
}
func (e *fakeAPIError) HTTPCode() int { return e.code }
func (e *fakeAPIError) Unwrap() error { return e.err }

// fakeGoogleAPIError has the fields of *googleapi.Error that matter: a Code
// (not StatusCode) and the response Header.
type fakeGoogleAPIError struct {
	Code    int
	Message string
	Body    string
	Header  http.Header
}

func (e *fakeGoogleAPIError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("googleapi: got HTTP response code %d with body: %v", e.Code, e.Body)
	}
	return fmt.Sprintf("googleapi: Error %d: %s", e.Code, e.Message)
}

// fakeResponseError has the method set of bedrock's *awshttp.ResponseError.
type fakeResponseError struct {
	status int
	err    error
}

func (e *fakeResponseError) Error() string {
	return fmt.Sprintf("https response error StatusCode: %d, RequestID: , %v", e.status, e.err)
}
func (e *fakeResponseError) HTTPStatusCode() int { return e.status }
func (e *fakeResponseError) Unwrap() error       { return e.err }

// fakeOperationError is smithy's *OperationError.
type fakeOperationError struct {
	service, operation string
	err                error
}

func (e *fakeOperationError) Error() string {
	return fmt.Sprintf("operation error %s: %s, %v", e.service, e.operation, e.err)
}
func (e *fakeOperationError) Unwrap() error { return e.err }

// ollamaStatusError copies ollama's internal ollamaclient.StatusError: a value
// receiver and an exported StatusCode field, reachable only by reflection.
type ollamaStatusError struct {
	Status       string `json:"status,omitempty"`
	ErrorMessage string `json:"error"`
	StatusCode   int    `json:"code,omitempty"`
}

func (e ollamaStatusError) Error() string {
	switch {
	case e.Status != "" && e.ErrorMessage != "":
		return fmt.Sprintf("%s: %s", e.Status, e.ErrorMessage)
	case e.Status != "":
		return e.Status
	case e.ErrorMessage != "":
		return e.ErrorMessage
	default:
		return "something went wrong, please see the ollama server logs for details"
	}
}

// timeoutError is a net.Error whose Timeout is true, like net/http's
// unexported *timeoutError for http.Client.Timeout.
type timeoutError struct{}

func (timeoutError) Error() string {
	return "net/http: request canceled (Client.Timeout exceeded while awaiting headers)"
}
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

var _ net.Error = timeoutError{}

// Messages shared by several rows.
const (
	openaiTPM = "Rate limit reached for gpt-4o in organization org-abc123 on tokens per min (TPM): Limit 30000, Used 28502, Requested 3012. Please try again in 1.8s. Visit https://platform.openai.com/account/rate-limits to learn more."
	openaiRPM = "Rate limit reached for text-embedding-3-small in organization org-abc123 on requests per min (RPM): Limit 3000, Used 3000, Requested 1. Please try again in 20ms. Visit https://platform.openai.com/account/rate-limits to learn more."
	openaiRPD = "Rate limit reached for gpt-4o-mini in organization org-abc123 on requests per day (RPD): Limit 200, Used 200, Requested 1. Please try again in 7m12s. Visit https://platform.openai.com/account/rate-limits to learn more."
	// Rate limit wording with a "500" and a "5000" in it: neither is a 5xx.
	openaiTPM500    = "Rate limit reached for gpt-3.5-turbo in organization org-abc123 on tokens per min (TPM): Limit 40000, Used 39800, Requested 500 tokens. Please try again in 300ms. Visit https://platform.openai.com/account/rate-limits to learn more."
	openaiQuota     = "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors."
	openaiOverflow  = "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens. Please reduce the length of the messages."
	geminiFreeTier  = "You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits. To monitor your current usage, head to: https://ai.dev/rate-limit. \n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 10, model: gemini-2.5-flash\nPlease retry in 12.3s."
	anthropicTokens = "Number of request tokens has exceeded your per-minute rate limit (https://docs.anthropic.com/en/api/rate-limits); see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase."
)

var errAbort = errors.New("caller abort sentinel")

// typedNilError has a pointer receiver that dereferences: a typed nil of it
// is the classic "non-nil error holding a nil pointer" bug.
type typedNilError struct{ msg string }

func (e *typedNilError) Error() string { return e.msg }

type classifyCase struct {
	name string
	err  error
	want taxonomy.Class
}

// classifyCases is the table of TestClassify; FuzzClassify seeds from it.
func classifyCases() []classifyCase {
	return slices.Concat(providerCases(), familyCases(), moreFamilyCases(), fourthFamilyCases(), fifthFamilyCases(), sixthFamilyCases(), seventhFamilyCases(), eighthFamilyCases(), evidenceFamilyCases(), firstSightFamilyCases(), curveFamilyCases(), curveBodyCutCases(), curveStatusCases(), meaningFamilyCases(), accountCases())
}

func providerCases() []classifyCase {
	return []classifyCase{
		// ---- nothing to classify ----
		{"nil error", nil,
			taxonomy.Class{Kind: taxonomy.Unknown, Rule: "nil error"}},
		// A stream that dropped before any error body arrived: the message is
		// empty, and the failure transient.
		{"empty message", errors.New(""),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "empty message"}},
		{"whitespace message", errors.New(" \n"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "empty message"}},

		// ---- openai: real messages; platform.openai.com error-code docs ----
		{"openai 01 429", openai(429, "Rate limit reached"),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429}},
		{"openai 429 TPM try again in 1.8s", openai(429, openaiTPM),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429, RetryAfter: 1800 * time.Millisecond, WaitSource: taxonomy.WaitRetryAfter}},
		{"openai 429 RPM try again in 20ms", openai(429, openaiRPM),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429, RetryAfter: 20 * time.Millisecond, WaitSource: taxonomy.WaitRetryAfter}},
		{"openai 429 RPD try again in 7m12s", openai(429, openaiRPD),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429, RetryAfter: 7*time.Minute + 12*time.Second, WaitSource: taxonomy.WaitRetryAfter}},
		{"openai 429 requested 500 tokens is not a 5xx", openai(429, openaiTPM500),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429, RetryAfter: 300 * time.Millisecond, WaitSource: taxonomy.WaitRetryAfter}},
		{"openai 429 TPM text without status (500 tokens is not a 5xx)", errors.New(openaiTPM500),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: `marker "rate limit"`, RetryAfter: 300 * time.Millisecond, WaitSource: taxonomy.WaitRetryAfter}},
		{"openai 429 insufficient_quota is permanent", openai(429, openaiQuota),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: `marker "exceeded your current quota"`, Status: 429, AccountFailure: true}},
		{"openai insufficient_quota code in a proxy text", errors.New(`429 Too Many Requests: {"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}`),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: `marker "insufficient_quota"`, Status: 429, AccountFailure: true}},
		{"openai 02a 503", openai(503, "The server is overloaded or not ready yet."),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "status 503", Status: 503}},
		{"openai 02b 529", openai(529, "The server is overloaded or not ready yet."),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "status 529", Status: 529}},
		{"openai 03 500 empty body", openai(500, ""),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 500", Status: 500}},
		{"openai 500 server_error", openai(500, "The server had an error while processing your request. Sorry about that!"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 500", Status: 500}},
		{"openai 03b 502", openai(502, ""),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 502", Status: 502}},
		{"openai 04 400 context overflow", openai(400, openaiOverflow),
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: `marker "maximum context length"`, Status: 400}},
		{"openai 05 401", openai(401, "Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys."),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 401", Status: 401, AccountFailure: true}},
		{"openai 401 text without status", errors.New("Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys."),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: `marker "incorrect api key"`, AccountFailure: true}},
		{"openai 06 400 unsupported image", openai(400, "You uploaded an unsupported image. Please make sure your image has of one the following formats: ['png', 'jpeg', 'gif', 'webp']."),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 400", Status: 400}},
		{"openai 404 model_not_found", openai(404, "The model `gpt-4o-2099` does not exist or you do not have access to it."),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 404", Status: 404, ModelMissing: true, AccountFailure: true}},
		{"openai 403 unsupported_country_region_territory", openai(403, "Country, region, or territory not supported"),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 403", Status: 403, AccountFailure: true}},
		{"openai 400 content policy", openai(400, "Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system."),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 400", Status: 400}},
		{"openai 400 max_tokens over the output limit: 5000 is not a 500", errors.New("max_tokens is too large: 5000. This model supports at most 4096 completion tokens, whereas you provided 5000."),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: `pattern "max_tokens over the output limit"`}},
		// No rate limit: the words say the request is at fault (issue 24:
		// unknown only when nothing speaks).
		{"openai 400 max 4290 is not a 429", errors.New("Invalid 'max_tokens': integer above maximum value. Expected a value <= 4096, but got 4290 instead."),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: `words "invalid … value"`}},
		{"openai 07 transport sanitized", errors.New("network error: failed to reach API server"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: `marker "network error"`}},
		{"openai 09 deadline sanitized", errors.New("request timeout: API call exceeded deadline"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 408", Status: 408}},
		{"openai net timeout sanitized", errors.New("request timeout: network operation exceeded timeout"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 408", Status: 408}},
		{"openai 09c cancel sanitized", errors.New("request cancelled"),
			taxonomy.Class{Kind: taxonomy.Canceled, Rule: `marker "request cancelled"`}},
		{"openai 08a stream drop", fmt.Errorf("error reading streaming response: %w", io.ErrUnexpectedEOF),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "unexpected EOF"}},
		{"openai 09b stream deadline", fmt.Errorf("error reading streaming response: %w", context.DeadlineExceeded),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "deadline exceeded"}},
		{"openai 10a non-JSON 200", jsonSyntaxError("<html><body>502 Bad Gateway</body></html>"),
			taxonomy.Class{Kind: taxonomy.Unknown, Rule: "malformed response body"}},
		{"openai 10b truncated JSON 200", io.ErrUnexpectedEOF,
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "unexpected EOF"}},
		{"openai 12 caller abort through the stream func", fmt.Errorf("streaming func returned an error: %w", errAbort),
			taxonomy.Class{Kind: taxonomy.Unknown, Rule: "no rule matched"}},
		{"openaiclient empty choices", errors.New("empty response"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: `marker "no response"`}},
		{"vllm 400 overflow with 5000 tokens", openai(400, "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion."),
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: `marker "maximum context length"`, Status: 400}},
		{"openai legacy overflow text with 500 for the completion", errors.New("This model's maximum context length is 4097 tokens, however you requested 4597 tokens (4097 in your prompt; 500 for the completion). Please reduce your prompt; or completion length."),
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: `marker "maximum context length"`}},
		// Embedding requests too large as a whole: a smaller batch fixes them.
		{"openai embeddings 400 tokens per request", openai(400, "Requested 453357 tokens, max 300000 tokens per request"),
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: `pattern "max tokens per request"`, Status: 400}},
		{"openai embeddings 400 max_tokens_per_request code", &taxonomy.WireError{
			Evidence: taxonomy.Evidence{Status: 400, ErrorType: "max_tokens_per_request", ErrorCode: "max_tokens_per_request", ErrorMessage: "Requested 453357 tokens, max 300000 tokens per request"},
			Err:      openai(400, "Requested 453357 tokens, max 300000 tokens per request")},
			// Overflow wording outranks the code; both say the same.
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: `pattern "max tokens per request"`, Status: 400, Code: "max_tokens_per_request"}},
		{"max_tokens_per_request code alone", &taxonomy.WireError{
			Evidence: taxonomy.Evidence{Status: 400, ErrorCode: "max_tokens_per_request"}, Err: openai(400, "bad request")},
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: `code "max_tokens_per_request"`, Status: 400, Code: "max_tokens_per_request"}},
		{"azure embeddings 400 too many inputs", openai(400, "Too many inputs. The max number of inputs is 16.  We hope to increase the number of inputs per request soon. Please contact us through an Azure support request at: https://go.microsoft.com/fwlink/?linkid=2213926 for further questions."),
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: `marker "too many inputs"`, Status: 400}},
		{"openai embeddings 400 input too long", openai(400, "Invalid 'input': maximum context length is 8192 tokens."),
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: `marker "maximum context length"`, Status: 400}},
		// A request over the per-minute token limit arrives as a 429 and stays a rate limit.
		// A request larger than the per-minute limit itself is an overflow, even
		// as a 429: no reset lets it through, a smaller batch passes.
		{"openai 429 request too large for the TPM limit", openai(429, "Request too large for text-embedding-3-small in organization org-abc123 on tokens per min (TPM): Limit 150000, Requested 300000. The input or output tokens must be reduced in order to run successfully. Visit https://platform.openai.com/account/rate-limits to learn more."),
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: `pattern "request larger than the rate limit"`, Status: 429}},
		{"groq 400 context_length_exceeded", openai(400, "Please reduce the length of the messages or completion."),
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: `marker "reduce the length of the messages"`, Status: 400}},
		{"azure 429 retry after 6 seconds", openai(429, "Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-02-01 have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 6 seconds. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit."),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429, RetryAfter: 6 * time.Second, WaitSource: taxonomy.WaitRetryAfter}},
		{"azure 400 content filter", openai(400, "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry."),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 400", Status: 400}},
		{"azure content filter text without status", errors.New("The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry."),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: `marker "content management policy"`}},
		{"openrouter 402 credits", openai(402, "This request requires more credits, or fewer max_tokens. You requested up to 4096 tokens, but can only afford 1000."),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: `pattern "credits used up"`, Status: 402, AccountFailure: true}},

		// ---- anthropic: real messages; docs.anthropic.com/en/api/errors ----
		{"anthropic 01 429", anthropicStatus(429, "This request would exceed your organization's rate limit of 50 requests per minute."),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429}},
		{"anthropic 429 token rate limit is not an overflow", anthropicStatus(429, anthropicTokens),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429}},
		{"anthropic 02a 503", anthropicStatus(503, "Overloaded"),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "status 503", Status: 503}},
		{"anthropic 02b 529", anthropicStatus(529, "Overloaded"),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "status 529", Status: 529}},
		{"anthropic 03 500 empty body", anthropicStatus(500, ""),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 500", Status: 500}},
		{"anthropic 500 api_error", anthropicStatus(500, "Internal server error"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 500", Status: 500}},
		{"anthropic 03b 502", anthropicStatus(502, ""),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 502", Status: 502}},
		{"anthropic 04 400 prompt is too long", anthropicStatus(400, "prompt is too long: 210000 tokens > 200000 maximum"),
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: `pattern "prompt or input is too long"`, Status: 400}},
		{"anthropic 400 input + max_tokens exceed context limit", anthropicStatus(400, "input length and `max_tokens` exceed context limit: 187254 + 20000 > 204698, decrease input length or `max_tokens` and try again"),
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: `pattern "exceed context limit"`, Status: 400}},
		{"anthropic 400 credit balance", anthropicStatus(400, "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits."),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: `marker "credit balance is too low"`, Status: 400, AccountFailure: true}},
		{"anthropic 05 401", anthropicStatus(401, "invalid x-api-key"),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 401", Status: 401, AccountFailure: true}},
		{"anthropic 401 text without status", errors.New("invalid x-api-key"),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: `marker "invalid x-api-key"`, AccountFailure: true}},
		{"anthropic 403 permission_error", anthropicStatus(403, "Your API key does not have permission to use the specified resource."),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 403", Status: 403, AccountFailure: true}},
		{"anthropic 404 not_found_error", anthropicStatus(404, "model: claude-3-opus-2099"),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 404", Status: 404, ModelMissing: true, AccountFailure: true}},
		{"anthropic 413 request_too_large", anthropicStatus(413, "Request exceeds the maximum allowed number of bytes."),
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: "status 413", Status: 413}},
		{"anthropic 06 400 invalid image", anthropicStatus(400, "messages.0.content.1.image.source.base64.data: The image was specified using the image/png media type, but does not appear to be a valid png image"),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 400", Status: 400}},
		{"anthropic invalid image text without status", errors.New("messages.0.content.1.image.source.base64.data: The image was specified using the image/png media type, but does not appear to be a valid png image"),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: `marker "does not appear to be a valid image"`}},
		{"anthropic 400 max_tokens 4290 is not a 429", anthropicStatus(400, "max_tokens: 4290 > 4096, which is the maximum allowed number of output tokens for claude-3-haiku-20240307"),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 400", Status: 400}},
		{"anthropic 07 EOF, port 36401 is not a 401", anthropic(fmt.Errorf("send request: %w", postErr("http://127.0.0.1:36401/v1/messages", io.EOF))),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "EOF"}},
		{"anthropic 07 flattened text", errors.New(`anthropic: failed to create message: send request: Post "http://127.0.0.1:36401/v1/messages": EOF`),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: `marker "EOF"`}},
		{"anthropic 08a stream drop", anthropic(fmt.Errorf("issue scanning response: %w", io.ErrUnexpectedEOF)),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "unexpected EOF"}},
		{"anthropic 08b ErrEmptyResponse", errors.New("no response"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: `marker "no response"`}},
		{"anthropic 08c in-band overloaded_error event", anthropic(errors.New("received error event: map[error:map[message:Overloaded type:overloaded_error] type:error]")),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: `marker "overloaded"`}},
		{"anthropic in-band api_error event", anthropic(errors.New("received error event: map[error:map[message:Internal server error type:api_error] type:error]")),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: `marker "internal server error"`}},
		{"anthropic 09 deadline, port 35429 is not a 429", anthropic(fmt.Errorf("send request: %w", postErr("http://127.0.0.1:35429/v1/messages", context.DeadlineExceeded))),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "deadline exceeded"}},
		{"anthropic 09 flattened text, port 35429 is not a 429", errors.New(`anthropic: failed to create message: send request: Post "http://127.0.0.1:35429/v1/messages": context deadline exceeded`),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: `marker "deadline exceeded"`}},
		{"anthropic 09b stream deadline", anthropic(fmt.Errorf("issue scanning response: %w", context.DeadlineExceeded)),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "deadline exceeded"}},
		{"anthropic 09c canceled, port 40081", anthropic(fmt.Errorf("send request: %w", postErr("http://127.0.0.1:40081/v1/messages", context.Canceled))),
			taxonomy.Class{Kind: taxonomy.Canceled, Rule: "context canceled"}},
		{"anthropic 09c flattened text", errors.New(`anthropic: failed to create message: send request: Post "http://127.0.0.1:40081/v1/messages": context canceled`),
			taxonomy.Class{Kind: taxonomy.Canceled, Rule: `marker "context canceled"`}},
		{"anthropic 10a non-JSON 200", anthropic(fmt.Errorf("parse response: %w", jsonSyntaxError("<html>"))),
			taxonomy.Class{Kind: taxonomy.Unknown, Rule: "malformed response body"}},
		{"anthropic 10b truncated JSON 200", anthropic(fmt.Errorf("parse response: %w", io.ErrUnexpectedEOF)),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "unexpected EOF"}},
		{"anthropic 12 caller abort", anthropic(fmt.Errorf("failed to process stream event: %w", fmt.Errorf("streaming func returned an error: %w", errAbort))),
			taxonomy.Class{Kind: taxonomy.Unknown, Rule: "no rule matched"}},

		// ---- ollama: real messages; llama.cpp server wording ----
		{"ollama 01 rate limit", errors.New("rate limit exceeded"),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: `marker "rate limit"`}},
		{"ollama 02a server busy", errors.New("server busy, please try again.  maximum pending requests exceeded"),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: `marker "server busy"`}},
		{"ollama 02b overloaded", errors.New("overloaded"),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: `marker "overloaded"`}},
		{"ollama 03b HTML 502 body", jsonSyntaxError("<html><head><title>502 Bad Gateway</title></head></html>"),
			taxonomy.Class{Kind: taxonomy.Unknown, Rule: "malformed response body"}},
		{"ollama 04 context length", errors.New("input length exceeds the context length"),
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: `pattern "exceeds the context length"`}},
		{"ollama embed 400 input too long", ollamaStatusError{ErrorMessage: "the input length exceeds the context length", StatusCode: 400},
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: `pattern "exceeds the context length"`, Status: 400}},
		{"llama.cpp context size", errors.New("the request exceeds the available context size, try increasing it"),
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: `pattern "exceeds the context length"`}},
		{"ollama 05 unauthorized", errors.New("unauthorized"),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: `marker "unauthorized"`, AccountFailure: true}},
		{"ollama 06 bad image", errors.New("illegal base64 data at input byte 4"),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: `marker "illegal base64 data"`}},
		{"ollama model not found", errors.New(`model "llama3" not found, try pulling it first`),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: `pattern "model not found"`, ModelMissing: true, AccountFailure: true}},
		{"ollama 07 EOF", postErr("http://127.0.0.1:11434/api/chat", io.EOF),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "EOF"}},
		{"ollama 08c in-band error", errors.New("an error was encountered while running the model: unexpected EOF"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: `marker "unexpected eof"`}},
		{"ollama 09 deadline", postErr("http://127.0.0.1:11434/api/chat", context.DeadlineExceeded),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "deadline exceeded"}},
		{"ollama StatusError 503 (StatusCode field)", ollamaStatusError{Status: "503 Service Unavailable", StatusCode: 503},
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "status 503", Status: 503}},
		{"ollama StatusError 502 through a pointer and a wrap", fmt.Errorf("ollama: %w", &ollamaStatusError{Status: "502 Bad Gateway", StatusCode: 502}),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 502", Status: 502}},
		{"ollama server down: ECONNREFUSED", postErr("http://127.0.0.1:11434/api/chat", &net.OpError{Op: "dial", Net: "tcp", Addr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 11434}, Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "connection refused"}},

		// ---- googleai: real messages; ai.google.dev troubleshooting page ----
		{"googleai 01 429 check quota stays rate limited, Retry-After header", googleai(429, "Resource has been exhausted (e.g. check quota).", http.Header{"Retry-After": {"7"}}),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429, RetryAfter: 7 * time.Second, WaitSource: taxonomy.WaitRetryAfter}},
		{"googleai 01 flattened text", errors.New("googleapi: Error 429: Resource has been exhausted (e.g. check quota)."),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429}},
		{"googleapi.Error alone: Code field, Header Retry-After", &fakeGoogleAPIError{Code: 429, Message: "Resource has been exhausted (e.g. check quota).", Header: http.Header{"Retry-After": {"30"}}},
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429, RetryAfter: 30 * time.Second, WaitSource: taxonomy.WaitRetryAfter}},
		{"gemini free tier 429 with please retry in 12.3s", googleai(429, geminiFreeTier, nil),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: `marker "exceeded your current quota" that lifts by itself`, Status: 429, RetryAfter: 12300 * time.Millisecond, WaitSource: taxonomy.WaitRetryAfter}},
		{"gemini 429 RetryInfo retryDelay in the details", errors.New("googleapi: Error 429: Resource has been exhausted (e.g. check quota).\nDetails:\n[\n  {\n    \"@type\": \"type.googleapis.com/google.rpc.RetryInfo\",\n    \"retryDelay\": \"12s\"\n  }\n]"),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429, RetryAfter: 12 * time.Second, WaitSource: taxonomy.WaitRetryAfter}},
		{"gemini 429 per-minute quota wording", googleai(429, "Quota exceeded for quota metric 'Generate Content API requests per minute' and limit 'GenerateContent request limit per minute for a region' of service 'generativelanguage.googleapis.com' for consumer 'project_number:391029737820'.", nil),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429}},
		{"googleai 02a bare deadline after internal 503 retries", context.DeadlineExceeded,
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "deadline exceeded"}},
		{"googleai 02b 529", googleai(529, "The model is overloaded. Please try again later.", nil),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "status 529", Status: 529}},
		{"gemini 503 overloaded (HTTPCode)", googleai(503, "The model is overloaded. Please try again later.", nil),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "status 503", Status: 503}},
		{"googleapi.Error without message: got HTTP response code", errors.New("googleapi: got HTTP response code 503 with body: "),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "status 503", Status: 503}},
		{"googleai 03 500 flattened", errors.New("googleapi: Error 500:"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 500", Status: 500}},
		{"gemini 500 internal", googleai(500, "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting", nil),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 500", Status: 500}},
		{"googleai 04 400 overflow", googleai(400, "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).", nil),
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: `marker "exceeds the maximum number of tokens"`, Status: 400}},
		{"googleai 05 401 API key not valid", googleai(401, "API key not valid. Please pass a valid API key.", nil),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 401", Status: 401, AccountFailure: true}},
		{"googleai API key not valid text without status", errors.New("API key not valid. Please pass a valid API key."),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: `marker "api key not valid"`, AccountFailure: true}},
		{"googleai 06 400 invalid image", googleai(400, "Provided image is not valid.", nil),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 400", Status: 400}},
		{"gemini 400 location", googleai(400, "User location is not supported for the API use.", nil),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 400", Status: 400, AccountFailure: true}},
		{"googleai 07 EOF", postErr("http://127.0.0.1:41529/v1beta/models/gemini-2.0-flash:generateContent?%24alt=json%3Benum-encoding%3Dint", io.EOF),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "EOF"}},
		{"googleai 08a stream drop", fmt.Errorf("error in stream mode: %w", io.ErrUnexpectedEOF),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "unexpected EOF"}},
		{"googleai 08c in-band error lost", errors.New("expect single candidate in stream mode; got 0"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: `marker "expect single candidate in stream mode"`}},
		{"googleai 09b stream deadline", fmt.Errorf("error in stream mode: %w", context.DeadlineExceeded),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "deadline exceeded"}},
		{"googleai 10a proto syntax error", errors.New("proto: syntax error (line 1:1): invalid value <"),
			taxonomy.Class{Kind: taxonomy.Unknown, Rule: "no rule matched"}},
		{"googleai 10b proto unexpected EOF", errors.New("proto: unexpected EOF"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: `marker "unexpected eof"`}},
		{"googleai 11b BlockedError", errors.New("blocked: candidate: FinishReasonSafety"),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: `marker "blocked:"`}},
		{"vertex gRPC ResourceExhausted", errors.New("rpc error: code = ResourceExhausted desc = Quota exceeded for aiplatform.googleapis.com/generate_content_requests_per_minute_per_project_per_base_model with base model: gemini-1.5-pro. Please submit a quota increase request. https://cloud.google.com/vertex-ai/docs/generative-ai/quotas-genai."),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "grpc code ResourceExhausted"}},
		{"vertex gRPC Unavailable", errors.New("rpc error: code = Unavailable desc = The service is currently unavailable."),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "grpc code Unavailable"}},
		{"vertex gRPC InvalidArgument overflow", errors.New("rpc error: code = InvalidArgument desc = The input token count (2500000) exceeds the maximum number of tokens allowed (2097152)."),
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: `marker "exceeds the maximum number of tokens"`}},
		{"vertex gRPC PermissionDenied", errors.New("rpc error: code = PermissionDenied desc = Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/projects/p/locations/us-central1/publishers/google/models/gemini-1.5-pro' (or it may not exist)."),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "grpc code PermissionDenied", AccountFailure: true}},

		// ---- mistral: real messages (mistral-go's "(HTTP Error %d) %s") ----
		{"mistral 01 retry bug: body already read", postErr("http://127.0.0.1:42429/v1/chat/completions", errors.New("http: ContentLength=166 with Body length 0")),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "transport error"}},
		{"mistral 429", mistral(429, `{"message":"Requests rate limit exceeded"}`),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429}},
		{"mistral 02b 529", mistral(529, `{"message":"overloaded"}`),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "status 529", Status: 529}},
		{"mistral 03 500 empty body", mistral(500, ""),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 500", Status: 500}},
		{"mistral 04 400 overflow", mistral(400, `{"object":"error","message":"Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length","type":"invalid_request_error","param":null,"code":null}`),
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: `marker "maximum context length"`, Status: 400}},
		{"mistral 05 401", mistral(401, `{"message":"Unauthorized"}`),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 401", Status: 401, AccountFailure: true}},
		{"mistral 06 400 image", mistral(400, `{"object":"error","message":"Image could not be decoded","type":"invalid_request_error","param":null,"code":"3051"}`),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 400", Status: 400}},
		{"mistral 422 validation", mistral(422, `{"object":"error","message":{"detail":[{"type":"missing","loc":["body","messages"],"msg":"Field required","input":null}]},"type":"invalid_request_error","param":null,"code":null}`),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 422", Status: 422}},
		{"mistral 08a stream drop", fmt.Errorf("error reading stream response: %w", io.ErrUnexpectedEOF),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "unexpected EOF"}},
		{"mistral 09b client timeout flattened", errors.New("error reading stream response: context deadline exceeded (Client.Timeout or context cancellation while reading body)"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: `marker "deadline exceeded"`}},

		// ---- bedrock: real messages (AWS SDK v2 error chain, HTTPStatusCode()) ----
		{"bedrock 01 ThrottlingException 429", bedrock(429, 3, errors.New("ThrottlingException: Too many requests, please wait before trying again.")),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429}},
		{"bedrock 01 flattened text", errors.New("operation error Bedrock Runtime: InvokeModel, exceeded maximum number of attempts, 3, https response error StatusCode: 429, RequestID: , ThrottlingException: Too many requests, please wait before trying again."),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429}},
		{"bedrock in-band ThrottlingException: too many tokens is not an overflow", errors.New("ThrottlingException: Too many tokens, please wait before trying again."),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: `exception "throttlingexception"`}},
		{"bedrock in-band ThrottlingException: too many requests", errors.New("ThrottlingException: Too many requests, please wait before trying again."),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: `exception "throttlingexception"`}},
		{"bedrock 02a 503", bedrock(503, 3, errors.New("ServiceUnavailableException: Bedrock is unable to process your request.")),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "status 503", Status: 503}},
		{"bedrock ServiceUnavailableException text without status", errors.New("ServiceUnavailableException: Bedrock is unable to process your request."),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: `exception "serviceunavailableexception"`}},
		{"bedrock 02b 529", bedrock(529, 0, errors.New("api error UnknownError: overloaded")),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "status 529", Status: 529}},
		{"bedrock 03 500", bedrock(500, 3, errors.New("api error UnknownError: UnknownError")),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 500", Status: 500}},
		{"bedrock 03b 502 HTML", bedrock(502, 3, fmt.Errorf("deserialization failed, failed to decode response body, %w", jsonSyntaxError("<html>"))),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 502", Status: 502}},
		{"bedrock 04 400 Input is too long", bedrock(400, 0, errors.New("ValidationException: Input is too long for requested model.")),
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: `pattern "prompt or input is too long"`, Status: 400}},
		{"bedrock 05 403", bedrock(403, 0, errors.New("api error UnrecognizedClientException: The security token included in the request is invalid.")),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 403", Status: 403, AccountFailure: true}},
		{"bedrock 06 400 invalid base64", bedrock(400, 0, errors.New("ValidationException: messages.0.content.1.image.source.base64: invalid base64 data")),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 400", Status: 400}},
		{"bedrock 408 ModelTimeoutException", bedrock(408, 0, errors.New("ModelTimeoutException: Model has timed out in processing the request. Try your request again.")),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 408", Status: 408}},
		{"bedrock 07 StatusCode 0 EOF flattened", errors.New(`operation error Bedrock Runtime: InvokeModel, exceeded maximum number of attempts, 3, https response error StatusCode: 0, RequestID: , request send failed, Post "http://127.0.0.1:38529/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke": EOF`),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: `marker "EOF"`}},
		{"bedrock 07 typed EOF, status 0", bedrock(0, 3, fmt.Errorf("request send failed, %w", postErr("http://127.0.0.1:38529/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke", io.EOF))),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "EOF"}},
		{"bedrock 09 flattened text", errors.New("operation error Bedrock Runtime: InvokeModel, https response error StatusCode: 0, RequestID: , canceled, context deadline exceeded"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: `marker "deadline exceeded"`}},
		{"bedrock 09c flattened text", errors.New("operation error Bedrock Runtime: InvokeModel, https response error StatusCode: 0, RequestID: , canceled, context canceled"),
			taxonomy.Class{Kind: taxonomy.Canceled, Rule: `marker "context canceled"`}},
		{"bedrock 11a max_tokens stop reason", errors.New("completed due to max_tokens. Maybe try increasing max tokens"),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: `marker "completed due to"`}},
		{"bedrock 11b refusal stop reason", errors.New("completed due to refusal. Maybe try increasing max tokens"),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: `marker "completed due to"`}},

		// ---- cohere: real messages; docs.cohere.com errors ----
		{"cohere 01..06 any JSON error body", errors.New("empty response"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: `marker "no response"`}},
		{"cohere 03 empty body", fmt.Errorf("parse response: %w", io.EOF),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "EOF"}},
		{"cohere too many tokens", errors.New("too many tokens: total number of tokens in the prompt cannot exceed 4081 - received 4500. Try using a shorter prompt, or enabling prompt truncating."),
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: `marker "too many tokens:"`}},
		{"cohere ErrModelNotFound", errors.New("model not found"),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: `pattern "model not found"`, ModelMissing: true, AccountFailure: true}},

		// ---- huggingface: real messages ----
		{"huggingface 01 429", huggingface(429, `{"error":"Rate limit reached. You reached free usage limit (reset hourly)."}`),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429}},
		{"huggingface 02a 503 model loading", huggingface(503, `{"error":"Model gpt2 is currently loading","estimated_time":20.0}`),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "status 503", Status: 503}},
		{"huggingface 02b 529", huggingface(529, `{"error":"overloaded"}`),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "status 529", Status: 529}},
		{"huggingface 03 500 empty body", huggingface(500, ""),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 500", Status: 500}},
		{"huggingface 03b 502 nginx page", huggingface(502, `<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>`),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 502", Status: 502}},
		{"huggingface 04 TGI overflow", huggingface(400, "{\"error\":\"Input validation error: `inputs` tokens + `max_new_tokens` must be \\u003c= 4096.\"}"),
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: "marker \"`inputs` tokens + `max_new_tokens`\"", Status: 400}},
		{"huggingface 05 401", huggingface(401, `{"error":"Invalid credentials in Authorization header"}`),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 401", Status: 401, AccountFailure: true}},
		{"huggingface 06 invalid image", huggingface(400, `{"error":"invalid image"}`),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 400", Status: 400}},
		{"huggingface 10a non-JSON 200", fmt.Errorf("failed to run inference: %w", jsonSyntaxError("<html>")),
			taxonomy.Class{Kind: taxonomy.Unknown, Rule: "malformed response body"}},

		// ---- the transient and permanent markers of agent runtimes in Python and Node ----
		{"runtime fetch failed", errors.New("TypeError: fetch failed"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: `marker "fetch failed"`}},
		{"runtime other side closed", errors.New("SocketError: other side closed"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: `marker "other side closed"`}},
		// Envoy answers these with its own 503: retried, and counted as the
		// provider being short of capacity.
		{"runtime envoy reset before headers", errors.New("upstream connect error or disconnect/reset before headers. reset reason: connection termination"),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: `marker "upstream connect error"`}},
		{"envoy reset before headers alone", errors.New("stream closed: reset before headers"),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: `marker "reset before headers"`}},
		{"runtime login expired", errors.New("openai-codex: login expired, please run `codex login` again"),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: `marker "login expired"`, AccountFailure: true}},
		{"runtime invalid api key", errors.New("AuthenticationError: Invalid API key"),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: `marker "invalid api key"`, AccountFailure: true}},
		{"runtime image data is not", errors.New("BadRequestError: image data is not a valid base64 string"),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: `marker "image data is not"`}},

		// ---- status words in free text: gateways, proxies and the Python SDKs' "Error code: %d" ----
		{"python SDK text: Error code: 429", errors.New("Error code: 429"),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429}},
		{"python SDK text: Error code: 529", errors.New("Error code: 529"),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "status 529", Status: 529}},
		{"python SDK text: Error code: 502", errors.New("Error code: 502"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 502", Status: 502}},
		{"cloudflare 524 body through langchaingo's cloudflare client", errors.New("error: error code: 524"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 524", Status: 524}},
		{"ollama StatusError flattened: 502 Bad Gateway", errors.New("502 Bad Gateway"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 502", Status: 502}},
		{"nginx 504 page as a body", errors.New("<html><head><title>504 Gateway Time-out</title></head><body><center><h1>504 Gateway Time-out</h1></center></body></html>"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 504", Status: 504}},
		// A status standing in a sentence without a status word: the markers.
		{"claude code: request rejected (429)", errors.New("API Error: Request rejected (429)"),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: `marker "429"`}},
		{"upstream returned 529", errors.New("upstream returned 529, giving up"),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "status 529", Status: 529}},
		{"gateway code=502", errors.New("proxy: upstream failed, code=502"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 502", Status: 502}},
		{"gateway timeout words without a status", errors.New("the proxy gave up: gateway timeout"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: `marker "gateway timeout"`}},
		{"connection reset flattened", errors.New("read tcp 10.0.0.2:52514->104.18.6.192:443: read: connection reset by peer"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: `marker "connection reset"`}},
		{"HTTP/2 GOAWAY", errors.New(`http2: server sent GOAWAY and closed the connection; LastStreamID=1999, ErrCode=NO_ERROR, debug=""`),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: `marker "goaway"`}},
		{"HTTP/2 stream reset", errors.New("stream error: stream ID 3; INTERNAL_ERROR; received from peer"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: `marker "stream error"`}},
		{"port 8429 in a flattened URL is not a 429", errors.New(`Post "http://10.0.0.7:8429/v1/chat/completions": net/http: TLS handshake timeout`),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: `marker "timeout"`}},

		// ---- programming: langchaingo's own misuse errors ----
		{"palm ErrNotImplemented", errors.New("not implemented"),
			taxonomy.Class{Kind: taxonomy.Programming, Rule: `marker "not implemented"`}},
		{"bedrock nova streaming", errors.New("streaming not implemented for nova"),
			taxonomy.Class{Kind: taxonomy.Programming, Rule: `marker "not implemented"`}},
		{"anthropic ErrUnsupportedMessageType", errors.New("unsupported message type"),
			taxonomy.Class{Kind: taxonomy.Programming, Rule: `marker "unsupported message type"`}},
		{"mistral unsupported content type", errors.New("unsupported content type encountered while preparing chat messages to send to mistral platform"),
			taxonomy.Class{Kind: taxonomy.Programming, Rule: `marker "unsupported content type"`}},
		{"openai ErrContentExclusive", errors.New("only one of Content / MultiContent allowed in message"),
			taxonomy.Class{Kind: taxonomy.Programming, Rule: `marker "only one of content / multicontent"`}},
		{"base URL without a scheme", &url.Error{Op: "Post", URL: "localhost:11434/api/chat", Err: errors.New(`unsupported protocol scheme "localhost"`)},
			taxonomy.Class{Kind: taxonomy.Programming, Rule: `marker "unsupported protocol scheme"`}},
		{"https to a plain HTTP port, as net/http reports it", &url.Error{Op: "Post", URL: "https://localhost:8080/v1/messages", Err: errors.New("http: server gave HTTP response to HTTPS client")},
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "tls handshake"}},

		// ---- typed transport errors (net/http, net, io, encoding/json) ----
		{"context.Canceled in *url.Error", postErr("https://api.openai.com/v1/chat/completions", context.Canceled),
			taxonomy.Class{Kind: taxonomy.Canceled, Rule: "context canceled"}},
		{"bare context.Canceled", context.Canceled,
			taxonomy.Class{Kind: taxonomy.Canceled, Rule: "context canceled"}},
		{"cause of a canceled context", fmt.Errorf("agent run: %w", context.Cause(canceledCtx())),
			taxonomy.Class{Kind: taxonomy.Canceled, Rule: "context canceled"}},
		{"bare io.EOF", io.EOF,
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "EOF"}},
		{"ECONNRESET in *net.OpError", postErr("https://api.anthropic.com/v1/messages", syscallErr("read", "read", syscall.ECONNRESET)),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "connection reset"}},
		{"ECONNREFUSED in *net.OpError", syscallErr("dial", "connect", syscall.ECONNREFUSED),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "connection refused"}},
		{"EPIPE in *net.OpError", fmt.Errorf("send request: %w", syscallErr("write", "write", syscall.EPIPE)),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "broken pipe"}},
		{"net.Error with Timeout() true", postErr("https://api.openai.com/v1/chat/completions", timeoutError{}),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "network timeout"}},
		{"i/o timeout (os.ErrDeadlineExceeded)", &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded},
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "network timeout"}},
		{"bare *json.SyntaxError", jsonSyntaxError(""),
			taxonomy.Class{Kind: taxonomy.Unknown, Rule: "malformed response body"}},
		{"TLS unknown authority", postErr("https://llm.internal.example/v1/chat/completions", &tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{}}),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "tls certificate"}},
		{"DNS no such host", postErr("https://api.openai.con/v1/chat/completions", &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "api.openai.con", IsNotFound: true}}),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "dns: no such host"}},
		{"DNS server failure", postErr("https://api.openai.com/v1/chat/completions", &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "server misbehaving", Name: "api.openai.com", Server: "127.0.0.53:53", IsTemporary: true}}),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "dns error"}},

		// ---- typed status codes without importing their packages ----
		{"HTTPCode() 429 (googleai apierror)", googleai(429, "Resource has been exhausted (e.g. check quota).", nil),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429}},
		{"HTTPCode() 503 (googleai apierror)", googleai(503, "The service is currently unavailable.", nil),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "status 503", Status: 503}},
		{"HTTPStatusCode() 429 (bedrock ResponseError)", &fakeResponseError{status: 429, err: errors.New("ThrottlingException: Too many tokens, please wait before trying again.")},
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429}},
		{"Header field with Retry-After-Ms", &fakeGoogleAPIError{Code: 429, Message: "Resource has been exhausted (e.g. check quota).", Header: http.Header{"Retry-After-Ms": {"1500"}, "Retry-After": {"2"}}},
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429, RetryAfter: 1500 * time.Millisecond, WaitSource: taxonomy.WaitRetryAfter}},

		// ---- wire evidence recorded by the transport ----
		{"wire 429 with Retry-After 7s", taxonomy.WithEvidence(openai(429, "Rate limit reached"), taxonomy.Evidence{Status: 429, RetryAfter: 7 * time.Second, ErrorType: "requests", ErrorCode: "rate_limit_exceeded"}),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: `code "rate_limit_exceeded"`, Status: 429, RetryAfter: 7 * time.Second, WaitSource: taxonomy.WaitRetryAfter, Code: "rate_limit_exceeded"}},
		{"wire 429 without a code, Retry-After wins over the text hint", taxonomy.WithEvidence(openai(429, openaiTPM), taxonomy.Evidence{Status: 429, RetryAfter: 7 * time.Second}),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429, RetryAfter: 7 * time.Second, WaitSource: taxonomy.WaitRetryAfter}},
		{"wire 200 stream with an overloaded_error event", taxonomy.WithEvidence(errors.New("no response"), taxonomy.Evidence{Status: 200, ErrorType: "overloaded_error", ErrorMessage: "Overloaded"}),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: `type "overloaded_error"`, Status: 200, Code: "overloaded_error"}},
		{"wire 429 insufficient_quota code", taxonomy.WithEvidence(openai(429, openaiQuota), taxonomy.Evidence{Status: 429, ErrorType: "insufficient_quota", ErrorCode: "insufficient_quota"}),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: `code "insufficient_quota"`, Status: 429, Code: "insufficient_quota", AccountFailure: true}},
		{"wire 400 context_length_exceeded code", taxonomy.WithEvidence(openai(400, openaiOverflow), taxonomy.Evidence{Status: 400, ErrorType: "invalid_request_error", ErrorCode: "context_length_exceeded"}),
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: `marker "maximum context length"`, Status: 400, Code: "context_length_exceeded"}},
		{"wire x-should-retry true on a 400", taxonomy.WithEvidence(anthropicStatus(400, "Invalid request"), taxonomy.Evidence{Status: 400, ShouldRetry: "true", ErrorType: "invalid_request_error"}),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 400; x-should-retry: true", Status: 400, Code: "invalid_request_error"}},
		{"wire x-should-retry false on a 429", taxonomy.WithEvidence(openai(429, "Rate limit reached"), taxonomy.Evidence{Status: 429, ShouldRetry: "false"}),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 429; x-should-retry: false", Status: 429}},
		{"wire message recovers what cohere hides", taxonomy.WithEvidence(errors.New("empty response"), taxonomy.Evidence{Status: 401, ErrorMessage: "invalid api token"}),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 401", Status: 401, AccountFailure: true}},
		{"wire message recovers an overflow behind a hidden status", taxonomy.WithEvidence(errors.New("empty response"), taxonomy.Evidence{ErrorMessage: "too many tokens: size limit exceeded by 1234. Try using shorter or fewer inputs."}),
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: `marker "too many tokens:"`}},
		{"wire no response, dropped stream", taxonomy.WithEvidence(fmt.Errorf("error reading streaming response: %w", io.ErrUnexpectedEOF), taxonomy.Evidence{}),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "unexpected EOF"}},

		// ---- errors that know their class ----
		{"WithClass", taxonomy.WithClass(errors.New("boom"), taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "inner layer"}),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "inner layer"}},
		{"WithClass wrapped, over a 429 text", fmt.Errorf("retry: %w", taxonomy.WithClass(openai(429, "Rate limit reached"), taxonomy.Class{Kind: taxonomy.Permanent, Rule: "retries exhausted"})),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "retries exhausted"}},
		{"ToolError through %w", fmt.Errorf("lookup_order: %w", taxonomy.NewToolError("no order '9999'")),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "tool error"}},
		{"FatalToolError through %w", fmt.Errorf("charge_card: %w", taxonomy.NewFatalToolError(errors.New("payment authorization revoked"))),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "fatal tool error"}},
		{"FatalToolError over a context error it wraps", taxonomy.NewFatalToolError(context.Canceled),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: "fatal tool error"}},

		// ---- errors.Join: a fallback and its primary both failed ----
		{"join: cancellation wins over a 429", errors.Join(openai(429, "Rate limit reached"), context.Canceled),
			taxonomy.Class{Kind: taxonomy.Canceled, Rule: "context canceled"}},
		{"join: a 429 and an EOF", errors.Join(openai(429, "Rate limit reached"), io.EOF),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429}},
		{"join: typed status in the second error", errors.Join(errors.New("primary: no response"), googleai(503, "The model is overloaded. Please try again later.", nil)),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "status 503", Status: 503}},

		// ---- misuse by the caller: Classify must not panic ----
		{"typed nil error whose Error panics", (*typedNilError)(nil),
			taxonomy.Class{Kind: taxonomy.Programming, Rule: "error method panicked"}},
		{"typed nil *WireError", (*taxonomy.WireError)(nil),
			taxonomy.Class{Kind: taxonomy.Programming, Rule: "error method panicked"}},
		{"WireError without Err: its message is the text", &taxonomy.WireError{Evidence: taxonomy.Evidence{Status: 529, ErrorType: "overloaded_error", ErrorMessage: "Overloaded"}},
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "status 529", Status: 529, Code: "overloaded_error"}},
		// The type is broader than the status: OpenAI sends "server_error" with a 529 too.
		{"openai 529 with type server_error: the status decides", &taxonomy.WireError{Evidence: taxonomy.Evidence{Status: 529, ErrorType: "server_error"}, Err: errors.New("API returned unexpected status code: 529: The server is overloaded or not ready yet.")},
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "status 529", Status: 529, Code: "server_error"}},
	}
}

func TestClassify(t *testing.T) {
	for _, tt := range classifyCases() {
		t.Run(tt.name, func(t *testing.T) {
			if got := taxonomy.Classify(tt.err); got != tt.want {
				t.Errorf("Classify(%v)\ngot  %+v\nwant %+v", tt.err, fields(got), fields(tt.want))
			}
		})
	}
}

// fields shows every field of a Class; Class.String shows only kind and rule.
type fields taxonomy.Class

func canceledCtx() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}
