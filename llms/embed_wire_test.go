package llms_test

import (
	"testing"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/taxonomy"
)

// Embedding replies that succeed on the wire but cannot be used, and error
// objects under a 200: what each costs and how it ends.
func TestEmbedderUnusableReplies(t *testing.T) {
	openaiVec := func(embedding string) string {
		return `{"object":"list","data":[{"object":"embedding","index":0,"embedding":` + embedding + `}],"model":"text-embedding-3-small","usage":{"prompt_tokens":2,"total_tokens":2}}`
	}
	tests := []struct {
		name      string
		format    faultserver.Format
		first     faultserver.Step
		wantKind  taxonomy.Kind // 0: the retry answers
		wantCalls int
	}{
		{"openai server_error under 200", faultserver.OpenAI,
			faultserver.Raw(200, jsonType, `{"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}`), 0, 2},
		{"openai invalid input under 200", faultserver.OpenAI,
			faultserver.Raw(200, jsonType, `{"error":{"message":"'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.","type":"invalid_request_error","param":null,"code":null}}`), taxonomy.Permanent, 1},
		{"ollama model missing under 200", faultserver.Ollama,
			faultserver.Raw(200, jsonType, `{"error":"model \"nomic-embed-text\" not found, try pulling it first"}`), taxonomy.Permanent, 1},
		{"openai empty data", faultserver.OpenAI,
			faultserver.Raw(200, jsonType, `{"object":"list","data":[],"model":"text-embedding-3-small","usage":{"prompt_tokens":2,"total_tokens":2}}`), 0, 2},
		{"openai empty vector", faultserver.OpenAI, faultserver.Raw(200, jsonType, openaiVec(`[]`)), 0, 2},
		{"openai null vector", faultserver.OpenAI, faultserver.Raw(200, jsonType, openaiVec(`null`)), 0, 2},
		{"ollama no embeddings", faultserver.Ollama,
			faultserver.Raw(200, jsonType, `{"model":"nomic-embed-text","embeddings":[]}`), 0, 2},
		{"HTML under 200", faultserver.OpenAI, faultserver.Malformed(""), 0, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			forEach(t, []faultserver.Format{tt.format}, func(t *testing.T, f faultserver.Format) {
				s := faultserver.NewInMemory(tt.first, faultserver.Reply(""))
				defer s.Close()
				texts := someTexts(1)
				got, err := mustEmbedder(t, realEmbedder(t, s, f)).CreateEmbedding(t.Context(), texts)
				if tt.wantKind == 0 {
					if err != nil {
						t.Fatalf("got %v", err)
					}
					checkVectors(t, got, texts)
				} else if c := taxonomy.Classify(err); err == nil || c.Kind != tt.wantKind {
					t.Errorf("got %v (%v), want a failure of kind %v", c, err, tt.wantKind)
				}
				if s.Count() != tt.wantCalls {
					t.Errorf("requests: got %d, want %d", s.Count(), tt.wantCalls)
				}
			})
		})
	}
}
