package main

import (
	"context"
	"fmt"
	"time"

	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	lcllms "github.com/tmc/langchaingo/llms"
	lctools "github.com/tmc/langchaingo/tools"
)

// plainRetry is the "I wrapped it myself" baseline: a failsafe-go retry
// policy as its README shows it, around every model call and every tool
// call. The backoff is the library's, so that what differs is everything
// else. Provider time.
var plainRetry = struct {
	attempts      int
	base, maxWait time.Duration
}{attempts: 3, base: 500 * time.Millisecond, maxWait: 8 * time.Second}

func failsafePolicy() Policy {
	p := plainRetry
	return Policy{Name: fmt.Sprintf("failsafe-go retry, %d attempts", p.attempts),
		About: fmt.Sprintf("a plain failsafe-go retry policy, `retrypolicy.NewBuilder[R]().WithMaxAttempts(%d)."+
			"WithBackoff(%v, %v).Build()`, around each model call and each tool call: every error is retried, "+
			"the wait doubles from %v up to %v with no jitter, Retry-After is not read, and nothing bounds an "+
			"attempt.", p.attempts, p.base, p.maxWait, p.base, p.maxWait),
		Model: func(r rig) (lcllms.Model, error) {
			llm, err := r.rawClient()
			return retried(llm, r.ts), err
		},
		Tool: func(r rig, t lctools.Tool, _ toolKind) lctools.Tool {
			return retriedTool{Tool: t, ex: failsafe.With(plainRetryPolicy[string](r.ts))}
		}}
}

// plainRetryPolicy is the policy, its waits divided by ts.
func plainRetryPolicy[R any](ts timeScale) retrypolicy.RetryPolicy[R] {
	p := plainRetry
	return retrypolicy.NewBuilder[R]().WithMaxAttempts(p.attempts).WithBackoff(ts.of(p.base), ts.of(p.maxWait)).Build()
}

// retried wraps m in the policy.
func retried(m lcllms.Model, ts timeScale) lcllms.Model {
	ex := failsafe.With(plainRetryPolicy[*lcllms.ContentResponse](ts))
	return modelFunc(func(ctx context.Context, msgs []lcllms.MessageContent, opts ...lcllms.CallOption) (*lcllms.ContentResponse, error) {
		return ex.WithContext(ctx).Get(func() (*lcllms.ContentResponse, error) {
			return m.GenerateContent(ctx, msgs, opts...)
		})
	})
}

// retriedTool is a tool called under the policy.
type retriedTool struct {
	lctools.Tool
	ex failsafe.Executor[string]
}

func (t retriedTool) Call(ctx context.Context, input string) (string, error) {
	return t.ex.WithContext(ctx).Get(func() (string, error) { return t.Tool.Call(ctx, input) })
}
