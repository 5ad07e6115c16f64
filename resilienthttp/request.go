package resilienthttp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/resilientgo/resilient/observe"
)

// body is a request body that every attempt can send again.
type body struct {
	data   []byte                        // the whole body; nil when !whole
	whole  bool                          // data is the whole body
	get    func() (io.ReadCloser, error) // the request's GetBody, when data is not whole
	once   io.ReadCloser                 // a body that cannot be sent twice (too long, no GetBody), until sent
	single bool                          // the body is such a body
	length int64                         // the request's ContentLength
}

// readBody makes req's body replayable: it keeps up to limit bytes of it in
// memory, which is the whole of nearly every request to a model API. A
// longer body is sent through the request's GetBody when it has one, and
// else only once: replayable then reports false. req.Body is consumed and
// closed (or handed to the single attempt).
func readBody(req *http.Request, limit int64) (*body, error) {
	b := &body{length: req.ContentLength}
	if req.Body == nil || req.Body == http.NoBody {
		b.whole = true
		return b, nil
	}
	src := req.Body
	if req.GetBody != nil {
		// Read a fresh copy, and leave the SDK's body to be closed: the
		// SDK's GetBody replays bytes it holds.
		fresh, err := req.GetBody()
		if err != nil {
			req.Body.Close()
			return nil, fmt.Errorf("resilienthttp: GetBody: %w", err)
		}
		req.Body.Close()
		src = fresh
	}
	data, err := io.ReadAll(io.LimitReader(src, limit+1))
	if err != nil {
		src.Close()
		return nil, fmt.Errorf("resilienthttp: reading the request body: %w", err)
	}
	if int64(len(data)) <= limit {
		src.Close()
		b.data, b.whole = data, true
		return b, nil
	}
	if req.GetBody != nil {
		// Sent from GetBody each time; the bytes read are not kept (a JSON
		// body cut short names no model either).
		src.Close()
		b.get = req.GetBody
		return b, nil
	}
	b.single = true
	b.once = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(data), src), src}
	return b, nil
}

// replayable reports whether every attempt can send the body.
func (b *body) replayable() bool { return !b.single }

var errBodySpent = errors.New("resilienthttp: the request body cannot be sent again")

// reader returns the body for one attempt.
func (b *body) reader() (io.ReadCloser, error) {
	switch {
	case b.whole && len(b.data) == 0:
		return http.NoBody, nil
	case b.whole:
		return io.NopCloser(bytes.NewReader(b.data)), nil
	case b.get != nil:
		return b.get()
	}
	once := b.once
	if once == nil {
		return nil, errBodySpent
	}
	b.once = nil
	return once, nil
}

// close releases a body no attempt took.
func (b *body) close() {
	if b.once != nil {
		b.once.Close()
	}
}

// tokens estimates the input tokens of the request for a run's token
// budget: a quarter of its bytes, at least 1 (JSON's punctuation and tool
// schemas count too, so it errs high).
func (b *body) tokens() int {
	n := int64(len(b.data))
	if !b.whole && b.length > n {
		n = b.length
	}
	return int(max(1, (n+3)/4))
}

// modelOf returns the model a request names: the "model" member of its
// JSON body (OpenAI, Anthropic and compatible APIs), else the segment
// after "models/" in its path, up to a colon (Gemini:
// /v1beta/models/gemini-2.0-flash:generateContent), else "".
func modelOf(u *url.URL, data []byte) string {
	if trimmed := bytes.TrimLeft(data, " \t\r\n"); len(trimmed) > 0 && trimmed[0] == '{' {
		var doc struct {
			Model string `json:"model"`
		}
		if json.Unmarshal(data, &doc) == nil && doc.Model != "" {
			return bound(doc.Model)
		}
	}
	_, rest, ok := strings.Cut(u.Path, "/models/")
	if !ok {
		return ""
	}
	model, _, _ := strings.Cut(rest, ":")
	model, _, _ = strings.Cut(model, "/")
	return bound(model)
}

// bound cuts a name read from a request to 128 bytes: names are short, and
// a target's name is kept as long as its breaker is.
func bound(s string) string {
	if len(s) > 128 {
		return s[:128]
	}
	return s
}

// describe says what a request is, for observers: its operation and
// provider, from its path and host.
func describe(u *url.URL, model string) observe.Target {
	t := observe.Target{Operation: observe.OperationChat, Model: model}
	path := u.Path
	switch {
	case strings.HasSuffix(path, "/embeddings") || strings.HasSuffix(path, ":embedContent") || strings.HasSuffix(path, ":batchEmbedContents"):
		t.Operation = observe.OperationEmbeddings
	}
	host := strings.ToLower(u.Hostname())
	switch {
	case strings.Contains(path, ":generateContent") || strings.Contains(path, ":streamGenerateContent") ||
		strings.HasSuffix(host, "googleapis.com"):
		t.Provider = "gcp.gemini"
	case strings.HasSuffix(path, "/messages") || strings.HasSuffix(host, "anthropic.com"):
		t.Provider = "anthropic"
	case strings.HasSuffix(path, "/chat/completions") || strings.HasSuffix(path, "/responses") ||
		strings.HasSuffix(path, "/completions") || strings.HasSuffix(host, "openai.com"):
		t.Provider = "openai"
	}
	return t
}

// parseBase reads a deployment's base URL: absolute, with a scheme and a
// host, no query.
func parseBase(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return nil, err
	case u.Scheme == "" || u.Host == "":
		return nil, fmt.Errorf("base URL %q is not absolute", raw)
	case u.RawQuery != "" || u.Fragment != "":
		return nil, fmt.Errorf("base URL %q has a query or fragment", raw)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

// sameOrigin reports whether two URLs have the same scheme, host and port.
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Host, b.Host)
}

// under returns the rest of u's path after base's, and whether u lies under
// base (same origin, path prefix at a segment boundary).
func under(u, base *url.URL) (string, bool) {
	if !sameOrigin(u, base) {
		return "", false
	}
	rest, ok := strings.CutPrefix(u.Path, base.Path)
	if !ok || rest != "" && rest[0] != '/' {
		return "", false
	}
	return rest, true
}

// The headers a key travels in, in Go's canonical form.
var keyHeaders = [...]string{"Authorization", "X-Api-Key", "Api-Key", "X-Goog-Api-Key"}

// setKey puts key where r carries its key: in the first of keyHeaders it
// has (as a bearer token in Authorization), or in the key query parameter;
// in Authorization when it carries none.
func setKey(r *http.Request, key string) {
	if key == "" {
		return
	}
	for _, h := range keyHeaders {
		if r.Header.Get(h) == "" {
			continue
		}
		if h == "Authorization" {
			r.Header.Set(h, "Bearer "+key)
		} else {
			r.Header.Set(h, key)
		}
		return
	}
	if q := r.URL.Query(); q.Has("key") {
		q.Set("key", key)
		r.URL.RawQuery = q.Encode()
		return
	}
	r.Header.Set("Authorization", "Bearer "+key)
}
