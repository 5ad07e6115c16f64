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
//	go run ./internal/cmd/benchrounds -pkg ./middleware -bench 'Noop' -base impl=failsafe -rounds 10
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
	pkg := flag.String("pkg", ".", "package whose benchmarks to run")
	bench := flag.String("bench", ".", "benchmark regular expression (-test.bench)")
	base := flag.String("base", "impl=bare", "the baseline component: key=value, or a last component's name")
	rounds := flag.Int("rounds", 10, "number of interleaved rounds")
	benchtime := flag.String("benchtime", "", "-test.benchtime for each round (default: go test's)")
	cpu := flag.String("cpu", "", "-test.cpu for each round")
	raw := flag.String("raw", "", "also write the raw benchmark output to this file")
	flag.Parse()

	key, _, _ := strings.Cut(*base, "=")
	dir, err := os.MkdirTemp("", "benchrounds")
	if err != nil {
		fail("%v", err)
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "bench.test")
	build := exec.Command("go", "test", "-c", "-o", bin, *pkg)
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fail("building %s: %v", *pkg, err)
	}
	abs, _ := filepath.Abs(*pkg)

	var all bytes.Buffer
	samples := map[string][]sample{} // name -> one sample per round
	for r := 0; r < *rounds; r++ {
		args := []string{"-test.run", "^$", "-test.bench", *bench, "-test.benchmem", "-test.count", "1"}
		if *benchtime != "" {
			args = append(args, "-test.benchtime", *benchtime)
		}
		if *cpu != "" {
			args = append(args, "-test.cpu", *cpu)
		}
		cmd := exec.Command(bin, args...)
		cmd.Dir = abs // tests read testdata relative to their package
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			fail("round %d: %v\n%s", r+1, err, out)
		}
		all.Write(out)
		for name, s := range parse(out) {
			samples[name] = append(samples[name], s)
		}
		fmt.Fprintf(os.Stderr, "round %d/%d done\n", r+1, *rounds)
	}
	if *raw != "" {
		if err := os.WriteFile(*raw, all.Bytes(), 0o644); err != nil {
			fail("%v", err)
		}
	}

	names := make([]string, 0, len(samples))
	for n := range samples {
		names = append(names, n)
	}
	slices.Sort(names)
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "benchmark\tmedian ns/op\tB/op\tallocs/op\tratio to "+*base+"\trange\trounds\t")
	for _, n := range names {
		ss := samples[n]
		ns := median(pick(ss, func(s sample) float64 { return s.ns }))
		line := fmt.Sprintf("%s\t%s\t%.0f\t%.0f\t", n, human(ns),
			median(pick(ss, func(s sample) float64 { return s.bytes })),
			median(pick(ss, func(s sample) float64 { return s.allocs })))
		if b := baseline(n, key, *base); b != "" && b != n && len(samples[b]) == len(ss) {
			ratios := make([]float64, len(ss))
			for i := range ss {
				ratios[i] = ss[i].ns / samples[b][i].ns
			}
			slices.Sort(ratios)
			line += fmt.Sprintf("%.2fx\t%.2f–%.2f\t%d\t", median(ratios), ratios[0], ratios[len(ratios)-1], len(ss))
		} else {
			line += "\t\t" + strconv.Itoa(len(ss)) + "\t"
		}
		fmt.Fprintln(w, line)
	}
	w.Flush()
}

type sample struct{ ns, bytes, allocs float64 }

var lineRE = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op(?:.*?\s([\d.]+) B/op)?(?:.*?\s([\d.]+) allocs/op)?`)

func parse(out []byte) map[string]sample {
	m := map[string]sample{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		g := lineRE.FindStringSubmatch(sc.Text())
		if g == nil {
			continue
		}
		f := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
		m[g[1]] = sample{ns: f(g[2]), bytes: f(g[3]), allocs: f(g[4])}
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
