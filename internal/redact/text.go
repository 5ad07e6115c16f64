package redact

import (
	"fmt"
	"reflect"
)

// Text returns the text of a value as a log or an error message shows it,
// before redaction: an error's Error, a fmt.Stringer's String, a byte slice
// as text, anything else as fmt's %+v prints it, except that a value
// holding byte slices is printed with %s, which shows them as text rather
// than as decimal numbers that no rule could read.
func Text(x any) string {
	switch x := x.(type) {
	case nil:
		return "<nil>"
	case string:
		return x
	case error:
		return x.Error()
	case fmt.Stringer:
		return x.String()
	case []byte:
		return string(x)
	}
	if holdsBytes(reflect.TypeOf(x), nil) {
		return fmt.Sprintf("%s", x)
	}
	return fmt.Sprintf("%+v", x)
}

// holdsBytes reports whether a value of type t can hold a byte slice or
// array: itself or through its elements and fields.
func holdsBytes(t reflect.Type, seen map[reflect.Type]bool) bool {
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return true
		}
		return holdsBytes(t.Elem(), seen)
	case reflect.Pointer:
		return holdsBytes(t.Elem(), seen)
	case reflect.Map:
		return holdsBytes(t.Key(), seen) || holdsBytes(t.Elem(), seen)
	case reflect.Struct:
		if seen[t] {
			return false
		}
		if seen == nil {
			seen = map[reflect.Type]bool{}
		}
		seen[t] = true
		for i := range t.NumField() {
			if holdsBytes(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}
