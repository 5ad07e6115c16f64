package resilienthttp_test

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/resilienthttp"
)

// faults lists what the HTTP layer recovers from, each followed by an
// answer: the request after it must be the second, sent after wait
// exactly when wait is set.
var faults = []struct {
	name   string
	step   faultserver.Step
	stream bool
	wait   time.Duration // the exact wait before the retry; 0: a backoff
	// timeout: wait is the attempt's timeout, followed by a backoff
	timeout bool
}{
	{name: "429 Retry-After", step: faultserver.RateLimited("7"), wait: 7 * time.Second},
	{name: "429 retry-after-ms", step: faultserver.RateLimited("").WithHeader("Retry-After-Ms", "1500"), wait: 1500 * time.Millisecond},
	{name: "429 Retry-After date", step: faultserver.RateLimited("Sat, 01 Jan 2000 00:00:09 GMT"), wait: 9 * time.Second},
	{name: "429 reset header", step: faultserver.RateLimited("").
		WithHeader("X-Ratelimit-Remaining-Requests", "0").WithHeader("X-Ratelimit-Reset-Requests", "3s"), wait: 3 * time.Second},
	{name: "529 overloaded", step: faultserver.Overloaded()},
	{name: "502 HTML page", step: faultserver.BadGateway()},
	{name: "500 empty body", step: faultserver.ServerError()},
	{name: "connection closed", step: faultserver.HangUp()},
	{name: "connection reset", step: faultserver.Reset()},
	{name: "hang before headers", step: faultserver.Stall(), wait: middleware.DefaultTimeout, timeout: true},
	{name: "body cut", step: faultserver.TruncatedJSON()},
	{name: "200 carrying an error object", step: faultserver.InBandError("server_error", "The server had an error while processing your request.")},
	{name: "in-band error before the first event", stream: true,
		step: faultserver.InBandError("server_error", "The server had an error while processing your request.")},
	{name: "stream cut before the first event", stream: true, step: faultserver.DropStream()},
	{name: "stream ended before the first event", stream: true, step: faultserver.NoEndMarker()},
	{name: "stream hung before the first event", stream: true, step: faultserver.RawStall(": keep-alive\n\n"), wait: middleware.DefaultTimeout, timeout: true},
	{name: "in-band error after the role chunk", stream: true, step: faultserver.RawStream(
		`data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}`+"\n\n",
		`data: {"error":{"message":"Overloaded","type":"server_error","code":null}}`+"\n\n")},
}

func TestEachFaultIsRetriedOnce(t *testing.T) {
	for _, f := range faults {
		t.Run(f.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := faultserver.NewInMemory(f.step, faultserver.Reply("Order 4471 shipped."))
				defer srv.Close()
				client := &http.Client{Transport: resilienthttp.Transport(srv.Client().Transport)}
				status, body, err := post(t.Context(), client, srv, chat("gpt-4o-mini", f.stream))
				if err != nil || status != 200 || answer(body) != "Order 4471 shipped." {
					t.Fatalf("got %d %q, %v; want the answer", status, body, err)
				}
				reqs := srv.Requests()
				if len(reqs) != 2 {
					t.Fatalf("got %d requests, want 2", len(reqs))
				}
				gap := reqs[1].Time.Sub(reqs[0].Time)
				switch {
				case f.timeout && (gap < f.wait || gap >= f.wait+middleware.DefaultBaseDelay):
					t.Errorf("retried after %v, want the %v timeout and a backoff under %v", gap, f.wait, middleware.DefaultBaseDelay)
				case !f.timeout && f.wait > 0 && gap != f.wait:
					t.Errorf("retried after %v, want %v", gap, f.wait)
				}
			})
		})
	}
}

