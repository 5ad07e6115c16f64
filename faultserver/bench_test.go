package faultserver_test

import (
	"context"
	"testing"

	"github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/faultserver"
)

// BenchmarkReply measures one successful round trip through each real
// client: the floor under any benchmark that uses this server.
func BenchmarkReply(b *testing.B) {
	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "Hi")}
	for _, srv := range servers {
		for _, p := range providers {
			for _, stream := range []bool{false, true} {
				name := srv.name + "/" + p.name + map[bool]string{false: "", true: "/stream"}[stream]
				b.Run(name, func(b *testing.B) {
					s := srv.new(faultserver.Reply("Hello big world"))
					defer s.Close()
					m, err := p.model(s)
					if err != nil {
						b.Fatal(err)
					}
					var opts []llms.CallOption
					if stream {
						opts = append(opts, llms.WithStreamingFunc(func(context.Context, []byte) error { return nil }))
					}
					b.ReportAllocs()
					for b.Loop() {
						if _, err := m.GenerateContent(context.Background(), msgs, opts...); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}
