package ratelimit

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/plumbhq/plumb/internal/testclock"
)

var start = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

func newTestMemory(limit int) (*Memory, *testclock.Clock) {
	c := testclock.New(start)
	return NewMemory(limit, c.Now), c
}

func take(t *testing.T, m *Memory, key string) (Status, bool) {
	t.Helper()
	st, ok, err := m.Take(context.Background(), key)
	if err != nil {
		t.Fatalf("Take: %v", err)
	}
	return st, ok
}

func peek(t *testing.T, m *Memory, key string) Status {
	t.Helper()
	st, err := m.Peek(context.Background(), key)
	if err != nil {
		t.Fatalf("Peek: %v", err)
	}
	return st
}

func want(t *testing.T, got Status, limit, used, remaining int, reset time.Time) {
	t.Helper()
	w := Status{Limit: limit, Used: used, Remaining: remaining, Reset: reset}
	if got.Limit != w.Limit || got.Used != w.Used || got.Remaining != w.Remaining || !got.Reset.Equal(w.Reset) {
		t.Errorf("status %+v, want %+v", got, w)
	}
}

func TestTakeCountsInAWindowStartingAtTheFirstRequest(t *testing.T) {
	m, c := newTestMemory(3)
	// Nothing counted yet: a full quota; the window would start now.
	want(t, peek(t, m, "a"), 3, 0, 3, start.Add(Window))
	c.Advance(10 * time.Minute)
	want(t, peek(t, m, "a"), 3, 0, 3, start.Add(10*time.Minute+Window))

	// The window starts with the first counted request.
	first := c.Now()
	st, ok := take(t, m, "a")
	if !ok {
		t.Fatal("first request refused")
	}
	want(t, st, 3, 1, 2, first.Add(Window))
	c.Advance(20 * time.Minute)
	st, ok = take(t, m, "a")
	if !ok {
		t.Fatal("second request refused")
	}
	want(t, st, 3, 2, 1, first.Add(Window)) // the reset does not move
	st, ok = take(t, m, "a")
	if !ok {
		t.Fatal("third request refused")
	}
	want(t, st, 3, 3, 0, first.Add(Window))
}

func TestRefusalIsNotCounted(t *testing.T) {
	m, c := newTestMemory(2)
	take(t, m, "a")
	take(t, m, "a")
	for i := 0; i < 5; i++ {
		st, ok := take(t, m, "a")
		if ok {
			t.Fatalf("request %d over the limit allowed", i+3)
		}
		want(t, st, 2, 2, 0, start.Add(Window))
		c.Advance(time.Minute)
	}
	want(t, peek(t, m, "a"), 2, 2, 0, start.Add(Window))
}

func TestWindowResetsExactly(t *testing.T) {
	m, c := newTestMemory(1)
	take(t, m, "a")
	c.Advance(Window - time.Second)
	if _, ok := take(t, m, "a"); ok {
		t.Fatal("allowed one second before the reset")
	}
	want(t, peek(t, m, "a"), 1, 1, 0, start.Add(Window))
	c.Advance(time.Second) // exactly the reset time: a new window
	want(t, peek(t, m, "a"), 1, 0, 1, start.Add(2*Window))
	st, ok := take(t, m, "a")
	if !ok {
		t.Fatal("refused at the reset time")
	}
	want(t, st, 1, 1, 0, start.Add(2*Window))
	// A window that ended long ago starts afresh at the next request.
	c.Advance(5*Window + 17*time.Second)
	now := c.Now()
	st, ok = take(t, m, "a")
	if !ok {
		t.Fatal("refused in a new window")
	}
	want(t, st, 1, 1, 0, now.Add(Window))
}

func TestWholeSeconds(t *testing.T) {
	m, c := newTestMemory(5)
	c.Advance(1500 * time.Millisecond)
	st, _ := take(t, m, "a")
	// The window starts at the whole second; the reset is a whole second.
	want(t, st, 5, 1, 4, start.Add(time.Second+Window))
	if st.Reset.Nanosecond() != 0 {
		t.Errorf("reset %v is not a whole second", st.Reset)
	}
	c.Advance(300 * time.Millisecond)
	if p := peek(t, m, "b"); p.Reset.Nanosecond() != 0 {
		t.Errorf("peek reset %v is not a whole second", p.Reset)
	}
}

