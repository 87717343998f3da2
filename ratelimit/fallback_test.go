package ratelimit

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/plumbhq/plumb/internal/proctest"
	"github.com/plumbhq/plumb/internal/testclock"
)

// logBuffer collects log output from concurrent goroutines.
type logBuffer struct{ proctest.Log }

// lines returns the logged lines at level ("WARN", "INFO").
func (b *logBuffer) lines(level string) []string {
	var out []string
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.Contains(l, "level="+level+" ") {
			out = append(out, l)
		}
	}
	return out
}

func newTestLogger() (*slog.Logger, *logBuffer) {
	b := &logBuffer{}
	return slog.New(slog.NewTextHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug})), b
}

func wantLogs(t *testing.T, b *logBuffer, warns, infos int) {
	t.Helper()
	if w, i := b.lines("WARN"), b.lines("INFO"); len(w) != warns || len(i) != infos {
		t.Errorf("logged %d warnings and %d info lines, want %d and %d:\n%s", len(w), len(i), warns, infos, b.String())
	}
}

func wantHealthy(t *testing.T, f *Fallback, healthy bool, status string) {
	t.Helper()
	if f.Healthy() != healthy {
		t.Errorf("Healthy() = %v, want %v", f.Healthy(), healthy)
	}
	if got := f.Status(); got != status {
		t.Errorf("Status() = %q, want %q", got, status)
	}
}

// redisFallback is a Fallback from Redis on miniredis to Memory, all on the
// clock c, with the log captured.
type redisFallback struct {
	*Fallback
	redis  *Redis
	memory *Memory
	log    *logBuffer
}

func newRedisFallback(client *redis.Client, limit int, c *testclock.Clock) redisFallback {
	r := NewRedis(client, limit, RedisOptions{Now: c.Now})
	m := NewMemory(limit, c.Now)
	log, buf := newTestLogger()
	f := NewFallback(r, m, log)
	f.Now = c.Now
	return redisFallback{f, r, m, buf}
}

const outage = "redis: unreachable since 2026-03-02T10:05:00Z, using in-process limits"

func TestFallbackUsesRedisWhileItAnswers(t *testing.T) {
	mr, client := newMiniredis(t)
	c := testclock.New(start)
	f := newRedisFallback(client, 3, c)
	wantHealthy(t, f.Fallback, true, "redis: ok")
	want(t, mustTake(t, f, "tok"), 3, 1, 2, start.Add(Window))
	want(t, mustTake(t, f, "tok"), 3, 2, 1, start.Add(Window))
	want(t, peekL(t, f, "tok"), 3, 2, 1, start.Add(Window))
	wantHash(t, mr, DefaultRedisPrefix+"tok", start.Unix(), 2)
	want(t, peekL(t, f.memory, "tok"), 3, 0, 3, start.Add(Window)) // the backup was not used
	wantHealthy(t, f.Fallback, true, "redis: ok")
	wantLogs(t, f.log, 0, 0)
}

