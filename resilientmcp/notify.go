package resilientmcp

import (
	"context"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/resilientgo/resilient/observe"
)

// Notifications returns client middleware that reports what the servers
// send besides results to observers, as observe.ToolProgress events (the
// progress of tool calls: notifications/progress) and observe.ServerLog
// events (the servers' log messages, asked for with [ServerLogLevel]:
// notifications/message). None of it reaches the model. observe.Log
// writes them as slog lines. Install it on the client whose sessions go to
// [Tools]:
//
//	client := mcp.NewClient(&mcp.Implementation{Name: "agent"}, nil)
//	client.AddReceivingMiddleware(resilientmcp.Notifications(observe.Log(logger)))
//
// It hands every message on to the client's own handlers. Nil observers
// are ignored.
func Notifications(observers ...observe.Observer) mcp.Middleware {
	var n notifier
	for _, o := range observers {
		if o != nil {
			n.obs = append(n.obs, o)
		}
	}
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			switch p := req.GetParams().(type) {
			case *mcp.ProgressNotificationParams:
				tool, _ := toolOfToken(p.ProgressToken)
				n.progress(ctx, serverName(req.GetSession()), tool, p)
			default:
				n.serverLog(ctx, req)
			}
			return next(ctx, method, req)
		}
	}
}

// serverName returns the name a server gave in its initialization.
func serverName(s mcp.Session) string {
	cs, ok := s.(*mcp.ClientSession)
	if !ok {
		return ""
	}
	return nameOf(cs)
}

func nameOf(cs *mcp.ClientSession) string {
	r := cs.InitializeResult()
	if r == nil || r.ServerInfo == nil {
		return ""
	}
	return r.ServerInfo.Name
}

// tokenPrefix starts the progress tokens of calls made by the tools of this
// package: a token names its tool, so that Notifications, which sees only
// the token, can say whose progress it is.
const tokenPrefix = "resilientmcp:"

// progressToken returns the token of call n of tool. Tokens must be unique
// among the requests in flight on a session.
func progressToken(tool string, n uint64) string {
	return tokenPrefix + tool + ":" + strconv.FormatUint(n, 10)
}

// toolOfToken returns the tool named by a token of progressToken.
func toolOfToken(token any) (string, bool) {
	s, ok := token.(string)
	if !ok || !strings.HasPrefix(s, tokenPrefix) {
		return "", false
	}
	s = s[len(tokenPrefix):]
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return "", false
	}
	return s[:i], true
}
