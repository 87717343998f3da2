// Package ops is what an operator runs Plumb with besides the API: Prometheus
// metrics, pprof on an admin address, and CORS for dashboards on other
// origins.
package ops

import (
	"database/sql"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are the server's Prometheus metrics, on a registry of their own.
type Metrics struct {
	reg         *prometheus.Registry
	requests    *prometheus.CounterVec
	duration    *prometheus.HistogramVec
	rateLimited *prometheus.CounterVec
	uploadBytes *prometheus.CounterVec
	uploadTime  *prometheus.HistogramVec
	inFlight    prometheus.Gauge
}

// BuildInfo labels the plumb_build_info gauge.
type BuildInfo struct{ Version, Commit, GoVersion string }

// NewMetrics registers the request, upload and rate-limit metrics, the
// database pools' statistics (one collector per named pool), Go runtime and
// process metrics, and plumb_build_info.
func NewMetrics(build BuildInfo, pools map[string]*sql.DB) *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "plumb_http_requests_total",
		Help: "HTTP requests answered, by route template, method and status code."}, []string{"route", "method", "status"})
	m.duration = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "plumb_http_request_duration_seconds",
		Help:    "Time from a request's arrival to the end of its response, by route template, method and status code.",
		Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120}}, []string{"route", "method", "status"})
	m.rateLimited = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "plumb_rate_limited_requests_total",
		Help: "Requests refused with 429 Too Many Requests, by route template."}, []string{"route"})
	m.uploadBytes = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "plumb_upload_bytes_total",
		Help: "Bytes of upload request bodies read (as sent, compressed or not), by kind: coverage, sarif, analyses."}, []string{"kind"})
	m.uploadTime = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "plumb_upload_duration_seconds",
		Help:    "Time an upload took, transfer and processing, by kind and status code.",
		Buckets: []float64{.05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600}}, []string{"kind", "status"})
	m.inFlight = prometheus.NewGauge(prometheus.GaugeOpts{Name: "plumb_http_requests_in_flight", Help: "Requests being answered now."})
	info := prometheus.NewGauge(prometheus.GaugeOpts{Name: "plumb_build_info", Help: "Always 1; the labels say which build runs.",
		ConstLabels: prometheus.Labels{"version": build.Version, "commit": build.Commit, "goversion": build.GoVersion}})
	info.Set(1)
	m.reg.MustRegister(m.requests, m.duration, m.rateLimited, m.uploadBytes, m.uploadTime, m.inFlight, info,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for name, db := range pools {
		m.reg.MustRegister(collectors.NewDBStatsCollector(db, name))
	}
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Registry is the metrics' registry (for tests and extra collectors).
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Middleware counts and times the requests next answers. route names a
// request's route template ("" becomes "other", so labels stay few).
func (m *Metrics) Middleware(next http.Handler, route func(method, escapedPath string) string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		m.inFlight.Inc()
		defer m.inFlight.Dec()
		rt := route(r.Method, r.URL.EscapedPath())
		if rt == "" {
			rt = "other"
		}
		kind := uploadKind(r.Method, rt)
		var body *countingBody
		if kind != "" && r.Body != nil {
			body = &countingBody{ReadCloser: r.Body}
			r.Body = body
		}
		sw := &statusWriter{ResponseWriter: w}
		defer func() {
			status := sw.status
			if status == 0 {
				status = http.StatusOK
			}
			code := strconv.Itoa(status)
			took := time.Since(start).Seconds()
			m.requests.WithLabelValues(rt, r.Method, code).Inc()
			m.duration.WithLabelValues(rt, r.Method, code).Observe(took)
			if status == http.StatusTooManyRequests {
				m.rateLimited.WithLabelValues(rt).Inc()
			}
			if body != nil {
				m.uploadBytes.WithLabelValues(kind).Add(float64(body.n.Load()))
				m.uploadTime.WithLabelValues(kind, code).Observe(took)
			}
		}()
		next.ServeHTTP(sw, r)
	})
}

// uploadKind is "coverage", "sarif" or "analyses" for an upload route, else "".
func uploadKind(method, route string) string {
	if method != http.MethodPost || !strings.HasPrefix(route, "/ingest/") {
		return ""
	}
	for _, k := range []string{"coverage", "sarif", "analyses"} {
		if strings.HasSuffix(route, "/"+k) {
			return k
		}
	}
	return ""
}

type countingBody struct {
	io.ReadCloser
	n atomic.Int64
}

func (c *countingBody) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// statusWriter remembers the status code written.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the connection (deadlines,
// flushing) through this writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush passes flushes on (streamed exports).
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
