package status_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/status"
)

// A model's breaker opens after two overloaded answers: the endpoint shows
// it open, the replica unready; an operator resets it.
func Example() {
	srv := faultserver.New(faultserver.Overloaded())
	defer srv.Close()
	llm, _ := srv.OpenAI()
	model := resilient.Model(llm, resilient.CircuitBreaker(2, time.Minute), resilient.MaxAttempts(1))

	reg := &status.Registry{}
	_ = reg.AddModel("chat", model)
	mux := http.NewServeMux()
	mux.Handle("/status/", http.StripPrefix("/status", status.Handler(reg, status.AllowActions())))

	for range 2 {
		_, _ = model.Call(context.Background(), "Say hello")
	}
	get := func(method, path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
		return rec
	}
	var rep status.Report
	_ = json.Unmarshal(get("GET", "/status/").Body.Bytes(), &rep)
	b := rep.Models[0].Breaker
	fmt.Println(b.Name, b.State, b.Why, b.Failures, "of", b.Threshold)
	fmt.Println("ready:", get("GET", "/status/ready").Code)

	fmt.Println("reset:", get("POST", "/status/breakers/chat/reset").Code)
	fmt.Println("ready:", get("GET", "/status/ready").Code)
	// Output:
	// openai/gpt-4o-mini open failures 2 of 2
	// ready: 503
	// reset: 200
	// ready: 200
}
