// Command benchrounds measures benchmarks as paired, interleaved rounds and
// reports, for every variant, the median ratio to a baseline variant with its
// range over the rounds.
//
// One test binary is built, then run once per round with -test.count 1, so
// every variant runs in every round under the same machine load; the ratio is
// taken inside each round, and the median and range are over rounds. This is
// how the figures in docs/performance.md are produced: on shared machines a
// single run's medians move by 30-50 %, a paired ratio far less.
//
//	go run ./internal/cmd/benchrounds -pkg ./middleware -bench 'Noop' -base failsafe -rounds 10
//
// With -update, it regenerates instead the tables that markdown files
// publish between markers naming the measurement (see update):
//
//	go run ./internal/cmd/benchrounds -update docs/performance.md
//
// -only REGEXP regenerates only the tables whose marker's flags match.
//
// With -metric cpu-ns/op it compares the process CPU time per operation
// that benchmarks using internal/benchcpu report, instead of wall time: on
// a machine loaded by other work, wall time grows with the load and CPU
// time does not.
//
// With -against REV it compares the code as it is with the code at the git
// revision REV: a second test binary is built from REV (in a temporary
// worktree), both binaries run in every round, in alternating order, and
// every benchmark is reported twice, with a last component code=this and
// code=REV, the baseline:
//
//	go run ./internal/cmd/benchrounds -pkg ./middleware -bench Noop -against main -metric cpu-ns/op
//
// Benchmark names are split at "/" into components; the baseline of a
// benchmark is the benchmark whose name has -base in place of the component
// with the same key (impl=resilient -> impl=failsafe); a -base without "="
// replaces the last component (Noop/pipeline -> Noop/failsafe). Benchmarks
// without a component of that key are reported without a ratio.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

func main() {
	upd := flag.Bool("update", false, "regenerate the tables between benchrounds markers in the files given as arguments")
	only := flag.String("only", "", "with -update: regenerate only the tables whose marker's flags match this regular expression")
	c := options(flag.CommandLine)
	flag.Parse()
	if *upd {
		var re *regexp.Regexp
		if *only != "" {
			var err error
			if re, err = regexp.Compile(*only); err != nil {
				fail("-only: %v", err)
			}
		}
		if err := update(flag.Args(), re); err != nil {
			fail("%v", err)
		}
		return
	}
	res, err := c.measure()
	if err != nil {
		fail("%v", err)
	}
	res.writeText(os.Stdout)
}

// config is one measurement: the flags of a command line.
type config struct {
	pkg, bench, base, benchtime, cpu, raw string
	against                               string // a git revision whose code is the baseline
	metric                                string // compared per operation: ns/op, or one a benchmark reports
	rounds                                int
}

// options defines the measurement's flags on fs and returns where they go.
func options(fs *flag.FlagSet) *config {
	c := &config{}
	fs.StringVar(&c.pkg, "pkg", ".", "package whose benchmarks to run")
	fs.StringVar(&c.bench, "bench", ".", "benchmark regular expression (-test.bench)")
	fs.StringVar(&c.base, "base", "impl=bare", "the baseline component: key=value, or a last component's name")
	fs.IntVar(&c.rounds, "rounds", 10, "number of interleaved rounds")
	fs.StringVar(&c.benchtime, "benchtime", "", "-test.benchtime for each round (default: go test's)")
	fs.StringVar(&c.cpu, "cpu", "", "-test.cpu for each round")
	fs.StringVar(&c.raw, "raw", "", "also write the raw benchmark output to this file")
	fs.StringVar(&c.against, "against", "", "a git revision: compare the code as it is with the code there (the baseline, code=REV; -base is ignored)")
	fs.StringVar(&c.metric, "metric", "ns/op", "the time per operation to compare: ns/op, or a metric the benchmarks report (cpu-ns/op: see internal/benchcpu)")
	return c
}

// result is what the rounds measured: one sample per round of each
// benchmark.
type result struct {
	c       config
	samples map[string][]sample
}

