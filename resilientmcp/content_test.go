package resilientmcp

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestByteSize(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0 B"},
		{1023, "1023 B"},
		{1024, "1.0 KiB"},
		{1536, "1.5 KiB"},
		{1<<20 - 1, "1.0 MiB"},
		{1<<20 - 60, "1023.9 KiB"},
		{1 << 20, "1.0 MiB"},
		{5 << 30, "5.0 GiB"},
		{1 << 62, "4096.0 PiB"},
	}
	for _, tt := range tests {
		if got := byteSize(tt.n); got != tt.want {
			t.Errorf("byteSize(%d): got %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestBrief(t *testing.T) {
	tests := []struct {
		kind, uri, mime string
		size            int64
		want            string
	}{
		{"image", "", "image/png", 10, "[image: image/png, 10 B]"},
		{"resource link", "https://x/y", "", -1, "[resource link: https://x/y]"},
		{"resource", "", "", -1, "[resource]"},
	}
	for _, tt := range tests {
		if got := brief(tt.kind, tt.uri, tt.mime, tt.size); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

func TestToolOfToken(t *testing.T) {
	tests := []struct {
		token any
		tool  string
		ok    bool
	}{
		{progressToken("lookup", 7), "lookup", true},
		{progressToken("ns:lookup", 7), "ns:lookup", true},
		{"lookup:7", "", false},
		{42, "", false},
		{tokenPrefix + "nocounter", "", false},
	}
	for _, tt := range tests {
		tool, ok := toolOfToken(tt.token)
		if tool != tt.tool || ok != tt.ok {
			t.Errorf("%v: got (%q, %v), want (%q, %v)", tt.token, tool, ok, tt.tool, tt.ok)
		}
	}
}

func TestDescription(t *testing.T) {
	object := map[string]any{"type": "object"}
	tests := []struct {
		tool *mcp.Tool
		want string
	}{
		{&mcp.Tool{Description: "Looks up.", Title: "Lookup", InputSchema: object},
			`Looks up.` + "\n" + `Input: a JSON object matching this JSON schema: {"type":"object"}`},
		{&mcp.Tool{Title: "Lookup", InputSchema: object}, "Lookup\n" + `Input: a JSON object matching this JSON schema: {"type":"object"}`},
		{&mcp.Tool{InputSchema: object}, `Input: a JSON object matching this JSON schema: {"type":"object"}`},
		{&mcp.Tool{Description: "Looks up."}, "Looks up."}, // no schema: nothing to say about it
	}
	for _, tt := range tests {
		schema, _ := newInputSchema(tt.tool.InputSchema)
		if got := description(tt.tool, schema); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}
