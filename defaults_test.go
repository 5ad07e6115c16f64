package resilient_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/pool"
	"github.com/resilientgo/resilient/resilienthttp"
	"github.com/resilientgo/resilient/resilientmcp"
	"github.com/resilientgo/resilient/resilientotel"
	"github.com/resilientgo/resilient/resilientredis"
	"github.com/resilientgo/resilient/run"
	"github.com/resilientgo/resilient/status"
	"github.com/resilientgo/resilient/tools"
)

// defaults holds the value of every exported Default* constant of the
// library, for TestDefaultsInDocsMatchTheConstants. The test fails when a
// package declares one that is missing here.
var defaults = map[string]any{
	"middleware.DefaultMaxAttempts":         middleware.DefaultMaxAttempts,
	"middleware.DefaultRateLimitedAttempts": middleware.DefaultRateLimitedAttempts,
	"middleware.DefaultUnknownAttempts":     middleware.DefaultUnknownAttempts,
	"middleware.DefaultBaseDelay":           middleware.DefaultBaseDelay,
	"middleware.DefaultMaxDelay":            middleware.DefaultMaxDelay,
	"middleware.DefaultRetryAfterCap":       middleware.DefaultRetryAfterCap,
	"middleware.DefaultTimeout":             middleware.DefaultTimeout,
	"middleware.DefaultMaxAbandoned":        middleware.DefaultMaxAbandoned,
	"middleware.DefaultPastLimitAttempts":   middleware.DefaultPastLimitAttempts,
	"breaker.DefaultFailures":               breaker.DefaultFailures,
	"breaker.DefaultDelay":                  breaker.DefaultDelay,
	"breaker.DefaultMaxHold":                breaker.DefaultMaxHold,
	"run.DefaultRetryBudget":                run.DefaultRetryBudget,
	"breaker.DefaultRetryThrottle":          breaker.DefaultRetryThrottle,
	"pool.DefaultWeight":                    pool.DefaultWeight,
	"llms.DefaultFirstChunkTimeout":         llms.DefaultFirstChunkTimeout,
	"llms.DefaultStreamIdleTimeout":         llms.DefaultStreamIdleTimeout,
	"tools.DefaultTimeout":                  tools.DefaultTimeout,
	"tools.DefaultLease":                    tools.DefaultLease,
	"tools.DefaultResultTTL":                tools.DefaultResultTTL,
	"tools.DefaultMaxClaim":                 tools.DefaultMaxClaim,
	"tools.DefaultBreakerFailures":          tools.DefaultBreakerFailures,
	"tools.DefaultBreakerDelay":             tools.DefaultBreakerDelay,
	"tools.DefaultMaxRecords":               tools.DefaultMaxRecords,
	"run.DefaultRepeatLimit":                run.DefaultRepeatLimit,
	"resilientredis.DefaultTimeout":         resilientredis.DefaultTimeout,
	"resilientredis.DefaultPollInterval":    resilientredis.DefaultPollInterval,
	"resilientredis.DefaultStorePrefix":     resilientredis.DefaultStorePrefix,
	"resilientredis.DefaultLimiterPrefix":   resilientredis.DefaultLimiterPrefix,
	"resilientredis.DefaultBreakerPrefix":   resilientredis.DefaultBreakerPrefix,
	"resilientredis.DefaultSemaphorePrefix": resilientredis.DefaultSemaphorePrefix,
	"resilientredis.DefaultLease":           resilientredis.DefaultLease,
	"resilientotel.DefaultMaxBreakers":      resilientotel.DefaultMaxBreakers,
	"resilientmcp.DefaultServerLogLevel":    resilientmcp.DefaultServerLogLevel,
	"resilienthttp.DefaultMaxBody":          resilienthttp.DefaultMaxBody,
	"status.DefaultMaxEntries":              status.DefaultMaxEntries,
}

