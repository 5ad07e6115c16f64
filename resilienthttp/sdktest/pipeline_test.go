package sdktest

import (
	"errors"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/resilienthttp"
	"github.com/resilientgo/resilient/run"
)

// TestFailuresAreNotMultiplied keeps each fault coming, with every SDK's
// own retries left on: a call makes the library's attempts and no more,
// and the SDK returns its own typed error, the provider's status kept,
// from the last response (which says x-should-retry: false), or, when no
// response came, the library's error.
func TestFailuresAreNotMultiplied(t *testing.T) {
	for _, s := range sdks {
		for _, tc := range []struct {
			name     string
			step     faultserver.Step
			requests int
			status   int // the SDK's typed error's status; 0: the library's error
			reason   error
		}{
			{"400 stops at once", faultserver.Status(400, "Invalid value for 'temperature': expected a number."), 1, 400, nil},
			{"overloaded to the attempt limit", faultserver.Overloaded(), middleware.DefaultMaxAttempts, 529, nil},
			{"429 to the rate limit's attempt limit", faultserver.RateLimited("1"), middleware.DefaultRateLimitedAttempts, 429, nil},
			{"429 over the cap stops at once", faultserver.RateLimited("3600"), 1, 429, nil},
			{"dropped connections to the attempt limit", faultserver.HangUp(), middleware.DefaultMaxAttempts, 0, middleware.ErrExhausted},
		} {
			t.Run(s.name+"/"+tc.name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					srv := faultserver.NewInMemory(tc.step)
					defer srv.Close()
					call := s.open(t, srv.URL, srv.Client())
					_, err := call(t.Context(), false)
					want := tc.status
					if want == 529 && s.format == faultserver.Gemini {
						want = 503 // Gemini's overload
					}
					if got := s.status(err); got != want {
						t.Errorf("got %v (status %d), want the SDK's error with status %d", err, got, want)
					}
					if tc.reason != nil && !errors.Is(err, tc.reason) {
						t.Errorf("got %v, want the library's error matching %v", err, tc.reason)
					}
					if srv.Count() != tc.requests {
						t.Errorf("got %d requests, want %d", srv.Count(), tc.requests)
					}
					checkFirstAttempts(t, s, srv.Requests())
				})
			})
		}
	}
}

// TestBreakerOpensPerTarget opens the breaker of a target that keeps
// failing: the next call fails fast, without a request, with the library's
// error (the SDK does not retry it either); after the breaker's delay a
// probe goes through.
func TestBreakerOpensPerTarget(t *testing.T) {
	for _, s := range sdks {
		t.Run(s.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := faultserver.NewInMemory(faultserver.Overloaded())
				defer srv.Close()
				call := s.open(t, srv.URL, srv.Client(), resilienthttp.MaxAttempts(1), resilienthttp.CircuitBreaker(3, time.Minute))
				for range 3 {
					if _, err := call(t.Context(), false); s.status(err) == 0 {
						t.Fatalf("got %v, want the provider's overload", err)
					}
				}
				_, err := call(t.Context(), false)
				if !errors.Is(err, middleware.ErrCircuitOpen) || srv.Count() != 3 {
					t.Errorf("got %v after %d requests, want the circuit open after 3", err, srv.Count())
				}
				time.Sleep(time.Minute)
				srv.SetScript(faultserver.Reply(answer))
				if got, err := call(t.Context(), false); err != nil || got != answer || srv.Count() != 4 {
					t.Errorf("after the delay: got %q, %v after %d requests; want the probe answered, the 4th", got, err, srv.Count())
				}
				checkFirstAttempts(t, s, srv.Requests())
			})
		})
	}
}

// TestPoolRoutesAroundAnOverloadedDeployment gives each SDK a pool of two
// deployments (two servers, two keys) whose first is overloaded: every call
// is answered, by the second, with its own key.
func TestPoolRoutesAroundAnOverloadedDeployment(t *testing.T) {
	for _, s := range sdks {
		t.Run(s.name, func(t *testing.T) {
			east := faultserver.New(faultserver.Overloaded())
			defer east.Close()
			west := faultserver.New(faultserver.Reply(answer))
			defer west.Close()
			tr := &http.Transport{}
			defer tr.CloseIdleConnections()
			base := func(srv *faultserver.Server) string {
				switch s.format {
				case faultserver.OpenAI:
					return srv.OpenAIBaseURL()
				case faultserver.Anthropic:
					return srv.AnthropicBaseURL()
				}
				return srv.URL + "/v1beta"
			}
			call := s.open(t, east.URL, &http.Client{Transport: tr}, resilienthttp.Pool(
				resilienthttp.Deployment{Name: "east", BaseURL: base(east), APIKey: "key-east", Transport: tr},
				resilienthttp.Deployment{Name: "west", BaseURL: base(west), APIKey: "key-west", Transport: tr},
			))
			for i := range 6 {
				if got, err := call(t.Context(), i%2 == 1); err != nil || got != answer {
					t.Fatalf("call %d: got %q, %v; want the answer", i, got, err)
				}
			}
			if east.Count() < 1 || west.Count() != 6 || east.Count() > 6 {
				t.Errorf("got %d requests to east and %d to west, want 1 to 6 and 6", east.Count(), west.Count())
			}
			for _, r := range west.Requests() {
				if key := r.Header.Get("Authorization") + r.Header.Get("X-Api-Key") + r.Header.Get("X-Goog-Api-Key"); key != "Bearer key-west" && key != "key-west" {
					t.Errorf("west got the key %q, want its own", key)
				}
			}
		})
	}
}

// TestRunLimitsAddUp calls each SDK in a run: each attempt counts against
// the run's request limit, the tokens the responses report (bodies and
// streams) add up in its usage, and the call past the limit is refused
// without a request.
func TestRunLimitsAddUp(t *testing.T) {
	for _, s := range sdks {
		t.Run(s.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := faultserver.NewInMemory()
				defer srv.Close()
				call := s.open(t, srv.URL, srv.Client())
				ctx := run.New(t.Context(), run.RequestLimit(4))
				for _, stream := range []bool{false, true} {
					srv.SetScript(faultserver.Overloaded(), faultserver.Reply(answer))
					if got, err := call(ctx, stream); err != nil || got != answer {
						t.Fatalf("stream=%v: got %q, %v", stream, got, err)
					}
				}
				var in, out int
				for _, r := range srv.Requests() {
					in, out = in+r.InputTokens, out+r.OutputTokens
				}
				u := run.From(ctx).Usage()
				if u.Requests != 4 || u.InputTokens != in || u.OutputTokens != out || in == 0 || out == 0 {
					t.Errorf("got %+v, want 4 requests, %d input and %d output tokens", u, in, out)
				}
				_, err := call(ctx, false)
				if !errors.Is(err, run.ErrUsageLimit) || srv.Count() != 4 {
					t.Errorf("got %v after %d requests, want the request limit after 4", err, srv.Count())
				}
				checkFirstAttempts(t, s, srv.Requests())
			})
		})
	}
}
