// Package par runs the iterations of a loop on several goroutines.
package par

import (
	"sync"
	"sync/atomic"
)

// For calls f(0) … f(n-1) on up to workers goroutines, each taking the
// next index as it finishes one, and returns when all calls have
// returned. With one worker (or one index) the calls run in order on the
// caller's goroutine.
func For(n, workers int, f func(i int)) {
	if workers <= 1 || n <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		}()
	}
	wg.Wait()
}
