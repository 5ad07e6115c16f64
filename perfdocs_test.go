package resilient_test

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"sync/atomic"
	"testing"

	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/tools"
)

// TestPerformanceTablesAllocs keeps the allocation counts that
// docs/performance.md publishes for a model and a tool call, a call
// through a pool of thirty members and an idempotent tool's call with a
// new key equal to what the calls make, as their benchmarks make them: a
// change that adds or saves an allocation fails here until the tables are
// regenerated (go generate .).
func TestPerformanceTablesAllocs(t *testing.T) {
	ctx := context.Background()
	model := resilient.Model(newNoopModel())
	var inner lctools.Tool = noopTool{}
	tool := resilient.Tool(inner)
	ms := make([]middleware.Member, 30)
	for i := range ms {
		ms[i] = middleware.Member{Name: fmt.Sprintf("m%d", i)}
	}
	pool, err := middleware.New[string]("test-target", middleware.Members(ms...))
	if err != nil {
		t.Fatal(err)
	}
	noop := func(context.Context, middleware.State) (string, error) { return "ok", nil }
	once, err := tools.New(tools.Func("noop", "does nothing", func(context.Context, string) (string, error) { return "ok", nil }),
		tools.Idempotent(nil))
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	newKey := func() { _, _ = once.Call(ctx, `{"order":"`+strconv.FormatInt(n.Add(1), 10)+`"}`) }
	for range tools.DefaultMaxRecords + 1000 {
		newKey() // as in the benchmark's rounds, the store at its bound: each new record evicts the oldest
	}
	calls := map[string]func(){
		"Model/run=serial/impl=resilient":       func() { _, _ = model.GenerateContent(ctx, prompt) },
		"Tool/run=serial/impl=resilient":        func() { _, _ = tool.Call(ctx, `{"order":4471}`) },
		"Pool/calls=serial/target=pool30":       func() { _, _ = pool.Do(ctx, noop) },
		"Idempotent/run=serial/tool=idempotent": newKey, // a new key each time, as BenchmarkIdempotent's

	}
	for _, path := range []string{"docs/performance.md"} {
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for name, call := range calls {
			published, ok := tableAllocs(string(text), name)
			if !ok {
				t.Errorf("%s: no row for %s", path, name)
				continue
			}
			if got := testing.AllocsPerRun(100, call); got != published {
				t.Errorf("%s: %s makes %v allocations per call, the table says %v: regenerate it", path, name, got, published)
			}
		}
	}
}

// tableAllocs returns the allocs/op column of benchmark name's row in a
// table that benchrounds wrote.
func tableAllocs(text, name string) (float64, bool) {
	row := regexp.MustCompile("(?m)^\\| `" + regexp.QuoteMeta(name) + "` \\|[^|]*\\|[^|]*\\| ([0-9.]+) \\|")
	m := row.FindStringSubmatch(text)
	if m == nil {
		return 0, false
	}
	n, err := strconv.ParseFloat(m[1], 64)
	return n, err == nil
}
