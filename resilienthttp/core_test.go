package resilienthttp_test

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/pool"
	"github.com/resilientgo/resilient/resilienthttp"
	"github.com/resilientgo/resilient/run"
)

func TestBreakerPerHostAndModel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := faultserver.NewInMemory(faultserver.Func(func(r *faultserver.Request) faultserver.Step {
			if strings.Contains(string(r.Body), `"model":"gpt-4o"`) {
				return faultserver.Overloaded()
			}
			return faultserver.Reply("ok")
		}))
		defer srv.Close()
		client := &http.Client{Transport: resilienthttp.Transport(srv.Client().Transport,
			resilienthttp.MaxAttempts(1), resilienthttp.CircuitBreaker(3, time.Minute))}
		for range 3 {
			if status, _, err := post(t.Context(), client, srv, chat("gpt-4o", false)); err != nil || status != 529 {
				t.Fatalf("got %d, %v; want the 529", status, err)
			}
		}
		_, _, err := post(t.Context(), client, srv, chat("gpt-4o", false))
		if !errors.Is(err, middleware.ErrCircuitOpen) || srv.Count() != 3 {
			t.Errorf("got %v after %d requests, want the circuit open after 3", err, srv.Count())
		}
		if status, body, err := post(t.Context(), client, srv, chat("gpt-4o-mini", false)); err != nil || answer(body) != "ok" {
			t.Errorf("another model: got %d %q, %v; want its answer", status, body, err)
		}
		time.Sleep(time.Minute)
		srv.SetScript(faultserver.Reply("back"))
		if _, body, err := post(t.Context(), client, srv, chat("gpt-4o", false)); err != nil || answer(body) != "back" {
			t.Errorf("after the breaker's delay: got %q, %v; want the probe answered", body, err)
		}
	})
}

func TestPoolRoutesAroundAFailingDeployment(t *testing.T) {
	for _, mode := range []string{"Transport", "Middleware"} {
		t.Run(mode, func(t *testing.T) {
			east := faultserver.New(faultserver.Overloaded())
			defer east.Close()
			west := faultserver.New(faultserver.Reply("Order 4471 shipped."))
			defer west.Close()
			tr := &http.Transport{}
			defer tr.CloseIdleConnections()
			deployments := resilienthttp.Pool(
				resilienthttp.Deployment{Name: "east", BaseURL: east.OpenAIBaseURL(), APIKey: "key-east", Transport: tr},
				resilienthttp.Deployment{Name: "west", BaseURL: west.OpenAIBaseURL(), APIKey: "key-west", Transport: tr},
			)
			client := &http.Client{Transport: resilienthttp.Transport(tr, deployments, resilienthttp.Pipeline(middleware.Balance(pool.RoundRobin{})))}
			if mode == "Middleware" {
				mw := resilienthttp.Middleware(deployments, resilienthttp.Pipeline(middleware.Balance(pool.RoundRobin{})))
				client = &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
					return mw(r, func(r *http.Request) (*http.Response, error) {
						if !strings.HasPrefix(r.URL.String(), east.URL) {
							return nil, errors.New("the SDK's chain refuses another origin")
						}
						return tr.RoundTrip(r)
					})
				})}
			}
			for range 4 {
				// The SDK points at east; a call that goes there goes on to
				// west at once.
				status, body, err := post(t.Context(), client, east, chat("gpt-4o", false))
				if err != nil || status != 200 || answer(body) != "Order 4471 shipped." {
					t.Fatalf("got %d %q, %v; want the answer", status, body, err)
				}
			}
			if east.Count() < 1 || west.Count() != 4 {
				t.Errorf("got %d requests to east and %d to west, want at least 1 and 4", east.Count(), west.Count())
			}
			for _, r := range west.Requests() {
				if got := r.Header.Get("Authorization"); got != "Bearer key-west" || r.Path != "/v1/chat/completions" {
					t.Errorf("west got %s with key %q, want /v1/chat/completions with its own", r.Path, got)
				}
			}
		})
	}
}

