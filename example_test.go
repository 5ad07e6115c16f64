package resilient_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

// A wrapped model retries what is worth retrying and stops at once on what
// is not. Here langchaingo's real OpenAI client talks to a loopback server
// that is overloaded once, then rejects the key.
func ExampleModel() {
	srv := faultserver.New(faultserver.Overloaded(), faultserver.Reply("Hello!"), faultserver.InvalidAPIKey())
	defer srv.Close()
	llm, err := srv.OpenAI()
	if err != nil {
		panic(err)
	}
	model := resilient.Model(llm) // still an llms.Model

	answer, err := model.Call(context.Background(), "Say hello")
	fmt.Printf("%q, %v, after %d requests\n", answer, err, srv.Count())

	_, err = model.Call(context.Background(), "Say hello again")
	fmt.Println(taxonomy.Classify(err).Kind, "after", srv.Count()-2, "more request")
	// Output:
	// "Hello!", <nil>, after 2 requests
	// permanent after 1 more request
}

// A wrapped tool maps every outcome at the dispatch boundary.
func ExampleTool() {
	lookup := resilient.Tool(tools.Func("lookup_order", "Looks up an order.", func(_ context.Context, id string) (string, error) {
		switch id {
		case "4471":
			return "shipped Tuesday", nil
		case "boom":
			return "", errors.New("pq: password authentication failed for user \"billing\"")
		}
		return "", taxonomy.ToolErrorf("no order '%s'", id)
	}))
	for _, id := range []string{"9999", "4471", "boom"} {
		out, err := lookup.Call(context.Background(), id)
		fmt.Printf("%s -> %q, %v\n", id, out, err)
	}
	// Output:
	// 9999 -> "no order '9999'", <nil>
	// 4471 -> "shipped Tuesday", <nil>
	// boom -> "Error: lookup_order failed internally (*errors.errorString)", <nil>
}

// A pool spreads calls over deployments of one model and routes around the
// sick: here one deployment answers 503. Its one failed request is retried
// on the other at once, and from then on the pool sends the calls to the
// healthier deployment, save a probe of the sick one once per breaker delay
// (a minute here); had the probes kept failing, its circuit would open.
func ExamplePool() {
	east := faultserver.New(faultserver.Status(503, "Service Unavailable"))
	west := faultserver.New(faultserver.Reply("Hello from the west"))
	defer east.Close()
	defer west.Close()
	eastLLM, _ := east.OpenAI()
	westLLM, _ := west.OpenAI()
	model := resilient.Pool([]lcllms.Model{resilient.Named(eastLLM, "east"), resilient.Named(westLLM, "west")},
		resilient.CircuitBreaker(2, time.Minute))

	answered := 0
	for range 6 {
		if answer, err := model.Call(context.Background(), "Say hello"); err == nil && answer == "Hello from the west" {
			answered++
		}
	}
	fmt.Printf("%d calls answered; requests: east %d, west %d\n", answered, east.Count(), west.Count())
	for _, m := range model.Pool().Members() {
		fmt.Printf("%s: health %.2f, circuit %v\n", m.Name, m.Health, m.Breaker.State())
	}
	// Output:
	// 6 calls answered; requests: east 1, west 6
	// east: health 0.88, circuit closed
	// west: health 1.00, circuit closed
}
