package faultserver_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/faultserver"
)

var openaiProvider = providers[0]

const (
	ok        = `content="ok" stop="stop"`
	limited   = `error: API returned unexpected status code: 429: Rate limit reached for gpt-4o-mini in organization org-test on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 1s. Visit https://platform.openai.com/account/rate-limits to learn more.`
	hungUp    = `error: network error: failed to reach API server`
	timedOut  = `error: request timeout: API call exceeded deadline`
	sequenceN = 4
)

func reply(text string) string { return `content="` + text + `" stop="stop"` }

func TestScript(t *testing.T) {
	tests := []struct {
		name   string
		script []faultserver.Step
		want   []string
	}{
		{"no steps replies ok", nil, []string{ok, ok, ok, ok}},
		{"recovers after the error", []faultserver.Step{faultserver.RateLimited("1"), faultserver.Reply("ok")}, []string{limited, ok, ok, ok}},
		{"last step repeats", []faultserver.Step{faultserver.HangUp()}, []string{hungUp, hungUp, hungUp, hungUp}},
		{"in order", []faultserver.Step{faultserver.Reply("a"), faultserver.Reply("b"), faultserver.Reply("c")}, []string{reply("a"), reply("b"), reply("c"), reply("c")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := faultserver.New(tt.script...)
			defer s.Close()
			var got []string
			for range sequenceN {
				got = append(got, call(t, s, openaiProvider, false, 10*time.Second))
			}
			if !slices.Equal(got, tt.want) || s.Count() != sequenceN {
				t.Errorf("got %q after %d requests\nwant %q after %d", got, s.Count(), tt.want, sequenceN)
			}
		})
	}
}