func TestPeekDoesNotCount(t *testing.T) {
	m, _ := newTestMemory(2)
	for i := 0; i < 10; i++ {
		peek(t, m, "a")
	}
	take(t, m, "a")
	for i := 0; i < 10; i++ {
		want(t, peek(t, m, "a"), 2, 1, 1, start.Add(Window))
	}
	if _, ok := take(t, m, "a"); !ok {
		t.Fatal("second request refused after peeks")
	}
}

func TestKeysAreIsolated(t *testing.T) {
	m, c := newTestMemory(1)
	take(t, m, "a")
	if _, ok := take(t, m, "a"); ok {
		t.Fatal("a: second request allowed")
	}
	c.Advance(time.Minute)
	st, ok := take(t, m, "b")
	if !ok {
		t.Fatal("b refused because of a")
	}
	want(t, st, 1, 1, 0, start.Add(time.Minute+Window))
	want(t, peek(t, m, "a"), 1, 1, 0, start.Add(Window))
}

func TestSweepDropsEndedWindows(t *testing.T) {
	m, c := newTestMemory(10)
	for i := 0; i < 100; i++ {
		take(t, m, fmt.Sprint("old", i))
	}
	c.Advance(30 * time.Minute)
	take(t, m, "recent")
	if n := windows(m); n != 101 {
		t.Fatalf("%d windows, want 101", n)
	}
	c.Advance(Window - 30*time.Minute) // the old windows end now; "recent" has 30 minutes left
	take(t, m, "trigger")
	if n := windows(m); n != 2 {
		t.Errorf("%d windows after the sweep, want 2 (recent, trigger)", n)
	}
	want(t, peek(t, m, "recent"), 10, 1, 9, start.Add(30*time.Minute+Window))
	want(t, peek(t, m, "old0"), 10, 0, 10, c.Now().Add(Window))
}

func TestSweepRunsAtMostEveryFewMinutes(t *testing.T) {
	m, c := newTestMemory(10)
	take(t, m, "a") // sweeps (first call) and starts a's window
	c.Advance(Window)
	take(t, m, "b") // a's window ended; this call sweeps (an hour since the last)
	if n := windows(m); n != 1 {
		t.Fatalf("%d windows, want 1", n)
	}
	take(t, m, "c")
	c.Advance(Window)
	take(t, m, "d") // sweeps b and c
	c.Advance(time.Minute)
	m.mu.Lock()
	m.windows["stale"] = &window{start: c.Now().Add(-2 * Window), used: 1}
	m.mu.Unlock()
	take(t, m, "e") // a minute after the last sweep: no sweep yet
	if n := windows(m); n != 3 {
		t.Errorf("%d windows, want 3 (d, e and the stale one)", n)
	}
	// A stale window still reads as ended.
	want(t, peek(t, m, "stale"), 10, 0, 10, c.Now().Add(Window))
	c.Advance(5 * time.Minute)
	take(t, m, "f")
	if n := windows(m); n != 3 {
		t.Errorf("%d windows, want 3 (d, e, f)", n)
	}
}

func windows(m *Memory) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.windows)
}

func TestConcurrentTakesNeverExceedTheLimit(t *testing.T) {
	m, _ := newTestMemory(100)
	var wg sync.WaitGroup
	var mu sync.Mutex
	allowed := 0
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 10; j++ {
				_, ok, err := m.Take(context.Background(), "k")
				if err != nil {
					t.Error(err)
					return
				}
				if ok {
					mu.Lock()
					allowed++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if allowed != 100 {
		t.Errorf("%d requests allowed, want exactly 100", allowed)
	}
	want(t, peek(t, m, "k"), 100, 100, 0, start.Add(Window))
}

func TestNilClockUsesTime(t *testing.T) {
	m := NewMemory(1, nil)
	st, ok, err := m.Take(context.Background(), "a")
	if err != nil || !ok {
		t.Fatalf("Take: %v %v", ok, err)
	}
	if d := time.Until(st.Reset); d < Window-2*time.Second || d > Window {
		t.Errorf("reset in %v, want about an hour", d)
	}
}

// The Memory limiter satisfies the Limiter interface.
var _ Limiter = (*Memory)(nil)
