package llms_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
)

// accountFormats are the wire formats whose providers bill an account:
// Ollama has no key nor quota of its own.
var accountFormats = []faultserver.Format{faultserver.OpenAI, faultserver.Anthropic}

// TestPoolAccountFailure: behind real clients, one deployment's key is
// refused (OpenAI's 401 invalid_api_key, Anthropic's authentication_error)
// or its account has no quota left (OpenAI's 429 insufficient_quota,
// Anthropic's "credit balance is too low", OpenRouter's 402). Every call succeeds at once on
// the other deployment; the refusing one gets one request for the whole
// MaxHold, events name it, and after MaxHold one probe. A plain model with
// the refusing deployment as primary falls back on the failure.
func TestPoolAccountFailure(t *testing.T) {
	for name, step := range map[string]faultserver.Step{
		"key refused":   faultserver.InvalidAPIKey(),
		"quota used up": faultserver.QuotaExceeded(),
		// OpenRouter's 402 (openrouter.ai/docs/errors).
		"credits used up": faultserver.Status(402, "This request requires more credits, or fewer max_tokens. You requested up to 4096 tokens, but can only afford 1000."),
	} {
		t.Run(name, func(t *testing.T) {
			forEach(t, accountFormats, func(t *testing.T, f faultserver.Format) {
				servers, members := deployments(t, f, []faultserver.Step{step}, []faultserver.Step{faultserver.Reply("ok")})
				rec := &observetest.Recorder{}
				pool := mustPool(t, members, llms.Middleware(middleware.Observe(rec)))
				calls := func(n int) {
					t.Helper()
					for i := range n {
						start := time.Now()
						if resp, err := pool.GenerateContent(t.Context(), hello()); err != nil || text(resp) != "ok" {
							t.Fatalf("call %d: got %v, want ok", i, err)
						}
						if took := time.Since(start); took != 0 {
							t.Fatalf("call %d took %v, want no wait", i, took)
						}
					}
				}
				calls(20)
				if got := counts(servers); fmt.Sprint(got) != "[1 20]" {
					t.Errorf("requests %v, want one to d0, every call answered by d1", got)
				}
				sus := observetest.Of[observe.Suspended](rec)
				if len(sus) != 1 || sus[0].Target != "d0" || sus[0].For != breaker.DefaultMaxHold || !sus[0].Class.AccountFailure {
					t.Errorf("suspensions %+v, want d0 for %v", sus, breaker.DefaultMaxHold)
				}
				if b := pool.Pool().Members()[0].Breaker; b.State() != observe.BreakerOpen || b.RemainingDelay() != breaker.DefaultMaxHold {
					t.Errorf("d0's circuit is %v for %v, want held open for %v", b.State(), b.RemainingDelay(), breaker.DefaultMaxHold)
				}

				time.Sleep(breaker.DefaultMaxHold - time.Second)
				calls(10)
				time.Sleep(time.Second)
				calls(10)
				if got := counts(servers); fmt.Sprint(got) != "[2 40]" {
					t.Errorf("requests %v, want one more to d0 (its probe, after MaxHold), every call answered by d1", got)
				}

				plain := mustWrap(t, members[0], llms.Fallbacks(members[1]))
				if resp, err := plain.GenerateContent(t.Context(), hello()); err != nil || text(resp) != "ok" {
					t.Errorf("a plain model: got %v, want the fallback's answer", err)
				}
				if got := counts(servers); fmt.Sprint(got) != "[3 41]" {
					t.Errorf("requests %v, want one to the primary, one to its fallback", got)
				}
			})
		})
	}
}

// TestPoolRequestFailureStops: a request every deployment would refuse (a
// 400 invalid request) stops the call after one request, and leaves the
// deployment in rotation.
func TestPoolRequestFailureStops(t *testing.T) {
	forEach(t, accountFormats, func(t *testing.T, f faultserver.Format) {
		servers, members := deployments(t, f,
			[]faultserver.Step{faultserver.Status(400, "Invalid value: 'tool'. Supported values are: 'system', 'assistant', 'user', 'function'.")},
			[]faultserver.Step{faultserver.Reply("ok")})
		pool := mustPool(t, members)
		_, err := pool.GenerateContent(t.Context(), hello())
		var final *middleware.Error
		if !errors.As(err, &final) || final.Reason != observe.ReasonPermanent {
			t.Fatalf("got %v, want failed permanently", err)
		}
		if got := counts(servers); fmt.Sprint(got) != "[1 0]" {
			t.Errorf("requests %v, want one, to d0", got)
		}
		if s := pool.Pool().Members()[0].Breaker.State(); s != observe.BreakerClosed {
			t.Errorf("d0's circuit is %v, want closed", s)
		}
	})
}

// TestPoolEveryAccountFails: when every deployment refuses its key, the
// call fails permanently after one request to each, naming each deployment
// and its failure, and the call's fallback answers it.
func TestPoolEveryAccountFails(t *testing.T) {
	forEach(t, accountFormats, func(t *testing.T, f faultserver.Format) {
		servers, members := deployments(t, f,
			[]faultserver.Step{faultserver.InvalidAPIKey()}, []faultserver.Step{faultserver.InvalidAPIKey()},
			[]faultserver.Step{faultserver.Reply("from the fallback")})
		pool := mustPool(t, members[:2], llms.Name("keys"))
		_, err := pool.GenerateContent(t.Context(), hello())
		var final *middleware.Error
		if !errors.As(err, &final) || final.Reason != observe.ReasonPermanent || !errors.Is(err, middleware.ErrPermanent) {
			t.Fatalf("got %v, want failed permanently", err)
		}
		for _, want := range []string{"d0: out of rotation (5m0s left) after an account failure: ", "d1: out of rotation (5m0s left) after an account failure: ",
			"attempt 1 to d0:", "attempt 2 to d1:", "401"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %q", err, want)
			}
		}
		if got := counts(servers); fmt.Sprint(got) != "[1 1 0]" {
			t.Errorf("requests %v, want one to each deployment", got)
		}

		fallback := mustPool(t, members[:2], llms.Name("keys with a fallback"), llms.Fallbacks(members[2]))
		if resp, err := fallback.GenerateContent(t.Context(), hello()); err != nil || text(resp) != "from the fallback" {
			t.Errorf("got %v, want the fallback's answer", err)
		}
		if got := counts(servers); fmt.Sprint(got) != "[2 2 1]" {
			t.Errorf("requests %v, want one more to each deployment, one to the fallback", got)
		}
		if resp, err := fallback.GenerateContent(t.Context(), hello()); err != nil || text(resp) != "from the fallback" {
			t.Errorf("the next call: got %v, want the fallback's answer", err)
		}
		if got := counts(servers); fmt.Sprint(got) != "[2 2 2]" {
			t.Errorf("requests %v, want none more to the deployments (out of rotation), one to the fallback", got)
		}
	})
}
