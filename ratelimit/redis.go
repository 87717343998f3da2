package ratelimit

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// DefaultRedisPrefix is the key prefix Redis uses when RedisOptions.Prefix is
// empty.
const DefaultRedisPrefix = "plumb:ratelimit:"

// RedisOptions configures a Redis limiter.
type RedisOptions struct {
	// Prefix is put before every key; default DefaultRedisPrefix. Replicas
	// that share counters must use the same prefix.
	Prefix string
	// Now is the clock; default time.Now. Windows are measured with this
	// (the Plumb server's) clock, never with Redis's TIME, so all replicas
	// should keep their clocks synchronised (NTP) as usual.
	Now func() time.Time
}

// Redis is a Limiter whose counters live in Redis, so that every replica of
// the server shares them. Its answers are exactly those of Memory: a fixed
// one-hour window that starts (truncated to the second) with the first
// counted request, a refused request is not counted, the reset is the
// window's start plus one hour, and Peek never counts.
//
// Each key is a hash {start: Unix seconds, used: count} at Prefix+key that
// expires an hour after its window started. Take is one Lua script (sent as
// EVALSHA, so one round trip) that restarts an ended window, checks the limit
// and counts atomically; Peek is one HMGET. A window that has ended by the
// clock counts as ended even if Redis has not yet expired its key.
//
// Every call is one Redis round trip (two for the first Take after Redis lost
// its script cache: EVALSHA answers NOSCRIPT and the script is sent with
// EVAL), so the client's options bound how long a call can take while Redis
// is unreachable. Errors from Redis are returned, wrapped; wrap a Redis
// limiter in a Fallback to keep serving while Redis is down. The script
// touches one key, so it also works on Redis Cluster.
type Redis struct {
	client *redis.Client
	limit  int
	prefix string
	now    func() time.Time
}

// NewRedis returns a limiter allowing limit requests per window, counting in
// Redis through client.
func NewRedis(client *redis.Client, limit int, opts RedisOptions) *Redis {
	if opts.Prefix == "" {
		opts.Prefix = DefaultRedisPrefix
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Redis{client: client, limit: limit, prefix: opts.Prefix, now: opts.Now}
}

// windowSeconds is Window in whole seconds, as the script measures it.
var windowSeconds = int64(Window / time.Second)

// takeScript counts one request for KEYS[1].
//
// ARGV[1] is now (Unix seconds, from the server's clock), ARGV[2] the limit,
// ARGV[3] the window length in seconds. It returns {start, used, allowed}
// with allowed 1 or 0. An absent or ended window is restarted at now (with
// used 0 and an expiry of one window) before the limit is checked, exactly
// like Memory.Take; a refused request changes nothing else.
var takeScript = redis.NewScript(`
local key = KEYS[1]
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local win = tonumber(ARGV[3])
local h = redis.call('HMGET', key, 'start', 'used')
local start = nil
local used = 0
if h[1] then start = tonumber(h[1]) end
if h[2] then used = tonumber(h[2]) or 0 end
if start == nil or now >= start + win then
  start = now
  used = 0
  redis.call('HSET', key, 'start', start, 'used', 0)
  redis.call('EXPIRE', key, win)
end
if used >= limit then
  return {start, used, 0}
end
used = redis.call('HINCRBY', key, 'used', 1)
return {start, used, 1}
`)

// Take implements Limiter.
func (l *Redis) Take(ctx context.Context, key string) (Status, bool, error) {
	now := l.now().Truncate(time.Second)
	res, err := takeScript.Run(ctx, l.client, []string{l.prefix + key},
		now.Unix(), l.limit, windowSeconds).Int64Slice()
	if err != nil {
		return Status{}, false, fmt.Errorf("ratelimit: redis: %w", err)
	}
	if len(res) != 3 {
		return Status{}, false, fmt.Errorf("ratelimit: redis: script returned %d values, want 3", len(res))
	}
	return l.status(true, res[0], res[1], now), res[2] == 1, nil
}

// Peek implements Limiter.
func (l *Redis) Peek(ctx context.Context, key string) (Status, error) {
	now := l.now().Truncate(time.Second)
	vals, err := l.client.HMGet(ctx, l.prefix+key, "start", "used").Result()
	if err != nil {
		return Status{}, fmt.Errorf("ratelimit: redis: %w", err)
	}
	start, ok := hashInt(vals, 0)
	if !ok {
		return l.status(false, 0, 0, now), nil
	}
	used, _ := hashInt(vals, 1)
	return l.status(true, start, used, now), nil
}

// Ping checks that Redis answers. Fallback.Check uses it.
func (l *Redis) Ping(ctx context.Context) error {
	if err := l.client.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("ratelimit: redis: %w", err)
	}
	return nil
}

// status is Memory.status for a window starting at start (Unix seconds) with
// used requests; exists false means there is no window.
func (l *Redis) status(exists bool, start, used int64, now time.Time) Status {
	end := time.Unix(start+windowSeconds, 0).In(now.Location())
	if !exists || !now.Before(end) {
		return Status{Limit: l.limit, Used: 0, Remaining: l.limit, Reset: now.Add(Window).Truncate(time.Second)}
	}
	rem := l.limit - int(used)
	if rem < 0 {
		rem = 0
	}
	return Status{Limit: l.limit, Used: int(used), Remaining: rem, Reset: end}
}

// hashInt parses the i-th value of an HMGET answer; ok is false when the
// field is absent or not an integer.
func hashInt(vals []any, i int) (int64, bool) {
	if i >= len(vals) {
		return 0, false
	}
	s, isString := vals[i].(string)
	if !isString {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// The Redis limiter satisfies the Limiter interface.
var _ Limiter = (*Redis)(nil)
