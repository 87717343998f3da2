package api_test

import (
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"
)

func TestRateLimitResource(t *testing.T) {
	w := newWorld(t, withRateLimit(50))
	reset := t0.Add(time.Hour).Unix()
	// Nothing counted yet.
	w.get(t, "/rate_limit", w.Alice).wantJSON(t, http.StatusOK,
		fmt.Sprintf(`{"resources":{"core":{"limit":50,"used":0,"remaining":50,"reset":%d}}}`, reset))
	// The window starts with the first counted request, not with a peek.
	w.Clock.Advance(10 * time.Minute)
	w.get(t, "/workspaces", w.Alice).wantStatus(t, http.StatusOK)
	reset = t0.Add(70 * time.Minute).Unix()
	w.Clock.Advance(5 * time.Minute)
	w.get(t, "/rate_limit", w.Alice).wantJSON(t, http.StatusOK,
		fmt.Sprintf(`{"resources":{"core":{"limit":50,"used":1,"remaining":49,"reset":%d}}}`, reset))
	// GET /rate_limit is not counted.
	for i := 0; i < 5; i++ {
		if got := rateLimitOf(t, w.testServer, w.Alice); got != (rateLimit{50, 1, 49, reset}) {
			t.Fatalf("rate limit %+v", got)
		}
	}
}

// TestRateLimitCounting: every authenticated request counts (errors and
// router 404/405 included) except GET /rate_limit and the public endpoints,
// and every response carries the five headers.
func TestRateLimitCounting(t *testing.T) {
	w := newWorld(t, withRateLimit(100))
	steps := []struct {
		name, method, path string
		headers            map[string]string
		body               string
		status             int
		counted            bool
	}{
		{"list", "GET", "/workspaces", nil, "", 200, true},
		{"rate limit", "GET", "/rate_limit", nil, "", 200, false},
		{"bad parameter", "GET", "/workspaces?page[limit]=0", nil, "", 400, true},
		{"hidden workspace", "GET", "/gh/globex/applications", nil, "", 404, true},
		{"short path parameter", "GET", "/gh/ab/applications", nil, "", 400, true},
		{"router 404", "GET", "/nope", nil, "", 404, true},
		{"router 405", "DELETE", "/workspaces", nil, "", 405, true},
		{"406", "GET", "/workspaces", hdr("Accept", "image/png"), "", 406, true},
		{"created", "POST", "/gh/acme/applications", jsonBody, `{"name":"Shop"}`, 201, true},
		{"conflict", "POST", "/gh/acme/applications", jsonBody, `{"name":"Shop"}`, 409, true},
		{"415", "POST", "/gh/acme/applications", hdr("Content-Type", "text/plain"), `x`, 415, true},
		{"description", "GET", "/openapi.json", nil, "", 200, false},
		{"health", "GET", "/healthz", nil, "", 200, false},
		{"rate limit again", "GET", "/rate_limit", nil, "", 200, false},
		{"export", "GET", "/workspaces", hdr("Accept", "text/csv"), "", 200, true},
	}
	used := 0
	reset := t0.Add(time.Hour).Unix()
	for _, s := range steps {
		r := w.do(t, s.method, s.path, w.Alice, s.headers, s.body).wantStatus(t, s.status)
		if s.counted {
			used++
		}
		want := rateLimit{Limit: 100, Used: used, Remaining: 100 - used, Reset: reset}
		if got := headerStatus(t, r); got != want {
			t.Errorf("%s: headers %+v, want %+v", s.name, got, want)
		}
		if got := rateLimitOf(t, w.testServer, w.Alice); got != want {
			t.Errorf("%s: /rate_limit %+v, want %+v", s.name, got, want)
		}
	}
	// Another user's token has its own count.
	if got := rateLimitOf(t, w.testServer, w.Bob); got.Used != 0 {
		t.Errorf("bob used %d", got.Used)
	}
}