// measure builds the test binary once (twice with -against) and runs it
// once per round.
func (c config) measure() (result, error) {
	dir, err := os.MkdirTemp("", "benchrounds")
	if err != nil {
		return result{}, err
	}
	defer os.RemoveAll(dir)
	abs, _ := filepath.Abs(c.pkg)
	bins := []binary{{path: filepath.Join(dir, "bench.test"), dir: abs}}
	if err := build(bins[0].path, ".", c.pkg); err != nil {
		return result{}, err
	}
	if c.against != "" {
		c.base = "code=" + c.against
		bins[0].suffix = "/code=this"
		old, remove, err := checkout(dir, c.against)
		if err != nil {
			return result{}, err
		}
		defer remove()
		rel, err := relativeToRepo(abs)
		if err != nil {
			return result{}, err
		}
		b := binary{path: filepath.Join(dir, "against.test"), dir: filepath.Join(old, rel), suffix: "/" + c.base}
		if err := build(b.path, old, "./"+filepath.ToSlash(rel)); err != nil {
			return result{}, err
		}
		bins = append(bins, b)
	}

	var all bytes.Buffer
	samples := map[string][]sample{} // name -> one sample per round
	for r := 0; r < c.rounds; r++ {
		args := []string{"-test.run", "^$", "-test.bench", c.bench, "-test.benchmem", "-test.count", "1"}
		if c.benchtime != "" {
			args = append(args, "-test.benchtime", c.benchtime)
		}
		if c.cpu != "" {
			args = append(args, "-test.cpu", c.cpu)
		}
		for i := range bins {
			b := bins[(i+r)%len(bins)] // alternate which runs first
			cmd := exec.Command(b.path, args...)
			cmd.Dir = b.dir // tests read testdata relative to their package
			cmd.Stderr = os.Stderr
			out, err := cmd.Output()
			if err != nil {
				return result{}, fmt.Errorf("round %d: %v\n%s", r+1, err, out)
			}
			all.Write(out)
			for name, s := range parse(out, c.metric) {
				samples[name+b.suffix] = append(samples[name+b.suffix], s)
			}
		}
		fmt.Fprintf(os.Stderr, "round %d/%d done\n", r+1, c.rounds)
	}
	if c.raw != "" {
		if err := os.WriteFile(c.raw, all.Bytes(), 0o644); err != nil {
			return result{}, err
		}
	}
	return result{c: c, samples: samples}, nil
}

// binary is a test binary run in every round: where it runs, and what its
// benchmarks' names get added.
type binary struct {
	path, dir, suffix string
}

// build builds the test binary of pkg, as seen from dir, at path.
func build(path, dir, pkg string) error {
	cmd := exec.Command("go", "test", "-c", "-o", path, pkg)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building %s in %s: %v", pkg, dir, err)
	}
	return nil
}

// checkout puts the tree of revision rev in a detached worktree under dir,
// and returns where, with what removes it.
func checkout(dir, rev string) (string, func(), error) {
	wt := filepath.Join(dir, "against")
	cmd := exec.Command("git", "worktree", "add", "--detach", wt, rev)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", nil, fmt.Errorf("checking out %s: %v", rev, err)
	}
	return wt, func() { _ = exec.Command("git", "worktree", "remove", "--force", wt).Run() }, nil
}

// relativeToRepo returns the path of dir inside its git repository.
func relativeToRepo(dir string) (string, error) {
	out, err := exec.Command("git", "-C", dir, "rev-parse", "--show-prefix").Output()
	if err != nil {
		return "", fmt.Errorf("finding %s in its repository: %v", dir, err)
	}
	rel := strings.TrimSuffix(strings.TrimSpace(string(out)), "/")
	if rel == "" {
		rel = "."
	}
	return filepath.FromSlash(rel), nil
}

// row is one benchmark's line of the table.
type row struct {
	name              string
	ns, bytes, allocs float64 // medians over the rounds
	ratio, lo, hi     float64 // to the baseline: median and range over the rounds; ratio 0 when none
	rounds            int
}

