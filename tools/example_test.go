package tools_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

// A ToolError's text becomes the observation, so the model can correct its
// call; the run goes on.
func ExampleNew_toolError() {
	lookup, _ := tools.New(tools.Func("lookup", "Looks up an order by id.",
		func(_ context.Context, id string) (string, error) {
			if id != "4471" {
				return "", taxonomy.ToolErrorf("no order '%s'", id)
			}
			return "order 4471: shipped Tuesday", nil
		}))
	for _, id := range []string{"9999", "4471"} {
		out, err := lookup.Call(context.Background(), id)
		fmt.Printf("%q %v\n", out, err)
	}
	// Output:
	// "no order '9999'" <nil>
	// "order 4471: shipped Tuesday" <nil>
}

// Any other error is hidden from the model: it reads only the tool's name and
// the error's type. The full error goes to the logs, redacted.
func ExampleNew_internalError() {
	lookup, _ := tools.New(tools.Func("lookup", "Looks up an order by id.",
		func(context.Context, string) (string, error) {
			return "", errors.New("orders db: password=hunter2 rejected")
		}))
	out, err := lookup.Call(context.Background(), "4471")
	fmt.Printf("%q %v\n", out, err)
	// Output:
	// "Error: lookup failed internally (*errors.errorString)" <nil>
}

// A mutating tool marked Idempotent runs once per input; a repeat returns
// the stored result and says so.
func ExampleIdempotent() {
	charged := 0
	charge, _ := tools.New(tools.Func("charge", "Charges an order once.",
		func(_ context.Context, args string) (string, error) {
			charged++
			return fmt.Sprintf("charged txn-%d", charged), nil
		}), tools.Idempotent(nil))
	for range 2 {
		out, _ := charge.Call(context.Background(), `{"order":"4471","amount":2499}`)
		fmt.Println(out)
	}
	fmt.Println("charges made:", charged)
	// Output:
	// charged txn-1
	// already done: charged txn-1
	// charges made: 1
}

// A fatal error ends the run: the executor returns it, and the model never
// sees it.
func ExampleNew_fatal() {
	refund, _ := tools.New(tools.Func("refund", "Refunds an order.",
		func(context.Context, string) (string, error) {
			return "", taxonomy.NewFatalToolError(errors.New("payment provider rejected our credentials"))
		}))
	_, err := refund.Call(context.Background(), "4471")
	var fatal *taxonomy.FatalToolError
	fmt.Println(errors.As(err, &fatal), fatal.Tool)
	fmt.Println(err)
	// Output:
	// true refund
	// fatal tool error in refund: payment provider rejected our credentials
}
