package resilienthttp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"go.uber.org/goleak"

	"github.com/resilientgo/resilient/faultserver"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// chat is a chat completion request as an OpenAI SDK sends it; a stream
// asks for its usage.
func chat(model string, stream bool) []byte {
	req := map[string]any{
		"model":    model,
		"messages": []map[string]string{{"role": "user", "content": "Where is order 4471?"}},
		"stream":   stream,
	}
	if stream {
		req["stream_options"] = map[string]bool{"include_usage": true}
	}
	b, _ := json.Marshal(req)
	return b
}

// post sends body to the server's OpenAI chat endpoint through client,
// and returns the status and the whole body read (or the error).
func post(ctx context.Context, client *http.Client, srv *faultserver.Server, body []byte) (int, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.OpenAIBaseURL()+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer sk-test")
	resp, err := client.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data), err
}

// answer returns the text of a chat completion or of a stream of chunks.
func answer(body string) string {
	var text string
	for _, line := range bytes.Split([]byte(body), []byte("\n")) {
		line = bytes.TrimPrefix(bytes.TrimSpace(line), []byte("data: "))
		var chunk struct {
			Choices []struct {
				Message struct{ Content string } `json:"message"`
				Delta   struct{ Content string } `json:"delta"`
			} `json:"choices"`
		}
		if json.Unmarshal(line, &chunk) != nil {
			continue
		}
		for _, c := range chunk.Choices {
			text += c.Message.Content + c.Delta.Content
		}
	}
	return text
}

// request is a chat completion request to the server.
func request(t *testing.T, srv *faultserver.Server, body []byte) *http.Request {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.OpenAIBaseURL()+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer sk-test")
	return req
}
