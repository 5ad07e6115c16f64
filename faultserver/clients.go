package faultserver

import (
	"fmt"
	"net/http"

	"github.com/tmc/langchaingo/llms"
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

// Model returns the real langchaingo client of format f pointed at the
// server, as [Server.OpenAI], [Server.Anthropic] or [Server.Ollama] build it,
// with hc as its HTTP client (nil: [Server.Client]). Tests that run the same
// case against every provider loop over the formats with it.
func (s *Server) Model(f Format, hc *http.Client) (llms.Model, error) {
	if hc == nil {
		hc = s.Client()
	}
	switch f {
	case OpenAI:
		return s.OpenAI(openai.WithHTTPClient(hc))
	case Anthropic:
		return s.Anthropic(anthropic.WithHTTPClient(hc))
	case Ollama:
		return s.Ollama(ollama.WithHTTPClient(hc))
	}
	return nil, fmt.Errorf("faultserver: no client for format %v", f)
}
