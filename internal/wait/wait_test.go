package wait

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

func TestSleep(t *testing.T) {
	began := time.Now()
	if err := Sleep(context.Background(), 20*time.Millisecond); err != nil || time.Since(began) < 20*time.Millisecond {
		t.Fatalf("slept %s: %v", time.Since(began), err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	began = time.Now()
	if err := Sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) || time.Since(began) > time.Second {
		t.Fatalf("a cancelled sleep: %v after %s", err, time.Since(began))
	}
}

// Renewals come every period, on a context that outlives the caller's
// cancellation, and none runs after stop.
func TestRenew(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int32
	stop := Renew(ctx, 5*time.Millisecond, func(rctx context.Context) bool {
		if rctx.Err() != nil {
			t.Error("a renewal's context had ended")
		}
		if _, ok := rctx.Deadline(); !ok {
			t.Error("a renewal without a deadline")
		}
		calls.Add(1)
		return true
	})
	cancel() // the caller's context ending does not stop renewing
	for deadline := time.Now().Add(5 * time.Second); calls.Load() < 3; {
		if time.Now().After(deadline) {
			t.Fatalf("%d renewals in 5s", calls.Load())
		}
		time.Sleep(time.Millisecond)
	}
	stop()
	stop() // again: nothing
	n := calls.Load()
	time.Sleep(30 * time.Millisecond)
	if calls.Load() != n {
		t.Fatalf("renewals after stop: %d, then %d", n, calls.Load())
	}
}

// A lost lease ends the renewals.
func TestRenewLost(t *testing.T) {
	var calls atomic.Int32
	stop := Renew(context.Background(), time.Millisecond, func(context.Context) bool { calls.Add(1); return false })
	defer stop()
	time.Sleep(30 * time.Millisecond)
	if n := calls.Load(); n != 1 {
		t.Fatalf("%d renewals after the lease was lost, want 1", n)
	}
}
