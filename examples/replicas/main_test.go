package main

import (
	"log/slog"
	"net"
	"os"
	"testing"
)

// The README promises that this example runs against a local Redis and says
// how to start one when there is none; keep it honest. With
// RESILIENT_REDIS_ADDR set (as in CI) it runs for real.
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
	if err := run(addr, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
}
