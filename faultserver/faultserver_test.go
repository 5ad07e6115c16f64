package faultserver_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/anthropic"
	"go.uber.org/goleak"

	"github.com/resilientgo/resilient/faultserver"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// provider builds one real langchaingo client against a server and picks its
// expectation out of a case.
type provider struct {
	name  string
	model func(*faultserver.Server) (llms.Model, error)
	want  func(clientCase) []string
}

var providers = []provider{
	{
		name:  "openai",
		model: func(s *faultserver.Server) (llms.Model, error) { return s.OpenAI() },
		want:  func(c clientCase) []string { return c.openai },
	},
	{
		name:  "anthropic",
		model: func(s *faultserver.Server) (llms.Model, error) { return s.Anthropic() },
		want:  func(c clientCase) []string { return c.anthropic },
	},
	{
		name:  "ollama",
		model: func(s *faultserver.Server) (llms.Model, error) { return s.Ollama() },
		want:  func(c clientCase) []string { return c.ollama },
	},
}

// servers are the two transports: a real TCP listener, and the in-memory
// one inside a synctest bubble, which also checks that every fault shuts
// down cleanly there. stall is the caller deadline for cases that stall: on
// real time it leaves the server ample time to reach its stall, so that the
// deadline does not cut the request short before it arrives.
var servers = []struct {
	name  string
	new   func(...faultserver.Step) *faultserver.Server
	run   func(*testing.T, func(*testing.T))
	stall time.Duration
}{
	{"tcp", faultserver.New, func(t *testing.T, f func(*testing.T)) { f(t) }, 500 * time.Millisecond},
	{"memory", faultserver.NewInMemory, synctest.Test, 100 * time.Millisecond},
}

// deadline returns the caller deadline of a call: stall for cases that
// stall, else a deadline that a working server never reaches.
func deadline(stalls bool, stall time.Duration) time.Duration {
	if stalls {
		return stall
	}
	return 10 * time.Second
}

// clientCase is one step played to each real client. The wants are outcome
// summaries (see summarize); a case whose outcome is racy in the client lists
// every outcome it may have.
type clientCase struct {
	name   string
	step   faultserver.Step
	stream bool
	stalls bool // the server stalls until the caller's deadline

	openai, anthropic, ollama []string
}

