// Package tokencheck measures the token estimate of package llms (a
// quarter of the bytes of a request's text) against OpenAI's real
// tokenizers, cl100k_base and o200k_base, on text in several scripts.
//
// It is a module of its own, so that the tokenizers' data (embedded by
// tiktoken-go-loader, several megabytes) is never a dependency of the
// library. Its test checks the bound the documentation states and prints
// the table that docs/performance.md shows:
//
//	cd internal/tokencheck && go test -v ./...
package tokencheck
