package resilientredis

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// MaxGiveBacks bounds the tokens a [Semaphore] holds to give back while
// Redis does not answer (see "Acquisitions that gave up" there): past it,
// the oldest is dropped, and its take, if it lands, holds a slot nobody
// uses until its lease ends.
const MaxGiveBacks = 1024

// giveBacks is a Semaphore's line of tokens to give back and bar: those of
// acquisitions that gave up after their take was sent, and of releases
// Redis did not take. One goroutine at a time gives them back, all in one
// round trip, until Redis takes them; it ends when the line is empty.
type giveBacks struct {
	mu      sync.Mutex
	tokens  []string // oldest first, at most MaxGiveBacks
	first   int64    // the number of tokens[0] in the order they came
	fresh   bool     // tokens came since the last round trip
	running bool     // the goroutine is giving them back
	done    sync.WaitGroup
}

// giveBack adds token to the line, and starts the goroutine that gives the
// line back if it is not running. The token's slot, if its take landed or
// lands, is freed as soon as Redis takes the give-back, and the token is
// barred for a lease from then (see the scripts).
func (s *Semaphore) giveBack(token string) {
	g := &s.giving
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.tokens) == MaxGiveBacks {
		g.tokens = g.tokens[1:]
		g.first++
	}
	g.tokens = append(g.tokens, token)
	g.fresh = true
	if !g.running {
		g.running = true
		g.done.Go(s.giveBackLine)
	}
}

// giveBackLine gives the line back until it is empty, waiting 50 ms, then
// twice as long up to 1 s, after each failure. A round trip with tokens
// that came since the last one goes at once, whatever the health of Redis,
// so that a stalled Redis receives it right behind the takes it undoes;
// the others go when Redis is tried (once a second while it is down). A
// closed client ends it.
func (s *Semaphore) giveBackLine() {
	g := &s.giving
	for wait := 50 * time.Millisecond; ; {
		g.mu.Lock()
		if len(g.tokens) == 0 {
			g.running = false
			g.mu.Unlock()
			return
		}
		tokens := append([]string(nil), g.tokens...)
		end := g.first + int64(len(tokens)) // the number after the last one sent
		through := attempt[any]
		if g.fresh {
			through = send[any]
		}
		g.fresh = false
		g.mu.Unlock()

		args := make([]any, 0, 2+len(tokens))
		args = append(args, s.n, s.lease.Milliseconds())
		for _, t := range tokens {
			args = append(args, t)
		}
		_, _, err := through(context.Background(), s.health, s.timeout, func(ctx context.Context) (any, error) {
			return nil, giveBackScript.Run(ctx, s.client, []string{s.key}, args...).Err()
		})
		switch {
		case err == nil:
			g.mu.Lock()
			if k := end - g.first; k > 0 { // those given back and not dropped since
				g.tokens = g.tokens[min(int(k), len(g.tokens)):]
				g.first = end
			}
			g.mu.Unlock()
			wait = 50 * time.Millisecond
			s.notify()
			continue
		case errors.Is(err, redis.ErrClosed):
			g.mu.Lock()
			g.tokens, g.running = nil, false
			g.mu.Unlock()
			return
		}
		time.Sleep(wait)
		wait = min(2*wait, time.Second)
	}
}
