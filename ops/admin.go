package ops

import (
	"net/http"
	"net/http/pprof"
	"strings"
)

// AdminHandler serves net/http/pprof under /debug/pprof/ and, when m is not
// nil, the metrics at /metrics. It is for an address only operators reach
// (--admin-addr): profiles show the code and its data.
func AdminHandler(m *Metrics) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	if m != nil {
		mux.Handle("/metrics", m.Handler())
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("plumb admin: /debug/pprof/ and /metrics\n"))
	})
	return mux
}

// CORS lets pages on the allowed origins call the API from a browser: their
// requests get Access-Control-Allow-Origin (no credentials: the API takes
// tokens in the Authorization header, not cookies), and preflight requests
// answer 204 with the methods and headers the API takes. An empty list
// turns CORS off (browsers then refuse cross-origin reads); "*" allows any
// origin.
func CORS(origins []string, next http.Handler) http.Handler {
	allowed := map[string]bool{}
	any := false
	for _, o := range origins {
		o = strings.TrimRight(strings.TrimSpace(o), "/")
		if o == "*" {
			any = true
		} else if o != "" {
			allowed[strings.ToLower(o)] = true
		}
	}
	if !any && len(allowed) == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		h := w.Header()
		h.Add("Vary", "Origin")
		if origin == "" || !any && !allowed[strings.ToLower(origin)] {
			next.ServeHTTP(w, r)
			return
		}
		h.Set("Access-Control-Allow-Origin", origin)
		h.Set("Access-Control-Expose-Headers", "Link, Location, Retry-After, X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-RateLimit-Used, X-RateLimit-Resource")
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			h.Add("Vary", "Access-Control-Request-Method, Access-Control-Request-Headers")
			h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, DELETE")
			h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, Accept, Idempotency-Key, X-Request-Id")
			h.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next.ServeHTTP(w, r)
	})
}