// TestFallbackDuringARedisOutage: Redis answers errors, then works again.
func TestFallbackDuringARedisOutage(t *testing.T) {
	mr, client := newMiniredis(t)
	c := testclock.New(start)
	f := newRedisFallback(client, 5, c)
	mustTake(t, f, "tok")
	mustTake(t, f, "tok") // two in Redis

	c.Advance(5 * time.Minute)
	mr.SetError("LOADING Redis is loading the dataset in memory")
	// The in-process limiter answers, with its own window and count.
	want(t, mustTake(t, f, "tok"), 5, 1, 4, start.Add(5*time.Minute+Window))
	wantHealthy(t, f.Fallback, false, outage)
	wantLogs(t, f.log, 1, 0)
	if w := f.log.lines("WARN")[0]; !strings.Contains(w, "in-process") || !strings.Contains(w, "LOADING") {
		t.Errorf("warning does not say what happened: %s", w)
	}
	for i := 0; i < 4; i++ {
		mustTake(t, f, "tok")
		c.Advance(700 * time.Millisecond) // Redis is tried again every second and still fails
		peekL(t, f, "tok")
	}
	want(t, peekL(t, f, "tok"), 5, 5, 0, start.Add(5*time.Minute+Window))
	want(t, mustRefuse(t, f, "tok"), 5, 5, 0, start.Add(5*time.Minute+Window))
	wantHealthy(t, f.Fallback, false, outage) // "since" is when it started failing
	wantLogs(t, f.log, 1, 0)                  // once, not per request or per retry

	// Redis is back: within the cool-down the answers still come from the
	// in-process limiter; after it, from Redis, which still holds its window.
	mr.SetError("")
	c.Advance(100 * time.Millisecond)
	want(t, mustRefuse(t, f, "tok"), 5, 5, 0, start.Add(5*time.Minute+Window))
	c.Advance(time.Second)
	want(t, mustTake(t, f, "tok"), 5, 3, 2, start.Add(Window))
	wantHealthy(t, f.Fallback, true, "redis: ok")
	wantLogs(t, f.log, 1, 1)
	if i := f.log.lines("INFO")[0]; !strings.Contains(i, "reachable again") || !strings.Contains(i, "outage=3.9s") {
		t.Errorf("recovery line: %s", i)
	}
	want(t, peekL(t, f, "tok"), 5, 3, 2, start.Add(Window))
	wantHash(t, mr, DefaultRedisPrefix+"tok", start.Unix(), 3) // the outage's counts were not merged
	mustTake(t, f, "tok")
	wantHash(t, mr, DefaultRedisPrefix+"tok", start.Unix(), 4)
	wantLogs(t, f.log, 1, 1)

	// A second outage logs again, once.
	c.Advance(time.Minute)
	mr.SetError("ERR boom")
	takeL(t, f, "tok")
	takeL(t, f, "tok")
	wantLogs(t, f.log, 2, 1)
	if f.Healthy() || !strings.Contains(f.Status(), "unreachable since 2026-03-02T10:06:03Z") {
		t.Errorf("second outage: %v %q", f.Healthy(), f.Status())
	}
}

// TestFallbackWhenRedisStopsAndStarts closes the server (connections fail)
// and restarts it.
func TestFallbackWhenRedisStopsAndStarts(t *testing.T) {
	mr, client := newMiniredis(t)
	c := testclock.New(start)
	f := newRedisFallback(client, 3, c)
	mustTake(t, f, "tok")

	c.Advance(5 * time.Minute)
	mr.Close()
	want(t, mustTake(t, f, "tok"), 3, 1, 2, start.Add(5*time.Minute+Window))
	want(t, peekL(t, f, "tok"), 3, 1, 2, start.Add(5*time.Minute+Window))
	wantHealthy(t, f.Fallback, false, outage)
	c.Advance(2 * time.Second)
	want(t, mustTake(t, f, "tok"), 3, 2, 1, start.Add(5*time.Minute+Window))
	wantLogs(t, f.log, 1, 0)

	if err := mr.Restart(); err != nil {
		t.Fatal(err)
	}
	c.Advance(2 * time.Second)
	want(t, mustTake(t, f, "tok"), 3, 2, 1, start.Add(Window)) // Redis kept its count of 1
	wantHealthy(t, f.Fallback, true, "redis: ok")
	wantLogs(t, f.log, 1, 1)
}

// closedPort returns a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

func TestFallbackWhenRedisIsUnreachable(t *testing.T) {
	client := redis.NewClient(&redis.Options{
		Addr: closedPort(t), DialTimeout: 200 * time.Millisecond, DialerRetries: 1,
		ReadTimeout: 200 * time.Millisecond, WriteTimeout: 200 * time.Millisecond, MaxRetries: -1,
	})
	defer client.Close()
	c := testclock.New(start)
	f := newRedisFallback(client, 2, c)
	want(t, mustTake(t, f, "tok"), 2, 1, 1, start.Add(Window))
	want(t, mustTake(t, f, "tok"), 2, 2, 0, start.Add(Window))
	c.Advance(3 * time.Second)
	want(t, mustRefuse(t, f, "tok"), 2, 2, 0, start.Add(Window))
	want(t, peekL(t, f, "tok"), 2, 2, 0, start.Add(Window))
	wantHealthy(t, f.Fallback, false, "redis: unreachable since 2026-03-02T10:00:00Z, using in-process limits")
	wantLogs(t, f.log, 1, 0)
	if w := f.log.lines("WARN")[0]; !strings.Contains(w, "connection refused") {
		t.Errorf("warning without the cause: %s", w)
	}
}