// rows returns the table's lines, by benchmark name.
func (r result) rows() []row {
	key, _, _ := strings.Cut(r.c.base, "=")
	names := make([]string, 0, len(r.samples))
	for n := range r.samples {
		names = append(names, n)
	}
	slices.Sort(names)
	out := make([]row, 0, len(names))
	for _, n := range names {
		ss := r.samples[n]
		rw := row{name: n, rounds: len(ss),
			ns:     median(pick(ss, func(s sample) float64 { return s.ns })),
			bytes:  median(pick(ss, func(s sample) float64 { return s.bytes })),
			allocs: median(pick(ss, func(s sample) float64 { return s.allocs }))}
		if b := baseline(n, key, r.c.base); b != "" && b != n && len(r.samples[b]) == len(ss) {
			ratios := make([]float64, len(ss))
			for i := range ss {
				ratios[i] = ss[i].ns / r.samples[b][i].ns
			}
			slices.Sort(ratios)
			rw.ratio, rw.lo, rw.hi = median(ratios), ratios[0], ratios[len(ratios)-1]
		}
		out = append(out, rw)
	}
	return out
}

// writeText writes the table for a terminal.
func (r result) writeText(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "benchmark\tmedian "+r.c.metric+"\tB/op\tallocs/op\tratio to "+r.c.base+"\trange\trounds\t")
	for _, rw := range r.rows() {
		line := fmt.Sprintf("%s\t%s\t%.0f\t%.0f\t", rw.name, human(rw.ns), rw.bytes, rw.allocs)
		if rw.ratio != 0 {
			line += fmt.Sprintf("%.2fx\t%.2f–%.2f\t%d\t", rw.ratio, rw.lo, rw.hi, rw.rounds)
		} else {
			line += "\t\t" + strconv.Itoa(rw.rounds) + "\t"
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
}

type sample struct{ ns, bytes, allocs float64 }

var lineRE = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op(?:.*?\s([\d.]+) B/op)?(?:.*?\s([\d.]+) allocs/op)?`)

// parse reads the benchmarks' lines; a sample's ns is the value of metric
// (ns/op, or a metric the benchmark reports). A benchmark whose line lacks
// the metric is left out.
func parse(out []byte, metric string) map[string]sample {
	m := map[string]sample{}
	var metricRE *regexp.Regexp
	if metric != "ns/op" {
		metricRE = regexp.MustCompile(`\s([\d.]+(?:e[+-]?\d+)?) ` + regexp.QuoteMeta(metric) + `(?:\s|$)`)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		g := lineRE.FindStringSubmatch(sc.Text())
		if g == nil {
			continue
		}
		f := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
		ns := g[2]
		if metricRE != nil {
			mg := metricRE.FindStringSubmatch(sc.Text())
			if mg == nil {
				continue
			}
			ns = mg[1]
		}
		m[g[1]] = sample{ns: f(ns), bytes: f(g[3]), allocs: f(g[4])}
	}
	return m
}

// baseline returns the name of n's baseline: n with its key=... component
// replaced by base, "" when n has no such component. A base without "=" is
// the last component: BenchmarkNoop/pipeline -> BenchmarkNoop/failsafe.
func baseline(n, key, base string) string {
	parts := strings.Split(n, "/")
	if key == base {
		if len(parts) < 2 {
			return ""
		}
		parts[len(parts)-1] = base
		return strings.Join(parts, "/")
	}
	for i, p := range parts {
		if strings.HasPrefix(p, key+"=") {
			parts[i] = base
			return strings.Join(parts, "/")
		}
	}
	return ""
}

func pick(ss []sample, f func(sample) float64) []float64 {
	v := make([]float64, len(ss))
	for i, s := range ss {
		v[i] = f(s)
	}
	slices.Sort(v)
	return v
}

func median(sorted []float64) float64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

func human(ns float64) string {
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.2f µs", ns/1e3)
	}
	return fmt.Sprintf("%.1f ns", ns)
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "benchrounds: "+format+"\n", args...)
	os.Exit(1)
}
