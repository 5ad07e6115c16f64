package tools_test

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient/internal/benchcpu"
	"github.com/resilientgo/resilient/run"
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
			stop := benchcpu.Start(b)
			for b.Loop() {
				_, _ = c.tool.Call(ctx, `{"order":"4471"}`)
			}
			stop()
		})
		b.Run(c.name+"/parallel", func(b *testing.B) {
			b.ReportAllocs()
			stop := benchcpu.Start(b)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					_, _ = c.tool.Call(ctx, `{"order":"4471"}`)
				}
			})
			stop()
		})
	}
}

// BenchmarkRepeatKey measures what a Run adds to a tool call: the repeat
// counter hashes the input (a plain tool) or reuses the idempotency key
// (an idempotent tool, whose repeats return the stored result). The run
// has no repeat limit to reach, so every call is counted and runs. Compare
// run=yes with run=none:
//
//	go run ./internal/cmd/benchrounds -pkg ./tools -bench RepeatKey -base run=none -rounds 10
//
// It reports its process CPU time per call too (-metric cpu-ns/op).
func BenchmarkRepeatKey(b *testing.B) {
	for _, size := range []int{1 << 10, 100 << 10} {
		input := jsonOfSize(size)
		for _, tool := range []struct {
			name string
			opts []tools.Option
		}{
			{"plain", nil},
			{"idempotent", []tools.Option{tools.Idempotent(nil)}},
		} {
			w := mustWrap(b, noop, tool.opts...)
			for _, run := range []struct {
				name string
				ctx  context.Context
			}{
				{"none", context.Background()},
				{"yes", run.New(context.Background(), run.RepeatLimit(math.MaxInt))},
			} {
				b.Run(fmt.Sprintf("tool=%s/size=%dKB/run=%s", tool.name, size>>10, run.name), func(b *testing.B) {
					b.ReportAllocs()
					stop := benchcpu.Start(b)
					for b.Loop() {
						if _, err := w.Call(run.ctx, input); err != nil {
							b.Fatal(err)
						}
					}
					stop()
				})
			}
		}
	}
}

// jsonOfSize returns a JSON object of about n bytes, like the arguments a
// model writes for a tool that takes a document.
func jsonOfSize(n int) string {
	var b strings.Builder
	b.WriteString(`{"title":"notes","lines":[`)
	for i := 0; b.Len() < n-20; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"n":%d,"text":"line %d of the document"}`, i, i)
	}
	b.WriteString(`]}`)
	return b.String()
}

// BenchmarkRunLimits measures a tool call under a run without limits
// (run=plain, the baseline) and under a run with a token budget, a request
// limit and a tool call limit, none of them reached (run=limits): the call
// takes its place in the tool call limit before it starts. Compare with
// benchrounds, base run=plain (see docs/performance.md).
func BenchmarkRunLimits(b *testing.B) {
	w := mustWrap(b, noop)
	for _, run := range []struct {
		name string
		ctx  context.Context
	}{
		{"plain", run.New(context.Background(), run.RepeatLimit(math.MaxInt))},
		{"limits", run.New(context.Background(), run.RepeatLimit(math.MaxInt), run.TokenBudget(math.MaxInt),
			run.RequestLimit(math.MaxInt), run.ToolCallLimit(math.MaxInt))},
	} {
		b.Run("run="+run.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := w.Call(run.ctx, `{"order":4471}`); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkIdempotent measures an idempotent tool's call with a key it has
// not seen (tool=idempotent: claimed, run, completed in the default
// MemoryStore) against the same call of a plain wrapped tool
// (tool=plain, the baseline), each input a new one:
//
//	go run ./internal/cmd/benchrounds -pkg ./tools -bench Idempotent -base tool=plain -rounds 10 -metric cpu-ns/op
func BenchmarkIdempotent(b *testing.B) {
	for _, run := range []string{"serial", "parallel"} {
		for _, tool := range []struct {
			name string
			opts []tools.Option
		}{
			{"plain", nil},
			{"idempotent", []tools.Option{tools.Idempotent(nil)}},
		} {
			w := mustWrap(b, noop, tool.opts...)
			var n atomic.Int64
			call := func() {
				input := `{"order":"` + strconv.FormatInt(n.Add(1), 10) + `"}`
				if out, err := w.Call(context.Background(), input); err != nil || out != "ok" {
					b.Fatal(out, err)
				}
			}
			b.Run("run="+run+"/tool="+tool.name, func(b *testing.B) {
				b.ReportAllocs()
				stop := benchcpu.Start(b)
				defer stop()
				if run == "serial" {
					for b.Loop() {
						call()
					}
					return
				}
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						call()
					}
				})
			})
		}
	}
}
