package taxonomy_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/resilientgo/resilient/internal/benchcpu"
	"github.com/resilientgo/resilient/taxonomy"
)

// trafficMix is a day of failed model calls in miniature: mostly 429s, 529s,
// 5xx, dropped streams and timeouts from openai and anthropic, some typed
// errors from googleai and bedrock, a few permanent failures.
func trafficMix() []error {
	return []error{
		openai(429, openaiTPM),
		openai(429, openaiTPM),
		openai(429, openaiRPM),
		anthropicStatus(429, "This request would exceed your organization's rate limit of 50 requests per minute."),
		anthropicStatus(529, "Overloaded"),
		anthropicStatus(529, "Overloaded"),
		anthropic(errors.New("received error event: map[error:map[message:Overloaded type:overloaded_error] type:error]")),
		openai(503, "The server is overloaded or not ready yet."),
		openai(500, "The server had an error while processing your request. Sorry about that!"),
		anthropicStatus(500, "Internal server error"),
		errors.New("network error: failed to reach API server"),
		errors.New("request timeout: API call exceeded deadline"),
		fmt.Errorf("error reading streaming response: %w", io.ErrUnexpectedEOF),
		anthropic(fmt.Errorf("issue scanning response: %w", io.ErrUnexpectedEOF)),
		anthropic(fmt.Errorf("send request: %w", postErr("https://api.anthropic.com/v1/messages", context.DeadlineExceeded))),
		postErr("https://api.openai.com/v1/chat/completions", syscallErr("read", "read", syscall.ECONNRESET)),
		googleai(429, "Resource has been exhausted (e.g. check quota).", http.Header{"Retry-After": {"7"}}),
		bedrock(429, 3, errors.New("ThrottlingException: Too many requests, please wait before trying again.")),
		openai(400, openaiOverflow),
		openai(401, "Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys."),
		anthropicStatus(400, "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits."),
	}
}

func BenchmarkClassify(b *testing.B) {
	errs := trafficMix()
	b.ReportAllocs()
	stop := benchcpu.Start(b)
	for i := 0; b.Loop(); i++ {
		taxonomy.Classify(errs[i%len(errs)])
	}
	stop()
}

func BenchmarkClassifyTyped(b *testing.B) {
	err := anthropic(fmt.Errorf("issue scanning response: %w", io.ErrUnexpectedEOF))
	b.ReportAllocs()
	for b.Loop() {
		taxonomy.Classify(err)
	}
}

func BenchmarkClassifyWire(b *testing.B) {
	err := taxonomy.WithEvidence(openai(429, openaiTPM), taxonomy.Evidence{
		Status:     429,
		RetryAfter: 2 * time.Second,
		ErrorType:  "requests",
		ErrorCode:  "rate_limit_exceeded",
	})
	b.ReportAllocs()
	for b.Loop() {
		taxonomy.Classify(err)
	}
}

// BenchmarkClassifyLongText is the long texts users paste, without a
// status: stack traces, an exception group, a CDN's block page
// (longTexts), in turn. Nothing decides early on them, so every reader
// runs to the end of the text.
func BenchmarkClassifyLongText(b *testing.B) {
	errs := longTexts()
	b.ReportAllocs()
	stop := benchcpu.Start(b)
	for i := 0; b.Loop(); i++ {
		taxonomy.Classify(errs[i%len(errs)])
	}
	stop()
}

// BenchmarkClassifyLargeBody is a 502 whose body is a 64 KiB HTML page, as
// huggingface and mistral put the raw body in the text.
func BenchmarkClassifyLargeBody(b *testing.B) {
	page := "<html><head><title>Bad Gateway</title></head><body>" + strings.Repeat("<p>upstream said nothing useful</p>", 64<<10/35) + "</body></html>"
	err := errors.New("(HTTP Error 502) " + page)
	textOnly := errors.New("upstream replied: " + page)
	b.Run("status", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			taxonomy.Classify(err)
		}
	})
	b.Run("text", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			taxonomy.Classify(textOnly)
		}
	})
	// A megabyte of provider message in the evidence, not in the text: the
	// 8 KiB bound applies to it as well.
	message := &taxonomy.WireError{Evidence: taxonomy.Evidence{ErrorMessage: strings.Repeat("upstream said nothing useful. ", 1<<20/30)},
		Err: errors.New("provider error")}
	b.Run("message", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			taxonomy.Classify(message)
		}
	})
}

// BenchmarkClassifyBatches is the eleventh to thirteenth held-out
// batches (issue 24's first sight), row by row in turn: "all" of them,
// and "long", the rows of 256 bytes or more whose text holds no status,
// which every reader reads to its end.
func BenchmarkClassifyBatches(b *testing.B) {
	var all, long []error
	for _, rows := range [][]heldOutRow{eleventhBatch(), twelfthBatch(), thirteenthBatch()} {
		for _, r := range rows {
			all = append(all, r.err)
			if c := taxonomy.Classify(r.err); len(r.err.Error()) >= 256 && c.Status == 0 {
				long = append(long, r.err)
			}
		}
	}
	for _, set := range []struct {
		name string
		errs []error
	}{{"rows=all", all}, {"rows=long", long}} {
		b.Run(set.name, func(b *testing.B) {
			b.ReportAllocs()
			stop := benchcpu.Start(b)
			for i := 0; b.Loop(); i++ {
				taxonomy.Classify(set.errs[i%len(set.errs)])
			}
			stop()
		})
	}
}