func TestRunLimitsAndUsage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := faultserver.NewInMemory(faultserver.Overloaded(), faultserver.Reply("Order 4471 shipped."))
		defer srv.Close()
		client := &http.Client{Transport: resilienthttp.Transport(srv.Client().Transport)}
		ctx := run.New(t.Context(), run.RequestLimit(4))
		for _, stream := range []bool{false, true} {
			srv.SetScript(faultserver.Overloaded(), faultserver.Reply("Order 4471 shipped."))
			if _, body, err := post(ctx, client, srv, chat("gpt-4o-mini", stream)); err != nil || answer(body) != "Order 4471 shipped." {
				t.Fatalf("stream %v: got %q, %v", stream, body, err)
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
		_, _, err := post(ctx, client, srv, chat("gpt-4o-mini", false))
		if !errors.Is(err, run.ErrUsageLimit) || srv.Count() != 4 {
			t.Errorf("got %v after %d requests, want the request limit after 4", err, srv.Count())
		}
	})
}

func TestObserversSeeTheCallAndItsTokens(t *testing.T) {
	for _, stream := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			srv := faultserver.NewInMemory(faultserver.Overloaded(), faultserver.Reply("Order 4471 shipped."))
			defer srv.Close()
			rec := &observetest.Recorder{}
			client := &http.Client{Transport: resilienthttp.Transport(srv.Client().Transport, resilienthttp.Observe(rec))}
			if _, _, err := post(t.Context(), client, srv, chat("gpt-4o-mini", stream)); err != nil {
				t.Fatal(err)
			}
			ends := observetest.Of[observe.CallEnd](rec)
			want := srv.Requests()[1]
			if len(ends) != 1 || ends[0].Attempts != 2 || ends[0].Reason != 0 ||
				ends[0].InputTokens != want.InputTokens || ends[0].OutputTokens != want.OutputTokens ||
				ends[0].Target.Model != "gpt-4o-mini" || ends[0].Target.Provider != "openai" {
				t.Errorf("got %+v, want one call of 2 attempts to openai's gpt-4o-mini with %d+%d tokens", ends, want.InputTokens, want.OutputTokens)
			}
			if got := observetest.Of[observe.RetryScheduled](rec); len(got) != 1 {
				t.Errorf("got %d retries reported, want 1", len(got))
			}
		})
	}
}

// onceReader is a body net/http cannot replay: no GetBody.
type onceReader struct{ io.Reader }

func (onceReader) Close() error { return nil }

func TestRequestBodyIsSentAgain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := faultserver.NewInMemory(faultserver.Overloaded(), faultserver.Reply("ok"))
		defer srv.Close()
		body := chat("gpt-4o-mini", false)
		req := request(t, srv, nil)
		req.Body, req.GetBody, req.ContentLength = onceReader{bytes.NewReader(body)}, nil, int64(len(body))
		resp, err := (&http.Client{Transport: resilienthttp.Transport(srv.Client().Transport)}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		reqs := srv.Requests()
		if len(reqs) != 2 || !bytes.Equal(reqs[1].Body, body) {
			t.Errorf("got %d requests, the last with %q; want 2, the body sent again", len(reqs), reqs[len(reqs)-1].Body)
		}

		// Past MaxBody, a body without GetBody is sent once.
		srv.SetScript(faultserver.Overloaded(), faultserver.Reply("ok"))
		req = request(t, srv, nil)
		req.Body, req.GetBody, req.ContentLength = onceReader{bytes.NewReader(body)}, nil, int64(len(body))
		resp, err = (&http.Client{Transport: resilienthttp.Transport(srv.Client().Transport, resilienthttp.MaxBody(16))}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if reqs := srv.Requests(); len(reqs) != 3 || !bytes.Equal(reqs[2].Body, body) || resp.StatusCode != 529 {
			t.Errorf("got %d requests and %d, want 3 and the 529: a body that cannot be replayed is sent whole, once", len(reqs), resp.StatusCode)
		}
	})
}