func TestRateLimitExhausted(t *testing.T) {
	w := newWorld(t, withRateLimit(3))
	reset := t0.Add(time.Hour)
	for i := 1; i <= 3; i++ {
		r := w.get(t, "/workspaces", w.Alice).wantStatus(t, http.StatusOK)
		if got := headerStatus(t, r); got != (rateLimit{3, i, 3 - i, reset.Unix()}) {
			t.Fatalf("request %d: %+v", i, got)
		}
	}
	spent := rateLimit{3, 3, 0, reset.Unix()}
	tooMany := func(t *testing.T, method, path string, headers map[string]string, body string, retryAfter int) {
		t.Helper()
		r := w.do(t, method, path, w.Alice, headers, body)
		r.wantError(t, http.StatusTooManyRequests, "rate limit of 3 requests per hour")
		if got := r.Header.Get("Retry-After"); got != strconv.Itoa(retryAfter) {
			t.Errorf("Retry-After %q, want %d", got, retryAfter)
		}
		if got := headerStatus(t, r); got != spent {
			t.Errorf("429 headers %+v, want %+v", got, spent)
		}
	}
	t.Run("429 on every counted endpoint", func(t *testing.T) {
		tooMany(t, "GET", "/workspaces", nil, "", 3600)
		tooMany(t, "GET", "/gh/acme/projects/web/issues", nil, "", 3600)
		tooMany(t, "POST", "/gh/acme/applications", jsonBody, `{"name":"Shop"}`, 3600)
		// The rate limit is checked before path parameters and visibility.
		tooMany(t, "GET", "/gh/ab/applications", nil, "", 3600)
		tooMany(t, "GET", "/gh/globex/applications", nil, "", 3600)
	})
	t.Run("route errors and authentication come first", func(t *testing.T) {
		r := w.get(t, "/nope", w.Alice).wantStatus(t, http.StatusNotFound)
		if got := headerStatus(t, r); got != spent {
			t.Errorf("404 headers %+v", got)
		}
		w.do(t, "DELETE", "/workspaces", w.Alice, nil, "").wantStatus(t, http.StatusMethodNotAllowed)
		w.get(t, "/workspaces", "").wantStatus(t, http.StatusUnauthorized)
	})
	t.Run("GET /rate_limit still answers", func(t *testing.T) {
		if got := rateLimitOf(t, w.testServer, w.Alice); got != spent {
			t.Errorf("%+v", got)
		}
		w.get(t, "/openapi.json", w.Alice).wantStatus(t, http.StatusOK)
	})
	t.Run("other tokens are not affected", func(t *testing.T) {
		r := w.get(t, "/workspaces", w.Bob).wantStatus(t, http.StatusOK)
		if got := headerStatus(t, r); got.Used != 1 {
			t.Errorf("bob %+v", got)
		}
		// A second token of the same user has its own quota.
		second := w.token(t, "alice")
		r = w.get(t, "/workspaces", second).wantStatus(t, http.StatusOK)
		if got := headerStatus(t, r); got.Used != 1 {
			t.Errorf("alice's second token %+v", got)
		}
	})
	t.Run("Retry-After counts down to the reset", func(t *testing.T) {
		w.Clock.Advance(20 * time.Minute)
		tooMany(t, "GET", "/workspaces", nil, "", 2400)
		w.Clock.Set(reset.Add(-time.Second))
		tooMany(t, "GET", "/workspaces", nil, "", 1)
		w.Clock.Set(reset.Add(-300 * time.Millisecond))
		tooMany(t, "GET", "/workspaces", nil, "", 1)
	})
	t.Run("a new window at the reset; refusals were not counted", func(t *testing.T) {
		w.Clock.Set(reset)
		if got := rateLimitOf(t, w.testServer, w.Alice); got != (rateLimit{3, 0, 3, reset.Add(time.Hour).Unix()}) {
			t.Errorf("at the reset: %+v", got)
		}
		r := w.get(t, "/workspaces", w.Alice).wantStatus(t, http.StatusOK)
		if got := headerStatus(t, r); got != (rateLimit{3, 1, 2, reset.Add(time.Hour).Unix()}) {
			t.Errorf("first request of the new window: %+v", got)
		}
	})
}