// Every default written in a doc comment ("Default: 30 s ([DefaultTimeout])")
// names the constant that holds it, and says its value: each number of a
// "Default:" sentence in the doc of an exported identifier is followed, before
// the next number, by a reference to a Default* constant of that value (a
// duration for a duration, a count for a count); a quoted string followed at
// once by a reference must be the string constant's value. Zero needs no
// constant. So a default changed in the code and not in its docs, or the
// reverse, fails here.
func TestDefaultsInDocsMatchTheConstants(t *testing.T) {
	declared := map[string]bool{}
	checked := 0
	for _, dir := range libraryDirs(t) {
		fset := token.NewFileSet()
		for _, file := range goFiles(t, dir) {
			f, err := parser.ParseFile(fset, file, nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			pkg := f.Name.Name
			for _, name := range defaultConsts(f) {
				declared[pkg+"."+name] = true
				if _, ok := defaults[pkg+"."+name]; !ok {
					t.Errorf("%s: %s.%s is not in the defaults table of defaults_test.go: add it", file, pkg, name)
				}
			}
			for _, d := range exportedDocs(f) {
				for _, sentence := range defaultSentences(d.text) {
					checked++
					for _, problem := range checkDefault(pkg, sentence) {
						t.Errorf("%s: %s: %q: %s", fset.Position(d.pos), d.name, sentence, problem)
					}
				}
			}
		}
	}
	for name := range defaults {
		if !declared[name] {
			t.Errorf("the defaults table names %s, which no package declares", name)
		}
	}
	if checked < 50 {
		t.Errorf("checked %d Default sentences, want the library's 50 or more: is the scan broken?", checked)
	}
}

// The checker itself, on sentences right and wrong.
func TestCheckDefault(t *testing.T) {
	for _, tc := range []struct {
		pkg, sentence string
		problems      int
	}{
		{"tools", "Default: 30 s ([DefaultTimeout])", 0},
		{"tools", "Default: 30 s (DefaultTimeout)", 0},
		{"tools", "Default: 5 failures ([DefaultBreakerFailures]), 30 s ([DefaultBreakerDelay])", 0},
		{"tools", "Default: 10 000 ([DefaultMaxRecords])", 0},
		{"resilient", "Default: 2 minutes ([middleware.DefaultTimeout]; raise it for long generations)", 0},
		{"middleware", "Default: base 0.5 s ([DefaultBaseDelay]), max 8 s ([DefaultMaxDelay])", 0},
		{"resilientmcp", `Default: "warning" ([DefaultServerLogLevel])`, 0},
		{"llms", `Default: the provider and the model ("openai/gpt-4o"; an embedder "openai/text-embedding-3-small")`, 0},
		{"middleware", "Default: 0", 0},
		{"resilienthttp", "Default: 32 MiB ([DefaultMaxBody])", 0},
		{"resilienthttp", "Default: 32 KiB ([DefaultMaxBody])", 1}, // wrong size
		{"middleware", "Default: discard", 0},
		{"tools", "Default: 31 s ([DefaultTimeout])", 1},                                          // wrong value
		{"tools", "Default: 30 s", 1},                                                             // no constant
		{"tools", "Default: 30 ([DefaultTimeout])", 1},                                            // a count for a duration
		{"tools", "Default: 5 s ([DefaultBreakerFailures])", 1},                                   // a duration for a count
		{"tools", "Default: 5 failures, 30 s ([DefaultBreakerDelay])", 1},                         // the first has none
		{"tools", "Default: 30 s ([NoSuchDefault])", 1},                                           // no such constant
		{"tools", "Default: 5 failures ([DefaultBreakerFailures]), 30 s: why", 1},                 // the second has none
		{"resilientmcp", `Default: "error" ([DefaultServerLogLevel])`, 1},                         // wrong string
		{"middleware", "Default: 3 attempts ([DefaultMaxAttempts]), rate limits 5, unknown 2", 2}, // two without
	} {
		if got := checkDefault(tc.pkg, tc.sentence); len(got) != tc.problems {
			t.Errorf("checkDefault(%q, %q) = %q, want %d problems", tc.pkg, tc.sentence, got, tc.problems)
		}
	}
	got := defaultSentences("Timeout bounds each call. Default: 30 s ([DefaultTimeout]). It must not\nbe negative. Defaults: rate_limited 5, unknown 2.")
	want := []string{"Default: 30 s ([DefaultTimeout])", "Defaults: rate_limited 5, unknown 2"}
	if !slices.Equal(got, want) {
		t.Errorf("defaultSentences: got %q, want %q", got, want)
	}
}

// libraryDirs returns the directories of the library's packages: the
// module's, without examples, internal packages, the scenarios module and
// test data.
func libraryDirs(t *testing.T) []string {
	var dirs []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		switch d.Name() {
		case "examples", "internal", "scenarios", "testdata", "docs", "scripts":
			return filepath.SkipDir
		}
		if path != "." && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(path, "go.mod")); path != "." && err == nil {
			return filepath.SkipDir // a module of its own (resilienteino): its constants are not this module's
		}
		if len(goFiles(t, path)) > 0 {
			dirs = append(dirs, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// goFiles returns the non-test Go files of dir.
func goFiles(t *testing.T, dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range entries {
		if n := e.Name(); strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			files = append(files, filepath.Join(dir, n))
		}
	}
	return files
}

// defaultConsts returns the exported constants of f whose names start
// with Default.
func defaultConsts(f *ast.File) []string {
	var names []string
	for _, decl := range f.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			for _, n := range spec.(*ast.ValueSpec).Names {
				if n.IsExported() && strings.HasPrefix(n.Name, "Default") {
					names = append(names, n.Name)
				}
			}
		}
	}
	return names
}

