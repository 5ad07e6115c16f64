package main

import (
	"bytes"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestRuns: the story the command prints is what the endpoint showed and
// what the calls met.
func TestRuns(t *testing.T) {
	var out bytes.Buffer
	if err := run("127.0.0.1:0", false, &out); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"stopped: circuit open (no member available: eastus: out of rotation",
		"GET /status/ready -> 503 Service Unavailable",
		`"account_failure": "code \"invalid_api_key\", status 401"`,
		`"why": "failures"`,
		"POST /status/models/chat/members/westus/reset -> 200 OK",
		`call: "Hello from westus."`,
		"GET /status/ready -> 200 OK",
		`"why": "forced_open"`,
		"westus: circuit forced open by an operator",
		"requests: eastus 1, westus 4",
	}
	at := 0
	for _, w := range want {
		i := strings.Index(out.String()[at:], w)
		if i < 0 {
			t.Fatalf("output lacks %q after byte %d:\n%s", w, at, out.String())
		}
		at += i + len(w)
	}
}
