package main

import (
	"fmt"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"time"
)

// A libOption is one option the harness passes to this library, with its
// arguments in provider time: build makes the option at a time scale, and
// String renders the call for the report from the function and the values
// themselves, so that the text cannot drift from the code.
type libOption struct {
	fn    any                    // the option's constructor, named in the report
	args  []any                  // its arguments, in provider time
	build func(ts timeScale) any // a resilient.ModelOption, ToolOption or PoolOption: see build
}

func (o libOption) String() string { return call(o.fn, o.args...) }

// durOption is an option taking one duration.
func durOption[O any](f func(time.Duration) O, d time.Duration) libOption {
	return libOption{fn: f, args: []any{d}, build: func(ts timeScale) any { return f(ts.of(d)) }}
}

// durs2Option is an option taking two durations.
func durs2Option[O any](f func(a, b time.Duration) O, a, b time.Duration) libOption {
	return libOption{fn: f, args: []any{a, b}, build: func(ts timeScale) any { return f(ts.of(a), ts.of(b)) }}
}

// countDurOption is an option taking a count and a duration.
func countDurOption[O any](f func(int, time.Duration) O, n int, d time.Duration) libOption {
	return libOption{fn: f, args: []any{n, d}, build: func(ts timeScale) any { return f(n, ts.of(d)) }}
}

// fixedOption is an option without durations: o, rendered as a call of fn
// with args.
func fixedOption(o any, fn any, args ...any) libOption {
	return libOption{fn: fn, args: args, build: func(timeScale) any { return o }}
}

// callOf renders a call as an argument of another: fn(args...).
type callOf struct {
	fn   any
	args []any
}

func (n callOf) String() string { return call(n.fn, n.args...) }

// literal is an argument rendered as the Go expression it holds, such as
// "resilient.Forever".
type literal string

func (l literal) String() string { return string(l) }

// call renders fn(args...): fn by its qualified name, a function argument
// by its name, anything else with %v.
func call(fn any, args ...any) string {
	parts := make([]string, len(args))
	for i, a := range args {
		if reflect.ValueOf(a).Kind() == reflect.Func {
			parts[i] = funcName(a)
			continue
		}
		parts[i] = fmt.Sprint(a)
	}
	return funcName(fn) + "(" + strings.Join(parts, ", ") + ")"
}

// closureSuffix is what the compiler appends to a function literal's name.
var closureSuffix = regexp.MustCompile(`(\.func\d+)+$`)

// funcName returns the package-qualified name of function f, e.g.
// "resilient.Backoff" or "middleware.NoJitter".
func funcName(f any) string {
	name := runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
	name = closureSuffix.ReplaceAllString(name, "")
	name = strings.TrimSuffix(name, "-fm") // a method value
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:]
	}
	return strings.TrimPrefix(name, "main.")
}

// options renders a list of options as arguments of a call.
func options(opts []libOption) string {
	parts := make([]string, len(opts))
	for i, o := range opts {
		parts[i] = o.String()
	}
	return strings.Join(parts, ", ")
}
