package resilient_test

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// docs/architecture.md is the one source of truth for the layout of this
// repository: its table of packages gives each package a layer, its table
// of layers says what each layer may import, its table of modules gives
// each go.mod its go line, and its import graph is generated from the
// code. The tests below read those tables and fail when the code no
// longer matches them. After a change to the imports, regenerate the
// graph with
//
//	go test -run '^TestImportGraphInDocs$' . -update-architecture

var updateArchitecture = flag.Bool("update-architecture", false, "rewrite the import graph of docs/architecture.md from the code")

const (
	architectureDoc = "docs/architecture.md"
	modulePath      = "github.com/resilientgo/resilient"
	graphBegin      = "<!-- importgraph:begin"
	graphEnd        = "<!-- importgraph:end -->"
)

// TestImportRules fails when a package imports what the layers of
// docs/architecture.md forbid: a package of the repository from a layer
// its own may not import, or a module outside the standard library that
// its layer does not name. A package missing from the table of packages,
// or a row naming no package, fails too.
func TestImportRules(t *testing.T) {
	arch := readArchitecture(t)
	pkgs := repositoryPackages(t)
	for _, p := range pkgs {
		layer, ok := arch.layerOf(p.name)
		if !ok {
			t.Errorf("package %s is in no row of the table of packages of %s: add a row with its layer and its job", p.name, architectureDoc)
			continue
		}
		rule := arch.layers[layer]
		for _, imp := range p.imports {
			if dep, ours := strings.CutPrefix(imp+"/", modulePath+"/"); ours {
				dep = shortName(strings.TrimSuffix(dep, "/"))
				depLayer, ok := arch.layerOf(dep)
				if !ok {
					continue // reported as a package of its own
				}
				if !rule.any && !slices.Contains(rule.mayImport, depLayer) {
					t.Errorf("%s (layer %s) imports %s (layer %s): the layer %s may import from %s (%s)",
						p.name, layer, dep, depLayer, layer, orNothing(rule.mayImportText), architectureDoc)
				}
				continue
			}
			if isStandard(imp) || rule.anyOutside {
				continue
			}
			if !slices.ContainsFunc(rule.outside, func(m string) bool { return imp == m || strings.HasPrefix(imp, m+"/") }) {
				t.Errorf("%s (layer %s) imports %s: the layer %s may import outside the standard library from %s (%s)",
					p.name, layer, imp, layer, orNothing(rule.outsideText), architectureDoc)
			}
		}
	}
	for _, row := range arch.packages {
		if strings.HasSuffix(row.pattern, "/...") {
			continue
		}
		if !slices.ContainsFunc(pkgs, func(p pkg) bool { return p.name == row.pattern }) {
			t.Errorf("%s names package %s, which does not exist: remove or rename its row", architectureDoc, row.pattern)
		}
	}
}

