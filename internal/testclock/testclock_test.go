package testclock

import (
	"sync"
	"testing"
	"time"
)

func TestClockMovesOnlyWhenTold(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	c := New(t0)
	if got := c.Now(); !got.Equal(t0) {
		t.Fatalf("Now = %v, want %v", got, t0)
	}
	var wg sync.WaitGroup
	for i := 0; i < 10; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Advance(time.Second)
		}()
	}
	wg.Wait()
	if got, want := c.Now(), t0.Add(10*time.Second); !got.Equal(want) {
		t.Fatalf("after ten Advance(1s): Now = %v, want %v", got, want)
	}
	t1 := t0.Add(-time.Hour)
	c.Set(t1)
	if got := c.Now(); !got.Equal(t1) {
		t.Fatalf("after Set: Now = %v, want %v", got, t1)
	}
}
