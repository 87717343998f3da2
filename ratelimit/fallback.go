package ratelimit

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// DefaultCooldown is how long a Fallback leaves its primary alone after the
// primary failed.
const DefaultCooldown = time.Second

// Fallback is a Limiter that counts with a primary limiter (Redis) and, while
// the primary fails, with a backup limiter (an in-process Memory).
//
// What happens while Redis is unreachable:
//
//   - Requests are not refused and do not fail because of Redis: when a call
//     to Redis returns an error (connection refused, timeout, Redis error),
//     the same call is answered by the in-process limiter, and the headers and
//     GET /rate_limit show the in-process counts.
//   - One warning is logged when Redis starts failing and one info line when it
//     answers again; nothing is logged per request.
//   - After a failure Redis is not tried for a cool-down (Cooldown, default one
//     second): calls go straight to the in-process limiter, so an outage does
//     not add a Redis timeout to every request. After the cool-down, one call
//     tries Redis again (the others keep using the in-process limiter until it
//     has answered); if it succeeds, counting is back in Redis.
//   - Healthy and Status report the state for /readyz. A replica that falls
//     back still serves, so the state is meant to be reported, not to make
//     the replica unready.
//   - During the outage each replica counts separately in its own in-process
//     window, so across N replicas a token can make up to N×limit requests
//     in an hour (and a replica's in-process window may start at a different
//     time than the Redis one). Counts made during the outage are not merged
//     back into Redis: when Redis answers again, the token's state is
//     whatever Redis holds (the window from before the outage if it has not
//     ended, a fresh window if it has or if Redis lost its data), and the
//     in-process counts are no longer used. A call that timed out after Redis
//     had counted it is counted again in-process.
//
// The Redis client's options bound the delay of the calls that do try Redis
// during an outage (one per cool-down per replica), so give it short ones:
// go-redis by default dials up to 5 times 100 ms apart with a 5 s dial
// timeout and retries a command 3 times, which is seconds per failing call.
// For example DialTimeout, ReadTimeout and WriteTimeout of 200–500 ms,
// DialerRetries 1 and MaxRetries 1 (a retry replaces a pooled connection
// that Redis closed, e.g. after a restart).
//
// Healthy is true until a call fails, so call Check at start-up (and from
// /readyz) to learn about a Redis that is down before the first request.
//
// A call whose context is already cancelled or past its deadline when the
// primary fails is answered by the backup without marking the primary as
// failed: the caller gave up, Redis did not.
type Fallback struct {
	// Name names the primary in Status and in the logs; default "redis".
	Name string
	// Cooldown is how long the primary is skipped after it failed; zero
	// tries the primary on every call. Default DefaultCooldown.
	Cooldown time.Duration
	// Now is the clock for the cool-down and Status; default time.Now.
	Now func() time.Time

	primary, backup Limiter
	log             *slog.Logger

	mu      sync.Mutex
	down    bool      // the primary's last call failed
	since   time.Time // when the primary started failing
	retryAt time.Time // while down: when the next call may try the primary
}

// NewFallback returns a limiter that uses primary and, while primary fails,
// backup. log receives the failover and recovery lines; nil discards them.
// Change Name, Cooldown and Now, if at all, before the first call.
func NewFallback(primary, backup Limiter, log *slog.Logger) *Fallback {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Fallback{
		Name:     "redis",
		Cooldown: DefaultCooldown,
		Now:      time.Now,
		primary:  primary,
		backup:   backup,
		log:      log,
	}
}

// Take implements Limiter.
func (f *Fallback) Take(ctx context.Context, key string) (Status, bool, error) {
	if f.tryPrimary() {
		st, ok, err := f.primary.Take(ctx, key)
		if f.report(ctx, err) {
			return st, ok, nil
		}
	}
	return f.backup.Take(ctx, key)
}

// Peek implements Limiter.
func (f *Fallback) Peek(ctx context.Context, key string) (Status, error) {
	if f.tryPrimary() {
		st, err := f.primary.Peek(ctx, key)
		if f.report(ctx, err) {
			return st, nil
		}
	}
	return f.backup.Peek(ctx, key)
}

// Check tries the primary now, if it can be pinged (has a method
// Ping(context.Context) error, as Redis does) and is not in its cool-down,
// and then reports Healthy. Without calls the state would only change with
// the next request; /readyz can call Check to keep it current.
func (f *Fallback) Check(ctx context.Context) bool {
	p, ok := f.primary.(interface{ Ping(context.Context) error })
	if ok && f.tryPrimary() {
		f.report(ctx, p.Ping(ctx))
	}
	return f.Healthy()
}

// Healthy reports whether the primary answered the last call that tried it
// (true before any call).
func (f *Fallback) Healthy() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return !f.down
}

// Status describes the state for /readyz, e.g. "redis: ok" or "redis:
// unreachable since 2026-03-02T10:00:00Z, using in-process limits".
func (f *Fallback) Status() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.down {
		return f.Name + ": ok"
	}
	return fmt.Sprintf("%s: unreachable since %s, using in-process limits",
		f.Name, f.since.UTC().Format(time.RFC3339))
}

// tryPrimary reports whether this call should use the primary. While the
// primary is down, one call per cool-down gets to try it.
func (f *Fallback) tryPrimary() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.down {
		return true
	}
	now := f.Now()
	if now.Before(f.retryAt) {
		return false
	}
	f.retryAt = now.Add(f.Cooldown)
	return true
}

// report records the outcome of a call to the primary and reports whether
// its answer can be used.
func (f *Fallback) report(ctx context.Context, err error) bool {
	if err != nil && ctx.Err() != nil {
		return false // the caller gave up; that says nothing about the primary
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	now := f.Now()
	if err == nil {
		if f.down {
			f.down = false
			f.log.Info("rate limiter: "+f.Name+" reachable again; counting there again",
				"store", f.Name, "outage", now.Sub(f.since).Round(time.Millisecond).String())
		}
		return true
	}
	f.retryAt = now.Add(f.Cooldown)
	if !f.down {
		f.down, f.since = true, now
		f.log.Warn("rate limiter: "+f.Name+" unreachable; using in-process limits (each replica counts separately) until it answers again",
			"store", f.Name, "error", err.Error())
	}
	return false
}

// The Fallback limiter satisfies the Limiter interface.
var _ Limiter = (*Fallback)(nil)
