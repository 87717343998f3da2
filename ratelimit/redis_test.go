package ratelimit

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/plumbhq/plumb/internal/testclock"
	"github.com/plumbhq/plumb/internal/testtool"
)

// redisURLVar names the variable that points the tests at a real Redis.
const redisURLVar = "PLUMB_TEST_REDIS_URL"

// newLimiter makes a limiter with a limit and a clock. Limiters made by one
// newLimiter share their counters when the backend can (Redis).
type newLimiter func(limit int, now func() time.Time) Limiter

// backend is a Limiter implementation under test.
type backend struct {
	name string
	// open sets up a fresh, empty store (cleaned up when t ends) and
	// returns a constructor for limiters on it.
	open func(t *testing.T) newLimiter
}

func memoryBackend() backend {
	return backend{"memory", func(*testing.T) newLimiter {
		return func(limit int, now func() time.Time) Limiter { return NewMemory(limit, now) }
	}}
}

// redisBackends are Redis on miniredis and, when PLUMB_TEST_REDIS_URL is set,
// on a real Redis.
func redisBackends() []backend {
	return []backend{
		{"miniredis", func(t *testing.T) newLimiter {
			_, client := newMiniredis(t)
			return redisLimiters(client, testPrefix())
		}},
		{"redis", func(t *testing.T) newLimiter {
			return redisLimiters(realRedis(t), testPrefix())
		}},
	}
}

func redisLimiters(client *redis.Client, prefix string) newLimiter {
	return func(limit int, now func() time.Time) Limiter {
		return NewRedis(client, limit, RedisOptions{Prefix: prefix, Now: now})
	}
}

// newMiniredis starts a miniredis and a client for it. The client gives up
// on dialling sooner than the defaults (five attempts 100 ms apart), as a
// client for rate limits should, so tests that stop the server stay fast.
func newMiniredis(t *testing.T) (*miniredis.Miniredis, *redis.Client) {
	t.Helper()
	mr := miniredis.RunT(t)
	client := redis.NewClient(&redis.Options{Addr: mr.Addr(), DialTimeout: 200 * time.Millisecond, DialerRetries: 1})
	t.Cleanup(func() { client.Close() })
	return mr, client
}

// realRedis returns a client to the Redis at PLUMB_TEST_REDIS_URL, or skips
// the test when the variable is not set. Keys written under prefixes from
// testPrefix are deleted when the test ends.
func realRedis(t *testing.T) *redis.Client {
	t.Helper()
	url := os.Getenv(redisURLVar)
	if url == "" {
		testtool.Missing(t, "no real Redis: set %s (e.g. %s=redis://127.0.0.1:6379/0) to run this against one (apt-get install redis-server)", redisURLVar, redisURLVar)
	}
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatalf("%s: %v", redisURLVar, err)
	}
	client := redis.NewClient(opts)
	ctx := context.Background()
	if err := client.Ping(ctx).Err(); err != nil {
		client.Close()
		t.Fatalf("%s=%s: %v", redisURLVar, url, err)
	}
	t.Cleanup(func() {
		defer client.Close()
		iter := client.Scan(ctx, 0, testPrefixRoot+"*", 100).Iterator()
		for iter.Next(ctx) {
			client.Del(ctx, iter.Val())
		}
		if err := iter.Err(); err != nil {
			t.Errorf("cleaning up: %v", err)
		}
	})
	return client
}

// testPrefixRoot starts every prefix testPrefix returns: unique to this test
// process, so that concurrent runs on one Redis do not meet.
var testPrefixRoot = fmt.Sprintf("plumbtest:%d:%d:", os.Getpid(), time.Now().UnixNano())

var prefixes atomic.Int64

// testPrefix returns a new unique key prefix.
func testPrefix() string {
	return fmt.Sprintf("%s%d:", testPrefixRoot, prefixes.Add(1))
}

func takeL(t *testing.T, l Limiter, key string) (Status, bool) {
	t.Helper()
	st, ok, err := l.Take(context.Background(), key)
	if err != nil {
		t.Fatalf("Take: %v", err)
	}
	return st, ok
}

func peekL(t *testing.T, l Limiter, key string) Status {
	t.Helper()
	st, err := l.Peek(context.Background(), key)
	if err != nil {
		t.Fatalf("Peek: %v", err)
	}
	return st
}

