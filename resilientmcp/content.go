package resilientmcp

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// render turns a tool result into the text the model reads: the text parts
// joined by newlines; images, audio and resources summarised by their kind,
// MIME type and size (their base64 would fill the model's context and say
// nothing to it); and the structured content as JSON when no part is text
// (servers built with the Go SDK's AddTool also put it in a text part).
func render(res *mcp.CallToolResult) string {
	parts := make([]string, 0, len(res.Content)+1)
	text := false
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			text = true
			parts = append(parts, t.Text)
			continue
		}
		parts = append(parts, summary(c))
	}
	if !text && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			parts = append([]string{string(b)}, parts...)
		}
	}
	return strings.Join(parts, "\n")
}

// summary describes a part that is not text.
func summary(c mcp.Content) string {
	switch c := c.(type) {
	case *mcp.ImageContent:
		return brief("image", "", c.MIMEType, int64(len(c.Data)))
	case *mcp.AudioContent:
		return brief("audio", "", c.MIMEType, int64(len(c.Data)))
	case *mcp.ResourceLink:
		size := int64(-1)
		if c.Size != nil {
			size = *c.Size
		}
		return brief("resource link", c.URI, c.MIMEType, size)
	case *mcp.EmbeddedResource:
		if c.Resource == nil {
			return brief("resource", "", "", -1)
		}
		r := c.Resource
		return brief("resource", r.URI, r.MIMEType, int64(len(r.Text)+len(r.Blob)))
	}
	// Tool use and tool result parts belong to sampling, not to tool
	// results; a server that sends one anyway gets it named, not dumped.
	return fmt.Sprintf("[%T content]", c)
}

// brief writes "[kind: uri, mime, size]", leaving out what is unknown
// (an empty uri or MIME type, a negative size).
func brief(kind, uri, mime string, size int64) string {
	fields := make([]string, 0, 3)
	for _, f := range []string{uri, mime} {
		if f != "" {
			fields = append(fields, f)
		}
	}
	if size >= 0 {
		fields = append(fields, byteSize(size))
	}
	if len(fields) == 0 {
		return "[" + kind + "]"
	}
	return "[" + kind + ": " + strings.Join(fields, ", ") + "]"
}

// byteSize writes n bytes in binary units: "512 B", "1.5 KiB", "12.0 MiB".
func byteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, exp := float64(n)/unit, 0
	for math.Round(v*10)/10 >= unit && exp < 4 { // as printed: 1023.96 KiB is 1.0 MiB
		v /= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", v, "KMGTP"[exp])
}
