// Package resilientmcp gives a langchaingo agent the tools of an MCP server
// (through the official SDK, github.com/modelcontextprotocol/go-sdk) as
// tools that keep the meaning of their outcomes: each is wrapped by
// resilient.Tool, so the model reads what it can fix, the run ends on what
// it cannot, and a server that dies does not take the run with it.
//
//	client := mcp.NewClient(&mcp.Implementation{Name: "agent"}, nil)
//	client.AddReceivingMiddleware(resilientmcp.Notifications(observe.Log(logger)))
//	connect := func(ctx context.Context) (*mcp.ClientSession, error) {
//		return client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command("shop-server")}, nil)
//	}
//	session, err := connect(ctx)
//	...
//	tools, err := resilientmcp.Tools(ctx, session,
//		resilientmcp.Reconnect(connect), // a lost session is replaced
//		resilientmcp.Logger(logger),
//		resilientmcp.ToolOptionsFor("charge", resilient.Idempotent(store)))
//	...
//	defer resilientmcp.Close(tools)
//	agent := agents.NewOpenAIFunctionsAgent(model, tools)
//
// # Outcomes
//
// A call's input must be one JSON object that satisfies the tool's input
// schema (validated with github.com/google/jsonschema-go, which the SDK
// uses); an empty input is {}. The outcomes, as the wrapper maps them:
//
//	a result                       its content (below): the model reads it
//	a result with isError          a taxonomy.ToolError with its content, credentials redacted (as
//	                               every ToolError's text is): the model corrects its call
//	input not JSON, not an object, a ToolError saying what is wrong; nothing is sent
//	  or against the schema
//	JSON-RPC "invalid params"      a ToolError with the server's message, credentials redacted
//	"method not found", an         a taxonomy.FatalToolError: the run ends
//	  unknown tool
//	a lost session                 a *SessionLostError, transient: retried on a new session when the
//	                               tool is safe to retry, else "Error: <tool> failed internally"
//	any other JSON-RPC error       a *ServerError: "Error: <tool> failed internally"
//	the call's time runs out       the wrapper's timeout (resilient.Timeout, 30 s by default):
//	                               "Error: <tool> timed out"; the SDK cancels the request on the
//	                               server (notifications/cancelled)
//
// # Lost sessions
//
// A session is lost when the server process exits, the connection closes
// or the stream ends. The tools then close it and open another with the
// [Reconnect] function, before the next call or attempt is sent: a session
// that died between calls costs nothing but the reconnection. A call in
// flight when the session died may have run on the server, so it is
// retried only when the tool is safe to call again ([SafeToRetry]: by
// default the server's readOnlyHint or idempotentHint annotation), or when
// the tool was made resilient.Idempotent: then every attempt carries the
// same idempotency key in its _meta ([MetaIdempotencyKey]), for the server
// to execute it once. Any other tool fails internally and the model reads
// "Error: charge failed internally (*resilientmcp.SessionLostError)"; the
// log says the tool may have run. Without a Reconnect function, a lost
// session ends the run.
//
// # Content
//
// Text parts are joined by newlines. Images, audio and resources are
// summarised ("[image: image/png, 1.5 KiB]"), never given to the model as
// base64. The structured content is given as JSON when no part is text.
//
// # Progress and server logs
//
// The tools ask for progress notifications (each call carries a progress
// token naming its tool) and for server logs at [ServerLogLevel]
// ("warning" by default). [Notifications], installed on the client,
// reports them to observers as observe.ToolProgress and
// observe.ServerLog events; observe.Log writes them to slog, with
// the server's texts redacted. The model never sees them. What happens to
// the sessions (lost, replaced, a reconnection that failed) is written to
// the logger of [Logger], which the wrappers log to as well.
package resilientmcp
