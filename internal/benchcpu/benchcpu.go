// Package benchcpu reports the CPU time a benchmark's process spends per
// operation, as the metric "cpu-ns/op", next to the wall time that
// go test reports.
//
// On a machine shared with other work, wall time per operation grows with
// the load (a benchmark waiting for a CPU is still timed), while CPU time
// does not: it counts only what the process ran, on every thread (the
// goroutines a benchmark starts, the garbage collector). Compare variants
// by it with benchrounds -metric cpu-ns/op.
package benchcpu

import "testing"

// Metric is the unit of the reported metric.
const Metric = "cpu-ns/op"

// Start reads the process's CPU time and returns the function that, called
// after the benchmark's loop, reports the CPU time spent since per
// operation. Where the CPU time cannot be read (outside Unix) it reports
// nothing.
//
//	stop := benchcpu.Start(b)
//	for b.Loop() { ... }
//	stop()
func Start(b *testing.B) (stop func()) {
	start, ok := processCPU()
	return func() {
		end, ok2 := processCPU()
		if ok && ok2 && b.N > 0 {
			b.ReportMetric(float64(end-start)/float64(b.N), Metric)
		}
	}
}