// The ids number the fault cases measured against langchaingo v0.1.14's
// clients when this server was written: each is one way a provider fails.
var clientCases = []clientCase{
	{
		name:      "00 reply",
		step:      faultserver.Reply("Hello big world"),
		openai:    []string{`content="Hello big world" stop="stop"`},
		anthropic: []string{`content="Hello big world" stop="end_turn"`},
		ollama:    []string{`content="Hello big world" stop=""`},
	},
	{
		name:      "00s reply stream",
		step:      faultserver.ReplyChunks("Hel", "lo"),
		stream:    true,
		openai:    []string{`content="Hello" stop="stop" chunks=["Hel" "lo" ""]`},
		anthropic: []string{`content="Hello" stop="end_turn" chunks=["Hel" "lo"]`},
		ollama:    []string{`content="Hello" stop="" chunks=["Hel" "lo" ""]`},
	},
	{
		name:      "00w reply stream split into words",
		step:      faultserver.Reply("Hello big world"),
		stream:    true,
		openai:    []string{`content="Hello big world" stop="stop" chunks=["Hello" " big" " world" ""]`},
		anthropic: []string{`content="Hello big world" stop="end_turn" chunks=["Hello" " big" " world"]`},
		ollama:    []string{`content="Hello big world" stop="" chunks=["Hello" " big" " world" ""]`},
	},
	{
		name:      "00t tool calls",
		step:      faultserver.ReplyToolCalls(toolCalls...),
		openai:    []string{`content="" stop="tool_calls" tools=[call_1 search {"q":"go"}; call_2 calc {"x":1}]`},
		anthropic: []string{`content="" stop="tool_use" tools=[call_1 search {"q":"go"}] | content="" stop="tool_use" tools=[call_2 calc {"x":1}]`},
		ollama:    []string{`content="" stop=""`},
	},
	{
		name:      "00ts tool calls stream",
		step:      faultserver.ReplyToolCalls(toolCalls...),
		stream:    true,
		openai:    []string{`content="" stop="tool_calls" tools=[call_1 search {"q":"go"}; call_2 calc {"x":1}] chunks=["[{\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"search\",\"arguments\":\"{\\\"q\\\":\\\"go\\\"}\"}}]" "[{\"id\":\"call_2\",\"type\":\"function\",\"function\":{\"name\":\"calc\",\"arguments\":\"{\\\"x\\\":1}\"}}]" ""]`},
		anthropic: []string{`content="" stop="tool_use" tools=[call_1 search {"q":"go"}] | content="" stop="tool_use" tools=[call_2 calc {"x":1}] chunks=[]`},
		ollama:    []string{`content="" stop="" chunks=["" ""]`},
	},
	{
		name:      "01 rate limited",
		step:      faultserver.RateLimited("7"),
		openai:    []string{`error: API returned unexpected status code: 429: Rate limit reached for gpt-4o-mini in organization org-test on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 7s. Visit https://platform.openai.com/account/rate-limits to learn more.`},
		anthropic: []string{`error: anthropic: failed to create message: API returned unexpected status code: 429: This request would exceed your organization's rate limit of 50 requests per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase.`},
		ollama:    []string{`error: rate limit exceeded`},
	},
	{
		name:      "01s rate limited stream",
		step:      faultserver.RateLimited(""),
		stream:    true,
		openai:    []string{`error: API returned unexpected status code: 429: Rate limit reached for gpt-4o-mini in organization org-test on requests per min (RPM): Limit 3, Used 3, Requested 1. Visit https://platform.openai.com/account/rate-limits to learn more. chunks=[]`},
		anthropic: []string{`error: anthropic: failed to create message: API returned unexpected status code: 429: This request would exceed your organization's rate limit of 50 requests per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase. chunks=[]`},
		ollama:    []string{`error: rate limit exceeded chunks=[]`},
	},
	{
		name:      "02a status 503",
		step:      faultserver.Status(503, "Service Unavailable"),
		openai:    []string{`error: API returned unexpected status code: 503: Service Unavailable`},
		anthropic: []string{`error: anthropic: failed to create message: API returned unexpected status code: 503: Service Unavailable`},
		ollama:    []string{`error: Service Unavailable`},
	},
	{
		name:      "02b overloaded",
		step:      faultserver.Overloaded(),
		openai:    []string{`error: API returned unexpected status code: 529: The server is overloaded or not ready yet.`},
		anthropic: []string{`error: anthropic: failed to create message: API returned unexpected status code: 529: Overloaded`},
		ollama:    []string{`error: server busy, please try again.  maximum pending requests exceeded`},
	},
	{
		name:      "03 server error with empty body",
		step:      faultserver.ServerError(),
		openai:    []string{`error: API returned unexpected status code: 500`},
		anthropic: []string{`error: anthropic: failed to create message: API returned unexpected status code: 500`},
		ollama:    []string{`content="" stop=""`},
	},
	{
		name:      "03b bad gateway html",
		step:      faultserver.BadGateway(),
		openai:    []string{`error: API returned unexpected status code: 502`},
		anthropic: []string{`error: anthropic: failed to create message: API returned unexpected status code: 502`},
		ollama:    []string{`error: invalid character '<' looking for beginning of value`},
	},
	{
		name:      "04 context overflow",
		step:      faultserver.ContextOverflow(),
		openai:    []string{`error: API returned unexpected status code: 400: This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens. Please reduce the length of the messages.`},
		anthropic: []string{`error: anthropic: failed to create message: API returned unexpected status code: 400: prompt is too long: 210000 tokens > 200000 maximum`},
		ollama:    []string{`error: input length exceeds the context length`},
	},
	{
		name:      "05 invalid api key",
		step:      faultserver.InvalidAPIKey(),
		openai:    []string{`error: API returned unexpected status code: 401: Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys.`},
		anthropic: []string{`error: anthropic: failed to create message: API returned unexpected status code: 401: invalid x-api-key`},
		ollama:    []string{`error: unauthorized`},
	},
	{
		name:      "05q quota exceeded",
		step:      faultserver.QuotaExceeded(),
		openai:    []string{`error: API returned unexpected status code: 429: You exceeded your current quota, please check your plan and billing details.`},
		anthropic: []string{`error: anthropic: failed to create message: API returned unexpected status code: 400: Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.`},
		ollama:    []string{`error: quota exceeded`},
	},
	{
		name:      "07 hang up",
		step:      faultserver.HangUp(),
		openai:    []string{`error: network error: failed to reach API server`},
		anthropic: []string{`error: anthropic: failed to create message: send request: Post "http://HOST/v1/messages": EOF`},
		ollama:    []string{`error: Post "http://HOST/api/chat": EOF`},
	},
	{
		name:      "07s hang up stream",
		step:      faultserver.HangUp(),
		stream:    true,
		openai:    []string{`error: network error: failed to reach API server chunks=[]`},
		anthropic: []string{`error: anthropic: failed to create message: send request: Post "http://HOST/v1/messages": EOF chunks=[]`},
		ollama:    []string{`error: Post "http://HOST/api/chat": EOF chunks=[]`},
	},
	{
		name:      "08a drop stream",
		step:      faultserver.DropStream("Hel", "lo"),
		stream:    true,
		openai:    []string{`error: error reading streaming response: unexpected EOF chunks=["Hel" "lo"]`},
		anthropic: []string{`error: anthropic: failed to create message: issue scanning response: unexpected EOF chunks=["Hel" "lo"]`},
		ollama:    []string{`content="" stop="" chunks=["Hel" "lo"]`},
	},
	{
		name:      "08a drop non-streaming reply",
		step:      faultserver.DropStream("Hel", "lo"),
		openai:    []string{`error: unexpected EOF`},
		anthropic: []string{`error: anthropic: failed to create message: parse response: unexpected EOF`},
		ollama:    []string{`content="" stop=""`},
	},
	{
		name:      "08b no end marker",
		step:      faultserver.NoEndMarker("Hel", "lo"),
		stream:    true,
		openai:    []string{`content="Hello" stop="" chunks=["Hel" "lo"]`},
		anthropic: []string{`error: no response chunks=["Hel" "lo"]`},
		ollama:    []string{`content="" stop="" chunks=["Hel" "lo"]`},
	},
	{
		name:      "08b no end marker, non-streaming",
		step:      faultserver.NoEndMarker("Hel", "lo"),
		openai:    []string{`content="Hello" stop="stop"`},
		anthropic: []string{`content="Hello" stop="end_turn"`},
		ollama:    []string{`content="" stop=""`},
	},
	{
		name:      "08c in-band error",
		step:      faultserver.InBandError("overloaded_error", "Overloaded", "Hel"),
		stream:    true,
		openai:    []string{`content="Hel" stop="" chunks=["Hel"]`},
		anthropic: []string{`error: anthropic: failed to create message: received error event: map[error:map[message:Overloaded type:overloaded_error] type:error] chunks=["Hel"]`},
		ollama:    []string{`error: Overloaded chunks=["Hel"]`},
	},
	{
		name:      "08c in-band error, non-streaming",
		step:      faultserver.InBandError("overloaded_error", "Overloaded"),
		openai:    []string{`error: empty response`},
		anthropic: []string{`error: no response`},
		ollama:    []string{`error: Overloaded`},
	},
	{
		name:      "09 stall before headers",
		step:      faultserver.Stall(),
		stalls:    true,
		openai:    []string{`error: request timeout: API call exceeded deadline`},
		anthropic: []string{`error: anthropic: failed to create message: send request: Post "http://HOST/v1/messages": context deadline exceeded`},
		ollama:    []string{`error: Post "http://HOST/api/chat": context deadline exceeded`},
	},
	{
		name:   "09b stall mid-stream",
		step:   faultserver.Stall("Hel", "lo"),
		stream: true,
		stalls: true,
		openai: []string{
			`error: error reading streaming response: context deadline exceeded chunks=["Hel" "lo"]`,
			`content="Hello" stop="" chunks=["Hel" "lo"]`, // the client's select is racy
		},
		anthropic: []string{`error: anthropic: failed to create message: issue scanning response: context deadline exceeded chunks=["Hel" "lo"]`},
		ollama:    []string{`content="" stop="" chunks=["Hel" "lo"]`},
	},
	{
		name:      "09h stall after headers, non-streaming",
		step:      faultserver.Stall("Hel", "lo"),
		stalls:    true,
		openai:    []string{`error: context deadline exceeded`},
		anthropic: []string{`error: anthropic: failed to create message: parse response: context deadline exceeded`},
		ollama:    []string{`content="" stop=""`},
	},
	{
		name:      "10a malformed",
		step:      faultserver.Malformed(""),
		openai:    []string{`error: invalid character '<' looking for beginning of value`},
		anthropic: []string{`error: anthropic: failed to create message: parse response: invalid character '<' looking for beginning of value`},
		ollama:    []string{`error: invalid character '<' looking for beginning of value`},
	},
	{
		name:      "10a malformed stream",
		step:      faultserver.Malformed("upstream connect error"),
		stream:    true,
		openai:    []string{`content="" stop="" chunks=[]`},
		anthropic: []string{`error: no response chunks=[]`},
		ollama:    []string{`error: invalid character 'u' looking for beginning of value chunks=[]`},
	},
	{
		name:      "10b truncated json",
		step:      faultserver.TruncatedJSON(),
		openai:    []string{`error: unexpected EOF`},
		anthropic: []string{`error: anthropic: failed to create message: parse response: unexpected EOF`},
		ollama:    []string{`error: unexpected end of JSON input`},
	},
	{
		name:      "10b truncated json to a streaming request",
		step:      faultserver.TruncatedJSON(),
		stream:    true,
		openai:    []string{`error: error reading streaming response: unexpected EOF chunks=[]`},
		anthropic: []string{`error: anthropic: failed to create message: issue scanning response: unexpected EOF chunks=[]`},
		ollama:    []string{`error: unexpected end of JSON input chunks=[]`},
	},
	{
		name:      "status with type and code",
		step:      faultserver.Status(418, "I'm a teapot").WithType("teapot_error").WithCode("short_and_stout"),
		openai:    []string{`error: API returned unexpected status code: 418: I'm a teapot`},
		anthropic: []string{`error: anthropic: failed to create message: API returned unexpected status code: 418: I'm a teapot`},
		ollama:    []string{`error: I'm a teapot`},
	},
	{
		name:      "func step",
		step:      faultserver.Func(func(r *faultserver.Request) faultserver.Step { return faultserver.Reply(r.Format.String()) }),
		openai:    []string{`content="openai" stop="stop"`},
		anthropic: []string{`content="anthropic" stop="end_turn"`},
		ollama:    []string{`content="ollama" stop=""`},
	},
}

