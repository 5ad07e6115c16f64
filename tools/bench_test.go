package tools_test

import (
	"context"
	"testing"

	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient/tools"
)

// noop does nothing: the benchmarks measure what the wrapper costs when
// nothing fails. "idempotent-repeat" calls an idempotent tool with the same
// input each time: after the first, every call returns the stored result.
var noop = tools.Func("noop", "does nothing", func(context.Context, string) (string, error) { return "ok", nil })

func BenchmarkTool(b *testing.B) {
	ctx := context.Background()
	cases := []struct {
		name string
		tool lctools.Tool
	}{
		{"bare", noop},
		{"wrapped", mustWrap(b, noop)},
		{"idempotent-repeat", mustWrap(b, noop, tools.Idempotent(nil))},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = c.tool.Call(ctx, `{"order":"4471"}`)
			}
		})
		b.Run(c.name+"/parallel", func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					_, _ = c.tool.Call(ctx, `{"order":"4471"}`)
				}
			})
		})
	}
}
