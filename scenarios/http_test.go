package main

import (
	"slices"
	"testing"
)

// faultsBefore counts the faults drawn for step s of script before its
// first answer.
func faultsBefore(script agentScript, s int) int {
	key := stepReply(script, s, 0).key()
	n := 0
	for httpFault(key, n) != "" {
		n++
	}
	return n
}

// inBandFirst: the run's first request draws an in-band error event.
func inBandFirst(s agentScript) bool { return httpFault(stepReply(s, 0, 0).key(), 0) == faultInBand }

// The loop over runs whose first request is an in-band error event, and a
// few others: openai-go's own retry cannot see the error event, the
// library retries it; and the library makes exactly one request per step
// and per fault drawn, the SDK's retries, left on, adding none.
func TestHTTPLoopRuns(t *testing.T) {
	inBand := findRuns(t, 2, inBandFirst)
	runs := append([]int(nil), inBand...)
	for run := 0; len(runs) < 6; run++ {
		if !slices.Contains(runs, run) {
			runs = append(runs, run)
		}
	}
	want := 0
	for _, run := range runs {
		s := newScript(run)
		for step := range s.modelSteps() {
			f := faultsBefore(s, step)
			if f >= 3 {
				t.Fatalf("run %d step %d draws %d faults in a row: pick other runs", run, step, f)
			}
			want += f + 1
		}
	}
	ps := loopPolicies()
	for _, p := range ps {
		res, err := runLoops(p, runs)
		if err != nil {
			t.Fatal(err)
		}
		failed := map[int]bool{}
		for _, r := range res.runs {
			if !r.completed() {
				failed[r.script.run] = true
			}
		}
		switch p.name {
		case openaiGo.name():
			for _, run := range inBand {
				if !failed[run] {
					t.Errorf("%s: run %d, whose first stream is an error event, completed; want it failed", p.name, run)
				}
			}
		case "openai-go + resilienthttp":
			if len(failed) != 0 || res.requests != want {
				t.Errorf("%s: runs %v failed, %d requests; want none failed, %d requests", p.name, failed, res.requests, want)
			}
		}
	}
}
