package main

import "testing"

const output = `goos: linux
BenchmarkStream/format=openai/body=raw-2     	     200	    207556 ns/op	14064.51 MB/s	    195310 cpu-ns/op	    5328 B/op	      13 allocs/op
BenchmarkStream/format=openai/body=watched-2 	     200	    325220 ns/op	8976.00 MB/s	    3.0397e+05 cpu-ns/op	    6305 B/op	      17 allocs/op
BenchmarkOther-2                             	    1000	      1500 ns/op
PASS
`

// -metric picks the value compared per operation; a benchmark that does
// not report it is left out.
func TestParseReadsTheMetric(t *testing.T) {
	for _, tt := range []struct {
		metric   string
		raw, wat float64
		other    bool
	}{
		{"ns/op", 207556, 325220, true},
		{"cpu-ns/op", 195310, 303970, false},
	} {
		m := parse([]byte(output), tt.metric)
		raw, wat := m["BenchmarkStream/format=openai/body=raw"], m["BenchmarkStream/format=openai/body=watched"]
		if raw.ns != tt.raw || wat.ns != tt.wat || raw.bytes != 5328 || wat.allocs != 17 {
			t.Errorf("%s: got raw %+v, watched %+v; want %v and %v per op", tt.metric, raw, wat, tt.raw, tt.wat)
		}
		if _, ok := m["BenchmarkOther"]; ok != tt.other {
			t.Errorf("%s: BenchmarkOther parsed %v, want %v", tt.metric, ok, tt.other)
		}
	}
}
