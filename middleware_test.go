package resilient_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/embeddings"
	lcllms "github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"
	lctools "github.com/tmc/langchaingo/tools"
	"go.uber.org/goleak"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/internal/scripted"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

// End-to-end tests through the public API only: langchaingo's real
// agents.Executor and real OpenAI client, a loopback fault server, wrapped
// models and tools.

func TestMain(m *testing.M) {
	if dir := os.Getenv(shopEnv); dir != "" {
		// The README's MCP server (readme_mcp_test.go), started by a test.
		if err := serveShop(dir); err != nil {
			fmt.Fprintln(os.Stderr, "shop-server:", err)
			os.Exit(1)
		}
		return
	}
	goleak.VerifyTestMain(m)
}

func openaiAgainst(t *testing.T, s *faultserver.Server) lcllms.Model {
	t.Helper()
	llm, err := s.OpenAI(openai.WithHTTPClient(&http.Client{Transport: llms.NewTransport(s.Client().Transport)}))
	if err != nil {
		t.Fatal(err)
	}
	return llm
}

// lookupOrder knows one order; for any other it tells the model, which can
// correct its call.
var lookupOrder = tools.Func("lookup_order", "Looks up an order by id.", func(_ context.Context, id string) (string, error) {
	if !strings.Contains(id, "4471") {
		return "", taxonomy.ToolErrorf("no order '%s'", strings.Trim(id, `{}"_arg1: `))
	}
	return "order 4471: shipped Tuesday", nil
})

func runExecutor(ctx context.Context, model lcllms.Model, ts ...lctools.Tool) (string, error) {
	executor := agents.NewExecutor(agents.NewOpenAIFunctionsAgent(model, ts), agents.WithMaxIterations(6))
	return chains.Run(ctx, executor, "Where is my order?")
}

func TestAgentRunSurvivesProviderFaultsAndToolErrors(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(
			faultserver.RateLimited("2"),
			faultserver.ReplyToolCalls(faultserver.ToolCall{ID: "c1", Name: "lookup_order", Arguments: `{"__arg1":"9999"}`}),
			faultserver.Overloaded(),
			faultserver.ReplyToolCalls(faultserver.ToolCall{ID: "c2", Name: "lookup_order", Arguments: `{"__arg1":"4471"}`}),
			faultserver.Reply("Order 4471 shipped on Tuesday."),
		)
		defer s.Close()
		ctx := resilient.NewRun(t.Context())
		answer, err := runExecutor(ctx, resilient.Model(openaiAgainst(t, s)), resilient.Tool(lookupOrder))
		if err != nil || answer != "Order 4471 shipped on Tuesday." {
			t.Fatalf("run: got (%q, %v), want the answer", answer, err)
		}
		if s.Count() != 5 {
			t.Errorf("requests: got %d, want 5 (two faults, three answers)", s.Count())
		}
		reqs := s.Requests()
		if !strings.Contains(string(reqs[3].Body), "no order '9999'") {
			t.Errorf("the ToolError did not reach the model: %s", reqs[3].Body)
		}
		if reqs[1].Time.Sub(reqs[0].Time) != 2*time.Second {
			t.Errorf("Retry-After: waited %v, want 2s", reqs[1].Time.Sub(reqs[0].Time))
		}
		if got := resilient.RunFrom(ctx).Retries(); got != 2 {
			t.Errorf("run retries: got %d, want 2", got)
		}
	})
}

func TestInternalToolErrorsNeverReachTheModel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(
			faultserver.ReplyToolCalls(faultserver.ToolCall{ID: "c1", Name: "billing", Arguments: `{"__arg1":"4471"}`}),
			faultserver.Reply("Sorry, billing is unavailable."),
		)
		defer s.Close()
		billing := tools.Func("billing", "Bills an order.", func(context.Context, string) (string, error) {
			return "", errors.New("dial tcp 10.0.0.7:5432: password authentication failed for user billing (key sk-live-SECRET123)")
		})
		_, err := runExecutor(t.Context(), resilient.Model(openaiAgainst(t, s)), resilient.Tool(billing))
		if err != nil {
			t.Fatal(err)
		}
		second := string(s.Requests()[1].Body)
		if strings.Contains(second, "SECRET") || strings.Contains(second, "10.0.0.7") {
			t.Errorf("internal details reached the model: %s", second)
		}
		if !strings.Contains(second, "Error: billing failed internally (*errors.errorString)") {
			t.Errorf("the model was not told the tool failed: %s", second)
		}
	})
}

