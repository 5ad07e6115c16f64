package main

import (
	"bytes"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// postCall sends logical call i's request to url as langchaingo's openai
// client would, and returns the response's status and retry-after-ms.
func postCall(t *testing.T, url string, i int) (int, string) {
	t.Helper()
	body := `{"model":"gpt-4o","messages":[{"role":"user","content":"call ` + strconv.Itoa(i) + `"}]}`
	resp, err := http.Post(url+"/v1/chat/completions", "application/json", bytes.NewBufferString(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("retry-after-ms")
}

// The degraded deployment draws per logical call and per request of that
// call, so the order the requests arrive in does not change which fail.
func TestDegradedDrawsPerCall(t *testing.T) {
	const calls = 20
	statuses := func(order []int) map[[2]int]int {
		f := newFleet(poolSeed, 1000) // waits of a few milliseconds
		defer f.close()
		got := map[[2]int]int{}
		for _, i := range order {
			for n := range 2 {
				got[[2]int{i, n}], _ = postCall(t, f.servers[0].URL, i)
			}
		}
		return got
	}
	forward := make([]int, calls)
	for i := range forward {
		forward[i] = i
	}
	backward := slices.Clone(forward)
	slices.Reverse(backward)
	a, b := statuses(forward), statuses(backward)
	failed := 0
	for key, status := range a {
		if b[key] != status {
			t.Errorf("call %d, request %d: %d in one order, %d in the other", key[0], key[1], status, b[key])
		}
		if status == http.StatusServiceUnavailable {
			failed++
		}
	}
	if failed == 0 || failed == len(a) {
		t.Errorf("%d of %d requests failed; want some, not all", failed, len(a))
	}
}

// The rate-limited deployment admits its quota per window, then answers
// 429 with the time left in the window.
func TestRateLimitedQuota(t *testing.T) {
	const ts = 10 // a window of 1 s, long enough for the requests to fit in one
	f := newFleet(poolSeed, ts)
	defer f.close()
	f.begin()
	statuses := make([]int, deploymentFaults.quota)
	var wg sync.WaitGroup
	for i := range statuses { // at once: the window is ten answers long
		wg.Go(func() { statuses[i], _ = postCall(t, f.servers[1].URL, i) })
	}
	wg.Wait()
	for i, status := range statuses {
		if status != http.StatusOK {
			t.Errorf("request %d of the quota: status %d, want 200", i, status)
		}
	}
	status, wait := postCall(t, f.servers[1].URL, deploymentFaults.quota)
	msec, err := strconv.Atoi(wait)
	window := timeScale(ts).of(deploymentFaults.window)
	if status != http.StatusTooManyRequests || err != nil || msec <= 0 || time.Duration(msec)*time.Millisecond > window {
		t.Errorf("past the quota: status %d, retry-after-ms %q; want 429 and at most %v", status, wait, window)
	}
	if _, failed := f.counts(); failed[1] != 1 {
		t.Errorf("429s counted: %d, want 1", failed[1])
	}
}

// Counts that do not depend on timing: the round robin without retry sends
// each deployment its third of the calls, and fails exactly the calls
// whose request failed; the fallbacks with the healthy deployment first
// never leave it; the pool loses no call and retries every failed request
// once.
func TestPoolScenarioCounts(t *testing.T) {
	const n = 30
	ps := poolPolicies()
	byName := func(prefix string) Policy {
		i := slices.IndexFunc(ps, func(p Policy) bool { return strings.HasPrefix(p.Name, prefix) })
		if i < 0 {
			t.Fatalf("no policy named %q...", prefix)
		}
		return ps[i]
	}
	run := func(p Policy) poolResult {
		r, err := runPool(p, n)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	t.Run("round robin", func(t *testing.T) {
		r := run(byName("round robin, no retry"))
		if r.requests != [3]int{n / 3, n / 3, n / 3} {
			t.Errorf("requests per deployment %v, want %d each", r.requests, n/3)
		}
		if failed := r.failed[0] + r.failed[1]; r.n-r.ok != failed {
			t.Errorf("%d failed calls, %d failed requests; want them equal", r.n-r.ok, failed)
		}
	})
	t.Run("fallbacks", func(t *testing.T) {
		r := run(byName("resilient.Fallbacks: " + healthyName))
		if r.requests != [3]int{0, 0, n} || r.ok != n {
			t.Errorf("requests per deployment %v, %d succeeded; want [0 0 %d], all", r.requests, r.ok, n)
		}
	})
	t.Run("pool", func(t *testing.T) {
		r := run(ps[0])
		if failed := r.failed[0] + r.failed[1]; r.ok != n || r.total() != n+failed {
			t.Errorf("%d of %d calls succeeded with %d requests, %d of them failed; want all, and one request per call plus one per failure",
				r.ok, n, r.total(), failed)
		}
	})
}