var toolCalls = []faultserver.ToolCall{
	{ID: "call_1", Name: "search", Arguments: `{"q":"go"}`},
	{ID: "call_2", Name: "calc", Arguments: `{"x":1}`},
}

// TestClients plays each step to each real langchaingo client, over TCP and
// in memory, and pins what the client returns.
func TestClients(t *testing.T) {
	for _, srv := range servers {
		for _, tc := range clientCases {
			for _, p := range providers {
				t.Run(srv.name+"/"+tc.name+"/"+p.name, func(t *testing.T) {
					t.Parallel()
					srv.run(t, func(t *testing.T) {
						s := srv.new(tc.step)
						defer s.Close()
						got := call(t, s, p, tc.stream, deadline(tc.stalls, srv.stall))
						if want := p.want(tc); !slices.Contains(want, got) {
							t.Errorf("got  %s\nwant %s", got, strings.Join(want, "\n  or "))
						}
					})
				})
			}
		}
	}
}

// TestKeepAlive plays each fault on a connection that already served a
// reply, then checks that the next request on the same client recovers.
func TestKeepAlive(t *testing.T) {
	for _, srv := range servers {
		for _, tc := range clientCases {
			for _, p := range providers {
				t.Run(srv.name+"/"+tc.name+"/"+p.name, func(t *testing.T) {
					t.Parallel()
					srv.run(t, func(t *testing.T) {
						s := srv.new(faultserver.Reply("warm"), tc.step, faultserver.Reply("again"))
						defer s.Close()
						calls := []string{
							call(t, s, p, false, 10*time.Second),
							call(t, s, p, tc.stream, deadline(tc.stalls, srv.stall)),
							call(t, s, p, false, 10*time.Second),
						}
						want := []string{
							`content="warm" stop="` + stopReason[p.name] + `"`,
							strings.Join(p.want(tc), " or "),
							`content="again" stop="` + stopReason[p.name] + `"`,
						}
						if !slices.Contains(p.want(tc), calls[1]) || calls[0] != want[0] || calls[2] != want[2] {
							t.Errorf("got  %q\nwant %q", calls, want)
						}
					})
				})
			}
		}
	}
}

