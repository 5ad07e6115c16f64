package tools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// DefaultKey is the default [KeyFunc]: the tool's name, a colon and the hex
// SHA-256 of its input. An input that is one JSON value is canonicalized
// first (keys sorted, spaces removed, numbers and strings kept as they
// decode), so that a model reordering its arguments makes the same call.
// Only what is provably the same call is canonicalized; any other input is
// hashed as its exact bytes: invalid UTF-8, bytes after the JSON value, an
// object with the same key twice, an escaped lone surrogate. So two inputs
// share a key only when they are the same bytes or the same JSON value.
//
// Keys are stable across processes and versions: a store shared by
// replicas (Redis) recognizes the call whichever replica made it.
func DefaultKey(name, input string) string {
	sum := inputDigest(input)
	var digits [2 * sha256.Size]byte
	hex.Encode(digits[:], sum[:])
	var b strings.Builder // one allocation: the key
	b.Grow(len(name) + 1 + len(digits))
	b.WriteString(name)
	b.WriteByte(':')
	b.Write(digits[:])
	return b.String()
}

// inputDigest returns the SHA-256 of input's canonical form, or of input
// itself when it has none.
func inputDigest(input string) [sha256.Size]byte {
	c := canonicalizers.Get().(*canonicalizer)
	defer c.release()
	written, asIs, ok := c.canonicalJSON(input)
	switch {
	case !ok:
		return sumString(input)
	case written == nil:
		return sumString(asIs)
	}
	return sha256.Sum256(written)
}

// sumString returns the SHA-256 of s, through a small buffer: converting s
// to a []byte would copy all of it to the heap.
func sumString(s string) [sha256.Size]byte {
	if len(s) <= 256 { // most tools' inputs: a buffer that costs less to clear
		var buf [256]byte
		return sha256.Sum256(buf[:copy(buf[:], s)])
	}
	h := sha256.New()
	var buf [4096]byte
	for len(s) > 0 {
		n := copy(buf[:], s)
		h.Write(buf[:n])
		s = s[n:]
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

type keyCtx struct{}

// keyedContext is a context carrying an idempotency key, as
// context.WithValue(ctx, keyCtx{}, key) would, kept in the call's claim
// rather than allocated on its own. Its cancellation is its parent's own
// (Done, Err and Deadline are the parent's), so that the contexts derived
// from it find the parent's cancellation as they would through
// context.WithValue, without a goroutine of their own.
type keyedContext struct {
	context.Context
	key string
}

// Value returns the key for keyCtx{}, else what the parent holds.
func (c *keyedContext) Value(k any) any {
	if k == (keyCtx{}) {
		return c.key
	}
	return c.Context.Value(k)
}

// keyScopeCtx carries the scope given with WithKeyScope.
type keyScopeCtx struct{}

// WithKeyScope returns a context whose tool calls put scope before their
// idempotency key (the one [KeyFunc] derives from the input), so that a
// call is "the same" only within the scope: a durable workflow engine gives
// the identity of the workflow run, and the call it runs again after a
// crash, a lost reply or a failure, or that the model makes again, is
// recognised within the run and never confused with another run's. The
// scope reaches the service through [KeyFrom] too. A tool without a key
// (neither [Idempotent] nor given a KeyFunc) is not affected.
func WithKeyScope(ctx context.Context, scope string) context.Context {
	return context.WithValue(ctx, keyScopeCtx{}, scope)
}

// KeyFrom returns the idempotency key of the call in progress, for a tool
// marked [Idempotent] to pass on to the service it calls (an
// Idempotency-Key header), so that the service too executes the call once.
func KeyFrom(ctx context.Context) (string, bool) {
	k, ok := ctx.Value(keyCtx{}).(string)
	return k, ok
}
