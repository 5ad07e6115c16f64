package main

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"
)

// modelFunc is an lcllms.Model whose GenerateContent is a function: the
// shape of every retry loop the baselines wrap around a model.
type modelFunc func(ctx context.Context, messages []lcllms.MessageContent, options ...lcllms.CallOption) (*lcllms.ContentResponse, error)

func (f modelFunc) GenerateContent(ctx context.Context, messages []lcllms.MessageContent, options ...lcllms.CallOption) (*lcllms.ContentResponse, error) {
	return f(ctx, messages, options...)
}

func (f modelFunc) Call(ctx context.Context, prompt string, options ...lcllms.CallOption) (string, error) {
	return lcllms.GenerateFromSinglePrompt(ctx, f, prompt, options...)
}

// stackedLayers are the two retry layers of an agent runtime written in
// Python, each as that runtime's design document describes it: an outer
// loop (its Runtime.exec) around an inner loop (its AgentSession). Waits are in provider time; neither layer jitters.
var stackedLayers = struct {
	outerAttempts, innerAttempts int
	outerBase, innerBase         time.Duration // wait before outer retry n: outerBase*2^n; inner retry n (from 1): innerBase*2^(n-1)
}{outerAttempts: 3, innerAttempts: 3, outerBase: 1500 * time.Millisecond, innerBase: 2 * time.Second}

// stackedRetryPattern is the runtime's _RETRY_PATTERN, the transient
// failures its inner layer retries, as a Go regular expression.
var stackedRetryPattern = regexp.MustCompile(`(?i)overloaded|rate.?limit|\b429\b|\b5\d\d\b|service unavailable|` +
	`connection (error|refused)|other side closed|fetch failed|reset before headers|terminated`)

// stackedOverflow recognizes a context overflow, which the inner layer
// leaves to compaction.
var stackedOverflow = regexp.MustCompile(`(?i)context length|context window|prompt is too long`)

// stackedPermanentMarkers are the runtime's _PERMANENT_ERROR_MARKERS, on
// which its outer layer stops.
var stackedPermanentMarkers = []string{"not a valid image", "invalid image", "image data is not",
	"login expired", "login failed", "re-auth", "unauthorized", "invalid api key", "invalid_api_key"}

func stackedPolicy() Policy {
	l := stackedLayers
	return Policy{Name: "stacked retry layers, 3 x 3",
		About: fmt.Sprintf("the two retry layers of an agent runtime written in Python, each as its design describes it: an outer loop of %d "+
			"attempts, %v x 2^n between them, stopping on its permanent-error markers, around an inner loop "+
			"of %d attempts, %v x 2^(n-1) between them, retrying empty messages and its transient-error "+
			"pattern (`%s`) but never a context overflow; no jitter, no Retry-After; tools as they are.",
			l.outerAttempts, l.outerBase, l.innerAttempts, l.innerBase, stackedRetryPattern),
		Model: func(r rig) (lcllms.Model, error) {
			llm, err := r.rawClient()
			return stacked(llm, r.ts), err
		}}
}

// stacked wraps inner in the runtime's two layers, their waits divided by ts.
func stacked(inner lcllms.Model, ts timeScale) lcllms.Model {
	l := stackedLayers
	innerLoop := func(ctx context.Context, msgs []lcllms.MessageContent, opts []lcllms.CallOption) (resp *lcllms.ContentResponse, err error) {
		for n := 1; n <= l.innerAttempts; n++ {
			if resp, err = inner.GenerateContent(ctx, msgs, opts...); err == nil {
				return resp, nil
			}
			msg := err.Error()
			retryable := !stackedOverflow.MatchString(msg) && (msg == "" || stackedRetryPattern.MatchString(msg))
			if !retryable || n == l.innerAttempts {
				return nil, err
			}
			if sleep(ctx, ts.of(l.innerBase<<(n-1))) != nil {
				return nil, err
			}
		}
		return nil, err
	}
	return modelFunc(func(ctx context.Context, msgs []lcllms.MessageContent, opts ...lcllms.CallOption) (*lcllms.ContentResponse, error) {
		var err error
		for n := range l.outerAttempts {
			resp, ierr := innerLoop(ctx, msgs, opts)
			if err = ierr; err == nil {
				return resp, nil
			}
			text := strings.ToLower(fmt.Sprintf("%T: %v", err, err))
			for _, m := range stackedPermanentMarkers {
				if strings.Contains(text, m) {
					return nil, fmt.Errorf("failed permanently: %w", err)
				}
			}
			if n == l.outerAttempts-1 || sleep(ctx, ts.of(l.outerBase<<n)) != nil {
				break
			}
		}
		return nil, fmt.Errorf("failed after %d attempts: %w", l.outerAttempts, err)
	})
}

// stackedWaits is the provider time the stacked layers wait in all when
// every attempt fails.
func stackedWaits() time.Duration {
	l := stackedLayers
	var inner, outer time.Duration
	for n := 1; n < l.innerAttempts; n++ {
		inner += l.innerBase << (n - 1)
	}
	for n := range l.outerAttempts - 1 {
		outer += l.outerBase << n
	}
	return outer + time.Duration(l.outerAttempts)*inner
}