// TestFallbackDoesNotWaitForRedisOnEveryRequest: Redis accepts connections
// but never answers, so every call to it takes the client's read timeout.
// Only the first call of each cool-down waits for it.
func TestFallbackDoesNotWaitForRedisOnEveryRequest(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var conns sync.WaitGroup
	done := make(chan struct{})
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Go(func() { <-done; conn.Close() }) // hold it, answer nothing
		}
	}()
	defer func() { ln.Close(); close(done); conns.Wait() }()

	const timeout = 300 * time.Millisecond
	client := redis.NewClient(&redis.Options{
		Addr: ln.Addr().String(), DialTimeout: timeout, ReadTimeout: timeout, WriteTimeout: timeout, MaxRetries: -1, DialerRetries: 1,
	})
	defer client.Close()
	log, buf := newTestLogger()
	f := NewFallback(NewRedis(client, 100, RedisOptions{}), NewMemory(100, nil), log)
	f.Cooldown = time.Hour // no retry during the test

	t0 := time.Now()
	mustTake(t, f, "tok")
	if d := time.Since(t0); d < timeout {
		t.Errorf("the first call took %v; did it reach Redis?", d)
	}
	t0 = time.Now()
	for i := 0; i < 50; i++ {
		mustTake(t, f, "tok")
		peekL(t, f, "tok")
	}
	if d := time.Since(t0); d > timeout {
		t.Errorf("100 calls during the cool-down took %v, more than one Redis timeout", d)
	}
	if st := peekL(t, f, "tok"); st.Used != 51 {
		t.Errorf("in-process count %d, want 51", st.Used)
	}
	wantLogs(t, buf, 1, 0)
	if f.Healthy() {
		t.Error("healthy while Redis does not answer")
	}
}

// flaky is a primary that fails while err is set and counts its calls.
type flaky struct {
	Limiter
	mu    sync.Mutex
	err   error
	calls int
	pings int
}

func (p *flaky) setErr(err error) { p.mu.Lock(); p.err = err; p.mu.Unlock() }

func (p *flaky) call() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls++
	return p.err
}

func (p *flaky) Take(ctx context.Context, key string) (Status, bool, error) {
	if err := p.call(); err != nil {
		return Status{}, false, err
	}
	return p.Limiter.Take(ctx, key)
}

func (p *flaky) Peek(ctx context.Context, key string) (Status, error) {
	if err := p.call(); err != nil {
		return Status{}, err
	}
	return p.Limiter.Peek(ctx, key)
}

func (p *flaky) Calls() int { p.mu.Lock(); defer p.mu.Unlock(); return p.calls }

// pingable adds Ping to a flaky primary.
type pingable struct{ *flaky }

func (p pingable) Ping(context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pings++
	return p.err
}

var errDown = errors.New("dial tcp 127.0.0.1:6379: connect: connection refused")

