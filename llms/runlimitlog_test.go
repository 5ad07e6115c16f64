package llms_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/resilientgo/resilient/internal/scripted"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/run"
)

// A call that a run's usage limit stops is logged as that, not as a
// failure of kind canceled: the caller did not give up.
func TestARunLimitStopIsLoggedAsSuch(t *testing.T) {
	var logs observetest.LogBuffer
	m := mustWrap(t, scripted.New(scripted.Step{Err: errors.New("API returned unexpected status code: 503")}, scripted.Step{Text: "ok"}),
		llms.Middleware(middleware.Logger(logs.Logger())))
	ctx := run.New(t.Context(), run.RequestLimit(1))
	if _, err := m.GenerateContent(ctx, hello()); !errors.Is(err, run.ErrUsageLimit) {
		t.Fatalf("got %v, want the request limit's refusal", err)
	}
	got := logs.String()
	if strings.Contains(got, "kind=canceled") || !strings.Contains(got, `msg="run limit reached" target=scripted reason=usage_limit attempts=2`) {
		t.Errorf("logs:\n%s\nwant the stop logged as a run limit, with no kind canceled", got)
	}
}