func mustTake(t *testing.T, l Limiter, key string) Status {
	t.Helper()
	st, ok := takeL(t, l, key)
	if !ok {
		t.Fatalf("Take %q refused: %+v", key, st)
	}
	return st
}

func mustRefuse(t *testing.T, l Limiter, key string) Status {
	t.Helper()
	st, ok := takeL(t, l, key)
	if ok {
		t.Fatalf("Take %q allowed: %+v", key, st)
	}
	return st
}

// behaviour is the table every Limiter must pass with identical answers.
// mk makes a limiter on a fresh store, with a fake clock at start.
var behaviour = []struct {
	name string
	run  func(t *testing.T, mk func(limit int) (Limiter, *testclock.Clock))
}{
	{"window starts at the first counted request", func(t *testing.T, mk func(int) (Limiter, *testclock.Clock)) {
		l, c := mk(3)
		want(t, peekL(t, l, "a"), 3, 0, 3, start.Add(Window))
		c.Advance(10 * time.Minute)
		want(t, peekL(t, l, "a"), 3, 0, 3, start.Add(10*time.Minute+Window))
		first := c.Now()
		want(t, mustTake(t, l, "a"), 3, 1, 2, first.Add(Window))
		c.Advance(20 * time.Minute)
		want(t, mustTake(t, l, "a"), 3, 2, 1, first.Add(Window)) // the reset does not move
		want(t, mustTake(t, l, "a"), 3, 3, 0, first.Add(Window))
		want(t, peekL(t, l, "a"), 3, 3, 0, first.Add(Window))
	}},
	{"a refusal is not counted", func(t *testing.T, mk func(int) (Limiter, *testclock.Clock)) {
		l, c := mk(2)
		mustTake(t, l, "a")
		mustTake(t, l, "a")
		for i := 0; i < 5; i++ {
			want(t, mustRefuse(t, l, "a"), 2, 2, 0, start.Add(Window))
			c.Advance(time.Minute)
		}
		want(t, peekL(t, l, "a"), 2, 2, 0, start.Add(Window))
	}},
	{"the window resets exactly and restarts with the next request", func(t *testing.T, mk func(int) (Limiter, *testclock.Clock)) {
		l, c := mk(1)
		mustTake(t, l, "a")
		c.Advance(Window - time.Second)
		want(t, mustRefuse(t, l, "a"), 1, 1, 0, start.Add(Window))
		want(t, peekL(t, l, "a"), 1, 1, 0, start.Add(Window))
		c.Advance(time.Second) // exactly the reset time: a new window
		want(t, peekL(t, l, "a"), 1, 0, 1, start.Add(2*Window))
		want(t, mustTake(t, l, "a"), 1, 1, 0, start.Add(2*Window))
		want(t, mustRefuse(t, l, "a"), 1, 1, 0, start.Add(2*Window))
		// A window that ended long ago starts afresh at the next request.
		c.Advance(5*Window + 17*time.Second)
		now := c.Now()
		want(t, peekL(t, l, "a"), 1, 0, 1, now.Add(Window))
		want(t, mustTake(t, l, "a"), 1, 1, 0, now.Add(Window))
	}},
	{"whole seconds", func(t *testing.T, mk func(int) (Limiter, *testclock.Clock)) {
		l, c := mk(5)
		c.Advance(1500 * time.Millisecond)
		st := mustTake(t, l, "a")
		want(t, st, 5, 1, 4, start.Add(time.Second+Window))
		if st.Reset.Nanosecond() != 0 {
			t.Errorf("reset %v is not a whole second", st.Reset)
		}
		c.Advance(300 * time.Millisecond)
		want(t, peekL(t, l, "a"), 5, 1, 4, start.Add(time.Second+Window))
		p := peekL(t, l, "b")
		want(t, p, 5, 0, 5, start.Add(time.Second+Window))
		if p.Reset.Nanosecond() != 0 {
			t.Errorf("peek reset %v is not a whole second", p.Reset)
		}
		// The window ends at the whole second, not 0.5 s after it.
		c.Advance(Window - 800*time.Millisecond) // start+1s+1h exactly
		want(t, peekL(t, l, "a"), 5, 0, 5, start.Add(time.Second+2*Window))
	}},
	{"Peek does not count", func(t *testing.T, mk func(int) (Limiter, *testclock.Clock)) {
		l, c := mk(2)
		for i := 0; i < 10; i++ {
			want(t, peekL(t, l, "a"), 2, 0, 2, start.Add(Window))
		}
		c.Advance(time.Minute)
		mustTake(t, l, "a") // the window starts now, not at the first Peek
		for i := 0; i < 10; i++ {
			want(t, peekL(t, l, "a"), 2, 1, 1, start.Add(time.Minute+Window))
		}
		want(t, mustTake(t, l, "a"), 2, 2, 0, start.Add(time.Minute+Window))
		for i := 0; i < 10; i++ {
			want(t, peekL(t, l, "a"), 2, 2, 0, start.Add(time.Minute+Window))
		}
	}},
	{"Peek reports a fresh window when there is none or it ended", func(t *testing.T, mk func(int) (Limiter, *testclock.Clock)) {
		l, c := mk(4)
		want(t, peekL(t, l, "never"), 4, 0, 4, start.Add(Window))
		mustTake(t, l, "a")
		mustTake(t, l, "a")
		c.Advance(Window + 42*time.Second + 900*time.Millisecond)
		now := c.Now().Truncate(time.Second)
		want(t, peekL(t, l, "a"), 4, 0, 4, now.Add(Window))
		c.Advance(3 * time.Second) // a fresh window's reset moves with the clock
		want(t, peekL(t, l, "a"), 4, 0, 4, now.Add(3*time.Second+Window))
		want(t, peekL(t, l, "never"), 4, 0, 4, now.Add(3*time.Second+Window))
	}},
	{"keys are isolated", func(t *testing.T, mk func(int) (Limiter, *testclock.Clock)) {
		l, c := mk(1)
		mustTake(t, l, "a")
		mustRefuse(t, l, "a")
		c.Advance(time.Minute)
		want(t, mustTake(t, l, "b"), 1, 1, 0, start.Add(time.Minute+Window))
		want(t, peekL(t, l, "a"), 1, 1, 0, start.Add(Window))
		want(t, peekL(t, l, "c"), 1, 0, 1, start.Add(time.Minute+Window))
		c.Advance(Window - time.Minute) // a's window ends; b's has a minute left
		want(t, peekL(t, l, "a"), 1, 0, 1, start.Add(2*Window))
		want(t, mustRefuse(t, l, "b"), 1, 1, 0, start.Add(time.Minute+Window))
		want(t, mustTake(t, l, "a"), 1, 1, 0, start.Add(2*Window))
	}},
	{"limit 1", func(t *testing.T, mk func(int) (Limiter, *testclock.Clock)) {
		l, c := mk(1)
		want(t, peekL(t, l, "a"), 1, 0, 1, start.Add(Window))
		want(t, mustTake(t, l, "a"), 1, 1, 0, start.Add(Window))
		for i := 0; i < 3; i++ {
			c.Advance(10 * time.Minute)
			want(t, mustRefuse(t, l, "a"), 1, 1, 0, start.Add(Window))
		}
		c.Advance(30 * time.Minute)
		want(t, mustTake(t, l, "a"), 1, 1, 0, start.Add(2*Window))
	}},
	{"limit 0 refuses everything", func(t *testing.T, mk func(int) (Limiter, *testclock.Clock)) {
		l, c := mk(0)
		want(t, mustRefuse(t, l, "a"), 0, 0, 0, start.Add(Window))
		c.Advance(time.Minute)
		want(t, mustRefuse(t, l, "a"), 0, 0, 0, start.Add(Window))
		want(t, peekL(t, l, "a"), 0, 0, 0, start.Add(Window))
	}},
	{"concurrent takes allow exactly the limit", func(t *testing.T, mk func(int) (Limiter, *testclock.Clock)) {
		l, _ := mk(100)
		var allowed, refused atomic.Int64
		var wg sync.WaitGroup
		for i := 0; i < 200; i++ {
			wg.Go(func() {
				_, ok, err := l.Take(context.Background(), "k")
				switch {
				case err != nil:
					t.Error(err)
				case ok:
					allowed.Add(1)
				default:
					refused.Add(1)
				}
			})
		}
		wg.Wait()
		if allowed.Load() != 100 || refused.Load() != 100 {
			t.Errorf("%d allowed and %d refused, want 100 and 100", allowed.Load(), refused.Load())
		}
		want(t, peekL(t, l, "k"), 100, 100, 0, start.Add(Window))
	}},
}

