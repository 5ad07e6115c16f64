package main

import "testing"

// The counts of scenarios 5 and 7 do not depend on timing: CI pins them.

func TestNestedLayersRequests(t *testing.T) {
	want := map[string]int{
		"(a) no retry, 1 layer":           1,
		"(b) seed 000, its 2 layers":      9,
		"(c) SDK loop in 3 layers":        27,
		"(d) resilient.Model in 3 layers": 3,
	}
	for _, p := range nestedPolicies() {
		t.Run(p.Name, func(t *testing.T) {
			t.Parallel()
			r, err := nestedRequests(p)
			if err != nil {
				t.Fatal(err)
			}
			if r.requests != want[p.Name] || r.ok {
				t.Errorf("requests, succeeded = %d, %v; want %d, false", r.requests, r.ok, want[p.Name])
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
