package main

import (
	"log/slog"
	"net"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The README promises that this example runs against a local Redis and says
// how to start one when there is none; keep it honest. With
// RESILIENT_REDIS_ADDR set (as in CI) it runs for real, and each part says
// what it shows; run itself fails when a part's promise does not hold (a
// second charge, a breaker not shared, more than the shared limit in
// flight, a refused caller that sent a request).
func TestRuns(t *testing.T) {
	addr := os.Getenv("RESILIENT_REDIS_ADDR")
	if addr == "" {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr = ln.Addr().String() // nothing listens there once closed
		ln.Close()
	}
	var b strings.Builder
	if err := run(addr, slog.New(slog.DiscardHandler), &b); err != nil {
		t.Fatalf("%v; the output:\n%s", err, b.String())
	}
	out := b.String()
	if os.Getenv("RESILIENT_REDIS_ADDR") == "" {
		if !strings.Contains(out, "Start Redis with: redis-server") {
			t.Errorf("without Redis: got %q, want how to start it", out)
		}
		return
	}
	for _, want := range []string{
		"the bank made 1 charge(s)",
		"replica B's breaker closed with it",
		"10 at once, the other 6 one window later",
		"4. Each replica has 6 callers at once for a deployment that answers in 400ms, under one shared limit of 3 in flight:",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}

	// Part 4: at most 3 in flight; the callers beyond refused after their
	// wait, without a request; each caller answered or refused.
	inflight := regexp.MustCompile(`at most (\d+) requests in flight at the deployment, both replicas together`).FindStringSubmatch(out)
	if inflight == nil {
		t.Fatalf("the output lacks the requests in flight:\n%s", out)
	}
	if most, _ := strconv.Atoi(inflight[1]); most < 1 || most > inFlight {
		t.Errorf("got %d in flight at most, want 1 to %d:\n%s", most, inFlight, out)
	}
	refusals := regexp.MustCompile(`(\d+) callers waited (\S+) for a slot, then were refused with resilient.ErrConcurrency, without a request: (\d+) requests for (\d+) answers`).
		FindStringSubmatch(out)
	if refusals == nil || refusals[3] != refusals[4] {
		t.Fatalf("got %v, want refused callers and as many requests as answers:\n%s", refusals, out)
	}
	// The wait is maxSlotWait, read on a loaded machine's clock: never
	// less, and not much more.
	if waited, err := time.ParseDuration(refusals[2]); err != nil || waited < maxSlotWait || waited > maxSlotWait+time.Second {
		t.Errorf("refused callers waited %s, want %v (up to a second more on a busy machine)", refusals[2], maxSlotWait)
	}
	answered := regexp.MustCompile(`(?m)^   answered at: .*$`).FindAllString(out, -1)
	if len(answered) != 2 {
		t.Fatalf("got %d lines of answer times, want 2 (parts 3 and 4):\n%s", len(answered), out)
	}
	listed := strings.Count(answered[1], ",") + 1
	refused, _ := strconv.Atoi(refusals[1])
	answers, _ := strconv.Atoi(refusals[4])
	if listed != answers || refused+answers != 2*callersEach {
		t.Errorf("%d refused, %d answers (%d listed): want %d callers in all, each answered by one request or refused",
			refused, answers, listed, 2*callersEach)
	}
}
