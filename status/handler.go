package status

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/internal/redact"
)

// The administrative actions on a breaker, the last segment of their path
// (see [Handler]).
const (
	// ActionForceOpen forces the breaker open (breaker.Breaker.ForceOpen):
	// every call is refused until a reset.
	ActionForceOpen = "force_open"
	// ActionForceClosed forces it closed (breaker.Breaker.ForceClosed):
	// every call goes through, whatever its failures, until a reset.
	ActionForceClosed = "force_closed"
	// ActionReset ends any forcing and any hold and closes the breaker
	// (breaker.Breaker.Close): it follows its evidence again.
	ActionReset = "reset"
)

// An Option configures a [Handler].
type Option func(*config)

type config struct {
	actions bool
	logger  *slog.Logger
}

// AllowActions enables the administrative actions (see [Handler]).
// Default: off (every action is refused as Forbidden).
func AllowActions() Option { return func(c *config) { c.actions = true } }

// Logger logs each administrative action taken, at the Warn level, with
// the breaker, the action and the client's address ("breaker forced by an
// operator"). Default: none.
func Logger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// Handler serves the state of what r holds, as JSON:
//
//	GET  /                                          the whole [Report]
//	GET  /ready                                     200 {"ready":true}, or 503 {"ready":false,"unready":[models]} (see [Registry.Ready])
//	POST /breakers/{name}/{action}                  an action on the breaker of the entry name (a model's, or one added with AddBreaker)
//	POST /models/{name}/members/{member}/{action}   an action on the breaker of a pool's member
//
// where action is [ActionForceOpen], [ActionForceClosed] or [ActionReset],
// and a name holding a slash has it escaped (openai%2Fgpt-4o).
// An action answers with the breaker's state after it (a [BreakerReport]);
// it is refused with 403 unless [AllowActions] is given, with 404 for a
// breaker r does not hold and 400 for an unknown action. An action on a
// breaker shared through Redis (resilientredis.ShareBreaker) reaches every
// replica that shares it: the forcing is published, and a reset ends it
// everywhere. Errors are JSON too: {"error": "..."}.
//
// Mount it under a prefix with [http.StripPrefix]. The handler has no
// authentication of its own: serve it on an address only operators reach,
// or behind the program's own authentication, as a Resilience4j actuator
// or a pprof endpoint. A nil r shows an empty registry. It is safe for
// concurrent use.
func Handler(r *Registry, opts ...Option) http.Handler {
	var c config
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if r == nil {
		r = &Registry{} // nothing to show, rather than a panic at the first request
	}
	h := &handler{r: r, cfg: c}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", h.report)
	mux.HandleFunc("GET /ready", h.ready)
	mux.HandleFunc("POST /breakers/{name}/{action}", h.act)
	mux.HandleFunc("POST /models/{name}/members/{member}/{action}", h.act)
	// Everything else is answered in JSON too.
	for path, allow := range map[string]string{"/{$}": "GET, HEAD", "/ready": "GET, HEAD",
		"/breakers/{name}/{action}": "POST", "/models/{name}/members/{member}/{action}": "POST"} {
		mux.HandleFunc(path, func(w http.ResponseWriter, req *http.Request) {
			w.Header().Set("Allow", allow)
			writeError(w, http.StatusMethodNotAllowed, req.Method+" "+req.URL.Path+": method not allowed (allowed: "+allow+")")
		})
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, req *http.Request) {
		writeError(w, http.StatusNotFound, "no page "+req.URL.Path)
	})
	return mux
}

type handler struct {
	r   *Registry
	cfg config
}

func (h *handler) report(w http.ResponseWriter, req *http.Request) {
	writeJSON(w, http.StatusOK, h.r.report(req.Context()))
}

func (h *handler) ready(w http.ResponseWriter, _ *http.Request) {
	ok, unready := h.r.Ready()
	if ok {
		writeJSON(w, http.StatusOK, struct {
			Ready bool `json:"ready"`
		}{true})
		return
	}
	writeJSON(w, http.StatusServiceUnavailable, struct {
		Ready   bool     `json:"ready"`
		Unready []string `json:"unready"`
	}{false, unready})
}

func (h *handler) act(w http.ResponseWriter, req *http.Request) {
	name, member, action := req.PathValue("name"), req.PathValue("member"), req.PathValue("action")
	if !h.cfg.actions {
		writeError(w, http.StatusForbidden, "administrative actions are not enabled (status.AllowActions)")
		return
	}
	var do func(*breaker.Breaker)
	switch action {
	case ActionForceOpen:
		do = (*breaker.Breaker).ForceOpen
	case ActionForceClosed:
		do = (*breaker.Breaker).ForceClosed
	case ActionReset:
		do = (*breaker.Breaker).Close
	default:
		writeError(w, http.StatusBadRequest, fmt.Sprintf("no action %q: want %s, %s or %s",
			action, ActionForceOpen, ActionForceClosed, ActionReset))
		return
	}
	b := h.r.breaker(name, member, member != "")
	if b == nil {
		what := fmt.Sprintf("breaker %q", name)
		if member != "" {
			what = fmt.Sprintf("member %q of pool %q", member, name)
		}
		writeError(w, http.StatusNotFound, "no "+what)
		return
	}
	do(b)
	if h.cfg.logger != nil {
		h.cfg.logger.LogAttrs(req.Context(), slog.LevelWarn, "breaker forced by an operator",
			slog.String("name", redact.String(name)), slog.String("member", redact.String(member)),
			slog.String("action", action), slog.String("client", redact.String(req.RemoteAddr)))
	}
	writeJSON(w, http.StatusOK, reportBreaker(b))
}

// breaker returns the breaker an action names: the breaker of entry name
// (a model's or an AddBreaker's), or, inMember, that of the pool member
// member of model name; nil when there is none.
func (r *Registry) breaker(name, member string, inMember bool) *breaker.Breaker {
	for _, e := range r.list() {
		if e.name != name {
			continue
		}
		switch {
		case inMember && e.pool != nil:
			for _, s := range e.pool.Members() {
				if s.Name == member {
					return s.Breaker
				}
			}
		case inMember:
		case e.breaker != nil:
			return e.breaker
		case e.model != nil:
			return e.model.Breaker()
		}
		return nil
	}
	return nil
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, struct {
		Error string `json:"error"`
	}{redact.String("status: " + msg)})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v) // the client went away: nothing to tell it
}
