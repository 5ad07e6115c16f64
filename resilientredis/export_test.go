package resilientredis

import "time"

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