// TestLimiterBehaviour runs the same table against Memory, Redis on
// miniredis and Redis on a real server (PLUMB_TEST_REDIS_URL).
func TestLimiterBehaviour(t *testing.T) {
	for _, b := range append([]backend{memoryBackend()}, redisBackends()...) {
		t.Run(b.name, func(t *testing.T) {
			for _, tc := range behaviour {
				t.Run(tc.name, func(t *testing.T) {
					newL := b.open(t)
					tc.run(t, func(limit int) (Limiter, *testclock.Clock) {
						c := testclock.New(start)
						return newL(limit, c.Now), c
					})
				})
			}
		})
	}
}

// TestRedisMatchesMemory drives Memory and Redis with the same random-ish
// sequence of calls and clock steps and compares every answer.
func TestRedisMatchesMemory(t *testing.T) {
	for _, b := range redisBackends() {
		t.Run(b.name, func(t *testing.T) {
			newL := b.open(t)
			c := testclock.New(start.Add(123 * time.Millisecond))
			m := NewMemory(7, c.Now)
			r := newL(7, c.Now)
			ctx := context.Background()
			seed := uint32(1)
			next := func(n uint32) uint32 { seed = seed*1664525 + 1013904223; return (seed >> 8) % n }
			for i := 0; i < 600; i++ {
				key := fmt.Sprint("k", next(3))
				switch next(4) {
				case 0:
					ms, merr := m.Peek(ctx, key)
					rs, rerr := r.Peek(ctx, key)
					if merr != nil || rerr != nil || !sameStatus(ms, rs) {
						t.Fatalf("step %d Peek %s at %v: memory %+v %v, redis %+v %v", i, key, c.Now(), ms, merr, rs, rerr)
					}
				default:
					ms, mok, merr := m.Take(ctx, key)
					rs, rok, rerr := r.Take(ctx, key)
					if merr != nil || rerr != nil || mok != rok || !sameStatus(ms, rs) {
						t.Fatalf("step %d Take %s at %v: memory %+v %v %v, redis %+v %v %v", i, key, c.Now(), ms, mok, merr, rs, rok, rerr)
					}
				}
				c.Advance(time.Duration(next(900_000)) * time.Millisecond) // up to 15 minutes
			}
		})
	}
}

