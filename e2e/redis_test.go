package e2e

import (
	"context"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// The server's log lines about the rate limiter's store (ratelimit.Fallback).
const (
	redisDownLine = "rate limiter: redis unreachable"
	redisUpLine   = "rate limiter: redis reachable again"
)

// redisUsed is the count Redis holds for a token (0 when it holds none).
func redisUsed(t *testing.T, rc *redis.Client, tokenID string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	v, err := rc.HGet(ctx, "plumb:ratelimit:"+tokenID, "used").Result()
	if err == redis.Nil {
		return 0
	}
	if err != nil {
		t.Fatalf("redis HGET: %v", err)
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		t.Fatalf("redis used %q: %v", v, err)
	}
	return n
}

// TestRedisOutage kills the Redis that holds the rate-limit counters and
// starts it again: while it is away the replica keeps answering, counts in
// process (every response keeps its five x-ratelimit-* headers), reports the
// outage on /readyz while staying ready, and logs it once; when Redis
// answers again /readyz says so within seconds and counting is back in
// Redis.
func TestRedisOutage(t *testing.T) {
	t.Parallel()
	rs := startRedis(t, 0)
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "plumb.db")
	ten := setUp(t, dsn, "ci")
	tok := ten.Tokens["ci"]
	srv := startServer(t, "plumb", "--database", dsn, "--redis-url", rs.url(0), "--rate-limit", "5")
	rc := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + strconv.Itoa(rs.port), MaxRetries: 1,
		DialTimeout: time.Second, ReadTimeout: time.Second, WriteTimeout: time.Second})
	defer rc.Close()
	workspaces := srv.base + "/workspaces"

	if got := srv.ready(t, "").Checks["rateLimit"]; got != "redis: ok" {
		t.Fatalf("/readyz rateLimit check %q, want \"redis: ok\"", got)
	}

	// Counted in Redis.
	for want := 1; want <= 2; want++ {
		h := mustRateHeaders(t, mustCall(t, http.StatusOK, "GET", workspaces, tok.Secret, ""))
		if h.Used != want || h.Limit != 5 {
			t.Fatalf("request %d with Redis up: headers %+v", want, h)
		}
		if got := redisUsed(t, rc, tok.ID); got != want {
			t.Fatalf("Redis holds used=%d after request %d", got, want)
		}
	}

	// Redis goes away.
	rs.Kill()
	var prev rateHeaders
	for i := 0; i < 3; i++ {
		r := mustCall(t, http.StatusOK, "GET", workspaces, tok.Secret, "")
		h := mustRateHeaders(t, r)
		// Redis refuses connections: falling back must cost next to nothing.
		if r.Duration > 500*time.Millisecond {
			t.Errorf("request %d with Redis down took %v", i+1, r.Duration)
		}
		if h.Limit != 5 {
			t.Errorf("request %d with Redis down: headers %+v", i+1, h)
		}
		if reset := time.Unix(h.Reset, 0); reset.Before(time.Now()) || reset.After(time.Now().Add(time.Hour+time.Second)) {
			t.Errorf("request %d with Redis down: reset %v is not within the hour", i+1, reset)
		}
		if i > 0 && h.Used != prev.Used+1 {
			t.Errorf("request %d with Redis down: used %d after %d; in-process counting should go on by one", i+1, h.Used, prev.Used)
		}
		prev = h
	}
	start := time.Now()
	d := srv.ready(t, "")
	if took := time.Since(start); took > 500*time.Millisecond {
		t.Errorf("/readyz with Redis down took %v", took)
	}
	status := d.Checks["rateLimit"]
	since, ok := strings.CutPrefix(status, "redis: unreachable since ")
	since, ok2 := strings.CutSuffix(since, ", using in-process limits")
	if !ok || !ok2 {
		t.Fatalf("/readyz rateLimit check %q during the outage", status)
	}
	if _, err := time.Parse(time.RFC3339, since); err != nil {
		t.Errorf("/readyz rateLimit check %q: the time: %v", status, err)
	}
	// After the cool-down the server tries Redis again (and fails again):
	// still one warning, and /rate_limit answers from the in-process count.
	time.Sleep(1200 * time.Millisecond)
	srv.ready(t, "")
	if r := mustCall(t, http.StatusOK, "GET", workspaces, tok.Secret, ""); r.Duration > 500*time.Millisecond {
		t.Errorf("a request trying Redis again after the cool-down took %v", r.Duration)
	}
	r := mustCall(t, http.StatusOK, "GET", srv.base+"/rate_limit", tok.Secret, "")
	if h := mustRateHeaders(t, r); h.Used != prev.Used+1 {
		t.Errorf("/rate_limit during the outage: headers %+v, want used %d", h, prev.Used+1)
	}
	if n := srv.waitCount(redisDownLine, 1); n != 1 {
		t.Errorf("the server logged %d warnings about the Redis outage, want exactly 1", n)
	}
	if n := srv.count("level=ERROR"); n != 0 {
		t.Errorf("the server logged %d errors during the Redis outage, want none", n)
	}

	// Redis comes back (empty: it keeps no data).
	startRedis(t, rs.port)
	if !waitFor(5*time.Second, func() bool { return srv.ready(t, "").Checks["rateLimit"] == "redis: ok" }) {
		t.Fatalf("/readyz rateLimit check still %q 5 s after Redis returned", srv.ready(t, "").Checks["rateLimit"])
	}
	if n := srv.waitCount(redisUpLine, 1); n != 1 {
		t.Errorf("the server logged %d lines about Redis answering again, want 1", n)
	}
	// Counting is back in Redis: a fresh window there, since Redis lost
	// its data, up to the limit and its 429.
	for want := 1; want <= 5; want++ {
		h := mustRateHeaders(t, mustCall(t, http.StatusOK, "GET", workspaces, tok.Secret, ""))
		if h.Used != want {
			t.Fatalf("request %d after Redis returned: headers %+v", want, h)
		}
		if got := redisUsed(t, rc, tok.ID); got != want {
			t.Fatalf("Redis holds used=%d after request %d since it returned", got, want)
		}
	}
	r = mustCall(t, http.StatusTooManyRequests, "GET", workspaces, tok.Secret, "")
	if err := checkErrorBody(r, http.StatusTooManyRequests); err != nil {
		t.Error(err)
	}
	if ra, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || ra < 1 || ra > 3600 {
		t.Errorf("Retry-After %q", r.Header.Get("Retry-After"))
	}

	// The whole log (complete once the process has exited): about Redis,
	// one warning when it went away and one line when it came back; nothing
	// per request or per retry.
	srv.stop(t)
	about := srv.lines(func(line string) bool {
		return strings.Contains(strings.ToLower(line), "redis") && !strings.Contains(line, "msg=request ")
	})
	if len(about) != 2 || !strings.Contains(about[0], "level=WARN") || !strings.Contains(about[0], redisDownLine) ||
		!strings.Contains(about[1], redisUpLine) {
		t.Errorf("the server's log lines about Redis:\n%s\nwant one warning about the outage, then one line about its end", strings.Join(about, "\n"))
	}
}
