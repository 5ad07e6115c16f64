package main

import (
	"fmt"
	"testing"
)

// On a few runs of scenario 10, chosen to meet the faults that matter (a
// payment charged then failed, a context overflow), the library's handler
// completes every run with no duplicated payment and no secret sent to the
// model, while Eino's own retry and tool error handler charge twice and hand
// the model the payment service's credential.
func TestEinoRunsInvariants(t *testing.T) {
	charged := findRuns(t, 2, chargedThenFailed)
	runs := append([]int{0, 1, 2, 3, 6}, charged...)
	byName := map[string]einoResult{}
	for _, p := range einoPolicies() {
		res, err := runEino(p, runs)
		if err != nil {
			t.Fatal(err)
		}
		byName[p.Name] = res
		if testing.Verbose() {
			st := res.stats(1)
			fmt.Printf("%s: completed %d, misleading %d, duplicates %d, secrets %d, requests %d, failures %v\n",
				p.Name, st.completed, st.misleading, res.duplicates, res.secrets, res.requests, st.causes)
		}
	}
	lib := byName[einoLibrary().Name]
	if st := lib.stats(1); st.completed != len(runs) || lib.duplicates != 0 || lib.secrets != 0 || lib.faults["429 (retried early)"] != 0 {
		t.Errorf("the library over runs %v: %d completed, %d duplicated payments, %d secrets sent, %d 429s retried early; "+
			"want all, 0, 0, 0 (failures: %v)", runs, st.completed, lib.duplicates, lib.secrets, lib.faults["429 (retried early)"], st.causes)
	}
	base := byName[einoRetry().Name]
	if base.duplicates < 1 || base.secrets < 1 {
		t.Errorf("Eino's retry over runs %v: %d duplicated payments, %d secrets sent; want at least 1 of each (the runs charged, then failed: %v)",
			runs, base.duplicates, base.secrets, charged)
	}
}