func TestStreamAfterItsFirstEvent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := faultserver.NewInMemory(faultserver.Stall("Order", " 4471"))
		defer srv.Close()
		client := &http.Client{Transport: resilienthttp.Transport(srv.Client().Transport)}
		start := time.Now()
		_, body, err := post(t.Context(), client, srv, chat("gpt-4o-mini", true))
		if !errors.Is(err, resilienthttp.ErrStreamIdle) || answer(body) != "Order 4471" || time.Since(start) != llms.DefaultStreamIdleTimeout {
			t.Errorf("got %q, %v after %v; want the chunks, then the idle timeout after %v", body, err, time.Since(start),
				llms.DefaultStreamIdleTimeout)
		}

		// An error after content reaches the SDK: it has shown the content.
		srv.SetScript(faultserver.InBandError("server_error", "The server had an error.", "Order"), faultserver.Reply("ok"))
		_, body, err = post(t.Context(), client, srv, chat("gpt-4o-mini", true))
		if err != nil || !strings.Contains(body, "The server had an error.") || srv.Count() != 2 {
			t.Errorf("got %q, %v after %d requests; want the error event after 2", body, err, srv.Count())
		}
	})
}

func TestAnthropicStreamErrorAfterItsPreamble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := faultserver.NewInMemory(faultserver.InBandError("overloaded_error", "Overloaded"), faultserver.Reply("Order 4471 shipped."))
		defer srv.Close()
		client := &http.Client{Transport: resilienthttp.Transport(srv.Client().Transport)}
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.AnthropicBaseURL()+"/messages",
			strings.NewReader(`{"model":"claude-sonnet-4-5","max_tokens":100,"stream":true,"messages":[{"role":"user","content":"hi"}]}`))
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if srv.Count() != 2 || strings.Contains(string(data), "overloaded_error") || !strings.Contains(string(data), "shipped") {
			t.Errorf("got %q after %d requests; want the second stream alone", data, srv.Count())
		}
	})
}

func TestInvalidOptions(t *testing.T) {
	rt := resilienthttp.Transport(nil, resilienthttp.MaxAttempts(0), resilienthttp.StreamIdleTimeout(-1),
		resilienthttp.StreamIdleTimeout(0), resilienthttp.Timeout(0))
	req, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1:1/v1/chat/completions", strings.NewReader("{}"))
	_, err := rt.RoundTrip(req)
	for _, want := range []string{"MaxAttempts(0)", "StreamIdleTimeout(-1ns)", "StreamIdleTimeout(0s): must be positive", "Timeout(0s): must be positive"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want %q named", err, want)
		}
	}
	// Forever is no bound, accepted.
	rt = resilienthttp.Transport(nil, resilienthttp.MaxAttempts(1), resilienthttp.StreamIdleTimeout(middleware.Forever), resilienthttp.Timeout(middleware.Forever))
	req, _ = http.NewRequest(http.MethodPost, "http://127.0.0.1:1/v1/chat/completions", strings.NewReader("{}"))
	if _, err := rt.RoundTrip(req); err == nil || strings.Contains(err.Error(), "must be positive") {
		t.Errorf("Forever: got %v, want the request sent (and refused by the closed port)", err)
	}
}

// A provider error that echoes the key, as OpenAI's 401 does: the log line
// of the failure does not carry it.
func TestLogsAreRedacted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const key = "sk-proj-Zq8Xv3Lm9Tt2Rr7Yy1Uu5Ii0Oo4Pp6Aa8Ss2Dd"
		srv := faultserver.NewInMemory(faultserver.Status(401, "Incorrect API key provided: "+key+". You can find your API key at https://platform.openai.com/account/api-keys."))
		defer srv.Close()
		var logs observetest.LogBuffer
		client := &http.Client{Transport: resilienthttp.Transport(srv.Client().Transport, resilienthttp.Logger(logs.Logger()))}
		if status, _, err := post(t.Context(), client, srv, chat("gpt-4o-mini", false)); err != nil || status != 401 {
			t.Fatalf("got %d, %v; want the 401", status, err)
		}
		if !strings.Contains(logs.String(), "401") || strings.Contains(logs.String(), key[8:]) {
			t.Errorf("got the log\n%s\nwant the failure named, the key redacted", logs.String())
		}
	})
}