func TestPushAndSetScript(t *testing.T) {
	s := faultserver.New(faultserver.Reply("a"), faultserver.Reply("b"))
	defer s.Close()
	next := func() string { return call(t, s, openaiProvider, false, 10*time.Second) }

	got := []string{next(), next(), next()}
	s.Push(faultserver.Reply("c"))
	got = append(got, next(), next())
	s.SetScript(faultserver.Reply("d"), faultserver.Reply("e"))
	got = append(got, next(), next(), next())
	s.Push(faultserver.Reply("f"), faultserver.Reply("g"))
	got = append(got, next(), next())
	s.SetScript()
	got = append(got, next())

	want := []string{
		reply("a"), reply("b"), reply("b"), // exhausted: b repeats
		reply("c"), reply("c"), // pushed after exhaustion: c is next
		reply("d"), reply("e"), reply("e"),
		reply("f"), reply("g"),
		ok,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestRequests(t *testing.T) {
	tests := []struct {
		p    provider
		want []string
	}{
		{providers[0], []string{
			"0 POST /v1/chat/completions openai stream=false messages=3 Authorization=Bearer sk-test",
			"1 POST /v1/chat/completions openai stream=true messages=3 Authorization=Bearer sk-test",
		}},
		{providers[1], []string{
			"0 POST /v1/messages anthropic stream=false messages=2 X-Api-Key=sk-ant-test",
			"1 POST /v1/messages anthropic stream=true messages=2 X-Api-Key=sk-ant-test",
		}},
		{providers[2], []string{
			"0 POST /api/chat ollama stream=false messages=3 Accept=application/x-ndjson",
			"1 POST /api/chat ollama stream=true messages=3 Accept=application/x-ndjson",
		}},
	}
	header := map[string]string{"openai": "Authorization", "anthropic": "X-Api-Key", "ollama": "Accept"}
	for _, tt := range tests {
		t.Run(tt.p.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			s := faultserver.New()
			defer s.Close()
			m, err := tt.p.model(s)
			if err != nil {
				t.Fatal(err)
			}
			msgs := []llms.MessageContent{
				llms.TextParts(llms.ChatMessageTypeSystem, "Be brief."),
				llms.TextParts(llms.ChatMessageTypeHuman, "Hi"),
				llms.TextParts(llms.ChatMessageTypeHuman, "Still there?"),
			}
			stream := llms.WithStreamingFunc(func(context.Context, []byte) error { return nil })
			if _, err := m.GenerateContent(context.Background(), msgs); err != nil {
				t.Fatal(err)
			}
			if _, err := m.GenerateContent(context.Background(), msgs, stream); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range s.Requests() {
				h := header[r.Format.String()]
				got = append(got, fmt.Sprintf("%d %s %s %s stream=%t messages=%d %s=%s",
					r.Index, r.Method, r.Path, r.Format, r.Stream, r.MessageCount(), h, r.Header.Get(h)))
				if r.Time.Before(start) || r.Time.After(time.Now()) {
					t.Errorf("request %d: got time %v, want between %v and now", r.Index, r.Time, start)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestRequestsAreCopies(t *testing.T) {
	s := faultserver.New()
	defer s.Close()
	call(t, s, openaiProvider, false, 10*time.Second)
	first := s.Requests()
	first[0].Body[0] = 'X'
	first[0].Header.Set("Authorization", "changed")
	again := s.Requests()
	if got := string(again[0].Body[:1]) + " " + again[0].Header.Get("Authorization"); got != "{ Bearer sk-test" {
		t.Errorf("got %q after modifying a copy, want %q", got, "{ Bearer sk-test")
	}
}

func TestMessageCount(t *testing.T) {
	tests := []struct {
		body string
		want int
	}{
		{`{"messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"}]}`, 2},
		{`{"messages":[]}`, 0},
		{`{"prompt":"a"}`, 0},
		{`not json`, 0},
		{``, 0},
	}
	for _, tt := range tests {
		if got := (faultserver.Request{Body: []byte(tt.body)}).MessageCount(); got != tt.want {
			t.Errorf("MessageCount of %q: got %d, want %d", tt.body, got, tt.want)
		}
	}
}

func TestFormatString(t *testing.T) {
	tests := []struct {
		f    faultserver.Format
		want string
	}{
		{faultserver.OpenAI, "openai"},
		{faultserver.Anthropic, "anthropic"},
		{faultserver.Ollama, "ollama"},
		{0, "Format(0)"},
	}
	for _, tt := range tests {
		if got := tt.f.String(); got != tt.want {
			t.Errorf("Format(%d).String(): got %q, want %q", int(tt.f), got, tt.want)
		}
	}
}

// TestFuncConcurrent sends concurrent requests to a Func step that keeps
// unsynchronized state: calls to fn must be serialized (the race detector
// checks) and every request must get its own index.
func TestFuncConcurrent(t *testing.T) {
	const n = 40
	calls := 0 // guarded by the server's serialization of fn
	s := faultserver.New(faultserver.Func(func(r *faultserver.Request) faultserver.Step {
		calls++
		if r.Index%2 == 0 {
			return faultserver.RateLimited("1")
		}
		return faultserver.Reply("ok")
	}))
	defer s.Close()

	m := model(t, s, openaiProvider)
	var wg sync.WaitGroup
	results := make([]string, n)
	for i := range n {
		wg.Go(func() { results[i] = generate(m, false, 10*time.Second) })
	}
	wg.Wait()

	var indexes []int
	for _, r := range s.Requests() {
		indexes = append(indexes, r.Index)
	}
	slices.Sort(results)
	got := fmt.Sprintf("fn calls=%d requests=%d distinct indexes=%d oks=%d errors=%d",
		calls, s.Count(), len(slices.Compact(indexes)), strings.Count(strings.Join(results, "\n"), ok), strings.Count(strings.Join(results, "\n"), "error: "))
	want := fmt.Sprintf("fn calls=%d requests=%d distinct indexes=%d oks=%d errors=%d", n, n, n, n/2, n/2)
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestFuncDelayAndHeaders checks that a Func step's delay and headers add to
// those of the step it returns.
func TestFuncDelayAndHeaders(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.Func(func(*faultserver.Request) faultserver.Step {
			return faultserver.Reply("ok").After(time.Second).WithHeader("X-Inner", "1")
		}).After(2*time.Second).WithHeader("X-Outer", "2"))
		defer s.Close()
		start := time.Now()
		resp, err := s.Client().Post(s.OpenAIBaseURL()+"/chat/completions", "application/json", strings.NewReader(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		got := fmt.Sprintf("%v inner=%s outer=%s", time.Since(start), resp.Header.Get("X-Inner"), resp.Header.Get("X-Outer"))
		if want := "3s inner=1 outer=2"; got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	})
}

// TestInMemorySynctest runs the real openai client against an in-memory
// server inside a synctest bubble: delays and stalls take exact fake time,
// and Close leaves nothing running, or the bubble would not exit.
func TestInMemorySynctest(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := faultserver.NewInMemory(
					faultserver.Reply("now"),
					faultserver.Reply("later").After(10*time.Second),
					faultserver.Stall(),
				)
				defer s.Close()
				start := time.Now()
				var got []string
				for _, timeout := range []time.Duration{time.Minute, time.Minute, 5 * time.Second} {
					before := time.Now()
					out := call(t, s, p, false, timeout)
					got = append(got, fmt.Sprintf("%s after %v", out, time.Since(before)))
				}
				var arrivals []time.Duration
				for _, r := range s.Requests() {
					arrivals = append(arrivals, r.Time.Sub(start))
				}
				got = append(got, fmt.Sprint("arrivals ", arrivals))
				want := []string{
					`content="now" stop="` + stopReason[p.name] + `" after 0s`,
					`content="later" stop="` + stopReason[p.name] + `" after 10s`,
					stallTimeout[p.name] + " after 5s",
					"arrivals [0s 0s 10s]",
				}
				if !slices.Equal(got, want) {
					t.Errorf("got  %q\nwant %q", got, want)
				}
			})
		})
	}
}

var stallTimeout = map[string]string{
	"openai":    timedOut,
	"anthropic": `error: anthropic: failed to create message: send request: Post "http://HOST/v1/messages": context deadline exceeded`,
	"ollama":    `error: Post "http://HOST/api/chat": context deadline exceeded`,
}

// TestCloseEndsWaits checks that Close ends stalled and delayed responses
// (their clients see a dropped connection) and waits for their handlers;
// goleak then finds no handler left.
func TestCloseEndsWaits(t *testing.T) {
	tests := []struct {
		name string
		step faultserver.Step
	}{
		{"stall", faultserver.Stall()},
		{"stall mid-body", faultserver.Stall("Hel")},
		{"after", faultserver.Reply("late").After(time.Hour)},
	}
	for _, srv := range servers {
		for _, tt := range tests {
			t.Run(srv.name+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				arrived := make(chan struct{})
				s := srv.new(faultserver.Func(func(*faultserver.Request) faultserver.Step {
					close(arrived)
					return tt.step
				}))
				m := model(t, s, openaiProvider)
				done := make(chan string)
				go func() { done <- generate(m, false, time.Hour) }()
				<-arrived
				s.Close()
				got := <-done
				if !strings.HasPrefix(got, "error: ") {
					t.Errorf("got %s after Close, want an error", got)
				}
			})
		}
	}
}

func TestCloseTwice(t *testing.T) {
	s := faultserver.New()
	s.Close()
	s.Close()
	_, err := s.Client().Post(s.OpenAIBaseURL()+"/chat/completions", "application/json", strings.NewReader(`{}`))
	if err == nil {
		t.Error("got nil error from a closed server, want a connection error")
	}
}

func TestInMemoryDialAfterClose(t *testing.T) {
	s := faultserver.NewInMemory()
	s.Close()
	_, err := s.Client().Post(s.OpenAIBaseURL()+"/chat/completions", "application/json", strings.NewReader(`{}`))
	if !errors.Is(err, net.ErrClosed) {
		t.Errorf("got %v from a closed in-memory server, want net.ErrClosed", err)
	}
}

func TestModelForEachFormat(t *testing.T) {
	s := faultserver.New(faultserver.Reply("Hello"))
	defer s.Close()
	for _, f := range []faultserver.Format{faultserver.OpenAI, faultserver.Anthropic, faultserver.Ollama} {
		m, err := s.Model(f, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := llms.GenerateFromSinglePrompt(t.Context(), m, "hi"); err != nil || got != "Hello" {
			t.Errorf("%v: got (%q, %v), want Hello", f, got, err)
		}
	}
	if got := s.Requests(); len(got) != 3 || got[0].Format != faultserver.OpenAI || got[1].Format != faultserver.Anthropic || got[2].Format != faultserver.Ollama {
		t.Errorf("requests: got %d, in formats %v %v %v", len(got), got[0].Format, got[1].Format, got[2].Format)
	}
	if _, err := s.Model(faultserver.Format(9), nil); err == nil {
		t.Errorf("an unknown format built a client")
	}
}

// TestInFlight: the server counts the requests it answers at once, and the
// most it answered at once; a request ends when it is answered, and one
// whose client gave up ends too.
func TestInFlight(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.Reply("ok").After(time.Second))
		defer s.Close()
		m := model(t, s, openaiProvider)
		var wg sync.WaitGroup
		for range 3 {
			wg.Go(func() { generate(m, false, time.Minute) })
		}
		synctest.Wait()
		if got := s.InFlight(); got != 3 {
			t.Errorf("while answering: %d in flight, want 3", got)
		}
		wg.Wait()
		generate(m, false, time.Minute) // alone
		generate(m, false, time.Millisecond)
		synctest.Wait()
		if in, most := s.InFlight(), s.MaxInFlight(); in != 0 || most != 3 {
			t.Errorf("after: %d in flight, %d at most; want 0, 3", in, most)
		}
	})
}