func sameStatus(a, b Status) bool {
	return a.Limit == b.Limit && a.Used == b.Used && a.Remaining == b.Remaining && a.Reset.Equal(b.Reset)
}

// TestRedisReplicasShareOneWindow has two limiters, each with its own client
// (two replicas of the server), count against one Redis.
func TestRedisReplicasShareOneWindow(t *testing.T) {
	for _, b := range redisBackends() {
		t.Run(b.name, func(t *testing.T) {
			newL := b.open(t)
			c := testclock.New(start)
			r1, r2 := newL(3, c.Now), newL(3, c.Now)
			want(t, mustTake(t, r1, "tok"), 3, 1, 2, start.Add(Window))
			c.Advance(5 * time.Minute)
			// The second replica continues the first one's window.
			want(t, peekL(t, r2, "tok"), 3, 1, 2, start.Add(Window))
			want(t, mustTake(t, r2, "tok"), 3, 2, 1, start.Add(Window))
			want(t, mustTake(t, r1, "tok"), 3, 3, 0, start.Add(Window))
			want(t, mustRefuse(t, r2, "tok"), 3, 3, 0, start.Add(Window))
			want(t, peekL(t, r1, "tok"), 3, 3, 0, start.Add(Window))
			// Another token is not affected on either replica.
			want(t, mustTake(t, r2, "other"), 3, 1, 2, start.Add(5*time.Minute+Window))
			// The window ends for both at the same time.
			c.Advance(Window - 5*time.Minute)
			want(t, mustTake(t, r2, "tok"), 3, 1, 2, start.Add(2*Window))
			want(t, peekL(t, r1, "tok"), 3, 1, 2, start.Add(2*Window))
		})
	}
	t.Run("replicas with different clients", func(t *testing.T) {
		mr := miniredis.RunT(t)
		c := testclock.New(start)
		var ls []*Redis
		for i := 0; i < 2; i++ {
			client := redis.NewClient(&redis.Options{Addr: mr.Addr()})
			t.Cleanup(func() { client.Close() })
			ls = append(ls, NewRedis(client, 2, RedisOptions{Now: c.Now}))
		}
		mustTake(t, ls[0], "tok")
		mustTake(t, ls[1], "tok")
		mustRefuse(t, ls[0], "tok")
		// A replica whose clock is two seconds behind still sees the
		// window's reset as stored.
		behind := NewRedis(ls[1].client, 2, RedisOptions{Now: func() time.Time { return c.Now().Add(-2 * time.Second) }})
		want(t, peekL(t, behind, "tok"), 2, 2, 0, start.Add(Window))
	})
}

