package taxonomy

import (
	"regexp"
	"strconv"
	"strings"
)

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
	// anthropic-sdk-go and openai-go v1: `POST "https://api.anthropic.com/v1/messages": 429 Too Many Requests ...`
	status(`": `, `https?://[^"\s]+": (\d{3})\b`),
	// openai-go v3: "OpenAI API error: 429 Too Many Requests"
	status("api error", `\bapi error:? (\d{3})\b`),
	// generic gateways and SDKs: "status 503", "status code 500", "status: 429",
	// "status=502"; go-openai: "error, status code: 429, status: 429 Too Many Requests"
	status("status", `\bstatus(?:[ _]code)?[:=]? ?(\d{3})\b`),
	// "HTTP 429", "HTTP/1.1 503"
	status("http", `\bhttp(?:/\d(?:\.\d)?)? (\d{3})\b`),
}

// textStatus reads the status from a lowercased text, 0 when it holds none.
func textStatus(lower string) int {
	for _, st := range statusTexts {
		if !strings.Contains(lower, st.need) {
			continue
		}
		m := st.re.FindStringSubmatchIndex(lower)
		if m == nil {
			continue
		}
		if s, _ := strconv.Atoi(lower[m[2]:m[3]]); isFailureStatus(s) {
			return s
		}
	}
	return 0
}

// isFailureStatus reports whether s is a 4xx or 5xx status: the statuses
// read from a text or a typed error that count as evidence.
func isFailureStatus(s int) bool { return s >= 400 && s <= 599 }

// statusRules holds the rule names "status 400" to "status 599", built once so
// that deciding by status allocates nothing.
var statusRules = func() (names [200]string) {
	for i := range names {
		names[i] = "status " + strconv.Itoa(400+i)
	}
	return names
}()

// statusClass maps a failure status (400 to 599, see isFailureStatus) to its
// class. A 404 says the model is missing: the request names nothing else
// that can be absent.
func statusClass(status int) Class {
	return Class{Kind: statusKind(status), Rule: statusRules[status-400], ModelMissing: status == 404}
}

// statusKind maps a failure status (400 to 599) to a kind.
func statusKind(status int) Kind {
	switch status {
	case 429:
		return RateLimited
	case 503, 529:
		return Overloaded
	case 413:
		return ContextOverflow
	case 408, 409, 425:
		return Transient
	case 501, 505:
		return Permanent
	}
	if status >= 500 {
		return Transient
	}
	return Permanent
}