func TestFallbackCooldown(t *testing.T) {
	c := testclock.New(start)
	p := &flaky{Limiter: NewMemory(1000, c.Now)}
	log, buf := newTestLogger()
	f := NewFallback(p, NewMemory(1000, c.Now), log)
	f.Now = c.Now
	if f.Cooldown != time.Second || DefaultCooldown != time.Second {
		t.Errorf("default cool-down %v", f.Cooldown)
	}

	p.setErr(errDown)
	mustTake(t, f, "a")
	if p.Calls() != 1 {
		t.Fatalf("%d calls to the primary, want 1", p.Calls())
	}
	// During the cool-down the primary is left alone.
	for i := 0; i < 10; i++ {
		mustTake(t, f, "a")
		peekL(t, f, "a")
		c.Advance(99 * time.Millisecond)
	}
	if p.Calls() != 1 {
		t.Fatalf("%d calls to the primary during the cool-down, want 1", p.Calls())
	}
	// After it, exactly one call tries it (and fails: a new cool-down).
	c.Advance(10 * time.Millisecond)
	mustTake(t, f, "a")
	mustTake(t, f, "a")
	if p.Calls() != 2 {
		t.Fatalf("%d calls to the primary, want 2", p.Calls())
	}
	// Concurrent calls after a cool-down: one tries the primary.
	c.Advance(time.Second)
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Go(func() {
			if _, _, err := f.Take(context.Background(), "a"); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if p.Calls() != 3 {
		t.Fatalf("%d calls to the primary, want 3", p.Calls())
	}
	wantLogs(t, buf, 1, 0)

	// A zero cool-down tries the primary on every call.
	f2 := NewFallback(p, NewMemory(10, c.Now), nil)
	f2.Now, f2.Cooldown = c.Now, 0
	for i := 0; i < 5; i++ {
		mustTake(t, f2, "a")
	}
	if p.Calls() != 8 {
		t.Errorf("%d calls to the primary, want 8", p.Calls())
	}
}

func TestFallbackConcurrentFailover(t *testing.T) {
	mr, client := newMiniredis(t)
	c := testclock.New(start)
	f := newRedisFallback(client, 1000, c)
	mustTake(t, f, "warm")
	mr.SetError("ERR down")
	var wg sync.WaitGroup
	var allowed atomic.Int64
	for i := 0; i < 200; i++ {
		wg.Go(func() {
			_, ok, err := f.Take(context.Background(), "tok")
			if err != nil {
				t.Error(err)
			}
			if ok {
				allowed.Add(1)
			}
			f.Healthy()
			f.Status()
		})
	}
	wg.Wait()
	if allowed.Load() != 200 {
		t.Errorf("%d allowed, want 200", allowed.Load())
	}
	wantLogs(t, f.log, 1, 0)
	mr.SetError("")
	c.Advance(time.Second)
	for i := 0; i < 200; i++ {
		wg.Go(func() {
			if _, _, err := f.Take(context.Background(), "tok"); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	wantLogs(t, f.log, 1, 1)
	wantHealthy(t, f.Fallback, true, "redis: ok")
}

// A call whose own context ended says nothing about Redis.
func TestFallbackCancelledContext(t *testing.T) {
	c := testclock.New(start)
	p := &flaky{Limiter: NewMemory(10, c.Now)}
	log, buf := newTestLogger()
	f := NewFallback(p, NewMemory(10, c.Now), log)
	f.Now = c.Now
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p.setErr(context.Canceled)
	st, ok, err := f.Take(ctx, "a")
	if err != nil || !ok || st.Used != 1 {
		t.Errorf("Take: %+v %v %v, want an answer from the backup", st, ok, err)
	}
	if _, err := f.Peek(ctx, "a"); err != nil {
		t.Errorf("Peek: %v", err)
	}
	wantHealthy(t, f, true, "redis: ok")
	wantLogs(t, buf, 0, 0)
	p.setErr(nil)
	want(t, mustTake(t, f, "a"), 10, 1, 9, start.Add(Window)) // from the primary
}

func TestFallbackCheck(t *testing.T) {
	c := testclock.New(start)
	p := pingable{&flaky{Limiter: NewMemory(10, c.Now)}}
	log, buf := newTestLogger()
	f := NewFallback(p, NewMemory(10, c.Now), log)
	f.Now = c.Now
	if !f.Check(context.Background()) {
		t.Error("Check: false while the primary answers")
	}
	p.setErr(errDown)
	if f.Check(context.Background()) {
		t.Error("Check: true while the primary fails")
	}
	wantHealthy(t, f, false, "redis: unreachable since 2026-03-02T10:00:00Z, using in-process limits")
	f.Check(context.Background()) // within the cool-down: no ping
	if p.pings != 2 {
		t.Errorf("%d pings, want 2", p.pings)
	}
	p.setErr(nil)
	c.Advance(time.Second)
	if !f.Check(context.Background()) {
		t.Error("Check: false after the primary came back")
	}
	wantLogs(t, buf, 1, 1)

	// Without Ping, Check only reports.
	q := &flaky{Limiter: NewMemory(10, c.Now)}
	g := NewFallback(q, NewMemory(10, c.Now), nil)
	q.setErr(errDown)
	if !g.Check(context.Background()) || q.Calls() != 0 {
		t.Error("Check called a primary that cannot ping")
	}
	mustTake(t, g, "a")
	if g.Check(context.Background()) {
		t.Error("Check: true after the primary failed")
	}

	// On Redis.
	mr, client := newMiniredis(t)
	h := newRedisFallback(client, 10, c)
	mr.SetError("ERR down")
	if h.Check(context.Background()) {
		t.Error("Check: true while Redis fails")
	}
	mr.SetError("")
	c.Advance(time.Second)
	if !h.Check(context.Background()) {
		t.Error("Check: false while Redis answers")
	}
	wantLogs(t, h.log, 1, 1)
}
