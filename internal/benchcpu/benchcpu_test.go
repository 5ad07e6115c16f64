package benchcpu

import (
	"runtime"
	"testing"
	"time"
)

// A benchmark that burns CPU reports about as much CPU time per operation
// as wall time; one that sleeps reports far less.
func TestStartReportsTheCPUTimePerOperation(t *testing.T) {
	if _, ok := processCPU(); !ok {
		t.Skip("no process CPU time on " + runtime.GOOS)
	}
	var sink uint64
	busy := testing.Benchmark(func(b *testing.B) {
		stop := Start(b)
		for b.Loop() {
			for i := range 200_000 {
				sink += uint64(i) * uint64(i)
			}
		}
		stop()
	})
	cpu, ok := busy.Extra[Metric]
	if !ok || cpu <= 0 {
		t.Fatalf("no %s reported: %v", Metric, busy.Extra)
	}
	if wall := float64(busy.NsPerOp()); cpu > 3*wall {
		t.Errorf("%s = %.0f for a loop of %.0f ns/op on one goroutine", Metric, cpu, wall)
	}
	_ = sink

	idle := testing.Benchmark(func(b *testing.B) {
		stop := Start(b)
		for b.Loop() {
			time.Sleep(time.Millisecond)
		}
		stop()
	})
	if cpu, wall := idle.Extra[Metric], float64(idle.NsPerOp()); cpu > wall/2 {
		t.Errorf("%s = %.0f for a sleep of %.0f ns/op", Metric, cpu, wall)
	}
}