func TestFatalToolErrorEndsTheRunWithOneModelCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(
			faultserver.ReplyToolCalls(faultserver.ToolCall{ID: "c1", Name: "charge", Arguments: `{"__arg1":"4471"}`}),
			faultserver.Reply("unreachable"),
		)
		defer s.Close()
		charge := tools.Func("charge", "Charges an order.", func(context.Context, string) (string, error) {
			return "", taxonomy.NewFatalToolError(errors.New("payment authorization failed"))
		})
		_, err := runExecutor(t.Context(), resilient.Model(openaiAgainst(t, s)), resilient.Tool(charge))
		var fatal *taxonomy.FatalToolError
		if !errors.As(err, &fatal) || fatal.Tool != "charge" || s.Count() != 1 {
			t.Fatalf("got %v after %d model calls, want the fatal error of charge after 1", err, s.Count())
		}
	})
}

func TestNestedWrappersMakeThreeRequests(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.ServerError())
		defer s.Close()
		model := resilient.Model(resilient.Model(resilient.Model(openaiAgainst(t, s))))
		_, err := model.Call(t.Context(), "hi")
		if s.Count() != 3 {
			t.Errorf("requests through three wrapped layers: got %d, want 3", s.Count())
		}
		var final *middleware.Error
		if !errors.As(err, &final) || final.Reason != observe.ReasonExhausted || len(final.Attempts) != 3 {
			t.Errorf("got %v, want the innermost diagnosis of 3 attempts", err)
		}
	})
}

func TestRunBudgetSpansModelsAndTools(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.Overloaded(), faultserver.Overloaded(), faultserver.Reply("ok"))
		defer s.Close()
		calls := 0
		flaky := tools.Func("search", "Searches.", func(context.Context, string) (string, error) {
			calls++
			return "", errors.New("connection reset by peer")
		})
		ctx := resilient.NewRun(t.Context(), resilient.RetryBudget(2))
		if _, err := resilient.Model(openaiAgainst(t, s)).Call(ctx, "hi"); err != nil {
			t.Fatal(err)
		}
		out, err := resilient.Tool(flaky, resilient.SafeToRetry()).Call(ctx, "q")
		if err != nil || calls != 1 || !strings.Contains(out, "failed internally") {
			t.Errorf("tool: got (%q, %v) after %d calls, want one call: the model spent the budget", out, err, calls)
		}
		if run := resilient.RunFrom(ctx); run.Retries() != 2 || run.Refusals() != 1 {
			t.Errorf("run: %d retries, %d refusals; want 2 and 1", run.Retries(), run.Refusals())
		}
	})
}