var stopReason = map[string]string{"openai": "stop", "anthropic": "end_turn", "ollama": ""}

var hostPort = regexp.MustCompile(`127\.0\.0\.1:\d+|faultserver\.test`)

// call makes one GenerateContent call through provider p; see generate.
func call(t *testing.T, s *faultserver.Server, p provider, stream bool, timeout time.Duration) string {
	t.Helper()
	return generate(model(t, s, p), stream, timeout)
}

func model(t *testing.T, s *faultserver.Server, p provider) llms.Model {
	t.Helper()
	m, err := p.model(s)
	if err != nil {
		t.Fatalf("%s client: %v", p.name, err)
	}
	return m
}

// generate makes one GenerateContent call and summarizes the outcome:
// `error: <text>` or the choices, then the streamed chunks.
func generate(m llms.Model, stream bool, timeout time.Duration) string {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var (
		mu     sync.Mutex
		chunks = []string{}
		opts   []llms.CallOption
	)
	if stream {
		opts = append(opts, llms.WithStreamingFunc(func(_ context.Context, b []byte) error {
			mu.Lock()
			defer mu.Unlock()
			chunks = append(chunks, string(b))
			return nil
		}))
	}
	resp, err := m.GenerateContent(ctx, []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "Hi")}, opts...)
	out := summarize(resp, err)
	if stream {
		mu.Lock()
		out += fmt.Sprintf(" chunks=%q", chunks)
		mu.Unlock()
	}
	return out
}

