// Package wait holds the two ways Plumb waits in the background: a sleep
// that ends with its context, and a lease renewed at a steady pace.
package wait

import (
	"context"
	"sync"
	"time"
)

// Sleep waits d, or until ctx ends (returning its error).
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Renew calls renew every period in the background until stop is called or
// renew answers false (the lease is lost). Each call gets a context that
// outlives ctx's cancellation (a client hanging up does not end a write's
// lease) and ends after one period. stop waits for a call under way, so no
// renewal runs after it; calling it again does nothing.
func Renew(ctx context.Context, period time.Duration, renew func(ctx context.Context) (more bool)) (stop func()) {
	quit := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), period)
				more := renew(rctx)
				cancel()
				if !more {
					return
				}
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(quit)
			<-done
		})
	}
}
