package sdktest

import (
	"context"
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	anthropicoption "github.com/anthropics/anthropic-sdk-go/option"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	goopenai "github.com/sashabaranov/go-openai"
	"go.uber.org/goleak"
	"google.golang.org/genai"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/resilienthttp"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// caller makes one chat call with the question "Where is order 4471?",
// streamed or not, and returns the answer's text.
type caller func(ctx context.Context, stream bool) (string, error)

// sdk is one real SDK, plugged into the library as its users plug it.
type sdk struct {
	name   string
	format faultserver.Format
	// stainless: the SDK retries by itself (2 retries by default, left
	// on here) and counts its attempts in X-Stainless-Retry-Count.
	stainless bool
	// open builds the SDK's client for the server at base, sending
	// through hc, under the library configured by opts.
	open func(t *testing.T, base string, hc *http.Client, opts ...resilienthttp.Option) caller
	// status returns the HTTP status of the SDK's own error type in err,
	// 0 if err holds none.
	status func(err error) int
}

const question = "Where is order 4471?"

var sdks = []sdk{
	{name: "openai-go", format: faultserver.OpenAI, stainless: true, open: openOpenAI, status: func(err error) int {
		var e *openai.Error
		if errors.As(err, &e) {
			return e.StatusCode
		}
		return 0
	}},
	{name: "anthropic-sdk-go", format: faultserver.Anthropic, stainless: true, open: openAnthropic, status: func(err error) int {
		var e *anthropic.Error
		if errors.As(err, &e) {
			return e.StatusCode
		}
		return 0
	}},
	{name: "go-openai", format: faultserver.OpenAI, open: openGoOpenAI, status: func(err error) int {
		var api *goopenai.APIError
		var req *goopenai.RequestError
		switch {
		case errors.As(err, &api):
			return api.HTTPStatusCode
		case errors.As(err, &req):
			return req.HTTPStatusCode
		}
		return 0
	}},
	{name: "go-genai", format: faultserver.Gemini, open: openGenAI, status: func(err error) int {
		var e genai.APIError
		if errors.As(err, &e) {
			return e.Code
		}
		return 0
	}},
}

func openOpenAI(t *testing.T, base string, hc *http.Client, opts ...resilienthttp.Option) caller {
	client := openai.NewClient(
		option.WithBaseURL(base+"/v1/"),
		option.WithAPIKey("sk-test"),
		option.WithHTTPClient(hc),
		option.WithMiddleware(resilienthttp.Middleware(opts...)),
	)
	return func(ctx context.Context, stream bool) (string, error) {
		params := openai.ChatCompletionNewParams{
			Model:    "gpt-4o-mini",
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(question)},
		}
		if !stream {
			resp, err := client.Chat.Completions.New(ctx, params)
			if err != nil {
				return "", err
			}
			return resp.Choices[0].Message.Content, nil
		}
		params.StreamOptions.IncludeUsage = openai.Bool(true)
		s := client.Chat.Completions.NewStreaming(ctx, params)
		defer s.Close()
		var text string
		for s.Next() {
			if c := s.Current(); len(c.Choices) > 0 {
				text += c.Choices[0].Delta.Content
			}
		}
		return text, s.Err()
	}
}

func openAnthropic(t *testing.T, base string, hc *http.Client, opts ...resilienthttp.Option) caller {
	client := anthropic.NewClient(
		anthropicoption.WithBaseURL(base+"/"),
		anthropicoption.WithAPIKey("sk-ant-test"),
		anthropicoption.WithHTTPClient(hc),
		anthropicoption.WithMiddleware(resilienthttp.Middleware(opts...)),
	)
	return func(ctx context.Context, stream bool) (string, error) {
		params := anthropic.MessageNewParams{
			Model:     "claude-sonnet-4-5",
			MaxTokens: 1024,
			Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(question))},
		}
		if !stream {
			msg, err := client.Messages.New(ctx, params)
			if err != nil {
				return "", err
			}
			return text(msg), nil
		}
		s := client.Messages.NewStreaming(ctx, params)
		defer s.Close()
		var msg anthropic.Message
		for s.Next() {
			if err := msg.Accumulate(s.Current()); err != nil {
				return "", err
			}
		}
		return text(&msg), s.Err()
	}
}

func text(msg *anthropic.Message) string {
	var s string
	for _, b := range msg.Content {
		s += b.Text
	}
	return s
}

func openGoOpenAI(t *testing.T, base string, hc *http.Client, opts ...resilienthttp.Option) caller {
	cfg := goopenai.DefaultConfig("sk-test")
	cfg.BaseURL = base + "/v1"
	cfg.HTTPClient = &http.Client{Transport: resilienthttp.Transport(hc.Transport, opts...)}
	client := goopenai.NewClientWithConfig(cfg)
	return func(ctx context.Context, stream bool) (string, error) {
		req := goopenai.ChatCompletionRequest{
			Model:    goopenai.GPT4oMini,
			Messages: []goopenai.ChatCompletionMessage{{Role: goopenai.ChatMessageRoleUser, Content: question}},
		}
		if !stream {
			resp, err := client.CreateChatCompletion(ctx, req)
			if err != nil {
				return "", err
			}
			return resp.Choices[0].Message.Content, nil
		}
		req.Stream = true
		req.StreamOptions = &goopenai.StreamOptions{IncludeUsage: true}
		s, err := client.CreateChatCompletionStream(ctx, req)
		if err != nil {
			return "", err
		}
		defer s.Close()
		var text string
		for {
			chunk, err := s.Recv()
			if errors.Is(err, io.EOF) {
				return text, nil
			}
			if err != nil {
				return text, err
			}
			if len(chunk.Choices) > 0 {
				text += chunk.Choices[0].Delta.Content
			}
		}
	}
}

func openGenAI(t *testing.T, base string, hc *http.Client, opts ...resilienthttp.Option) caller {
	client, err := genai.NewClient(t.Context(), &genai.ClientConfig{
		APIKey:      "gemini-test",
		Backend:     genai.BackendGeminiAPI,
		HTTPClient:  &http.Client{Transport: resilienthttp.Transport(hc.Transport, opts...)},
		HTTPOptions: genai.HTTPOptions{BaseURL: base},
	})
	if err != nil {
		t.Fatal(err)
	}
	return func(ctx context.Context, stream bool) (string, error) {
		if !stream {
			resp, err := client.Models.GenerateContent(ctx, "gemini-2.0-flash", genai.Text(question), nil)
			if err != nil {
				return "", err
			}
			return resp.Text(), nil
		}
		var text string
		for resp, err := range client.Models.GenerateContentStream(ctx, "gemini-2.0-flash", genai.Text(question), nil) {
			if err != nil {
				return text, err
			}
			text += resp.Text()
		}
		return text, nil
	}
}
