package e2e

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/plumbhq/plumb/internal/testtool"
	"github.com/plumbhq/plumb/sqlstore/sqltest"
)

// sharedRedis returns the URL of a Redis for the test: a throwaway
// redis-server when there is one on PATH, otherwise the server at
// PLUMB_TEST_REDIS_URL (the keys the test makes there are named after fresh
// token ids, and deleted by the caller). It skips t when there is neither.
func sharedRedis(t *testing.T) (url string, throwaway bool) {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err == nil {
		return startRedis(t, 0).url(0), true
	}
	if u := os.Getenv(redisEnv); u != "" {
		return u, false
	}
	testtool.Missing(t, "no Redis: put redis-server on PATH (apt-get install -y redis-server) or set %s (e.g. redis://127.0.0.1:6379/0) to run this test", redisEnv)
	return "", false
}

type componentItem struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	PathGlobs   []string `json:"pathGlobs"`
	FileCount   *int64   `json:"fileCount"`
}

// TestTwoReplicas runs two plumb serve processes on one PostgreSQL database
// and one Redis: one token's requests spread over both count in one
// rate-limit window, and a component written through one replica is read,
// replaced and deleted through the other.
func TestTwoReplicas(t *testing.T) {
	t.Parallel()
	if os.Getenv(postgresEnv) == "" {
		testtool.Missing(t, "no PostgreSQL server: set %s (e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable) to run this test", postgresEnv)
	}
	redisURL, throwaway := sharedRedis(t)
	dsn := sqltest.PostgresDatabase(t)
	ten := setUp(t, dsn, "spread", "components", "valid")
	// Failed token lookups are counted per client address: this run's own
	// (with --trust-host, the X-Forwarded-For entry), so that other runs
	// on the same Redis do not meet it.
	addr := fmt.Sprintf("e2e-%d-%d", os.Getpid(), time.Now().UnixNano())
	if !throwaway {
		t.Cleanup(func() {
			opt, err := redis.ParseURL(redisURL)
			if err != nil {
				return
			}
			rc := redis.NewClient(opt)
			defer rc.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			for _, tok := range ten.Tokens {
				rc.Del(ctx, "plumb:ratelimit:"+tok.ID)
			}
			rc.Del(ctx, "plumb:authfail:"+addr)
		})
	}
	flags := []string{"--database", dsn, "--redis-url", redisURL, "--rate-limit", "10", "--auth-failure-limit", "3", "--trust-host"}
	a := startServer(t, "replica-a", flags...)
	b := startServer(t, "replica-b", flags...)
	replicas := []*server{a, b}
	for _, s := range replicas {
		if d := s.ready(t, ""); d.Checks["rateLimit"] != "redis: ok" {
			t.Fatalf("%s /readyz: rateLimit %q, want redis: ok", s.name, d.Checks["rateLimit"])
		}
	}

	t.Run("one rate-limit window", func(t *testing.T) {
		secret := ten.Tokens["spread"].Secret
		var first rateHeaders
		for i := 1; i <= 10; i++ {
			s := replicas[i%2]
			h := mustRateHeaders(t, mustCall(t, http.StatusOK, "GET", s.base+"/workspaces", secret, ""))
			if i == 1 {
				first = h
			}
			if h.Used != i || h.Remaining != 10-i || h.Limit != 10 || h.Reset != first.Reset {
				t.Fatalf("request %d on %s: headers %+v, want used %d, remaining %d, reset %d", i, s.name, h, i, 10-i, first.Reset)
			}
		}
		for _, s := range []*server{a, b} {
			r := mustCall(t, http.StatusTooManyRequests, "GET", s.base+"/workspaces", secret, "")
			if err := checkErrorBody(r, http.StatusTooManyRequests); err != nil {
				t.Errorf("%s: %v", s.name, err)
			}
			ra, err := strconv.Atoi(r.Header.Get("Retry-After"))
			if err != nil || ra < 1 || ra > 3600 {
				t.Errorf("%s: Retry-After %q", s.name, r.Header.Get("Retry-After"))
			}
			if h := mustRateHeaders(t, r); h.Used != 10 || h.Remaining != 0 || h.Reset != first.Reset {
				t.Errorf("%s: 429 headers %+v", s.name, h)
			}
		}
		want := fmt.Sprintf(`{"resources":{"core":{"limit":10,"used":10,"remaining":0,"reset":%d}}}`, first.Reset)
		for _, s := range replicas {
			r := mustCall(t, http.StatusOK, "GET", s.base+"/rate_limit", secret, "")
			if got := string(r.Body); got != want && got != want+"\n" {
				t.Errorf("%s /rate_limit: %s, want %s", s.name, got, want)
			}
		}
	})

	t.Run("failed token lookups across replicas", func(t *testing.T) {
		from := http.Header{"X-Forwarded-For": {addr}}
		send := func(s *server, want int, secret string) {
			t.Helper()
			r, err := callWith("GET", s.base+"/workspaces", secret, "", from)
			if err != nil || r.Status != want {
				t.Fatalf("%s: GET /workspaces: %d %s (%v), want %d", s.name, r.Status, r.Body, err, want)
			}
		}
		// Three failures from the address, spread over both replicas,
		// spend its budget on both; a valid token still goes through.
		send(a, http.StatusUnauthorized, "plb_unknown1")
		send(b, http.StatusUnauthorized, "plb_unknown2")
		send(a, http.StatusUnauthorized, "plb_unknown3")
		send(b, http.StatusTooManyRequests, "plb_unknown4")
		send(a, http.StatusTooManyRequests, "plb_unknown1")
		send(a, http.StatusOK, ten.Tokens["valid"].Secret)
		send(b, http.StatusOK, ten.Tokens["valid"].Secret)
	})

	t.Run("components across replicas", func(t *testing.T) {
		secret := ten.Tokens["components"].Secret
		path := fmt.Sprintf("/gh/%s/projects/%s/components", ten.Workspace, ten.Project)
		list := func(s *server) []componentItem {
			t.Helper()
			var doc struct {
				Data []componentItem `json:"data"`
			}
			decode(t, mustCall(t, http.StatusOK, "GET", s.base+path, secret, ""), &doc)
			return doc.Data
		}

		r := mustCall(t, http.StatusCreated, "POST", a.base+path, secret, `{"name":"Checkout","description":"the cart","pathGlobs":["cart/**"]}`)
		var created componentItem
		decode(t, r, &created)
		if created.ID == "" || created.Name != "Checkout" {
			t.Fatalf("created %s", r.Body)
		}

		got := list(b)
		if len(got) != 1 || got[0].ID != created.ID || got[0].Name != "Checkout" || got[0].Description != "the cart" ||
			!reflect.DeepEqual(got[0].PathGlobs, []string{"cart/**"}) || got[0].FileCount == nil || *got[0].FileCount != 0 {
			t.Fatalf("replica B lists %+v after replica A created %s", got, r.Body)
		}

		r = mustCall(t, http.StatusOK, "PUT", b.base+path+"/checkout", secret, `{"name":"Checkout","pathGlobs":["cart/**","pay/**"]}`)
		got = list(a)
		if len(got) != 1 || got[0].ID != created.ID || got[0].Description != "" ||
			!reflect.DeepEqual(got[0].PathGlobs, []string{"cart/**", "pay/**"}) || got[0].FileCount == nil {
			t.Fatalf("replica A lists %+v after replica B replaced it with %s", got, r.Body)
		}

		mustCall(t, http.StatusNoContent, "DELETE", a.base+path+"/"+created.ID, secret, "")
		r = mustCall(t, http.StatusNotFound, "DELETE", b.base+path+"/Checkout", secret, "")
		if err := checkErrorBody(r, http.StatusNotFound); err != nil {
			t.Error(err)
		}
		if got := list(b); len(got) != 0 {
			t.Errorf("replica B lists %+v after replica A deleted the component", got)
		}
	})
}