func TestMiddlewareRecovers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := faultserver.NewInMemory(faultserver.Overloaded(), faultserver.HangUp(), faultserver.Reply("Order 4471 shipped."))
		defer srv.Close()
		mw := resilienthttp.Middleware()
		client := &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
			return mw(r, srv.Client().Do)
		})}
		status, body, err := post(t.Context(), client, srv, chat("gpt-4o-mini", true))
		if err != nil || status != 200 || answer(body) != "Order 4471 shipped." || srv.Count() != 3 {
			t.Fatalf("got %d %q, %v after %d requests; want the answer after 3", status, body, err, srv.Count())
		}
	})
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestFinalFailureIsTheLastResponseSayingNoRetry(t *testing.T) {
	for _, tc := range []struct {
		name     string
		step     faultserver.Step
		requests int
		status   int
	}{
		{"400 is not retried", faultserver.Status(400, "Invalid value for 'temperature'."), 1, 400},
		{"500 is retried to the limit", faultserver.Status(500, "The server had an error."), 3, 500},
		{"429 is retried to its own limit", faultserver.RateLimited("1"), 5, 429},
		{"429 asking for more than the cap is not", faultserver.RateLimited("3600"), 1, 429},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := faultserver.NewInMemory(tc.step)
				defer srv.Close()
				client := &http.Client{Transport: resilienthttp.Transport(srv.Client().Transport)}
				req := request(t, srv, chat("gpt-4o-mini", false))
				resp, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				data, _ := io.ReadAll(resp.Body)
				if resp.StatusCode != tc.status || resp.Header.Get("X-Should-Retry") != "false" || !strings.Contains(string(data), `"error"`) {
					t.Errorf("got %d, x-should-retry %q, body %q; want %d, false and the provider's error", resp.StatusCode,
						resp.Header.Get("X-Should-Retry"), data, tc.status)
				}
				if srv.Count() != tc.requests {
					t.Errorf("got %d requests, want %d", srv.Count(), tc.requests)
				}
			})
		})
	}
}

func TestFailureWithoutResponse(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := faultserver.NewInMemory(faultserver.HangUp())
		defer srv.Close()

		client := &http.Client{Transport: resilienthttp.Transport(srv.Client().Transport)}
		_, err := client.Do(request(t, srv, chat("gpt-4o-mini", false)))
		if !errors.Is(err, middleware.ErrExhausted) || srv.Count() != 3 {
			t.Errorf("Transport: got %v after %d requests, want the library's error after 3", err, srv.Count())
		}

		// A Stainless SDK given the Transport retries a failure without a
		// response: it gets a 502 that says not to.
		req := request(t, srv, chat("gpt-4o-mini", false))
		req.Header.Set("X-Stainless-Retry-Count", "0")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 502 || resp.Header.Get("X-Should-Retry") != "false" || srv.Count() != 6 {
			t.Errorf("Transport, Stainless request: got %d, x-should-retry %q after %d requests; want 502, false after 6",
				resp.StatusCode, resp.Header.Get("X-Should-Retry"), srv.Count())
		}

		// A 200 whose body is an error object would decode as an empty
		// reply: the call ends with the library's error too.
		srv.SetScript(faultserver.InBandError("server_error", "The server had an error."))
		_, err = client.Do(request(t, srv, chat("gpt-4o-mini", false)))
		if !errors.Is(err, middleware.ErrExhausted) || srv.Count() != 9 {
			t.Errorf("Transport, in-band errors: got %v after %d requests, want the library's error after 9", err, srv.Count())
		}
		srv.SetScript(faultserver.HangUp())

		// The middleware hands an SDK's chain both: the SDK returns the error.
		mw := resilienthttp.Middleware()
		resp, err = mw(request(t, srv, chat("gpt-4o-mini", false)), srv.Client().Do)
		if !errors.Is(err, middleware.ErrExhausted) || resp == nil || resp.Header.Get("X-Should-Retry") != "false" {
			t.Errorf("Middleware: got %v, %v; want the library's error and a response saying not to retry", resp, err)
		}
		if resp != nil {
			resp.Body.Close()
		}
	})
}
