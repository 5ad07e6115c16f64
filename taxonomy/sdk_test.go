package taxonomy_test

import (
	"fmt"
	"net/http"
)

// Typed errors of SDKs this module does not import, copied field for field
// and method for method from their sources (read in the module cache), so
// that Classify is tested on their real shapes.

// awsAPIError has the method set of the AWS SDK v2's modeled exceptions
// (smithy.APIError), such as bedrockruntime's *types.ThrottlingException,
// whose Error is "ErrorCode: ErrorMessage".
type awsAPIError struct {
	Message *string
	code    string
}

func (e *awsAPIError) Error() string        { return fmt.Sprintf("%s: %s", e.ErrorCode(), e.ErrorMessage()) }
func (e *awsAPIError) ErrorCode() string    { return e.code }
func (e *awsAPIError) ErrorMessage() string { return *e.Message }
func (e *awsAPIError) ErrorFault() int      { return 1 }

// bedrockException is the AWS SDK's chain around a modeled exception:
// *smithy.OperationError > *awshttp.ResponseError (HTTPStatusCode) > the
// exception. A status of 0 leaves the response error out, as for an
// exception read from an event stream.
func bedrockException(status int, code, message string) error {
	var err error = &awsAPIError{Message: &message, code: code}
	if status != 0 {
		err = &fakeResponseError{status: status, err: err}
	}
	return &fakeOperationError{service: "Bedrock Runtime", operation: "Converse", err: err}
}

// goOpenAIError is github.com/sashabaranov/go-openai's *APIError: the status
// in an HTTPStatusCode field, the code in a field of type any.
type goOpenAIError struct {
	Code           any     `json:"code,omitempty"`
	Message        string  `json:"message"`
	Param          *string `json:"param,omitempty"`
	Type           string  `json:"type"`
	HTTPStatus     string  `json:"-"`
	HTTPStatusCode int     `json:"-"`
}

func (e *goOpenAIError) Error() string {
	if e.HTTPStatusCode > 0 {
		return fmt.Sprintf("error, status code: %d, status: %s, message: %s", e.HTTPStatusCode, e.HTTPStatus, e.Message)
	}
	return e.Message
}

// goOpenAIRequestError is go-openai's *RequestError, for a body it could not
// decode as an error.
type goOpenAIRequestError struct {
	HTTPStatus     string
	HTTPStatusCode int
	Err            error
	Body           []byte
}

func (e *goOpenAIRequestError) Error() string {
	return fmt.Sprintf("error, status code: %d, status: %s, message: %s, body: %s", e.HTTPStatusCode, e.HTTPStatus, e.Err, e.Body)
}
func (e *goOpenAIRequestError) Unwrap() error { return e.Err }

// openaiGoError is github.com/openai/openai-go/v3's *Error: its text shows
// the status only, and the code, type and message sit in fields.
type openaiGoError struct {
	Code       string `json:"code"`
	Message    string `json:"message"`
	Param      string `json:"param"`
	Type       string `json:"type"`
	StatusCode int
	Request    *http.Request
	Response   *http.Response
}

func (e *openaiGoError) Error() string {
	if text := http.StatusText(e.StatusCode); text != "" {
		return fmt.Sprintf("OpenAI API error: %d %s", e.StatusCode, text)
	}
	return fmt.Sprintf("OpenAI API error: %d", e.StatusCode)
}

// anthropicSDKError is github.com/anthropics/anthropic-sdk-go's *Error: the
// method, URL and status, then the raw body.
type anthropicSDKError struct {
	StatusCode int
	Request    *http.Request
	Response   *http.Response
	RequestID  string
	raw        string
}

func (e *anthropicSDKError) Error() string {
	msg := fmt.Sprintf("%s %q: %d %s", e.Request.Method, e.Request.URL, e.Response.StatusCode, http.StatusText(e.Response.StatusCode))
	if e.RequestID != "" {
		msg += fmt.Sprintf(" (Request-ID: %s)", e.RequestID)
	}
	return msg + " " + e.raw
}