// TestBadInputGetsAClearError: what the compiler cannot see is reported by
// the constructor (an option given to a target it does not apply to does
// not compile: see TestMisuseDoesNotCompile).
func TestBadInputGetsAClearError(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		call func() error
		want string
	}{
		{"nil model", func() error { _, err := resilient.Model(nil).Call(ctx, "hi"); return err }, "nil model"},
		{"invalid attempts", func() error {
			_, err := resilient.Model(openaiModel(t), resilient.MaxAttempts(0)).Call(ctx, "hi")
			return err
		}, "MaxAttempts(0)"},
		{"nil tool", func() error { _, err := resilient.Tool(nil).Call(ctx, "x"); return err }, "tools: nil tool"},
		{"typed nil tool", func() error { _, err := resilient.Tool((*nilTool)(nil)).Call(ctx, "x"); return err },
			"tools: nil tool (*resilient_test.nilTool)"},
		{"nil embedder client", func() error {
			_, err := resilient.Embedder(nil).CreateEmbedding(ctx, []string{"x"})
			return err
		}, "llms: nil embedder client"},
		{"chat-only llms option on an embedder", func() error {
			_, err := resilient.Embedder(openaiModel(t), resilient.ModelOptions(llms.NoCompaction())).CreateEmbedding(ctx, []string{"x"})
			return err
		}, "llms: NoCompaction applies to models only, not to an embedder"},
		{"a pool option on a member", func() error {
			m := resilient.Member(openaiModel(t), resilient.Middleware(middleware.MaxAttempts(2)))
			_, err := resilient.Pool([]lcllms.Model{m}).Call(ctx, "hi")
			return err
		}, "option 0 applies to the pool as a whole, not to one member"},
		{"a nil option", func() error { _, err := resilient.Model(openaiModel(t), nil).Call(ctx, "hi"); return err }, "llms: nil option"},
		{"no member", func() error { _, err := resilient.Pool(nil).Call(ctx, "hi"); return err }, "a pool needs at least one member"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// nilTool is a tool whose methods panic on a nil receiver.
type nilTool struct{ name string }

func (n *nilTool) Name() string                                 { return n.name }
func (n *nilTool) Description() string                          { return n.name }
func (n *nilTool) Call(context.Context, string) (string, error) { return n.name, nil }

// openaiModel is a real openai client, a model and an embeddings client,
// that no request reaches.
func openaiModel(t *testing.T) *openai.LLM {
	t.Helper()
	llm, err := openai.New(openai.WithToken("sk-test"), openai.WithBaseURL("http://127.0.0.1:1/v1"))
	if err != nil {
		t.Fatal(err)
	}
	return llm
}

func TestDropInInterfaces(t *testing.T) {
	var _ embeddings.EmbedderClient = resilient.Embedder(openaiModel(t))
	var _ lcllms.Model = resilient.Model(openaiModel(t))
	var _ lcllms.ReasoningModel = resilient.Model(openaiModel(t))
	var tool lctools.Tool = resilient.Tool(lookupOrder)
	if tool.Name() != lookupOrder.Name() || tool.Description() != lookupOrder.Description() {
		t.Errorf("the wrapped tool is %q %q, want the original's name and description", tool.Name(), tool.Description())
	}
}

func TestSentinelsWithoutFailsafe(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		failing := scripted.New(scripted.Fail(errors.New("API returned unexpected status code: 503")))
		_, err := resilient.Model(failing, resilient.MaxAttempts(2)).Call(t.Context(), "hi")
		if !errors.Is(err, resilient.ErrExhausted) || errors.Is(err, resilient.ErrCircuitOpen) {
			t.Fatalf("got %v, want ErrExhausted only", err)
		}

		broken := tools.Func("broken", "fails", func(context.Context, string) (string, error) {
			return "", errors.New("boom")
		})
		tool := resilient.Tool(broken, resilient.CircuitBreaker(1, time.Minute))
		_, _ = tool.Call(t.Context(), "x") // opens the circuit
		_, err = tool.Call(t.Context(), "x")
		if !errors.Is(err, resilient.ErrCircuitOpen) {
			t.Fatalf("tool with an open circuit: got %v, want ErrCircuitOpen", err)
		}
	})
}

func TestZeroValuesSayTheyAreNotUsable(t *testing.T) {
	ctx := t.Context()
	var m llms.Model
	if _, err := m.Call(ctx, "hi"); err == nil || taxonomy.Classify(err).Kind != taxonomy.Programming || !strings.Contains(err.Error(), "zero Model") {
		t.Errorf("zero llms.Model: got %v, want a programming error naming it", err)
	}
	var e llms.Embedder
	if _, err := e.CreateEmbedding(ctx, []string{"x"}); err == nil || !strings.Contains(err.Error(), "zero Embedder") {
		t.Errorf("zero llms.Embedder: got %v", err)
	}
	var tl tools.Tool
	if _, err := tl.Call(ctx, "x"); !errors.As(err, new(*taxonomy.FatalToolError)) || !strings.Contains(err.Error(), "zero Tool") {
		t.Errorf("zero tools.Tool: got %v, want a fatal error naming it", err)
	}
	var p middleware.Pipeline[string]
	if _, err := p.Do(ctx, func(context.Context, middleware.State) (string, error) { return "", nil }); err == nil || !strings.Contains(err.Error(), "zero Pipeline") {
		t.Errorf("zero middleware.Pipeline: got %v", err)
	}
}
