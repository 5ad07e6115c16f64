package resilient_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/internal/scripted"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/tools"
)

// misuse lists options given to targets they do not apply to, each with
// the interface the compiler says the option does not implement.
var misuse = []struct{ call, missing string }{
	{`resilient.Model(m, resilient.SafeToRetry())`, "ModelOption"},
	{`resilient.Model(m, resilient.Idempotent(nil))`, "ModelOption"},
	{`resilient.Model(m, resilient.ToolOptions())`, "ModelOption"},
	{`resilient.Model(m, resilient.Weight(2))`, "ModelOption"},
	{`resilient.Model(m, resilient.Balance(pool.RoundRobin{}))`, "ModelOption"},
	{`resilient.Tool(t, resilient.Hedge(time.Second, 1))`, "ToolOption"},
	{`resilient.Tool(t, resilient.Fallbacks(m))`, "ToolOption"},
	{`resilient.Tool(t, resilient.ModelOptions())`, "ToolOption"},
	{`resilient.Tool(t, resilient.ShareLimits(nil))`, "ToolOption"},
	{`resilient.Tool(t, resilient.Weight(2))`, "ToolOption"},
	{`resilient.Tool(t, resilient.Balance(pool.RoundRobin{}))`, "ToolOption"},
	{`resilient.Embedder(m, resilient.Fallbacks(m))`, "EmbedderOption"},
	{`resilient.Embedder(m, resilient.SafeToRetry())`, "EmbedderOption"},
	{`resilient.Embedder(m, resilient.Weight(2))`, "EmbedderOption"},
	{`resilient.Embedder(m, resilient.Balance(pool.RoundRobin{}))`, "EmbedderOption"},
	{`resilient.Pool(nil, resilient.ShareLimits(nil))`, "PoolOption"},
	{`resilient.Pool(nil, resilient.SafeToRetry())`, "PoolOption"},
	{`resilient.Pool(nil, resilient.Weight(2))`, "PoolOption"},
	{`resilient.Member(m, resilient.MaxAttempts(2))`, "MemberOption"},
	{`resilient.Member(m, resilient.Backoff(time.Second, time.Minute))`, "MemberOption"},
	{`resilient.Member(m, resilient.RetryAfterCap(time.Minute))`, "MemberOption"},
	{`resilient.Member(m, resilient.Classifier(nil))`, "MemberOption"},
	{`resilient.Member(m, resilient.Logger(nil))`, "MemberOption"},
	{`resilient.Member(m, resilient.Observe())`, "MemberOption"},
	{`resilient.Member(m, resilient.Timeout(time.Second))`, "MemberOption"},
	{`resilient.Member(m, resilient.Fallbacks(m))`, "MemberOption"},
	{`resilient.Member(m, resilient.Hedge(time.Second, 1))`, "MemberOption"},
	{`resilient.Member(m, resilient.Balance(pool.RoundRobin{}))`, "MemberOption"},
	{`resilient.Member(m, resilient.SafeToRetry())`, "MemberOption"},
}

// fits lists every option with each target it applies to: they compile.
const fits = `
	_ = resilient.Model(m, resilient.MaxAttempts(2), resilient.Backoff(time.Second, time.Minute),
		resilient.RetryAfterCap(time.Minute), resilient.CircuitBreaker(3, time.Second), resilient.Classifier(nil),
		resilient.Logger(nil), resilient.Observe(), resilient.Middleware(), resilient.Fallbacks(m),
		resilient.Hedge(time.Second, 1), resilient.ModelOptions(), resilient.Timeout(time.Second),
		resilient.RateLimit(nil), resilient.MaxConcurrent(1, 0), resilient.ConcurrencyLimit(nil, 0),
		resilient.ShareLimits(nil))
	_ = resilient.Embedder(m, resilient.MaxAttempts(2), resilient.Backoff(time.Second, time.Minute),
		resilient.RetryAfterCap(time.Minute), resilient.CircuitBreaker(3, time.Second), resilient.Classifier(nil),
		resilient.Logger(nil), resilient.Observe(), resilient.Middleware(),
		resilient.Hedge(time.Second, 1), resilient.ModelOptions(), resilient.Timeout(time.Second),
		resilient.RateLimit(nil), resilient.MaxConcurrent(1, 0), resilient.ConcurrencyLimit(nil, 0),
		resilient.ShareLimits(nil))
	_ = resilient.Pool(nil, resilient.MaxAttempts(2), resilient.Backoff(time.Second, time.Minute),
		resilient.RetryAfterCap(time.Minute), resilient.CircuitBreaker(3, time.Second), resilient.Classifier(nil),
		resilient.Logger(nil), resilient.Observe(), resilient.Middleware(), resilient.Fallbacks(m),
		resilient.Hedge(time.Second, 1), resilient.ModelOptions(), resilient.Timeout(time.Second),
		resilient.RateLimit(nil), resilient.MaxConcurrent(1, 0), resilient.ConcurrencyLimit(nil, 0),
		resilient.Balance(pool.RoundRobin{}))
	_ = resilient.Tool(t, resilient.MaxAttempts(2), resilient.Backoff(time.Second, time.Minute),
		resilient.RetryAfterCap(time.Minute), resilient.CircuitBreaker(3, time.Second), resilient.Classifier(nil),
		resilient.Logger(nil), resilient.Observe(), resilient.Middleware(), resilient.Timeout(time.Second),
		resilient.RateLimit(nil), resilient.MaxConcurrent(1, 0), resilient.ConcurrencyLimit(nil, 0),
		resilient.SafeToRetry(), resilient.Idempotent(nil), resilient.ToolOptions())
	_ = resilient.Member(m, resilient.CircuitBreaker(3, time.Second), resilient.Middleware(),
		resilient.RateLimit(nil), resilient.MaxConcurrent(1, 0), resilient.ConcurrencyLimit(nil, 0),
		resilient.Weight(2))
`

