package resilientmcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/resilientgo/resilient/taxonomy"
)

// inputSchema is a tool's input schema, ready to validate arguments.
type inputSchema struct {
	resolved *jsonschema.Resolved // nil when the schema cannot be used here
	compact  string               // the schema as compact JSON, for the description
}

// The JSON Schema drafts that jsonschema-go validates: Resolved.Validate
// refuses any other "$schema", so a tool declaring one is left to the
// server to validate.
var validatableDrafts = map[string]bool{
	"": true,
	"http://json-schema.org/draft-07/schema#":      true,
	"https://json-schema.org/draft-07/schema#":     true,
	"https://json-schema.org/draft/2020-12/schema": true,
}

// newInputSchema prepares the schema a server declared (on the client it
// is the default JSON decoding of the server's schema). A schema that this
// package cannot validate with (another draft, a reference to a remote
// schema) gives a nil resolved and the reason: the server still validates.
func newInputSchema(declared any) (inputSchema, error) {
	raw, err := json.Marshal(declared)
	if err != nil {
		return inputSchema{}, fmt.Errorf("input schema: %w", err)
	}
	s := inputSchema{compact: string(raw)}
	var schema jsonschema.Schema
	if err := json.Unmarshal(raw, &schema); err != nil {
		return s, fmt.Errorf("input schema: %w", err)
	}
	if !validatableDrafts[schema.Schema] {
		return s, fmt.Errorf("input schema: draft %q cannot be validated here", schema.Schema)
	}
	if s.resolved, err = schema.Resolve(nil); err != nil {
		return s, fmt.Errorf("input schema: %w", err)
	}
	return s, nil
}

// arguments turns the model's input into the arguments of a tools/call: a
// JSON object that satisfies the schema. An empty input is the empty
// object, for tools without parameters. Anything else gets a
// taxonomy.ToolError that tells the model what is wrong, and nothing is
// sent. The arguments are the input's own bytes, so numbers travel as the
// model wrote them.
func (s inputSchema) arguments(tool, input string) (json.RawMessage, error) {
	input = strings.TrimSpace(input)
	if input == "" {
		input = "{}"
	}
	dec := json.NewDecoder(strings.NewReader(input))
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, taxonomy.ToolErrorf("%s: the input is not JSON (%v); send the arguments as one JSON object", tool, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, taxonomy.ToolErrorf("%s: the input has more after its first JSON value; send the arguments as one JSON object", tool)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, taxonomy.ToolErrorf("%s: the input is a JSON %s; send the arguments as one JSON object", tool, jsonKind(v))
	}
	if s.resolved != nil {
		if err := s.resolved.Validate(obj); err != nil {
			return nil, taxonomy.ToolErrorf("%s: the input does not match the tool's input schema: %v", tool, err)
		}
	}
	return json.RawMessage(input), nil
}

// jsonKind names the kind of a decoded JSON value that is not an object.
func jsonKind(v any) string {
	switch v.(type) {
	case []any:
		return "array"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	}
	return "null"
}
