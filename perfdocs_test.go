package resilient_test

import (
	"context"
	"os"
	"regexp"
	"strconv"
	"testing"

	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient"
)

// TestPerformanceTablesAllocs keeps the allocation counts that
// docs/performance.md publishes for a model and a tool call equal to what
// the calls make: a change that adds an allocation fails here until the
// tables are regenerated (go generate .).
func TestPerformanceTablesAllocs(t *testing.T) {
	ctx := context.Background()
	model := resilient.Model(newNoopModel())
	var inner lctools.Tool = noopTool{}
	tool := resilient.Tool(inner)
	calls := map[string]func(){
		"Model/run=serial/impl=resilient": func() { _, _ = model.GenerateContent(ctx, prompt) },
		"Tool/run=serial/impl=resilient":  func() { _, _ = tool.Call(ctx, `{"order":4471}`) },
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