type docText struct {
	name string
	pos  token.Pos
	text string
}

// exportedDocs returns the doc comments of f's exported declarations, of
// the exported fields and methods of its exported types included.
func exportedDocs(f *ast.File) []docText {
	var docs []docText
	add := func(name string, groups ...*ast.CommentGroup) {
		for _, g := range groups {
			if g != nil {
				docs = append(docs, docText{name: name, pos: g.Pos(), text: g.Text()})
			}
		}
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Name.IsExported() {
				add(d.Name.Name, d.Doc)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if !s.Name.IsExported() {
						continue
					}
					add(s.Name.Name, d.Doc, s.Doc)
					var fields *ast.FieldList
					switch typ := s.Type.(type) {
					case *ast.StructType:
						fields = typ.Fields
					case *ast.InterfaceType:
						fields = typ.Methods
					}
					if fields == nil {
						continue
					}
					for _, field := range fields.List {
						for _, n := range field.Names {
							if n.IsExported() {
								add(s.Name.Name+"."+n.Name, field.Doc, field.Comment)
							}
						}
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							add(n.Name, d.Doc, s.Doc, s.Comment)
							break
						}
					}
				}
			}
		}
	}
	return docs
}

// defaultSentences returns the sentences of text that state a default:
// from "Default:" or "Defaults:" to the end of the sentence.
func defaultSentences(text string) []string {
	text = strings.Join(strings.Fields(text), " ")
	var out []string
	for {
		i := strings.Index(text, "Default:")
		if j := strings.Index(text, "Defaults:"); j >= 0 && (i < 0 || j < i) {
			i = j
		}
		if i < 0 {
			return out
		}
		text = text[i:]
		end := len(text)
		if k := strings.Index(text, ". "); k >= 0 {
			end = k
		}
		out = append(out, strings.TrimSuffix(text[:end], "."))
		text = text[end:]
	}
}

