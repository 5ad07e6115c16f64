package resilientotel_test

import (
	"testing"

	"go.uber.org/goleak"
)

// A resilientredis semaphore whose Redis is down gives its tokens back from
// a goroutine that sleeps up to a second between tries and ends when it
// finds the client closed (TestSharedStateMetrics closes it): it ends,
// but may still be asleep when the tests are over.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("github.com/resilientgo/resilient/resilientredis.(*Semaphore).giveBackLine"))
}