// TestRedisConcurrentReplicas: 200 goroutines on two replicas, limit 100.
func TestRedisConcurrentReplicas(t *testing.T) {
	for _, b := range redisBackends() {
		t.Run(b.name, func(t *testing.T) {
			newL := b.open(t)
			ls := []Limiter{newL(100, time.Now), newL(100, time.Now)}
			var allowed atomic.Int64
			var wg sync.WaitGroup
			for i := 0; i < 200; i++ {
				wg.Go(func() {
					_, ok, err := ls[i%2].Take(context.Background(), "k")
					if err != nil {
						t.Error(err)
					}
					if ok {
						allowed.Add(1)
					}
				})
			}
			wg.Wait()
			if n := allowed.Load(); n != 100 {
				t.Errorf("%d allowed, want exactly 100", n)
			}
			if st := peekL(t, ls[0], "k"); st.Used != 100 || st.Remaining != 0 {
				t.Errorf("after the burst: %+v", st)
			}
		})
	}
}

// TestRedisStorage checks the key layout and expiry in miniredis.
func TestRedisStorage(t *testing.T) {
	mr, client := newMiniredis(t)
	c := testclock.New(start.Add(400 * time.Millisecond))
	l := NewRedis(client, 2, RedisOptions{Now: c.Now})
	key := DefaultRedisPrefix + "tok"

	peekL(t, l, "tok")
	if mr.Exists(key) {
		t.Fatal("Peek created a key")
	}
	mustTake(t, l, "tok")
	wantHash(t, mr, key, start.Unix(), 1)
	if ttl := mr.TTL(key); ttl != Window {
		t.Errorf("TTL %v after the first request, want %v", ttl, Window)
	}
	mr.FastForward(10 * time.Minute)
	c.Advance(10 * time.Minute)
	mustTake(t, l, "tok")
	mustRefuse(t, l, "tok")
	wantHash(t, mr, key, start.Unix(), 2)
	if ttl := mr.TTL(key); ttl != 50*time.Minute {
		t.Errorf("TTL %v after more requests, want 50m (counting and refusing do not extend it)", ttl)
	}

	// Redis has not expired the key, but the clock says the window ended:
	// the next request restarts it, with a fresh expiry.
	c.Advance(Window)
	want(t, peekL(t, l, "tok"), 2, 0, 2, c.Now().Truncate(time.Second).Add(Window))
	st := mustTake(t, l, "tok")
	want(t, st, 2, 1, 1, start.Add(10*time.Minute+2*Window))
	wantHash(t, mr, key, start.Add(10*time.Minute+Window).Unix(), 1)
	if ttl := mr.TTL(key); ttl != Window {
		t.Errorf("TTL %v after the restart, want %v", ttl, Window)
	}

	// Redis expires the key at the end of the window.
	mr.FastForward(Window)
	c.Advance(Window)
	if mr.Exists(key) {
		t.Fatal("the key outlived its window")
	}
	want(t, peekL(t, l, "tok"), 2, 0, 2, c.Now().Truncate(time.Second).Add(Window))
	want(t, mustTake(t, l, "tok"), 2, 1, 1, c.Now().Truncate(time.Second).Add(Window))

	// Limiters with other prefixes do not see these counters.
	other := NewRedis(client, 2, RedisOptions{Prefix: "elsewhere:", Now: c.Now})
	want(t, peekL(t, other, "tok"), 2, 0, 2, c.Now().Truncate(time.Second).Add(Window))
	mustTake(t, other, "tok")
	if !mr.Exists("elsewhere:tok") {
		t.Error("no key under the custom prefix")
	}
}

