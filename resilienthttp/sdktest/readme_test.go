package sdktest

import (
	"context"
	"net/http"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	anthropicoption "github.com/anthropics/anthropic-sdk-go/option"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	goopenai "github.com/sashabaranov/go-openai"
	"google.golang.org/genai"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/resilienthttp"
)

// TestDocSnippets runs the code README.md and docs/resilienthttp.md quote
// (the root module's TestREADMEQuotesTestedCode checks the quotes against
// the marked regions) against a fault server over TCP, through each SDK's
// defaults: an overload, then the answer.
func TestDocSnippets(t *testing.T) {
	defer http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	ctx := context.Background()
	srv := faultserver.New()
	defer srv.Close()
	t.Setenv("OPENAI_BASE_URL", srv.OpenAIBaseURL()+"/")
	t.Setenv("OPENAI_API_KEY", "sk-test")
	t.Setenv("ANTHROPIC_BASE_URL", srv.URL+"/")
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-test")
	t.Setenv("GOOGLE_GEMINI_BASE_URL", srv.URL)
	t.Setenv("GEMINI_API_KEY", "gemini-test")
	check := func(name string, got string, err error) {
		t.Helper()
		if err != nil || got != answer || srv.Count() != 2 {
			t.Errorf("%s: got %q, %v after %d requests; want %q after 2", name, got, err, srv.Count(), answer)
		}
	}

	srv.SetScript(faultserver.Overloaded(), faultserver.Reply(answer))
	// readme:begin openai-go
	client := openai.NewClient(option.WithMiddleware(resilienthttp.Middleware()))
	// readme:end
	resp, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "gpt-4o-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(question)}})
	check("openai-go", firstChoice(resp), err)

	srv = restart(t, srv)
	t.Setenv("ANTHROPIC_BASE_URL", srv.URL+"/")
	// readme:begin anthropic-sdk-go
	claude := anthropic.NewClient(anthropicoption.WithMiddleware(resilienthttp.Middleware()))
	// readme:end
	msg, err := claude.Messages.New(ctx, anthropic.MessageNewParams{Model: "claude-sonnet-4-5", MaxTokens: 1024,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(question))}})
	if err != nil {
		msg = &anthropic.Message{}
	}
	check("anthropic-sdk-go", text(msg), err)

	srv = restart(t, srv)
	cfg := goopenai.DefaultConfig("sk-test")
	cfg.BaseURL = srv.OpenAIBaseURL()
	// readme:begin go-openai
	cfg.HTTPClient = &http.Client{Transport: resilienthttp.Transport(nil)}
	// readme:end
	out, err := goopenai.NewClientWithConfig(cfg).CreateChatCompletion(ctx, goopenai.ChatCompletionRequest{Model: goopenai.GPT4oMini,
		Messages: []goopenai.ChatCompletionMessage{{Role: goopenai.ChatMessageRoleUser, Content: question}}})
	got := ""
	if err == nil {
		got = out.Choices[0].Message.Content
	}
	check("go-openai", got, err)

	srv = restart(t, srv)
	t.Setenv("GOOGLE_GEMINI_BASE_URL", srv.URL)
	// readme:begin go-genai
	gemini, err := genai.NewClient(ctx, &genai.ClientConfig{
		Backend:    genai.BackendGeminiAPI,
		HTTPClient: &http.Client{Transport: resilienthttp.Transport(nil)},
	})
	// readme:end
	if err != nil {
		t.Fatal(err)
	}
	g, err := gemini.Models.GenerateContent(ctx, "gemini-2.0-flash", genai.Text(question), nil)
	got = ""
	if err == nil {
		got = g.Text()
	}
	check("go-genai", got, err)
}

// restart closes srv and returns a new server playing an overload, then
// the answer.
func restart(t *testing.T, srv *faultserver.Server) *faultserver.Server {
	srv.Close()
	s := faultserver.New(faultserver.Overloaded(), faultserver.Reply(answer))
	t.Cleanup(s.Close)
	return s
}

func firstChoice(resp *openai.ChatCompletion) string {
	if resp == nil || len(resp.Choices) == 0 {
		return ""
	}
	return resp.Choices[0].Message.Content
}
