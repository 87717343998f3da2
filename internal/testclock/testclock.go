// Package testclock is the controllable clock of the tests: a time source
// that stands still until the test moves it, safe for concurrent use, whose
// Now method is what the store, the rate limiter, the API and the web
// server take as their clock.
//
// It imports only the standard library.
package testclock

import (
	"sync"
	"time"
)

// Clock is a time that moves only when the test says so.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// New returns a Clock standing at t.
func New(t time.Time) *Clock { return &Clock{now: t} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}
