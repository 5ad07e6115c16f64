package resilient_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/synctest"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/status"
	"github.com/resilientgo/resilient/tools"
)

// docs/status.md's registration: a pool, a tool's breaker and a
// concurrency limit, served under /status/; the report lists them and the
// pool's members.
func TestDocsStatusRegistration(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		east, west := faultserver.NewInMemory(), faultserver.NewInMemory()
		defer east.Close()
		defer west.Close()
		deployments := []lcllms.Model{resilient.Named(openaiAgainst(t, east), "eastus"), resilient.Named(openaiAgainst(t, west), "westus")}
		refund := resilient.Tool(tools.Func("refund", "Refunds an order.", func(_ context.Context, id string) (string, error) {
			return "refunded " + id, nil
		}))
		bulkhead, err := limit.NewBulkhead(8)
		if err != nil {
			t.Fatal(err)
		}

		// readme:begin status-register
		reg := &status.Registry{}
		chat := resilient.Pool(deployments)
		err = errors.Join(
			reg.AddModel("chat", chat),                      // a model, or a pool: its members
			reg.AddBreaker("tool:refund", refund.Breaker()), // a tool's breaker, or any other
			reg.AddSemaphore("tools", bulkhead),             // limit.Bulkhead, resilientredis.Semaphore
		)
		mux := http.NewServeMux()
		mux.Handle("/status/", http.StripPrefix("/status", status.Handler(reg, status.AllowActions())))
		// readme:end

		if err != nil {
			t.Fatal(err)
		}
		if _, err := chat.Call(t.Context(), "Say hello"); err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequestWithContext(t.Context(), "GET", "/status/", nil))
		var rep status.Report
		if err := json.Unmarshal(rec.Body.Bytes(), &rep); err != nil || rec.Code != http.StatusOK {
			t.Fatalf("GET /status/: %d %v\n%s", rec.Code, err, rec.Body)
		}
		if !rep.Ready || len(rep.Models) != 1 || len(rep.Models[0].Members) != 2 || len(rep.Breakers) != 1 ||
			rep.Breakers[0].Name != "tool:refund" || len(rep.Semaphores) != 1 || *rep.Semaphores[0].Size != 8 {
			t.Errorf("the report: %s", rec.Body)
		}
	})
}