func wantHash(t *testing.T, mr *miniredis.Miniredis, key string, start int64, used int) {
	t.Helper()
	gotStart, gotUsed := mr.HGet(key, "start"), mr.HGet(key, "used")
	if gotStart != fmt.Sprint(start) || gotUsed != fmt.Sprint(used) {
		t.Errorf("%s = {start: %q, used: %q}, want {start: %d, used: %d}", key, gotStart, gotUsed, start, used)
	}
}

// TestRedisStorageOnRealRedis checks the key layout, the expiry and the
// script cache on a real Redis.
func TestRedisStorageOnRealRedis(t *testing.T) {
	client := realRedis(t)
	ctx := context.Background()
	c := testclock.New(start)
	prefix := testPrefix()
	l := NewRedis(client, 5, RedisOptions{Prefix: prefix, Now: c.Now})
	mustTake(t, l, "a")
	mustTake(t, l, "a")
	h, err := client.HGetAll(ctx, prefix+"a").Result()
	if err != nil || h["start"] != fmt.Sprint(start.Unix()) || h["used"] != "2" || len(h) != 2 {
		t.Errorf("%sa = %v (%v), want {start: %d, used: 2}", prefix, h, err, start.Unix())
	}
	if ttl, err := client.TTL(ctx, prefix+"a").Result(); err != nil || ttl < Window-5*time.Second || ttl > Window {
		t.Errorf("TTL %v (%v), want about an hour", ttl, err)
	}
	exists, err := client.ScriptExists(ctx, takeScript.Hash()).Result()
	if err != nil || len(exists) != 1 || !exists[0] {
		t.Errorf("script not cached after Take: %v %v", exists, err)
	}
}

// TestRedisReloadsTheScript: Take uses EVALSHA and loads the script again
// when Redis lost it (SCRIPT FLUSH, a restart). Only on miniredis: flushing
// the script cache of a shared Redis would disturb others.
func TestRedisReloadsTheScript(t *testing.T) {
	_, client := newMiniredis(t)
	ctx := context.Background()
	c := testclock.New(start)
	l := NewRedis(client, 5, RedisOptions{Now: c.Now})
	mustTake(t, l, "a")
	exists, err := client.ScriptExists(ctx, takeScript.Hash()).Result()
	if err != nil || len(exists) != 1 || !exists[0] {
		t.Fatalf("script not cached after Take: %v %v", exists, err)
	}
	if err := client.ScriptFlush(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	want(t, mustTake(t, l, "a"), 5, 2, 3, start.Add(Window))
}

func TestRedisNilClockAndDefaults(t *testing.T) {
	mr, client := newMiniredis(t)
	l := NewRedis(client, 1, RedisOptions{})
	st := mustTake(t, l, "a")
	if d := time.Until(st.Reset); d < Window-2*time.Second || d > Window {
		t.Errorf("reset in %v, want about an hour", d)
	}
	if !mr.Exists(DefaultRedisPrefix + "a") {
		t.Errorf("no key %s; keys: %v", DefaultRedisPrefix+"a", mr.Keys())
	}
}

func TestRedisErrors(t *testing.T) {
	mr, client := newMiniredis(t)
	l := NewRedis(client, 1, RedisOptions{})
	ctx := context.Background()
	mr.SetError("LOADING Redis is loading the dataset in memory")
	if _, _, err := l.Take(ctx, "a"); err == nil {
		t.Error("Take: no error from a failing Redis")
	}
	if _, err := l.Peek(ctx, "a"); err == nil {
		t.Error("Peek: no error from a failing Redis")
	}
	if err := l.Ping(ctx); err == nil {
		t.Error("Ping: no error from a failing Redis")
	}
	mr.SetError("")
	if err := l.Ping(ctx); err != nil {
		t.Errorf("Ping: %v", err)
	}

	// A key of another type is an error, not a silent reset.
	mr.Set(DefaultRedisPrefix+"str", "x")
	if _, _, err := l.Take(ctx, "str"); err == nil {
		t.Error("Take on a string key: no error")
	}

	mr.Close()
	_, _, err := l.Take(ctx, "a")
	if err == nil {
		t.Fatal("Take: no error from a closed Redis")
	}
	if !strings.HasPrefix(err.Error(), "ratelimit: redis: ") {
		t.Errorf("error %q does not say it comes from the Redis limiter", err)
	}
}
