package resilientmcp

// UnknownTool exposes the rule that tells an unknown tool from other
// invalid params.
func UnknownTool(msg string) bool { return unknownTool.MatchString(msg) }
