package storetest_test

import (
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"

	"github.com/resilientgo/resilient/tools"
	"github.com/resilientgo/resilient/tools/storetest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestMemoryStore(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		storetest.Run(t, func(*testing.T) tools.Store { return tools.NewMemoryStore() }, time.Second)
	})
}
