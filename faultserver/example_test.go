package faultserver_test

import (
	"context"
	"fmt"

	"github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/faultserver"
)

// A rate limit, then a reply, through the real langchaingo OpenAI client.
func Example() {
	s := faultserver.New(faultserver.RateLimited("7"), faultserver.Reply("Hello"))
	defer s.Close()
	llm, err := s.OpenAI()
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()

	_, err = llms.GenerateFromSinglePrompt(ctx, llm, "Hi")
	fmt.Println(err)

	out, err := llms.GenerateFromSinglePrompt(ctx, llm, "Hi")
	fmt.Println(out, err)
	fmt.Println(s.Count(), "requests;", s.Requests()[1].Header.Get("Authorization"))
	// Output:
	// API returned unexpected status code: 429: Rate limit reached for gpt-4o-mini in organization org-test on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 7s. Visit https://platform.openai.com/account/rate-limits to learn more.
	// Hello <nil>
	// 2 requests; Bearer sk-test
}

// A stream that drops after two chunks: the Anthropic client reports the
// broken body, after the chunks reached the streaming function.
func ExampleDropStream() {
	s := faultserver.New(faultserver.DropStream("Hel", "lo"))
	defer s.Close()
	llm, err := s.Anthropic()
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = llm.GenerateContent(context.Background(),
		[]llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "Hi")},
		llms.WithStreamingFunc(func(_ context.Context, chunk []byte) error {
			fmt.Printf("chunk %q\n", chunk)
			return nil
		}))
	fmt.Println(err)
	// Output:
	// chunk "Hel"
	// chunk "lo"
	// anthropic: failed to create message: issue scanning response: unexpected EOF
}

// A rate-limit window decided per request: the first three requests are
// refused, the rest answered.
func ExampleFunc() {
	s := faultserver.New(faultserver.Func(func(r *faultserver.Request) faultserver.Step {
		if r.Index < 3 {
			return faultserver.RateLimited("1")
		}
		return faultserver.Reply(fmt.Sprintf("answer %d", r.Index))
	}))
	defer s.Close()
	llm, err := s.Ollama()
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 5 {
		out, err := llms.GenerateFromSinglePrompt(context.Background(), llm, "Hi")
		fmt.Printf("%q %v\n", out, err)
	}
	// Output:
	// "" rate limit exceeded
	// "" rate limit exceeded
	// "" rate limit exceeded
	// "answer 3" <nil>
	// "answer 4" <nil>
}
