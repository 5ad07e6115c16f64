package llms

import (
	"fmt"
	"reflect"
	"strings"

	lcllms "github.com/tmc/langchaingo/llms"
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
	provider = packageOf(m)
	model = modelOf(m, modelFields)
	if model == "" {
		return provider, provider, ""
	}
	return provider + "/" + model, provider, model
}

// packageOf returns the name of the package of x's type: "*openai.LLM" is
// "openai".
func packageOf(x any) string {
	t := strings.TrimPrefix(fmt.Sprintf("%T", x), "*")
	if pkg, _, ok := strings.Cut(t, "."); ok {
		return pkg
	}
	return t
}

// modelFields are the names, lowercased, under which langchaingo's clients
// keep their model: openai and anthropic LLM.model and client.Model,
// ollama options.model, bedrock modelID, googleai opts.DefaultModel,
// mistral clientOptions.model.
var modelFields = map[string]bool{"model": true, "modelid": true, "modelname": true, "defaultmodel": true}

// modelOf looks for the model a client was configured with, in a string
// field whose lowercased name is among fields, reading its struct (and the
// structs it points to, two levels deep) by reflection, as no langchaingo
// client exposes it. It returns "" when none is found; it recovers from
// anything reflection may meet.
func modelOf(m any, fields map[string]bool) (model string) {
	defer func() {
		if recover() != nil {
			model = ""
		}
	}()
	return findModel(reflect.ValueOf(m), fields, 3)
}

func findModel(v reflect.Value, fields map[string]bool, depth int) string {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return ""
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct || depth == 0 {
		return ""
	}
	t := v.Type()
	for i := range t.NumField() { // the struct's own fields first: they are the current model
		if f := v.Field(i); f.Kind() == reflect.String && fields[strings.ToLower(t.Field(i).Name)] && f.String() != "" {
			return f.String()
		}
	}
	for i := range t.NumField() {
		switch f := v.Field(i); f.Kind() {
		case reflect.Pointer, reflect.Struct:
			if found := findModel(f, fields, depth-1); found != "" {
				return found
			}
		}
	}
	return ""
}

// isNil reports whether m is nil or a typed nil (a nil *openai.LLM), which
// would panic at the first call.
func isNil(m any) bool {
	if m == nil {
		return true
	}
	switch v := reflect.ValueOf(m); v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface:
		return v.IsNil()
	}
	return false
}
