package llms_test

import (
	"context"
	"testing"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/internal/scripted"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/taxonomy"
)

// A nil *Model or *Embedder and a nil context return a programming error
// instead of panicking; the accessors of a nil *Model answer.
func TestNilModelAndNilContext(t *testing.T) {
	var nilCtx context.Context
	var nilModel *llms.Model
	var nilEmbedder *llms.Embedder
	model := mustWrap(t, scripted.New(scripted.Step{Text: "ok"}))
	s := faultserver.NewInMemory(faultserver.Reply(""))
	defer s.Close()
	embedder := mustEmbedder(t, realEmbedder(t, s, faultserver.OpenAI))
	for _, c := range []struct {
		name string
		call func() error
		want string
	}{
		{"nil *Model, GenerateContent", func() error { _, err := nilModel.GenerateContent(t.Context(), hello()); return err },
			"llms: nil *Model: build it with llms.New or resilient.Model"},
		{"nil *Model, Call", func() error { _, err := nilModel.Call(t.Context(), "hi"); return err },
			"llms: nil *Model: build it with llms.New or resilient.Model"},
		{"nil context, GenerateContent", func() error { _, err := model.GenerateContent(nilCtx, hello()); return err }, "llms: nil context"},
		{"nil context, Call", func() error { _, err := model.Call(nilCtx, "hi"); return err }, "llms: nil context"},
		{"nil *Embedder", func() error { _, err := nilEmbedder.CreateEmbedding(t.Context(), []string{"a"}); return err },
			"llms: nil *Embedder: build it with llms.NewEmbedder or resilient.Embedder"},
		{"nil context, CreateEmbedding", func() error { _, err := embedder.CreateEmbedding(nilCtx, []string{"a"}); return err }, "llms: nil context"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var err error
			func() {
				defer func() {
					if v := recover(); v != nil {
						t.Fatalf("panicked: %v", v)
					}
				}()
				err = c.call()
			}()
			if err == nil || err.Error() != c.want || taxonomy.Classify(err).Kind != taxonomy.Programming {
				t.Errorf("got %v, want the programming error %q", err, c.want)
			}
		})
	}
	if nilModel.Name() != "" || nilModel.Unwrap() != nil || nilModel.Err() == nil || nilModel.Breaker() != nil ||
		nilModel.Pool() != nil || nilModel.SupportsReasoning() {
		t.Error("the accessors of a nil *Model do not answer as for a model that is not there")
	}
	if nilEmbedder.Name() != "" || nilEmbedder.Unwrap() != nil || nilEmbedder.Err() == nil || nilEmbedder.Breaker() != nil {
		t.Error("the accessors of a nil *Embedder do not answer as for an embedder that is not there")
	}
}