func newAnthropicSDKError(status int, header http.Header, body string) *anthropicSDKError {
	req, _ := http.NewRequest(http.MethodPost, "https://api.anthropic.com/v1/messages", nil)
	return &anthropicSDKError{
		StatusCode: status,
		Request:    req,
		Response:   &http.Response{StatusCode: status, Header: header},
		RequestID:  "req_011CUSTb9aDLKFhL3YTykbtd",
		raw:        body,
	}
}

// Errors with a StatusCode field of another type than int.
type (
	stringStatusError   struct{ StatusCode string }
	floatStatusError    struct{ StatusCode float64 }
	unsignedStatusError struct{ StatusCode uint16 }
	int64StatusError    struct{ StatusCode int64 }
)

func (e stringStatusError) Error() string   { return "upstream said " + e.StatusCode }
func (e floatStatusError) Error() string    { return fmt.Sprintf("upstream said %g", e.StatusCode) }
func (e unsignedStatusError) Error() string { return "upstream failed" }
func (e int64StatusError) Error() string    { return "upstream failed" }

// More StatusCode types, and errors with exactly one evidence field: each
// field is read on its own.
type (
	uintStatusError   struct{ StatusCode uint }
	uint64StatusError struct{ StatusCode uint64 }
	codeOnlyError     struct{ Code string }
	typeOnlyError     struct{ Type string }
	messageOnlyError  struct{ Message string }
	headerOnlyError   struct{ Header http.Header }
	responseOnlyError struct{ Response *http.Response }
)

func (uintStatusError) Error() string   { return "upstream failed" }
func (uint64StatusError) Error() string { return "upstream failed" }
func (codeOnlyError) Error() string     { return "upstream failed" }
func (typeOnlyError) Error() string     { return "upstream failed" }
func (messageOnlyError) Error() string  { return "bad request" }
func (headerOnlyError) Error() string   { return "rate limited" }
func (responseOnlyError) Error() string { return "upstream failed" }

// deepChain wraps err in depth-1 layers, so that err is the depth-th error of
// the chain.
func deepChain(err error, depth int) error {
	for range depth - 1 {
		err = fmt.Errorf("layer: %w", err)
	}
	return err
}

// genaiAPIError is google.golang.org/genai's APIError (a value, not a
// pointer): the status in an integer Code field, Google's status name in a
// Status string field, and an Error that prints both.
type genaiAPIError struct {
	Code    int              `json:"code,omitempty"`
	Message string           `json:"message,omitempty"`
	Status  string           `json:"status,omitempty"`
	Details []map[string]any `json:"details,omitempty"`
}

func (e genaiAPIError) Error() string {
	return fmt.Sprintf("Error %d, Message: %s, Status: %s, Details: %v", e.Code, e.Message, e.Status, e.Details)
}

// awsMaxAttemptsError is the AWS SDK v2's *retry.MaxAttemptsError: the
// SDK's own retries gave up, the last attempt's error inside.
type awsMaxAttemptsError struct {
	Attempt int
	Err     error
}

func (e *awsMaxAttemptsError) Error() string {
	return fmt.Sprintf("exceeded maximum number of attempts, %d, %v", e.Attempt, e.Err)
}
func (e *awsMaxAttemptsError) Unwrap() error { return e.Err }

// awsQuotaExceededError is the AWS SDK v2's ratelimit.QuotaExceededError,
// wrapped by its standard retryer as "failed to get rate limit token, %w":
// the client's own retry budget is spent after a run of failures.
type awsQuotaExceededError struct{ Available, Requested uint }

func (e awsQuotaExceededError) Error() string {
	return fmt.Sprintf("retry quota exceeded, %d available, %d requested", e.Available, e.Requested)
}

// awsRequestCanceledError is the AWS SDK v2's *aws.RequestCanceledError.
type awsRequestCanceledError struct{ Err error }

func (e *awsRequestCanceledError) Error() string { return fmt.Sprintf("request canceled, %v", e.Err) }
func (e *awsRequestCanceledError) Unwrap() error { return e.Err }
