// Package ratelimit counts requests per token in fixed one-hour windows that
// start with the first counted request.
package ratelimit

import (
	"context"
	"sync"
	"time"
)

// Window is the length of a rate-limit window.
const Window = time.Hour

// Status is a token's rate-limit state, as reported in the x-ratelimit-*
// headers and by GET /rate_limit.
type Status struct {
	Limit     int
	Used      int
	Remaining int
	Reset     time.Time // when the current window ends
}

// Limiter counts requests.
type Limiter interface {
	// Take counts one request for key and reports whether it was allowed. A
	// refused request is not counted.
	Take(ctx context.Context, key string) (Status, bool, error)
	// Peek reports key's status without counting.
	Peek(ctx context.Context, key string) (Status, error)
}

// Memory is an in-process Limiter for a single server.
type Memory struct {
	limit int
	now   func() time.Time

	mu        sync.Mutex
	windows   map[string]*window
	lastSweep time.Time
}

type window struct {
	start time.Time
	used  int
}

// NewMemory returns an in-process limiter allowing limit requests per window.
func NewMemory(limit int, now func() time.Time) *Memory {
	if now == nil {
		now = time.Now
	}
	return &Memory{limit: limit, now: now, windows: map[string]*window{}}
}

func (m *Memory) status(w *window, now time.Time) Status {
	if w == nil || !now.Before(w.start.Add(Window)) {
		return Status{Limit: m.limit, Used: 0, Remaining: m.limit, Reset: now.Add(Window).Truncate(time.Second)}
	}
	rem := m.limit - w.used
	if rem < 0 {
		rem = 0
	}
	return Status{Limit: m.limit, Used: w.used, Remaining: rem, Reset: w.start.Add(Window)}
}

// Take implements Limiter.
func (m *Memory) Take(_ context.Context, key string) (Status, bool, error) {
	now := m.now().Truncate(time.Second)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweep(now)
	w := m.windows[key]
	if w == nil || !now.Before(w.start.Add(Window)) {
		w = &window{start: now}
		m.windows[key] = w
	}
	if w.used >= m.limit {
		return m.status(w, now), false, nil
	}
	w.used++
	return m.status(w, now), true, nil
}

// Peek implements Limiter.
func (m *Memory) Peek(_ context.Context, key string) (Status, error) {
	now := m.now().Truncate(time.Second)
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.status(m.windows[key], now), nil
}

// sweep drops ended windows every few minutes so memory stays bounded.
func (m *Memory) sweep(now time.Time) {
	if now.Sub(m.lastSweep) < 5*time.Minute {
		return
	}
	m.lastSweep = now
	for k, w := range m.windows {
		if !now.Before(w.start.Add(Window)) {
			delete(m.windows, k)
		}
	}
}
