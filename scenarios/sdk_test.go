package main

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/resilientgo/resilient/faultserver"
)

// sdkCall makes one call through sdk's loop (at time scale 1) against a
// server playing script, inside a synctest bubble, and returns the requests
// the server saw, how long the call took and whether it succeeded.
func sdkCall(t *testing.T, sdk sdkRetry, stream bool, script ...faultserver.Step) (requests int, took time.Duration, ok bool) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(script...)
		defer s.Close()
		llm, err := s.OpenAI(openai.WithHTTPClient(&http.Client{Transport: sdk.transport(s.Client().Transport, 1)}))
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if stream {
			_, err = llm.GenerateContent(context.Background(), prompt,
				lcllms.WithStreamingFunc(func(context.Context, []byte) error { return nil }))
		} else {
			_, err = llm.GenerateContent(context.Background(), prompt)
		}
		took, ok, requests = time.Since(start), err == nil, s.Count()
	})
	return requests, took, ok
}

// The SDKs' loops, as their source has them: which responses they retry,
// how long they wait, and what they leave alone.
func TestSDKRetry(t *testing.T) {
	ms := func(d time.Duration) string { return fmt.Sprint(d.Milliseconds()) }
	ok := faultserver.Reply("ok")
	cases := []struct {
		name        string
		stream      bool
		script      []faultserver.Step
		openai      int // requests made by openai-go's loop
		anthropic   int // by anthropic-sdk-go's
		minTook     time.Duration
		maxTook     time.Duration // 0: no bound
		openaiOK    bool
		anthropicOK bool
	}{
		{name: "529 every time: two retries", script: []faultserver.Step{faultserver.Overloaded()},
			openai: 3, anthropic: 3, minTook: 1125 * time.Millisecond, maxTook: 1500 * time.Millisecond},
		{name: "408, then success", script: []faultserver.Step{faultserver.Status(408, "timeout"), ok},
			openai: 2, anthropic: 2, openaiOK: true, anthropicOK: true},
		{name: "409, then success", script: []faultserver.Step{faultserver.Status(409, "conflict"), ok},
			openai: 2, anthropic: 2, openaiOK: true, anthropicOK: true},
		{name: "400 is not retried", script: []faultserver.Step{faultserver.Status(400, "bad request"), ok},
			openai: 1, anthropic: 1},
		{name: "x-should-retry: false stops a 529", script: []faultserver.Step{faultserver.Overloaded().WithHeader("x-should-retry", "false"), ok},
			openai: 1, anthropic: 1},
		{name: "x-should-retry: true retries a 400", script: []faultserver.Step{faultserver.Status(400, "bad request").WithHeader("x-should-retry", "true"), ok},
			openai: 2, anthropic: 2, openaiOK: true, anthropicOK: true},
		{name: "retry-after-ms replaces the backoff",
			script: []faultserver.Step{faultserver.RateLimited("").WithHeader("retry-after-ms", ms(5*time.Second)), ok},
			openai: 2, anthropic: 2, minTook: 5 * time.Second, maxTook: 5 * time.Second, openaiOK: true, anthropicOK: true},
		{name: "Retry-After in seconds", script: []faultserver.Step{faultserver.RateLimited("7"), ok},
			openai: 2, anthropic: 2, minTook: 7 * time.Second, maxTook: 7 * time.Second, openaiOK: true, anthropicOK: true},
		{name: "a wait over 2 minutes: openai-go gives up, anthropic-sdk-go waits",
			script: []faultserver.Step{faultserver.RateLimited("").WithHeader("retry-after-ms", ms(3*time.Minute)), ok},
			openai: 1, anthropic: 2, anthropicOK: true},
		{name: "a non-streamed body cut short: only anthropic-sdk-go retries",
			script: []faultserver.Step{faultserver.TruncatedJSON(), ok}, openai: 1, anthropic: 2, anthropicOK: true},
		{name: "a stream broken after its 200: neither retries", stream: true,
			script: []faultserver.Step{faultserver.DropStream("Hel"), ok}, openai: 1, anthropic: 1},
		{name: "a connection dropped before any response: retried", script: []faultserver.Step{faultserver.HangUp(), ok},
			openai: 2, anthropic: 2, openaiOK: true, anthropicOK: true},
	}
	for _, c := range cases {
		for _, sdk := range []struct {
			loop     sdkRetry
			requests int
			ok       bool
		}{{openaiGo, c.openai, c.openaiOK}, {anthropicGo, c.anthropic, c.anthropicOK}} {
			t.Run(c.name+"/"+sdk.loop.module, func(t *testing.T) {
				requests, took, ok := sdkCall(t, sdk.loop, c.stream, c.script...)
				if requests != sdk.requests || ok != sdk.ok {
					t.Errorf("requests, succeeded = %d, %v; want %d, %v", requests, ok, sdk.requests, sdk.ok)
				}
				if took < c.minTook || c.maxTook > 0 && took > c.maxTook {
					t.Errorf("took %v; want %v to %v", took, c.minTook, c.maxTook)
				}
			})
		}
	}
}
