package resilienthttp_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/resilienthttp"
)

// A client built on an *http.Client (go-openai, go-genai, or your own
// code) gets the library's pipeline from its transport: here an overload,
// then an in-band error event before the stream's first chunk, are
// retried, and the caller reads the stream that answered.
func ExampleTransport() {
	srv := faultserver.New(
		faultserver.Overloaded(),
		faultserver.InBandError("server_error", "The server had an error while processing your request."),
		faultserver.Reply("Order 4471 shipped."),
	)
	defer srv.Close()
	transport := &http.Transport{}
	defer transport.CloseIdleConnections()

	client := &http.Client{Transport: resilienthttp.Transport(transport)}
	resp, err := client.Post(srv.OpenAIBaseURL()+"/chat/completions", "application/json",
		strings.NewReader(`{"model":"gpt-4o-mini","stream":true,"messages":[{"role":"user","content":"Where is order 4471?"}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.StatusCode, strings.Contains(string(body), "shipped"), strings.Contains(string(body), "error"))
	fmt.Println(srv.Count(), "requests")
	// Output:
	// 200 true false
	// 3 requests
}

// The middleware has exactly the type of openai-go's and
// anthropic-sdk-go's option.Middleware: give it to option.WithMiddleware.
// Here it is called as the SDK's chain calls it, with the next handler.
func ExampleMiddleware() {
	srv := faultserver.New(faultserver.Status(400, "Invalid value for 'temperature'."))
	defer srv.Close()
	transport := &http.Transport{}
	defer transport.CloseIdleConnections()
	next := (&http.Client{Transport: transport}).Do

	mw := resilienthttp.Middleware()
	req, _ := http.NewRequest(http.MethodPost, srv.OpenAIBaseURL()+"/chat/completions",
		strings.NewReader(`{"model":"gpt-4o-mini","temperature":"hot","messages":[]}`))
	resp, err := mw(req, next)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	// The SDK builds its own error from the response, and does not retry it.
	fmt.Println(resp.StatusCode, resp.Header.Get("X-Should-Retry"), srv.Count(), "request")
	// Output: 400 false 1 request
}
