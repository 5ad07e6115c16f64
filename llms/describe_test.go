package llms

import (
	"testing"

	lcllms "github.com/tmc/langchaingo/llms"
)

// Models whose configured model sits one, two and three structs down, as
// langchaingo's clients keep it (openai's LLM.client.Model).
type (
	level3    struct{ Model string }
	level2    struct{ inner *level3 }
	level1    struct{ inner level2 }
	deepModel struct {
		lcllms.Model
		inner *level1
	}
	shallowModel struct {
		lcllms.Model
		inner level2
	}
	// cycle points back at itself: the search must end all the same.
	cycle struct {
		lcllms.Model
		next *cycle
	}
)

func TestDescribeLooksTwoStructsDown(t *testing.T) {
	if _, _, model := describe(&shallowModel{inner: level2{inner: &level3{Model: "gpt-4o"}}}); model != "gpt-4o" {
		t.Errorf("two structs down: got %q, want gpt-4o", model)
	}
	if _, _, model := describe(&deepModel{inner: &level1{inner: level2{inner: &level3{Model: "gpt-4o"}}}}); model != "" {
		t.Errorf("three structs down: got %q, want none", model)
	}
	c := &cycle{}
	c.next = c
	if name, _, model := describe(c); name != "llms" || model != "" {
		t.Errorf("a cycle: got %q, %q, want the package name alone", name, model)
	}
}

// usageOf skips the choices that say nothing, nil ones included.
func TestUsageSkipsChoicesWithoutCounts(t *testing.T) {
	resp := &lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{
		nil,
		{GenerationInfo: map[string]any{"StopReason": "stop"}},
		{GenerationInfo: map[string]any{"PromptTokens": 5, "CompletionTokens": 2}},
	}}
	if in, out := usageOf(resp); in != 5 || out != 2 {
		t.Errorf("got %d+%d, want 5+2", in, out)
	}
	if in, out := usageOf(nil); in != 0 || out != 0 {
		t.Errorf("nil response: got %d+%d", in, out)
	}
}