var (
	quoted    = regexp.MustCompile(`"[^"]*"`)
	number    = regexp.MustCompile(`^\d+(\.\d+)?$`)
	thousands = regexp.MustCompile(`^\d{3}$`)
	constRef  = regexp.MustCompile(`^(?:([a-z]+)\.)?(Default[A-Z]\w*)$`)
	timeUnits = map[string]time.Duration{"ms": time.Millisecond, "s": time.Second, "second": time.Second,
		"seconds": time.Second, "min": time.Minute, "minute": time.Minute, "minutes": time.Minute,
		"h": time.Hour, "hour": time.Hour, "hours": time.Hour}
	// sizeUnits scale a count of bytes.
	sizeUnits = map[string]float64{"KiB": 1 << 10, "MiB": 1 << 20}
)

// quantity is a value written in a Default sentence.
type quantity struct {
	text     string
	value    float64 // in nanoseconds when isTime
	isTime   bool
	isString bool
	str      string
}

// checkDefault returns the problems of one Default sentence of package pkg.
func checkDefault(pkg, sentence string) []string {
	var strs []string
	sentence = quoted.ReplaceAllStringFunc(sentence, func(s string) string {
		strs = append(strs, strings.Trim(s, `"`))
		return "\x00" + strconv.Itoa(len(strs)-1)
	})
	words := strings.Fields(sentence)
	var problems []string
	var pending *quantity // a quantity waiting for its constant
	flush := func() {
		if pending != nil && !pending.isString {
			problems = append(problems, pending.text+" names no Default constant")
		}
		pending = nil
	}
	for i := 0; i < len(words); i++ {
		w := strings.Trim(words[i], "([]):;,.")
		switch {
		case strings.HasPrefix(w, "\x00"):
			flush()
			n, _ := strconv.Atoi(w[1:])
			pending = &quantity{text: strconv.Quote(strs[n]), isString: true, str: strs[n]}
			if i+1 >= len(words) || !constRef.MatchString(strings.Trim(words[i+1], "([]):;,.")) {
				pending = nil // a quoted example, not a value
			}
		case number.MatchString(w):
			flush()
			text := w
			for i+1 < len(words) && thousands.MatchString(strings.TrimRight(words[i+1], "),.;:")) {
				i++
				w += strings.TrimRight(words[i], "),.;:")
				text += " " + strings.TrimRight(words[i], "),.;:")
			}
			v, _ := strconv.ParseFloat(w, 64)
			q := &quantity{text: text, value: v}
			if i+1 < len(words) {
				if unit, ok := timeUnits[strings.Trim(words[i+1], "(),.;:")]; ok {
					q.isTime, q.value = true, v*float64(unit)
					q.text += " " + strings.Trim(words[i+1], "(),.;:")
					i++
				} else if unit, ok := sizeUnits[strings.Trim(words[i+1], "(),.;:")]; ok {
					q.value *= unit
					q.text += " " + strings.Trim(words[i+1], "(),.;:")
					i++
				}
			}
			if v != 0 {
				pending = q
			}
		case constRef.MatchString(w):
			m := constRef.FindStringSubmatch(w)
			name := m[2]
			if m[1] != "" {
				name = m[1] + "." + name
			} else {
				name = pkg + "." + name
			}
			value, ok := defaults[name]
			if !ok {
				continue // a function such as tools.DefaultKey, or a misspelt name
			}
			if pending != nil {
				if problem := pending.mismatch(value); problem != "" {
					problems = append(problems, pending.text+" is not "+name+": "+problem)
				}
				pending = nil
			}
		}
	}
	flush()
	return problems
}

// mismatch says how q differs from the constant's value, "" if it does not.
func (q *quantity) mismatch(value any) string {
	switch v := value.(type) {
	case time.Duration:
		if !q.isTime {
			return "the constant is a duration (" + v.String() + ")"
		}
		if time.Duration(q.value) != v {
			return "the constant is " + v.String()
		}
	case int:
		if q.isTime || q.isString {
			return "the constant is a count (" + strconv.Itoa(v) + ")"
		}
		if q.value != float64(v) {
			return "the constant is " + strconv.Itoa(v)
		}
	case string:
		if !q.isString || q.str != v {
			return "the constant is " + strconv.Quote(v)
		}
	}
	return ""
}
