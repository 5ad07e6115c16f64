package faultserver

import (
	"github.com/tmc/langchaingo/llms/anthropic"
	"github.com/tmc/langchaingo/llms/ollama"
	"github.com/tmc/langchaingo/llms/openai"
)

// OpenAI returns a real langchaingo OpenAI client pointed at the server:
// base URL [Server.OpenAIBaseURL], token "sk-test", model "gpt-4o-mini" and
// the HTTP client [Server.Client]. opts are applied last, so they win.
func (s *Server) OpenAI(opts ...openai.Option) (*openai.LLM, error) {
	base := []openai.Option{
		openai.WithBaseURL(s.OpenAIBaseURL()),
		openai.WithToken("sk-test"),
		openai.WithModel("gpt-4o-mini"),
		openai.WithHTTPClient(s.Client()),
	}
	return openai.New(append(base, opts...)...)
}

// Anthropic returns a real langchaingo Anthropic client pointed at the
// server: base URL [Server.AnthropicBaseURL], token "sk-ant-test", model
// "claude-3-5-haiku-latest" and the HTTP client [Server.Client]. opts are
// applied last, so they win.
func (s *Server) Anthropic(opts ...anthropic.Option) (*anthropic.LLM, error) {
	base := []anthropic.Option{
		anthropic.WithBaseURL(s.AnthropicBaseURL()),
		anthropic.WithToken("sk-ant-test"),
		anthropic.WithModel("claude-3-5-haiku-latest"),
		anthropic.WithHTTPClient(s.Client()),
	}
	return anthropic.New(append(base, opts...)...)
}

// Ollama returns a real langchaingo Ollama client pointed at the server:
// server URL [Server.OllamaURL], model "llama3.2" and the HTTP client
// [Server.Client]. opts are applied last, so they win.
func (s *Server) Ollama(opts ...ollama.Option) (*ollama.LLM, error) {
	base := []ollama.Option{
		ollama.WithServerURL(s.OllamaURL()),
		ollama.WithModel("llama3.2"),
		ollama.WithHTTPClient(s.Client()),
	}
	return ollama.New(append(base, opts...)...)
}
