package taxonomy

import (
	"cmp"
	"net/http"
	"reflect"
	"sync"
	"sync/atomic"
)

// Typed errors of SDKs this package does not import are read through their
// method sets and exported fields, so that a program linking none of them
// pays nothing and this module needs no dependency on any of them:
//
//   - HTTPCode() int: googleai's *apierror.APIError;
//   - HTTPStatusCode() int: the AWS SDK's *awshttp.ResponseError (bedrock);
//   - ErrorCode() string: the AWS SDK's smithy.APIError, such as bedrock's
//     *types.ThrottlingException;
//   - a StatusCode or HTTPStatusCode integer field: ollama's StatusError,
//     go-openai's *APIError and *RequestError, openai-go's and
//     anthropic-sdk-go's *Error; without either, an integer Code field
//     (google.golang.org/genai's APIError, *googleapi.Error);
//   - a Code or Type string field: the provider's error code and type in
//     go-openai's and openai-go's errors, whose text may not show them;
//   - a Status string field that names a Google status (genai's
//     "RESOURCE_EXHAUSTED"), read as the error type;
//   - a Message string field: openai-go's message, which its text hides;
//   - a Header http.Header field (googleapi.Error) or a Response
//     *http.Response field (openai-go, anthropic-sdk-go): Retry-After and
//     x-should-retry.
type (
	httpCoder       interface{ HTTPCode() int }
	httpStatusCoder interface{ HTTPStatusCode() int }
	errorCoder      interface{ ErrorCode() string }
)

// typeFields holds the index paths of a struct type's fields that carry
// evidence, nil where the type has no such field. It is found by reflection
// once per type and cached.
type typeFields struct {
	status, code, errType, statusName, message, header, response []int
	// statusUnsigned tells which of reflect.Value's Int and Uint reads the
	// status field.
	statusUnsigned bool
}

var noFields = &typeFields{}

var (
	headerType   = reflect.TypeFor[http.Header]()
	responseType = reflect.TypeFor[*http.Response]()
)

// maxCachedTypes bounds the field cache. The dynamic types of a program's
// errors are a finite set fixed at compile time, so the bound is never met
// in practice; it only guarantees that types made at run time with
// reflect.StructOf cannot grow the cache without limit. Past it, a type's
// fields are looked up on every call instead.
const maxCachedTypes = 1024

var (
	fieldCache  sync.Map // reflect.Type -> *typeFields
	cachedTypes atomic.Int64
)

// fieldsOf returns the evidence fields of t, a struct or a pointer to one.
func fieldsOf(t reflect.Type) *typeFields {
	if cached, ok := fieldCache.Load(t); ok {
		return cached.(*typeFields)
	}
	fields := lookupFields(t)
	if cachedTypes.Load() >= maxCachedTypes {
		return fields
	}
	if _, loaded := fieldCache.LoadOrStore(t, fields); !loaded {
		cachedTypes.Add(1)
	}
	return fields
}

func lookupFields(t reflect.Type) *typeFields {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return noFields
	}
	index := func(name string, ok func(reflect.Type) bool) []int {
		if f, found := t.FieldByName(name); found && f.IsExported() && ok(f.Type) {
			return f.Index
		}
		return nil
	}
	isString := func(t reflect.Type) bool { return t.Kind() == reflect.String }
	fields := &typeFields{
		status:  index("StatusCode", isInteger),
		code:    index("Code", isString),
		errType: index("Type", isString),
		// Google's status name beside the number: genai's APIError
		// Status, "RESOURCE_EXHAUSTED".
		statusName: index("Status", isString),
		message:    index("Message", isString),
		header:     index("Header", func(t reflect.Type) bool { return t == headerType }),
		response:   index("Response", func(t reflect.Type) bool { return t == responseType }),
	}
	if fields.status == nil {
		fields.status = index("HTTPStatusCode", isInteger)
	}
	if fields.status == nil {
		// google.golang.org/genai's APIError and *googleapi.Error keep the
		// status in an integer Code.
		fields.status = index("Code", isInteger)
	}
	if fields.status != nil {
		fields.statusUnsigned = t.FieldByIndex(fields.status).Type.Kind() >= reflect.Uint
	}
	if reflect.DeepEqual(fields, &typeFields{}) {
		return noFields // most errors: nothing to read, and no reflection per call
	}
	return fields
}

// isInteger reports whether t is a signed or unsigned integer type: a
// StatusCode of another type (a string, a float) is not read.
func isInteger(t reflect.Type) bool {
	k := t.Kind()
	return k >= reflect.Int && k <= reflect.Uint64
}

// typedEvidence is what one error's methods and fields say.
type typedEvidence struct {
	status                 int
	code, errType, message string
	header                 http.Header
}

// readTyped reads the evidence of one error of the tree (not of those it
// wraps).
func readTyped(e error) typedEvidence {
	var ev typedEvidence
	switch t := e.(type) {
	case httpCoder:
		ev.status = t.HTTPCode()
	case httpStatusCoder:
		ev.status = t.HTTPStatusCode()
	}
	if c, ok := e.(errorCoder); ok {
		ev.code = c.ErrorCode()
	}
	v := reflect.ValueOf(e)
	fields := fieldsOf(v.Type())
	if fields == noFields {
		return ev
	}
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return ev
		}
		v = v.Elem()
	}
	field := func(path []int) (reflect.Value, bool) {
		if path == nil {
			return reflect.Value{}, false
		}
		f, err := v.FieldByIndexErr(path)
		return f, err == nil
	}
	if f, ok := field(fields.status); ok && ev.status == 0 {
		if fields.statusUnsigned {
			ev.status = int(min(f.Uint(), 1000))
		} else {
			ev.status = int(max(min(f.Int(), 1000), 0))
		}
	}
	if f, ok := field(fields.code); ok && ev.code == "" {
		ev.code = f.String()
	}
	if f, ok := field(fields.errType); ok {
		ev.errType = f.String()
	}
	// A Status string is a type only when it is a name codeKinds knows:
	// ollama's StatusError keeps "429 Too Many Requests" there.
	if f, ok := field(fields.statusName); ok {
		if _, known := lookupCode(f.String()); known {
			ev.errType = cmp.Or(ev.errType, f.String())
		}
	}
	if f, ok := field(fields.message); ok {
		ev.message = f.String()
	}
	// Interface is refused for a field reached through an unexported
	// embedded struct: CanInterface says so before it would panic.
	if f, ok := field(fields.header); ok && f.CanInterface() {
		ev.header, _ = f.Interface().(http.Header)
	}
	if f, ok := field(fields.response); ok && ev.header == nil && f.CanInterface() {
		if resp, _ := f.Interface().(*http.Response); resp != nil {
			ev.header = resp.Header
		}
	}
	return ev
}
