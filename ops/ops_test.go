package ops

import (
	"database/sql"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

func route(method, path string) string {
	switch {
	case strings.HasPrefix(path, "/ingest/") && strings.HasSuffix(path, "/coverage"):
		return "/ingest/gh/{owner}/projects/{project}/coverage"
	case path == "/workspaces":
		return "/workspaces"
	}
	return ""
}

// Requests are counted and timed by route template and status; uploads by
// kind with the bytes read; 429s as rate-limit rejections.
func TestMetricsMiddleware(t *testing.T) {
	m := NewMetrics(BuildInfo{Version: "v1.2.3", Commit: "abc", GoVersion: "go1.26"}, map[string]*sql.DB{})
	h := m.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/workspaces":
			if r.Header.Get("Authorization") == "" {
				w.WriteHeader(http.StatusTooManyRequests)
				return
			}
			w.Write([]byte("[]"))
		default:
			io.Copy(io.Discard, r.Body)
			w.WriteHeader(http.StatusCreated)
		}
	}), route)
	do := func(method, path, body string, auth bool) {
		r := httptest.NewRequest(method, path, strings.NewReader(body))
		if auth {
			r.Header.Set("Authorization", "Bearer x")
		}
		h.ServeHTTP(httptest.NewRecorder(), r)
	}
	do("GET", "/workspaces", "", true)
	do("GET", "/workspaces", "", true)
	do("GET", "/workspaces", "", false)
	do("POST", "/ingest/gh/acme/projects/web/coverage", strings.Repeat("x", 1234), true)
	do("GET", "/gh/acme/projects/web/nothing", "", true)

	for _, c := range []struct {
		got  float64
		want float64
		what string
	}{
		{testutil.ToFloat64(m.requests.WithLabelValues("/workspaces", "GET", "200")), 2, "GET /workspaces 200"},
		{testutil.ToFloat64(m.requests.WithLabelValues("/workspaces", "GET", "429")), 1, "GET /workspaces 429"},
		{testutil.ToFloat64(m.requests.WithLabelValues("other", "GET", "201")), 1, "unmatched paths as other"},
		{testutil.ToFloat64(m.rateLimited.WithLabelValues("/workspaces")), 1, "rate-limited"},
		{testutil.ToFloat64(m.uploadBytes.WithLabelValues("coverage")), 1234, "upload bytes"},
		{float64(testutil.CollectAndCount(m.uploadTime)), 1, "upload durations"},
		{testutil.ToFloat64(m.inFlight), 0, "in flight after the requests"},
	} {
		if c.got != c.want {
			t.Errorf("%s: %v, want %v", c.what, c.got, c.want)
		}
	}
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body := rec.Body.String()
	for _, want := range []string{`plumb_build_info{commit="abc",goversion="go1.26",version="v1.2.3"} 1`,
		`plumb_http_request_duration_seconds_bucket{method="GET",route="/workspaces",status="200",le="+Inf"} 2`, "go_goroutines", "process_"} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

// CORS answers allowed origins only, and preflight requests with 204.
func TestCORS(t *testing.T) {
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	h := CORS([]string{"https://dash.example.com/", " https://Other.example "}, next)
	get := func(method, origin string, hdr map[string]string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, "/workspaces", nil)
		if origin != "" {
			r.Header.Set("Origin", origin)
		}
		for k, v := range hdr {
			r.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		return rec
	}
	if rec := get("GET", "https://dash.example.com", nil); rec.Header().Get("Access-Control-Allow-Origin") != "https://dash.example.com" ||
		!strings.Contains(rec.Header().Get("Access-Control-Expose-Headers"), "Link") || rec.Body.String() != "ok" {
		t.Errorf("allowed origin: %v %q", rec.Header(), rec.Body)
	}
	if rec := get("GET", "https://other.example", nil); rec.Header().Get("Access-Control-Allow-Origin") != "https://other.example" {
		t.Errorf("origins compare without case: %v", rec.Header())
	}
	if rec := get("GET", "https://evil.example", nil); rec.Header().Get("Access-Control-Allow-Origin") != "" || rec.Header().Get("Vary") != "Origin" {
		t.Errorf("another origin: %v", rec.Header())
	}
	rec := get("OPTIONS", "https://dash.example.com", map[string]string{"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization"})
	if rec.Code != http.StatusNoContent || !strings.Contains(rec.Header().Get("Access-Control-Allow-Headers"), "Authorization") || rec.Body.Len() != 0 {
		t.Errorf("preflight: %d %v", rec.Code, rec.Header())
	}
	// Off by default: the handler is next itself.
	if rec := httptest.NewRecorder(); true {
		CORS(nil, next).ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
		if rec.Header().Get("Vary") != "" {
			t.Errorf("CORS off still sets headers: %v", rec.Header())
		}
	}
	if rec := httptest.NewRecorder(); true {
		CORS([]string{"*"}, next).ServeHTTP(rec, func() *http.Request {
			r := httptest.NewRequest("GET", "/", nil)
			r.Header.Set("Origin", "https://any.example")
			return r
		}())
		if rec.Header().Get("Access-Control-Allow-Origin") != "https://any.example" {
			t.Errorf("*: %v", rec.Header())
		}
	}
}

// The admin handler serves pprof and the metrics.
func TestAdminHandler(t *testing.T) {
	m := NewMetrics(BuildInfo{}, nil)
	h := AdminHandler(m)
	for path, want := range map[string]string{"/debug/pprof/": "goroutine", "/metrics": "plumb_build_info", "/debug/pprof/cmdline": ""} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), want) {
			t.Errorf("%s: %d %.200s", path, rec.Code, rec.Body)
		}
	}
}
