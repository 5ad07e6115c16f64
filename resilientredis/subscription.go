package resilientredis

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// subscription receives the releases that the semaphores of every process
// announce on a channel, and wakes this process's first waiter for each.
type subscription struct {
	ps     *redis.PubSub
	cancel context.CancelFunc
	done   chan struct{}
}

// subscribe opens the semaphore's subscription, unless it is open or the
// semaphore closed. It sends nothing itself: the subscription's goroutine
// does, so that no waiter waits for it. A release announced before the
// subscription is confirmed is not received; the waiter's poll is the
// safety net.
func (s *Semaphore) subscribe() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sub != nil || s.closed {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	sub := &subscription{ps: s.client.Subscribe(ctx), cancel: cancel, done: make(chan struct{})}
	s.sub = sub
	go sub.listen(ctx, s.key, s.notify)
}

// listen subscribes to channel and calls notify for each message until the
// subscription is closed. Subscribing dials a connection of its own; when
// it fails, or the connection drops later, go-redis reconnects and
// subscribes again by itself.
func (sub *subscription) listen(ctx context.Context, channel string, notify func()) {
	defer close(sub.done)
	_ = sub.ps.Subscribe(ctx, channel)
	msgs := sub.ps.Channel()
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-msgs:
			if !ok {
				return
			}
			notify()
		}
	}
}

// close ends the subscription and waits for its goroutine.
func (sub *subscription) close() error {
	sub.cancel()
	err := sub.ps.Close()
	<-sub.done
	return err
}
