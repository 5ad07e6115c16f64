package resilienteino_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cloudwego/eino-ext/components/model/openai"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"go.uber.org/goleak"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/resilienteino"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// openaiModel is eino-ext's real openai chat model pointed at s, with the
// evidence transport over the server's own.
func openaiModel(t testing.TB, s *faultserver.Server) model.ToolCallingChatModel {
	t.Helper()
	cm, err := openai.NewChatModel(context.Background(), &openai.ChatModelConfig{
		APIKey:     "sk-test",
		Model:      "gpt-4o",
		BaseURL:    s.OpenAIBaseURL(),
		HTTPClient: &http.Client{Transport: resilienteino.Transport(s.Client().Transport)},
	})
	if err != nil {
		t.Fatal(err)
	}
	return cm
}

// bareModel is the same model without the evidence transport.
func bareModel(t testing.TB, s *faultserver.Server) model.ToolCallingChatModel {
	t.Helper()
	cm, err := openai.NewChatModel(context.Background(), &openai.ChatModelConfig{
		APIKey: "sk-test", Model: "gpt-4o", BaseURL: s.OpenAIBaseURL(), HTTPClient: s.Client(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return cm
}

func hello() []*schema.Message { return []*schema.Message{schema.UserMessage("Say hello")} }

// readAll reads a stream to its end and returns its text and the error
// that ended it (nil at EOF).
func readAll(sr *schema.StreamReader[*schema.Message]) (string, error) {
	defer sr.Close()
	var b strings.Builder
	for {
		chunk, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			return b.String(), nil
		}
		if err != nil {
			return b.String(), err
		}
		b.WriteString(chunk.Content)
	}
}

// gaps returns the time between the server's consecutive requests.
func gaps(s *faultserver.Server) []time.Duration {
	reqs := s.Requests()
	var out []time.Duration
	for i := 1; i < len(reqs); i++ {
		out = append(out, reqs[i].Time.Sub(reqs[i-1].Time))
	}
	return out
}
