package llms_test

import (
	"slices"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
)

// A batch too large is split, and the log says so, not that the call gave
// up; a text too long alone does give up, once.
func TestABatchSplitIsNoGiveUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.Func(func(r *faultserver.Request) faultserver.Step {
			if len(r.Inputs()) > 4 || slices.Contains(r.Inputs(), "text 13") {
				return faultserver.ContextOverflow()
			}
			return faultserver.Reply("")
		}))
		defer s.Close()
		var logs observetest.LogBuffer
		e := mustEmbedder(t, realEmbedder(t, s, faultserver.OpenAI), llms.Middleware(middleware.Logger(logs.Logger())))

		if _, err := e.CreateEmbedding(t.Context(), someTexts(8)); err != nil {
			t.Fatal(err)
		}
		if got := logs.String(); !strings.Contains(got, `msg="batch split" target=openai/embeddings texts=8`) || strings.Contains(got, "gave up") {
			t.Errorf("logs:\n%s\nwant the splits, and no give-up before them", got)
		}

		var logs2 observetest.LogBuffer
		e = mustEmbedder(t, realEmbedder(t, s, faultserver.OpenAI), llms.Middleware(middleware.Logger(logs2.Logger())))
		if _, err := e.CreateEmbedding(t.Context(), someTexts(16)); err == nil {
			t.Fatal("text 13 was embedded, want it too long")
		}
		if got := logs2.String(); strings.Count(got, `msg="gave up"`) != 1 || !strings.Contains(got, "reason="+observe.ReasonContextOverflow.String()) {
			t.Errorf("logs:\n%s\nwant one give-up, for the text too long", got)
		}
	})
}
