package resilientredis

import (
	"context"
	"time"
)

// WaitAbandons waits until the claims s is abandoning in the background
// are done: the tests close the client first, which ends them.
func WaitAbandons(s *Store) { s.abandons.Wait() }

// Abandon abandons owner's claim of key as a failed Claim does, and waits
// until it is done.
func Abandon(s *Store, key, owner string, lease time.Duration) {
	s.abandon(key, owner, lease)
	s.abandons.Wait()
}

// WaitBound is how long a Semaphore's Acquire waits at most when given
// maxWait.
func WaitBound(maxWait time.Duration) time.Duration { return waitBound(maxWait) }

// Waiting returns how many callers of s wait in line for a slot.
func Waiting(s *Semaphore) int { return int(s.waiting.Load()) }

// WaitGivenBack waits until the slots s gives back in the background are
// given back: the tests close the client first, which ends them.
func WaitGivenBack(s *Semaphore) { s.giving.done.Wait() }

// GiveBack gives token's slot back and bars it, as an acquisition that
// gave up does, and waits until it is done.
func GiveBack(s *Semaphore, token string) {
	s.giveBack(token)
	s.giving.done.Wait()
}

// Take runs the take of an acquisition by token once, and returns Redis's
// answer: 1 taken, 2 barred, 0 every slot taken.
func Take(s *Semaphore, token string) (int64, error) {
	res, err := takeScript.Run(context.Background(), s.client, []string{s.key}, s.n, s.lease.Milliseconds(), token).Int64Slice()
	if err != nil {
		return -1, err
	}
	return res[0], nil
}

// Renew runs a renewal of token's slot once, and returns Redis's answer: 1
// renewed, 2 taken again, 0 none.
func Renew(s *Semaphore, token string) (int64, error) {
	return renewScript.Run(context.Background(), s.client, []string{s.key}, s.n, s.lease.Milliseconds(), token).Int64()
}

// QueueGiveBack adds token to the tokens s gives back, without waiting.
func QueueGiveBack(s *Semaphore, token string) { s.giveBack(token) }

// PendingGiveBacks returns how many tokens s has yet to give back.
func PendingGiveBacks(s *Semaphore) int {
	s.giving.mu.Lock()
	defer s.giving.mu.Unlock()
	return len(s.giving.tokens)
}
