package resilienttemporal_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/server/temporaltest"
)

// server is the Temporal server of the tests: the server's own code, run in
// this process with an in-memory SQLite, as the CLI's dev server runs it.
var server *temporaltest.TestServer

func TestMain(m *testing.M) {
	flag.Parse()
	if os.Getenv(workerProcessEnv) != "" {
		os.Exit(workerProcess())
	}
	start := time.Now()
	server = temporaltest.NewServer()
	if testing.Verbose() {
		fmt.Printf("temporal server started in %v at %s\n", time.Since(start).Round(time.Millisecond), server.GetFrontendHostPort())
	}
	code := m.Run()
	server.Stop()
	os.Exit(code)
}

var queues atomic.Int64

// newQueue returns a task queue no other test uses.
func newQueue(t *testing.T) string {
	return fmt.Sprintf("%s-%d", t.Name(), queues.Add(1))
}

// startWorker starts a worker on queue with the workflows and activities
// register registers, stopped when the test ends.
func startWorker(t *testing.T, queue string, register func(worker.Registry)) {
	t.Helper()
	w := worker.New(server.GetDefaultClient(), queue, worker.Options{})
	register(w)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
}

// execute runs workflow on queue with args and decodes its result into
// result, within a minute.
func execute(t *testing.T, queue string, workflow any, result any, args ...any) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	c := server.GetDefaultClient()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: queue}, workflow, args...)
	if err != nil {
		t.Fatal(err)
	}
	return run.Get(ctx, result)
}
