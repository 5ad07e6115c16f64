package resilient_test

import (
	"context"
	"errors"
	"fmt"

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
