package llms_test

import (
	"log/slog"
	"strings"
	"testing"
	"testing/synctest"

	lcllms "github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/anthropic"
	"github.com/tmc/langchaingo/llms/ollama"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/resilientgo/resilient/internal/scripted"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/taxonomy"
)

func TestDefaultNamesTellModelsApart(t *testing.T) {
	gpt4o, _ := openai.New(openai.WithToken("sk-test"), openai.WithModel("gpt-4o"))
	mini, _ := openai.New(openai.WithToken("sk-test"), openai.WithModel("gpt-4o-mini"))
	claude, _ := anthropic.New(anthropic.WithToken("sk-ant-test"), anthropic.WithModel("claude-sonnet-4-5"))
	llama, _ := ollama.New(ollama.WithModel("llama3.2"))
	tests := []struct {
		model lcllms.Model
		want  string
	}{
		{gpt4o, "openai/gpt-4o"},
		{mini, "openai/gpt-4o-mini"},
		{claude, "anthropic/claude-sonnet-4-5"},
		{llama, "ollama/llama3.2"},
		{scripted.New(), "scripted"}, // no model to find: the package alone
		{llms.Named(gpt4o, "primary"), "primary"},
	}
	for _, tt := range tests {
		if got := mustWrap(t, tt.model).Name(); got != tt.want {
			t.Errorf("%T: name %q, want %q", tt.model, got, tt.want)
		}
	}
}

func TestTwoModelsOfACallNeverShareAName(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		failing := func() lcllms.Model { return scripted.New(scripted.Fail(errOverloaded)) }
		rec := &observetest.Recorder{}
		m := mustWrap(t, failing(), llms.Fallbacks(failing(), failing(), llms.Named(failing(), "backup")),
			llms.Middleware(middleware.Observe(rec), middleware.MaxAttempts(1)))
		_, err := m.Call(t.Context(), "hi")
		if err == nil {
			t.Fatal("every model fails, yet the call succeeded")
		}
		names := []string{m.Name()}
		for _, fb := range observetest.Of[observe.Fallback](rec) {
			names = append(names, fb.To)
		}
		want := []string{"scripted", "scripted#2", "scripted#3", "backup"}
		if strings.Join(names, ",") != strings.Join(want, ",") {
			t.Errorf("names %v, want %v", names, want)
		}
		for _, name := range want {
			if !strings.Contains(err.Error(), "middleware: "+name+" ") {
				t.Errorf("the joined error does not name %q: %v", name, err)
			}
		}
	})
}

func TestTypedNilModelIsAProgrammingError(t *testing.T) {
	var nilLLM *openai.LLM
	m, err := llms.New(nilLLM)
	if err == nil || !strings.Contains(err.Error(), "nil model (*openai.LLM)") {
		t.Fatalf("New(typed nil): got %v, want an error naming the nil *openai.LLM", err)
	}
	_, err = m.Call(t.Context(), "hi")
	if taxonomy.Classify(err).Kind != taxonomy.Programming {
		t.Errorf("call of the invalid model: got %v, want a programming failure", err)
	}
	if m.SupportsReasoning() {
		t.Error("an invalid model claims reasoning support")
	}
}

func TestObserverSeesOneCallAcrossFallbacks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &observetest.Recorder{}
		primary := scripted.New(scripted.Fail(errOverloaded))
		backup := scripted.New(scripted.Reply("from the backup"))
		m := mustWrap(t, llms.Named(primary, "primary"), llms.Fallbacks(llms.Named(backup, "backup")),
			llms.Middleware(middleware.Observe(rec), middleware.MaxAttempts(2)))
		got, err := m.Call(t.Context(), "hi")
		if err != nil || got != "from the backup" {
			t.Fatalf("got (%q, %v)", got, err)
		}
		var calls, attempts []observe.Start
		for _, s := range rec.Starts() {
			if s.Attempt == 0 {
				calls = append(calls, s)
			} else {
				attempts = append(attempts, s)
			}
		}
		if len(calls) != 1 || calls[0].Target.Name != "primary" || calls[0].Target.Operation != observe.OperationChat {
			t.Errorf("call starts %+v, want one chat call of primary", calls)
		}
		if len(attempts) != 3 || attempts[0].Target.Name != "primary" || attempts[2].Target.Name != "backup" {
			t.Errorf("attempt starts %+v, want primary twice then backup", attempts)
		}
		fb := observetest.Of[observe.Fallback](rec)
		if len(fb) != 1 || fb[0].Target != "primary" || fb[0].To != "backup" || fb[0].Class.Kind != taxonomy.Overloaded {
			t.Errorf("fallbacks %+v, want primary -> backup on overload", fb)
		}
		ends := observetest.Of[observe.CallEnd](rec)
		if len(ends) != 1 || ends[0].Reason != 0 || ends[0].Attempts != 3 {
			t.Errorf("call ends %+v, want one success after 3 attempts", ends)
		}
	})
}

func TestAWrappedFallbackKeepsItsOwnName(t *testing.T) {
	backup := mustWrap(t, scripted.New(scripted.Reply("ok")), llms.Name("backup"))
	m := mustWrap(t, scripted.New(), llms.Fallbacks(backup))
	if m.Name() != "scripted" {
		t.Errorf("primary %q", m.Name())
	}
	_, err := llms.New(scripted.New(), llms.Name("backup"), llms.Fallbacks(backup))
	if err == nil || !strings.Contains(err.Error(), `named "backup" like another model`) {
		t.Errorf("a fallback named like the primary: got %v, want a clear error", err)
	}
}

func TestModelLogsAreRedacted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var buf strings.Builder
		logger := slog.New(slog.NewTextHandler(&buf, nil))
		// A gateway that echoes the request's Authorization header into its
		// error body.
		echo := providerErr("API returned unexpected status code: 502: upstream error; request headers: Authorization: Bearer sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD")
		_, err := mustWrap(t, scripted.New(scripted.Fail(echo)), llms.Middleware(middleware.Logger(logger)), llms.Middleware(middleware.MaxAttempts(2))).Call(t.Context(), "hi")
		if err == nil {
			t.Fatal("the call succeeded")
		}
		if strings.Contains(buf.String(), "sk-proj-abcdefghij") || strings.Contains(err.Error(), "sk-proj-abcdefghij") {
			t.Errorf("the key reached the logs or the error:\n%s\n%v", buf.String(), err)
		}
		if !strings.Contains(buf.String(), `msg=retrying`) {
			t.Errorf("no retry line logged:\n%s", buf.String())
		}
	})
}
