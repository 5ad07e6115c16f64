package middleware_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/resilientgo/resilient/internal/redact"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe/observetest"
)

// A gateway that echoes the caller's key in its error body: the final
// error's text hides it, and errors.Is/As still reach the original error.
func TestFinalErrorTextIsRedacted(t *testing.T) {
	key := "sk-proj-" + strings.Repeat("aB3dE5gH7k", 4)
	echoed := errors.New(`API returned unexpected status code: 401: {"error":"invalid header","authorization":"Bearer ` + key + `"}`)
	p, err := middleware.New[string]("gpt", middleware.SingleAttempt())
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Do(t.Context(), newScript(fails(echoed)).fn)
	var final *middleware.Error
	if !errors.As(err, &final) || !errors.Is(err, echoed) || final.Last() != echoed {
		t.Fatalf("got %#v, want a final error unwrapping to the provider's", err)
	}
	for _, text := range []string{err.Error(), final.Attempts[0].String()} {
		if strings.Contains(text, key) || !strings.Contains(text, `"authorization":"[REDACTED]"`) {
			t.Errorf("text: %s", text)
		}
	}
}

// A panic whose value is a byte slice is shown as text, where redaction
// reads it, in the error and in the log.
func TestPanicWithBytesIsText(t *testing.T) {
	var logs observetest.LogBuffer
	p, err := middleware.New[string]("tool", middleware.SingleAttempt(), middleware.Logger(redact.Logger(logs.Logger(), nil)))
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Do(t.Context(), newScript(step{panic: []byte("password=hunter2")}).fn)
	var pe *middleware.PanicError
	if !errors.As(err, &pe) || pe.Error() != "panic: password=hunter2" {
		t.Fatalf("got %v, want the panic as text", err)
	}
	if got := logs.String(); strings.Contains(got, "hunter2") || strings.Contains(got, "104 117") ||
		!strings.Contains(got, `msg="panic recovered" target=tool attempt=1 err="panic: password=[REDACTED]"`) {
		t.Errorf("logs:\n%s", got)
	}
}