// TestMisuseDoesNotCompile: an option given to a target it does not apply
// to is a compile error naming the target's option interface, and every
// option compiles for each target it applies to. It builds one program
// holding every misuse, each on a line of its own, with the compiler
// reporting every error (-gcflags=-e).
func TestMisuseDoesNotCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the compiler")
	}
	var src strings.Builder
	src.WriteString(`package main

import (
	"time"

	lcllms "github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"
	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/pool"
)

var (
	m *openai.LLM
	t lctools.Tool
	_ lcllms.Model
)

func main() {
`)
	const first = 21 // the line of the first misuse
	if got := strings.Count(src.String(), "\n") + 1; got != first {
		t.Fatalf("the first misuse is on line %d, want %d", got, first)
	}
	for _, c := range misuse {
		src.WriteString("\t_ = " + c.call + "\n")
	}
	src.WriteString(fits + "}\n")
	dir := t.TempDir()
	file := filepath.Join(dir, "misuse.go")
	if err := os.WriteFile(file, []byte(src.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-gcflags=-e", "-o", os.DevNull, file)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the misuses compiled:\n%s", src.String())
	}
	errs := map[int]string{} // line → the compiler's message
	re := regexp.MustCompile(`misuse\.go:(\d+):\d+: (.*)`)
	for _, m := range re.FindAllStringSubmatch(string(out), -1) {
		n, _ := strconv.Atoi(m[1])
		errs[n] += m[2]
	}
	for i, c := range misuse {
		line := first + i
		msg, ok := errs[line]
		delete(errs, line)
		if want := "does not implement resilient." + c.missing; !ok || !strings.Contains(msg, want) {
			t.Errorf("%s: got %q, want a compile error containing %q", c.call, msg, want)
		}
	}
	for line, msg := range errs {
		t.Errorf("line %d, an option where it applies, does not compile: %s", line, msg)
	}
}

// TestTheLaterOptionWins: the caller's order decides which of two options
// that set the same thing wins, at whatever layer they are given: a model's
// and a tool's attempt timeout given as Timeout and as
// Middleware(middleware.Timeout).
func TestTheLaterOptionWins(t *testing.T) {
	five, ten := resilient.Middleware(middleware.Timeout(5*time.Second)), resilient.Timeout(10*time.Second)
	for _, c := range []struct {
		name  string
		model []resilient.ModelOption
		tool  []resilient.ToolOption
		want  time.Duration
	}{
		{"Timeout after Middleware(middleware.Timeout)", []resilient.ModelOption{five, ten}, []resilient.ToolOption{five, ten}, 10 * time.Second},
		{"Middleware(middleware.Timeout) after Timeout", []resilient.ModelOption{ten, five}, []resilient.ToolOption{ten, five}, 5 * time.Second},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				hang := scripted.New(scripted.Step{Func: func(ctx context.Context, _ []lcllms.MessageContent, _ lcllms.CallOptions) (*lcllms.ContentResponse, error) {
					<-ctx.Done()
					return nil, ctx.Err()
				}})
				model := resilient.Model(hang, append(c.model, resilient.MaxAttempts(1))...)
				start := time.Now()
				if _, err := model.Call(t.Context(), "hi"); !errors.Is(err, resilient.ErrAttemptTimeout) || time.Since(start) != c.want {
					t.Errorf("model: got %v after %v, want the attempt timeout after %v", err, time.Since(start), c.want)
				}
				stuck := tools.Func("stuck", "never answers", func(ctx context.Context, _ string) (string, error) {
					<-ctx.Done()
					return "", ctx.Err()
				})
				tool := resilient.Tool(stuck, c.tool...)
				start = time.Now()
				if out, err := tool.Call(t.Context(), "x"); err != nil || !strings.Contains(out, "timed out") || time.Since(start) != c.want {
					t.Errorf("tool: got (%q, %v) after %v, want a timeout after %v", out, err, time.Since(start), c.want)
				}
			})
		})
	}
}