// TestImportGraphInDocs fails when the import graph written in
// docs/architecture.md is not the one of the code.
func TestImportGraphInDocs(t *testing.T) {
	arch := readArchitecture(t)
	graph := arch.graph(repositoryPackages(t))
	doc, err := os.ReadFile(architectureDoc)
	if err != nil {
		t.Fatal(err)
	}
	begin := strings.Index(string(doc), graphBegin)
	end := strings.Index(string(doc), graphEnd)
	if begin < 0 || end < begin {
		t.Fatalf("%s has no %q ... %q section", architectureDoc, graphBegin, graphEnd)
	}
	begin += strings.Index(string(doc[begin:]), "\n") + 1
	if got := string(doc[begin:end]); got != graph {
		if *updateArchitecture {
			updated := string(doc[:begin]) + graph + string(doc[end:])
			if err := os.WriteFile(architectureDoc, []byte(updated), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("the import graph of %s is not the code's: regenerate it with\n\tgo test -run '^TestImportGraphInDocs$' . -update-architecture\ngot:\n%s\nwant:\n%s", architectureDoc, got, graph)
	}
}

// TestModulesInDocs fails when a go.mod of the repository is missing from
// the table of modules of docs/architecture.md, asks for another Go than
// the table says, or does not require what the table says it keeps out of
// the root module; and when the root module's go.mod names one of those.
func TestModulesInDocs(t *testing.T) {
	arch := readArchitecture(t)
	goLine := regexp.MustCompile(`(?m)^go (\S+)$`)
	found := map[string]bool{}
	requires := func(goMod []byte, module string) bool {
		return regexp.MustCompile(`(?m)^(require )?\s*` + regexp.QuoteMeta(module) + ` v`).Match(goMod)
	}
	root, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && skipDir(path, d) {
			return filepath.SkipDir
		}
		if d.Name() != "go.mod" {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		name := shortName(filepath.ToSlash(filepath.Dir(path)))
		found[name] = true
		m := goLine.FindSubmatch(src)
		row, listed := arch.modules[name]
		switch {
		case !listed:
			t.Errorf("module %s (%s) is in no row of the table of modules of %s: add it, with its go line and why it is a module of its own", name, path, architectureDoc)
			return nil
		case m == nil || string(m[1]) != row.goLine:
			t.Errorf("%s asks for go %s, the table of modules of %s says %s", path, m[1], architectureDoc, row.goLine)
		}
		for _, out := range row.keepsOut {
			if !requires(src, out) {
				t.Errorf("%s does not require %s, which the table of modules of %s says it keeps out of the root module", path, out, architectureDoc)
			}
			if requires(root, out) {
				t.Errorf("the root module's go.mod requires %s, which %s keeps out of it (%s)", out, name, architectureDoc)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name := range arch.modules {
		if !found[name] {
			t.Errorf("%s lists module %s, which has no go.mod: remove its row", architectureDoc, name)
		}
	}
}

// architecture holds the tables of docs/architecture.md.
type architecture struct {
	packages []packageRow
	order    []string // the layers, lowest first
	layers   map[string]layerRule
	modules  map[string]moduleRow // by module directory
}

type moduleRow struct {
	goLine   string
	keepsOut []string // modules the root module must not require
}

type packageRow struct {
	pattern string // a package, or a directory and everything under it ("examples/...")
	layer   string
}

type layerRule struct {
	mayImport     []string // layers of this repository
	any           bool     // any package of the repository
	mayImportText string
	outside       []string // module paths outside the standard library
	anyOutside    bool
	outsideText   string
}

// layerOf returns the layer of the package name: its own row, else the
// longest "dir/..." row that holds it.
func (a architecture) layerOf(name string) (string, bool) {
	best, layer := -1, ""
	for _, row := range a.packages {
		if row.pattern == name {
			return row.layer, true
		}
		if dir, ok := strings.CutSuffix(row.pattern, "/..."); ok && (name == dir || strings.HasPrefix(name, dir+"/")) && len(dir) > best {
			best, layer = len(dir), row.layer
		}
	}
	return layer, best >= 0
}

// graph returns the import graph as docs/architecture.md shows it: one row
// per package of a named row (the programs of "dir/..." rows are left
// out), by layer, then by name, with the packages of this repository it
// imports.
func (a architecture) graph(pkgs []pkg) string {
	var b strings.Builder
	b.WriteString("| layer | package | imports |\n|---|---|---|\n")
	for _, layer := range a.order {
		for _, p := range pkgs {
			if l, _ := a.layerOf(p.name); l != layer || !slices.ContainsFunc(a.packages, func(r packageRow) bool { return r.pattern == p.name }) {
				continue
			}
			var deps []string
			for _, imp := range p.imports {
				if dep, ours := strings.CutPrefix(imp+"/", modulePath+"/"); ours {
					deps = append(deps, "`"+shortName(strings.TrimSuffix(dep, "/"))+"`")
				}
			}
			slices.Sort(deps)
			imports := strings.Join(deps, ", ")
			if imports == "" {
				imports = "none"
			}
			fmt.Fprintf(&b, "| %s | `%s` | %s |\n", layer, p.name, imports)
		}
	}
	return b.String()
}

// readArchitecture reads the tables of docs/architecture.md, each found
// below the line that names it in an HTML comment.
func readArchitecture(t *testing.T) architecture {
	t.Helper()
	f, err := os.Open(architectureDoc)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tables := map[string][][]string{}
	current := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if name, ok := strings.CutPrefix(line, "<!-- table:"); ok {
			current = strings.TrimSpace(strings.TrimSuffix(name, "-->"))
			continue
		}
		if current == "" {
			continue
		}
		if !strings.HasPrefix(line, "|") {
			if len(tables[current]) > 0 {
				current = ""
			}
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i, c := range cells {
			cells[i] = strings.TrimSpace(c)
		}
		tables[current] = append(tables[current], cells)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	body := func(name string, columns int) [][]string {
		rows := tables[name]
		if len(rows) < 3 {
			t.Fatalf("%s: no table below <!-- table: %s -->", architectureDoc, name)
		}
		for _, r := range rows {
			if len(r) != columns {
				t.Fatalf("%s: table %s: row %q has %d columns, want %d", architectureDoc, name, r, len(r), columns)
			}
		}
		return rows[2:] // past the header and its separator
	}

	a := architecture{layers: map[string]layerRule{}, modules: map[string]moduleRow{}}
	for _, r := range body("layers", 4) {
		layer := r[0]
		rule := layerRule{mayImportText: r[2], outsideText: r[3]}
		switch r[2] {
		case "any":
			rule.any = true
		case "none":
		default:
			rule.mayImport = codeNames(r[2])
		}
		switch r[3] {
		case "any":
			rule.anyOutside = true
		case "none":
		default:
			rule.outside = codeNames(r[3])
		}
		for _, l := range rule.mayImport {
			if _, ok := a.layers[l]; !ok && l != layer {
				t.Errorf("%s: layer %s may import layer %s, which is not below it in the table", architectureDoc, layer, l)
			}
		}
		a.order = append(a.order, layer)
		a.layers[layer] = rule
	}
	for _, r := range body("packages", 3) {
		if _, ok := a.layers[r[1]]; !ok {
			t.Errorf("%s: package %s is in layer %q, which the table of layers does not have", architectureDoc, r[0], r[1])
		}
		for _, p := range codeNames(r[0]) {
			a.packages = append(a.packages, packageRow{pattern: p, layer: r[1]})
		}
	}
	for _, r := range body("modules", 4) {
		names := codeNames(r[0])
		if len(names) != 1 {
			t.Fatalf("%s: table modules: want one module per row, got %q", architectureDoc, r[0])
		}
		a.modules[names[0]] = moduleRow{goLine: r[1], keepsOut: codeNames(r[2])}
	}
	return a
}

// orNothing words a cell of the table of layers for an error message.
func orNothing(cell string) string {
	if cell == "none" {
		return "nothing"
	}
	return cell + " only"
}

// codeNames returns the `quoted` names of a table cell.
func codeNames(cell string) []string {
	var names []string
	for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(cell, -1) {
		names = append(names, m[1])
	}
	return names
}

// pkg is a package of the repository (of any of its modules) and what its
// non-test files import.
type pkg struct {
	name    string // its directory, "resilient" for the root
	imports []string
}

// repositoryPackages returns every package of the repository, modules of
// their own included, read from its files as the build would read them
// here.
func repositoryPackages(t *testing.T) []pkg {
	t.Helper()
	var pkgs []pkg
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if skipDir(path, d) {
			return filepath.SkipDir
		}
		p, err := build.ImportDir(path, 0)
		var none *build.NoGoError
		if errors.As(err, &none) {
			return nil
		}
		if err != nil {
			return err
		}
		pkgs = append(pkgs, pkg{name: shortName(filepath.ToSlash(path)), imports: p.Imports})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(pkgs, func(a, b pkg) int { return strings.Compare(a.name, b.name) })
	return pkgs
}

// skipDir reports whether the walk leaves out the directory: testdata,
// and those the go command ignores.
func skipDir(path string, d fs.DirEntry) bool {
	name := d.Name()
	return path != "." && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_"))
}

// shortName names a package or module by its directory, the root
// "resilient".
func shortName(dir string) string {
	if dir == "." || dir == "" {
		return "resilient"
	}
	return dir
}

// isStandard reports whether the import path is of the standard library
// (its first element has no dot).
func isStandard(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}
