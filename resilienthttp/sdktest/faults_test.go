package sdktest

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/middleware"
)

const answer = "Order 4471 shipped."

// inBand is an in-band error event in each format's words: what the
// providers send when a model is overloaded after the 200 went out.
func inBand(f faultserver.Format) faultserver.Step {
	switch f {
	case faultserver.Anthropic:
		return faultserver.InBandError("overloaded_error", "Overloaded")
	case faultserver.Gemini:
		return faultserver.InBandError("UNAVAILABLE", "The model is overloaded. Please try again later.")
	}
	return faultserver.InBandError("server_error", "The server had an error while processing your request. Sorry about that!")
}

// faults is what the HTTP layer recovers from, for each SDK: the fault,
// then the answer, in two requests, the second after exactly wait when it
// is set (after the attempt timeout and a backoff when timeout is).
var faults = []struct {
	name    string
	step    func(faultserver.Format) faultserver.Step
	stream  bool
	wait    time.Duration
	timeout bool
}{
	{name: "429 Retry-After", step: fixed(faultserver.RateLimited("7")), wait: 7 * time.Second},
	{name: "429 retry-after-ms", step: fixed(faultserver.RateLimited("").WithHeader("Retry-After-Ms", "2500")), wait: 2500 * time.Millisecond},
	{name: "429 rate-limit reset", step: fixed(faultserver.RateLimited("").
		WithHeader("X-Ratelimit-Remaining-Requests", "0").WithHeader("X-Ratelimit-Reset-Requests", "4s")), wait: 4 * time.Second},
	{name: "overloaded (529, Gemini 503)", step: fixed(faultserver.Overloaded())},
	{name: "5xx HTML page", step: fixed(faultserver.BadGateway())},
	{name: "dropped connection", step: fixed(faultserver.HangUp())},
	{name: "hang", step: fixed(faultserver.Stall()), wait: middleware.DefaultTimeout, timeout: true},
	{name: "body cut", step: fixed(faultserver.TruncatedJSON())},
	{name: "in-band error before the first event", step: inBand, stream: true},
	{name: "stream cut before the first event", step: fixed(faultserver.DropStream()), stream: true},
	{name: "stream hung before the first event", step: fixed(faultserver.RawStall()), stream: true, wait: middleware.DefaultTimeout, timeout: true},
}

func fixed(s faultserver.Step) func(faultserver.Format) faultserver.Step {
	return func(faultserver.Format) faultserver.Step { return s }
}

// TestEachSDKRecoversFromEachFault runs every fault against every SDK,
// with the SDK's own retries left on: the library makes the retry, the SDK
// none (every request an SDK of Stainless's sends is its first attempt,
// X-Stainless-Retry-Count: 0), two requests in all.
func TestEachSDKRecoversFromEachFault(t *testing.T) {
	for _, s := range sdks {
		for _, f := range faults {
			for _, stream := range []bool{false, true} {
				if f.stream && !stream {
					continue
				}
				t.Run(fmt.Sprintf("%s/%s/stream=%v", s.name, f.name, stream), func(t *testing.T) {
					synctest.Test(t, func(t *testing.T) {
						srv := faultserver.NewInMemory(f.step(s.format), faultserver.Reply(answer))
						defer srv.Close()
						call := s.open(t, srv.URL, srv.Client())
						got, err := call(t.Context(), stream)
						if err != nil || got != answer {
							t.Fatalf("got %q, %v; want %q", got, err, answer)
						}
						reqs := srv.Requests()
						if len(reqs) != 2 {
							t.Fatalf("got %d requests, want 2", len(reqs))
						}
						checkFirstAttempts(t, s, reqs)
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
	}
}

// checkFirstAttempts fails the test when a Stainless SDK retried a request
// itself.
func checkFirstAttempts(t *testing.T, s sdk, reqs []faultserver.Request) {
	t.Helper()
	if !s.stainless {
		return
	}
	for _, r := range reqs {
		if got := r.Header.Get("X-Stainless-Retry-Count"); got != "0" {
			t.Errorf("request %d: X-Stainless-Retry-Count %q, want 0: the SDK retried", r.Index, got)
		}
	}
}
