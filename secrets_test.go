package resilient_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/internal/redact/redacttest"
	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

// reaching returns the secrets whose text a request body holds, as it is or
// as JSON writes it in a string.
func reaching(body string, secrets []redacttest.Secret) []string {
	var out []string
	for _, s := range secrets {
		quoted, _ := json.Marshal(s.Secret)
		if strings.Contains(body, s.Secret) || strings.Contains(body, string(quoted[1:len(quoted)-1])) {
			out = append(out, s.Shape)
		}
	}
	return out
}

// No secret reaches the model through a ToolError: agents.Executor runs a
// tool wrapped by resilient.Tool whose ToolErrors quote a credential of
// each shape, and the model's next request, sent by langchaingo's OpenAI
// client, holds none of them, but every message around them.
func TestToolErrorSecretsNeverReachTheModel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		secrets := redacttest.Secrets()
		calls := make([]faultserver.ToolCall, len(secrets))
		for i := range secrets {
			calls[i] = faultserver.ToolCall{ID: "c" + strconv.Itoa(i), Name: "lookup_order", Arguments: `{"__arg1":"` + strconv.Itoa(i) + `"}`}
		}
		s := faultserver.NewInMemory(faultserver.ReplyToolCalls(calls...), faultserver.Reply("Sorry, the order service is down."))
		defer s.Close()
		lookup := tools.Func("lookup_order", "Looks up an order by id.", func(_ context.Context, id string) (string, error) {
			i, _ := strconv.Atoi(id)
			return "", taxonomy.ToolErrorf("the order service said: %s", secrets[i].Text)
		})
		if _, err := runExecutor(t.Context(), resilient.Model(openaiAgainst(t, s)), resilient.Tool(lookup)); err != nil {
			t.Fatal(err)
		}
		next := string(s.Requests()[1].Body)
		if leaked := reaching(next, secrets); len(leaked) > 0 {
			t.Errorf("%d of %d secrets reached the model: %s", len(leaked), len(secrets), strings.Join(leaked, "; "))
		}
		if n := strings.Count(next, "the order service said: "); n != len(secrets) {
			t.Errorf("the model read %d of the %d messages", n, len(secrets))
		}
	})
}
