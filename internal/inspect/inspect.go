// Package inspect names the clients the adapters wrap, by reflection, as
// no client library says which provider and model it talks to.
package inspect

import (
	"fmt"
	"reflect"
	"strings"
)

// Package returns the name of the package of x's type: "*openai.LLM" is
// "openai".
func Package(x any) string {
	t := strings.TrimPrefix(fmt.Sprintf("%T", x), "*")
	if pkg, _, ok := strings.Cut(t, "."); ok {
		return pkg
	}
	return t
}

// Model looks for the model a client was configured with, in a string
// field whose lowercased name is among fields, reading its struct (and the
// structs it points to, two levels deep) by reflection, as most clients do
// not expose it. It returns "" when none is found; it recovers from
// anything reflection may meet.
func Model(m any, fields map[string]bool) (model string) {
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

// IsNil reports whether m is nil or a typed nil (a nil *openai.LLM), which
// would panic at the first call.
func IsNil(m any) bool {
	if m == nil {
		return true
	}
	switch v := reflect.ValueOf(m); v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface:
		return v.IsNil()
	}
	return false
}
