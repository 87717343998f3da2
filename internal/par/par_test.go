package par

import (
	"sync"
	"testing"
)

// TestFor: every index is called once, with one worker or several (more
// workers than indexes too), and For returns after the last call.
func TestFor(t *testing.T) {
	for _, tc := range []struct{ n, workers int }{{0, 4}, {1, 4}, {1000, 1}, {1000, 2}, {1000, 7}, {3, 16}} {
		var mu sync.Mutex
		calls := make([]int, tc.n)
		For(tc.n, tc.workers, func(i int) {
			mu.Lock()
			calls[i]++
			mu.Unlock()
		})
		for i, c := range calls {
			if c != 1 {
				t.Fatalf("n=%d workers=%d: index %d called %d times", tc.n, tc.workers, i, c)
			}
		}
	}
	// one worker: in order, on the caller's goroutine (no lock needed)
	var order []int
	For(5, 1, func(i int) { order = append(order, i) })
	for i, v := range order {
		if v != i {
			t.Fatalf("one worker: order %v", order)
		}
	}
}
