package faultserver_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/ollama"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/resilientgo/resilient/faultserver"
)

// The usage a request records is what the real client read from the reply:
// each client's own GenerationInfo keys, for every format, streamed or not,
// text or tool calls.
func TestRequestRecordsTheUsageTheReplyReported(t *testing.T) {
	keys := map[faultserver.Format][2]string{
		faultserver.OpenAI:    {"PromptTokens", "CompletionTokens"},
		faultserver.Anthropic: {"InputTokens", "OutputTokens"},
		faultserver.Ollama:    {"PromptTokens", "CompletionTokens"},
	}
	replies := []struct {
		name string
		step faultserver.Step
	}{
		{"text", faultserver.ReplyChunks("one ", "two ", "three")},
		{"tool calls", faultserver.ReplyToolCalls(faultserver.ToolCall{ID: "c1", Name: "lookup", Arguments: `{"id":"4471"}`})},
	}
	for _, f := range []faultserver.Format{faultserver.OpenAI, faultserver.Anthropic, faultserver.Ollama} {
		for _, r := range replies {
			for _, stream := range []bool{false, true} {
				t.Run(f.String()+"/"+r.name+"/"+streamName(stream), func(t *testing.T) {
					s := faultserver.New(r.step)
					defer s.Close()
					llm, err := s.Model(f, nil)
					if err != nil {
						t.Fatal(err)
					}
					opts := []llms.CallOption{llms.WithTools([]llms.Tool{lookupTool})}
					if stream {
						opts = append(opts, llms.WithStreamingFunc(func(context.Context, []byte) error { return nil }))
					}
					resp, err := llm.GenerateContent(context.Background(), []llms.MessageContent{
						llms.TextParts(llms.ChatMessageTypeHuman, strings.Repeat("where is my order? ", 9)),
					}, opts...)
					if err != nil {
						t.Fatal(err)
					}
					info := resp.Choices[0].GenerationInfo
					req := s.Requests()[0]
					if got, want := req.InputTokens, asInt(t, info[keys[f][0]]); got != want || got == 0 {
						t.Errorf("InputTokens = %d, the client read %d", got, want)
					}
					if got, want := req.OutputTokens, asInt(t, info[keys[f][1]]); got != want || got == 0 {
						t.Errorf("OutputTokens = %d, the client read %d", got, want)
					}
				})
			}
		}
	}
}

func streamName(stream bool) string {
	if stream {
		return "stream"
	}
	return "whole"
}

var lookupTool = llms.Tool{Type: "function", Function: &llms.FunctionDefinition{
	Name: "lookup", Description: "Looks up an order.",
	Parameters: map[string]any{"type": "object", "properties": map[string]any{"id": map[string]any{"type": "string"}}},
}}

func asInt(t *testing.T, v any) int {
	t.Helper()
	switch v := v.(type) {
	case int:
		return v
	case float64:
		return int(v)
	}
	t.Fatalf("usage value %v of type %T", v, v)
	return 0
}

// A reply that reports no usage, or is not sent whole, records none.
func TestRequestRecordsNoUsageWithoutAWholeReply(t *testing.T) {
	cases := []struct {
		name string
		step faultserver.Step
		call func(s *faultserver.Server) error
	}{
		{"error status", faultserver.Overloaded(), openaiCall(nil)},
		{"dropped stream", faultserver.DropStream("one ", "two"), openaiCall(func(context.Context, []byte) error { return nil })},
		{"truncated body", faultserver.TruncatedJSON(), openaiCall(nil)},
		{"ollama stream without its end", faultserver.NoEndMarker("one"), func(s *faultserver.Server) error {
			llm, err := s.Ollama(ollama.WithHTTPClient(s.Client()))
			if err != nil {
				return err
			}
			_, err = llm.Call(context.Background(), "hi")
			return err
		}},
		{"openai stream without the usage chunk", faultserver.Reply("ok"), func(s *faultserver.Server) error {
			// langchaingo always asks for the usage chunk: a raw request does not.
			resp, err := s.Client().Post(s.OpenAIBaseURL()+"/chat/completions", "application/json",
				strings.NewReader(`{"model":"gpt-4o-mini","stream":true,"messages":[{"role":"user","content":"hi"}]}`))
			if err != nil {
				return err
			}
			defer resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("status %d", resp.StatusCode)
			}
			return nil
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := faultserver.New(c.step)
			defer s.Close()
			_ = c.call(s) // the outcome is the client's; the record is the server's
			req := s.Requests()[0]
			if req.InputTokens != 0 || req.OutputTokens != 0 {
				t.Errorf("recorded %d+%d tokens, want none", req.InputTokens, req.OutputTokens)
			}
		})
	}
}

func openaiCall(stream func(context.Context, []byte) error) func(*faultserver.Server) error {
	return func(s *faultserver.Server) error {
		llm, err := s.OpenAI(openai.WithHTTPClient(s.Client()))
		if err != nil {
			return err
		}
		var opts []llms.CallOption
		if stream != nil {
			opts = append(opts, llms.WithStreamingFunc(stream))
		}
		_, err = llm.Call(context.Background(), "hi", opts...)
		return err
	}
}
