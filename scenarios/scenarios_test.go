package main

import (
	"fmt"
	"testing"
)

// The counts of scenarios 5, 7 and 8 do not depend on timing: CI pins them.

func TestNestedLayersRequests(t *testing.T) {
	ps := nestedPolicies()
	want := []int{1, 9, 27, 3} // no retry; the stacked layers' 3 x 3; failsafe-go 3 x 3 around openai-go's 3; resilient
	if len(ps) != len(want) {
		t.Fatalf("%d policies, want %d", len(ps), len(want))
	}
	for i, p := range ps {
		t.Run(p.Name, func(t *testing.T) {
			t.Parallel()
			r, err := nestedRequests(p)
			if err != nil {
				t.Fatal(err)
			}
			if r.requests != want[i] || r.ok {
				t.Errorf("requests, succeeded = %d, %v; want %d, false", r.requests, r.ok, want[i])
			}
		})
	}
}

func TestToolExecutions(t *testing.T) {
	const calls = 3
	want := map[string]int64{
		"the tool as is":             2 * calls,
		"resilient.Tool":             2 * calls,
		"resilient.Tool, Idempotent": calls,
		"resilient.Tool, Idempotent; the two calls concurrent": calls,
	}
	for _, tc := range toolCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, err := runTool(tc, calls)
			if err != nil {
				t.Fatal(err)
			}
			if r.executions != want[tc.name] {
				t.Errorf("executions = %d; want %d", r.executions, want[tc.name])
			}
		})
	}
}

// findRuns returns the first n run numbers whose script satisfies want.
func findRuns(t *testing.T, n int, want func(agentScript) bool) []int {
	t.Helper()
	var runs []int
	for run := 0; len(runs) < n; run++ {
		if run == 100000 {
			t.Fatalf("fewer than %d runs of the first %d meet the condition", n, run)
		}
		if want(newScript(run)) {
			runs = append(runs, run)
		}
	}
	return runs
}

// cutAtStart: the run's first request is a stream that ends cleanly after
// its first chunk. Taken for the answer, it is a misleading success.
func cutAtStart(s agentScript) bool {
	return modelFault(primarySeed, stepReply(s, 0, 0).key(), 0) == faultCleanCut
}

// chargedThenFailed: the run's payment charges the card, then fails (its
// reply lost, or a hang), and nothing the model or the tools do before it
// fails for good. Retried blindly, it charges twice.
func chargedThenFailed(s agentScript) bool {
	for _, step := range s.steps {
		for _, c := range step {
			fault := toolFaultOf(primarySeed, c.tool, c.input, 0, 0)
			if c.tool == "charge_card" {
				return fault == toolFailedAfter || fault == toolHung
			}
			if fault == toolRejected {
				return false
			}
		}
	}
	return false
}

// failedBesideAnother: the run's payment fails before charging, in a step
// that makes another call after it, and nothing before it is rejected.
// The executor writes the two calls back as messages of their own: a model
// that read the last alone took the step for done and answered "paid"
// with the order never charged.
func failedBesideAnother(s agentScript) bool {
	for _, step := range s.steps {
		for i, c := range step {
			fault := toolFaultOf(primarySeed, c.tool, c.input, 0, 0)
			if c.tool == "charge_card" {
				return fault == toolFailed && i < len(step)-1
			}
			if fault == toolRejected {
				return false
			}
		}
	}
	return false
}

// The runs whose first request is cut cleanly, those whose payment fails
// after charging, and one whose payment fails beside another call, through
// every policy: the library's rows must neither return a cut stream as the
// answer, nor charge twice, nor answer "paid" for an order never charged
// (a misleading success: every completed run's order is charged exactly
// once), where the baselines do.
func TestAgentRunsInvariants(t *testing.T) {
	cut, charged := findRuns(t, 2, cutAtStart), findRuns(t, 2, chargedThenFailed)
	runs := append(append(append([]int{0, 1, 2, 3}, cut...), charged...), findRuns(t, 1, failedBesideAnother)...)
	ps := agentPolicies()
	res, err := measure(ps, true, func(p Policy) (agentResult, error) { return runAgents(p, runs) })
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]agentStats{}
	dups := map[string]int{}
	for i, p := range ps {
		st := res[i].stats(1)
		byName[p.Name], dups[p.Name] = st, res[i].duplicates
		if p.Library && (st.misleading != 0 || res[i].duplicates != 0) {
			t.Errorf("%s over runs %v: %d misleading successes, %d duplicated payments; want 0, 0 (failures: %s)",
				p.Name, runs, st.misleading, res[i].duplicates, formatReasons(st.causes))
		}
	}
	// The faults are there: taken as they come, they mislead and double-charge.
	if got := byName[noRetryPolicy().Name].misleading; got < len(cut) {
		t.Errorf("no retry: %d misleading successes over runs %v, want at least %d (the runs cut at the start: %v)",
			got, runs, len(cut), cut)
	}
	if got := dups[failsafePolicy().Name]; got < 1 {
		t.Errorf("%s: %d duplicated payments over runs %v, want at least 1 (the runs charged, then failed: %v)",
			failsafePolicy().Name, got, runs, charged)
	}
	if testing.Verbose() {
		for i, p := range ps {
			st := res[i].stats(1)
			fmt.Printf("%s: completed %d, misleading %d, duplicates %d, failures %s\n",
				p.Name, st.completed, st.misleading, res[i].duplicates, formatReasons(st.causes))
		}
	}
}