func summarize(resp *llms.ContentResponse, err error) string {
	if err != nil {
		return "error: " + hostPort.ReplaceAllString(err.Error(), "HOST")
	}
	var choices []string
	for _, c := range resp.Choices {
		s := fmt.Sprintf("content=%q stop=%q", c.Content, c.StopReason)
		var tools []string
		for _, tc := range c.ToolCalls {
			tools = append(tools, tc.ID+" "+tc.FunctionCall.Name+" "+tc.FunctionCall.Arguments)
		}
		if len(tools) > 0 {
			s += " tools=[" + strings.Join(tools, "; ") + "]"
		}
		choices = append(choices, s)
	}
	return strings.Join(choices, " | ")
}

// TestErrorIdentity pins the errors.Is matches a classifier can rely on.
func TestErrorIdentity(t *testing.T) {
	tests := []struct {
		name   string
		p      provider
		step   faultserver.Step
		stream bool
		stalls bool
		target error
	}{
		{"openai drop stream", providers[0], faultserver.DropStream("Hel"), true, false, io.ErrUnexpectedEOF},
		{"anthropic drop stream", providers[1], faultserver.DropStream("Hel"), true, false, io.ErrUnexpectedEOF},
		{"openai truncated json", providers[0], faultserver.TruncatedJSON(), false, false, io.ErrUnexpectedEOF},
		{"anthropic truncated json", providers[1], faultserver.TruncatedJSON(), false, false, io.ErrUnexpectedEOF},
		{"anthropic no end marker", providers[1], faultserver.NoEndMarker("Hel"), true, false, anthropic.ErrEmptyResponse},
		{"anthropic hang up", providers[1], faultserver.HangUp(), false, false, io.EOF},
		{"ollama hang up", providers[2], faultserver.HangUp(), false, false, io.EOF},
		{"anthropic stall", providers[1], faultserver.Stall(), false, true, context.DeadlineExceeded},
		{"ollama stall", providers[2], faultserver.Stall(), false, true, context.DeadlineExceeded},
		{"anthropic stall mid-stream", providers[1], faultserver.Stall("Hel"), true, true, context.DeadlineExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				s := faultserver.NewInMemory(tt.step)
				defer s.Close()
				ctx, cancel := context.WithTimeout(context.Background(), deadline(tt.stalls, time.Second))
				defer cancel()
				var opts []llms.CallOption
				if tt.stream {
					opts = append(opts, llms.WithStreamingFunc(func(context.Context, []byte) error { return nil }))
				}
				_, err := model(t, s, tt.p).GenerateContent(ctx, []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "Hi")}, opts...)
				if !errors.Is(err, tt.target) {
					t.Errorf("got %v, want an error matching %v", err, tt.target)
				}
			})
		})
	}
}
