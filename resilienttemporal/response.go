package resilienttemporal

import "github.com/tmc/langchaingo/llms"

// response is an llms.ContentResponse as the GenerateActivity returns it.
// langchaingo v0.1.14 encodes a ContentChoice's tool calls to JSON but
// decodes them without their function (llms.ToolCall.UnmarshalJSON looks
// for a json.RawMessage in a map of decoded values and never finds one), so
// the calls travel in a form of their own. Messages need none:
// llms.MessageContent decodes its tool calls itself.
type response struct {
	Choices []choice
}

type choice struct {
	Content          string
	StopReason       string
	GenerationInfo   map[string]any
	FuncCall         *llms.FunctionCall
	ToolCalls        []toolCall
	ReasoningContent string
}

type toolCall struct {
	ID, Type string
	Function *llms.FunctionCall
}

// responseOf returns r in the form the activity returns.
func responseOf(r *llms.ContentResponse) *response {
	if r == nil {
		return nil
	}
	out := &response{Choices: make([]choice, len(r.Choices))}
	for i, c := range r.Choices {
		if c == nil {
			continue
		}
		out.Choices[i] = choice{Content: c.Content, StopReason: c.StopReason, GenerationInfo: c.GenerationInfo,
			FuncCall: c.FuncCall, ReasoningContent: c.ReasoningContent}
		for _, tc := range c.ToolCalls {
			out.Choices[i].ToolCalls = append(out.Choices[i].ToolCalls, toolCall{ID: tc.ID, Type: tc.Type, Function: tc.FunctionCall})
		}
	}
	return out
}

// contentResponse returns the llms.ContentResponse r stands for.
func (r *response) contentResponse() *llms.ContentResponse {
	if r == nil {
		return nil
	}
	out := &llms.ContentResponse{Choices: make([]*llms.ContentChoice, len(r.Choices))}
	for i, c := range r.Choices {
		out.Choices[i] = &llms.ContentChoice{Content: c.Content, StopReason: c.StopReason, GenerationInfo: c.GenerationInfo,
			FuncCall: c.FuncCall, ReasoningContent: c.ReasoningContent}
		for _, tc := range c.ToolCalls {
			out.Choices[i].ToolCalls = append(out.Choices[i].ToolCalls, llms.ToolCall{ID: tc.ID, Type: tc.Type, FunctionCall: tc.Function})
		}
	}
	return out
}
