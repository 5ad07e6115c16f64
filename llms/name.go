package llms

import (
	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/internal/inspect"
)

// Named gives m a name for errors, logs and events, in place of the one the
// wrapper would derive from the client: use it for fallbacks and pool
// members that would otherwise look alike ("primary", "eu-west"). The result
// is still m to every caller; [New] and [Fallbacks] read the name.
func Named(m lcllms.Model, name string) lcllms.Model {
	return &named{Model: m, name: name}
}

type named struct {
	lcllms.Model
	name string
}

// describe names a model and finds its provider and model: the provider is
// the client's package ("*openai.LLM" is "openai"), the model is the
// client's configured model when its struct reveals one, so the default
// name reads "openai/gpt-4o". It never calls a method of m.
func describe(m lcllms.Model) (name, provider, model string) {
	provider = inspect.Package(m)
	model = inspect.Model(m, modelFields)
	if model == "" {
		return provider, provider, ""
	}
	return provider + "/" + model, provider, model
}

// modelFields are the names, lowercased, under which langchaingo's clients
// keep their model: openai and anthropic LLM.model and client.Model,
// ollama options.model, bedrock modelID, googleai opts.DefaultModel,
// mistral clientOptions.model.
var modelFields = map[string]bool{"model": true, "modelid": true, "modelname": true, "defaultmodel": true}
