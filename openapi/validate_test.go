package openapi_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/plumbhq/plumb/openapi"
	"github.com/plumbhq/plumb/openapi/openapitest"
)

var (
	validatorOnce sync.Once
	validator     *openapitest.Validator
)

func newValidator(t *testing.T) *openapitest.Validator {
	t.Helper()
	validatorOnce.Do(func() { validator = openapitest.New(t, openapi.Document()) })
	if validator == nil {
		t.FailNow()
	}
	return validator
}

const (
	uuid1 = "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"
	uuid2 = "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c"
	ts    = "2026-03-01T12:00:00Z"
)

// headers is a response header with the rate limit headers and extra
// key/value pairs.
func headers(contentType string, kv ...string) http.Header {
	h := http.Header{}
	if contentType != "" {
		h.Set("Content-Type", contentType)
	}
	h.Set("X-Ratelimit-Limit", "5000")
	h.Set("X-Ratelimit-Remaining", "4999")
	h.Set("X-Ratelimit-Used", "1")
	h.Set("X-Ratelimit-Reset", "1772370000")
	h.Set("X-Ratelimit-Resource", "core")
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

func without(h http.Header, name string) http.Header {
	h = h.Clone()
	h.Del(name)
	return h
}

type J = map[string]any

func workspace() J {
	return J{
		"id": uuid1, "key": "acme",
		"avatarUrl": "https://github.com/acme.png", "providerUrl": "https://github.com/acme",
		"createdAt": ts, "updatedAt": ts,
	}
}

func buildEntry() J {
	return J{
		"id": uuid1, "type": "analysis", "status": "running", "branchName": "main",
		"commitSha": "0123456789abcdef0123456789abcdef01234567", "commitMessage": "Fix it",
		"submittedAt": ts, "finishedAt": nil, "queueSeconds": 3,
	}
}

func fullBuild() J {
	b := buildEntry()
	extra := J{
		"statusReason": nil, "conclusion": nil, "exitCode": nil, "source": "", "pullRequestNumber": nil,
		"committerLogin": "", "startedAt": ts, "executionSeconds": nil,
	}
	for k, v := range extra {
		b[k] = v
	}
	return b
}

func issue() J {
	return J{
		"id": uuid1, "fingerprint": "f1", "tool": "eslint", "ruleKey": "no-unused-vars", "message": "Unused",
		"category": "lint", "level": "low", "status": "open", "location": J{"path": "src/a.js", "startLine": 3},
	}
}

func metricValues() J {
	return J{"data": []any{
		J{"key": "LOC", "name": "Lines of Code", "description": "d", "category": "size", "value": 120, "inverted": false, "valueType": "number"},
		J{"key": "MNT", "name": "Maintainability Rating", "description": "d", "category": "maintainability", "value": "B", "inverted": true, "valueType": "grade"},
		J{"key": "SIZE", "name": "Project Size", "description": "d", "category": "size", "value": "XL", "inverted": false, "valueType": "size"},
	}}
}

func seriesBody() J {
	return J{
		"data": []any{J{
			"metric":     J{"key": "LCOV", "name": "Line Coverage", "category": "coverage", "inverted": false, "valueType": "percentage", "description": "d"},
			"dimensions": J{},
			"points":     []any{J{"timestamp": "2026-03-01T23:59:59Z", "value": 81.5}},
		}},
		"meta": J{"from": "2025-09-01T00:00:00Z", "to": ts, "interval": "week"},
	}
}

func errorBody(status int) J {
	return J{"errors": []any{J{"status": fmt.Sprint(status), "title": http.StatusText(status), "detail": "Something."}}}
}

func js(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// with returns a copy of m with key set (or deleted when v is del).
func with(m J, key string, v any) J {
	c := J{}
	for k, x := range m {
		c[k] = x
	}
	if v == del {
		delete(c, key)
	} else {
		c[key] = v
	}
	return c
}

var del = &struct{}{}

type respCase struct {
	name    string
	method  string
	url     string
	status  int
	header  http.Header
	body    string
	wantErr string // "" for a valid response; otherwise a substring of the problem
}

func TestValidatorAcceptsAndRejects(t *testing.T) {
	v := newValidator(t)
	const (
		builds = "/gh/acme/projects/web/builds"
		build  = builds + "/" + uuid1
		comps  = "/gh/acme/projects/web/components"
		series = comps + "/core/metrics/series"
	)
	jsonH := headers("application/json")
	wsList := string(js(t, J{"data": []any{workspace()}, "meta": J{"hasMore": false}}))
	b := func(v any) string { return string(js(t, v)) }
	component := J{"id": uuid1, "name": "core", "description": "", "pathGlobs": []any{"src/core/*"}}

	cases := []respCase{
		// Accepted.
		{"workspaces json", "GET", "/workspaces?page[limit]=5", 200, headers("application/json", "Link", `<https://x/workspaces?page[offset]=5>; rel="next"`), wsList, ""},
		{"absolute URL", "GET", "https://plumb.example.com:8443/workspaces", 200, jsonH, wsList, ""},
		{"workspaces ndjson", "GET", "/workspaces", 200, headers("application/x-ndjson"), b(workspace()) + "\n" + b(with(workspace(), "id", uuid2)) + "\n", ""},
		{"workspaces ndjson empty", "GET", "/workspaces", 200, headers("application/x-ndjson"), "", ""},
		{"workspaces csv", "GET", "/workspaces", 200, headers("text/csv; charset=utf-8"),
			"id,key,avatarUrl,providerUrl,createdAt,updatedAt\r\n" + uuid1 + ",acme,https://github.com/acme.png,https://github.com/acme," + ts + "," + ts + "\r\n", ""},
		{"issues", "GET", "/gh/acme/projects/web/issues?level=high,low", 200, jsonH, b(J{"data": []any{issue(), with(issue(), "documentationUrl", "https://docs.example/x")}, "meta": J{"hasMore": true}}), ""},
		{"build null finishedAt", "GET", build, 200, jsonH, b(fullBuild()), ""},
		{"build string finishedAt", "GET", build, 200, jsonH, b(with(with(fullBuild(), "finishedAt", ts), "conclusion", "failed")), ""},
		{"builds list", "GET", builds, 200, jsonH, b(J{"data": []any{buildEntry()}, "meta": J{"hasMore": false}}), ""},
		{"create application", "POST", "/gh/acme/applications", 201, headers("application/json", "Location", "/gh/acme/applications/"+uuid1),
			b(J{"id": uuid1, "name": "Shop", "description": ""}), ""},
		{"create component", "POST", comps, 201, headers("application/json", "Location", "https://x/gh/acme/projects/web/components/"+uuid1), b(component), ""},
		{"replace component", "PUT", comps + "/core", 200, jsonH, b(component), ""},
		{"delete component", "DELETE", comps + "/core", 204, headers(""), "", ""},
		{"components list", "GET", comps, 200, jsonH, b(J{"data": []any{with(component, "fileCount", 4)}}), ""},
		{"metrics", "GET", comps + "/core/metrics", 200, jsonH, b(metricValues()), ""},
		{"file metrics", "GET", "/gh/acme/projects/web/files?path=a.go", 200, jsonH, b(metricValues()), ""},
		{"series", "GET", series + "?interval=week", 200, jsonH, b(seriesBody()), ""},
		{"series csv", "GET", series, 200, headers("text/csv"), "metric,timestamp,value\r\nCOV,2026-03-01T23:59:59Z,81.5\r\n", ""},
		{"coverage", "GET", "/gh/acme/projects/web/coverage/file?reference=refs/heads/main&path=a.go", 200, jsonH,
			b(J{"tags": []any{"unit"}, "files": []any{J{"path": "a.go", "hits": []any{-1, 0, 2}, "tag": "unit", "coveredLines": 1, "missedLines": 1, "omitLines": 1, "totalLines": 3}}}), ""},
		{"rate limit", "GET", "/rate_limit", 200, jsonH, b(J{"resources": J{"core": J{"limit": 5000, "used": 1, "remaining": 4999, "reset": 1772370000}}}), ""},
		{"openapi.json", "GET", "/openapi.json", 200, http.Header{"Content-Type": {"application/json"}}, string(openapi.Document()), ""},
		{"404", "GET", build, 404, jsonH, b(errorBody(404)), ""},
		{"401 without rate limit headers", "GET", "/workspaces", 401, http.Header{"Content-Type": {"application/json"}, "Www-Authenticate": {`Bearer realm="plumb", Basic realm="plumb"`}}, b(errorBody(401)), ""},
		{"429", "GET", "/workspaces", 429, headers("application/json", "Retry-After", "30"), b(errorBody(429)), ""},

		// Rejected.
		{"extra field", "GET", "/workspaces", 200, jsonH, b(J{"data": []any{with(workspace(), "plan", "pro")}, "meta": J{"hasMore": false}}), "plan"},
		{"missing required field", "GET", build, 200, jsonH, b(with(fullBuild(), "queueSeconds", del)), "queueSeconds"},
		{"missing nullable field", "GET", build, 200, jsonH, b(with(fullBuild(), "exitCode", del)), "exitCode"},
		{"wrong enum", "GET", build, 200, jsonH, b(with(fullBuild(), "status", "done")), "done"},
		{"number for nullable date-time", "GET", build, 200, jsonH, b(with(fullBuild(), "finishedAt", 12)), "finishedAt"},
		{"bad date-time", "GET", build, 200, jsonH, b(with(fullBuild(), "submittedAt", "yesterday")), "submittedAt"},
		{"fractional seconds", "GET", build, 200, jsonH, b(with(fullBuild(), "submittedAt", "2026-03-01T12:00:00.5Z")), "submittedAt"},
		{"bad uuid", "GET", build, 200, jsonH, b(with(fullBuild(), "id", "42")), "id"},
		{"relative uri", "GET", "/workspaces", 200, jsonH, b(J{"data": []any{with(workspace(), "avatarUrl", "acme.png")}, "meta": J{"hasMore": false}}), "avatarUrl"},
		{"bad rating", "GET", comps + "/core/metrics", 200, jsonH, b(J{"data": []any{J{"key": "MNT", "name": "n", "description": "d", "category": "maintainability", "value": "E", "inverted": true}}}), "value"},
		{"undocumented status", "GET", build, 201, jsonH, b(fullBuild()), "is not documented"},
		{"no 409 on builds", "GET", build, 409, jsonH, b(errorBody(409)), "is not documented"},
		{"csv where only json", "GET", build, 200, headers("text/csv"), "id\r\n" + uuid1 + "\r\n", `Content-Type "text/csv" is not documented`},
		{"no content type", "GET", build, 200, without(jsonH, "Content-Type"), b(fullBuild()), "Content-Type"},
		{"csv header mismatch", "GET", "/workspaces", 200, headers("text/csv"), "id,key,createdAt\r\n" + uuid1 + ",acme," + ts + "\r\n", "CSV header row"},
		{"csv empty", "GET", "/workspaces", 200, headers("text/csv"), "", "no header row"},
		{"csv ragged", "GET", "/workspaces", 200, headers("text/csv"), "id,key,avatarUrl,providerUrl,createdAt,updatedAt\r\n" + uuid1 + ",acme\r\n", "CSV"},
		{"ndjson bad line", "GET", "/workspaces", 200, headers("application/x-ndjson"), b(workspace()) + "\n{not json}\n", "line 2"},
		{"ndjson two values on a line", "GET", "/workspaces", 200, headers("application/x-ndjson"), b(workspace()) + " " + b(workspace()) + "\n", "line 1"},
		{"ndjson row invalid", "GET", "/workspaces", 200, headers("application/x-ndjson"), b(with(workspace(), "key", 3)) + "\n", "key"},
		{"ndjson envelope", "GET", "/workspaces", 200, headers("application/x-ndjson"), wsList + "\n", "data"},
		{"missing rate limit header", "GET", "/workspaces", 200, without(jsonH, "X-Ratelimit-Remaining"), wsList, "x-ratelimit-remaining"},
		{"bad rate limit header", "GET", "/workspaces", 200, headers("application/json", "X-Ratelimit-Used", "lots"), wsList, "x-ratelimit-used"},
		{"missing Location", "POST", comps, 201, jsonH, b(component), "Location"},
		{"missing WWW-Authenticate", "GET", "/workspaces", 401, headers("application/json"), b(errorBody(401)), "WWW-Authenticate"},
		{"missing Retry-After", "GET", "/workspaces", 429, jsonH, b(errorBody(429)), "Retry-After"},
		{"error body without errors", "GET", build, 404, jsonH, `{"errors":[]}`, "errors"},
		{"error body not json", "GET", build, 404, jsonH, "not found", "decode"},
		{"body on 204", "DELETE", comps + "/core", 204, headers(""), "{}", "without content"},
		{"unknown path", "GET", "/gh/acme/projects/web/secrets", 200, jsonH, "{}", "no operation documented"},
		{"trailing slash", "GET", "/workspaces/", 200, jsonH, wsList, "no operation documented"},
		{"unknown method", "GET", comps + "/core", 405, headers("application/json", "Allow", "DELETE, PUT"), b(errorBody(405)), "no operation documented"},
		{"component glob with comma", "PUT", comps + "/core", 200, jsonH, b(with(component, "pathGlobs", []any{"a,b"})), "pathGlobs"},
		{"component without globs", "PUT", comps + "/core", 200, jsonH, b(with(component, "pathGlobs", []any{})), "pathGlobs"},
	}
	runRespCases(t, v, cases)
}

// runRespCases validates each case's response: accepted when it wants no
// error, else rejected with a problem that mentions wantErr.
func runRespCases(t *testing.T, v *openapitest.Validator, cases []respCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := v.Validate(httptest.NewRequest(c.method, c.url, nil), c.status, c.header, []byte(c.body))
			switch {
			case c.wantErr == "" && err != nil:
				t.Errorf("rejected a valid response: %v", err)
			case c.wantErr != "" && err == nil:
				t.Errorf("accepted an invalid response (want a problem about %q)", c.wantErr)
			case c.wantErr != "" && !strings.Contains(err.Error(), c.wantErr):
				t.Errorf("problem %q does not mention %q", err, c.wantErr)
			}
		})
	}
}

// recorder is a testing.TB that records Errorf calls instead of failing.
type recorder struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestCheckReportsEachProblem(t *testing.T) {
	v := newValidator(t)
	rec := &recorder{TB: t}
	body := js(t, with(with(fullBuild(), "status", "done"), "extra", 1))
	v.Check(rec, httptest.NewRequest("GET", "/gh/acme/projects/web/builds/"+uuid1, nil), 200, without(headers("application/json"), "X-Ratelimit-Used"), body)
	if len(rec.errs) < 2 {
		t.Fatalf("want at least two reported problems, got %q", rec.errs)
	}
	for _, e := range rec.errs {
		if !strings.HasPrefix(e, "openapitest: GET /gh/acme/projects/web/builds/"+uuid1+" answered 200: ") {
			t.Errorf("message lacks the request: %q", e)
		}
	}

	rec = &recorder{TB: t}
	v.Check(rec, httptest.NewRequest("GET", "/workspaces", nil), 200, headers("application/json"),
		js(t, J{"data": []any{workspace()}, "meta": J{"hasMore": false}}))
	if len(rec.errs) != 0 {
		t.Errorf("valid response reported: %q", rec.errs)
	}
}

func TestWrap(t *testing.T) {
	v := newValidator(t)
	var status int
	var body string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, vs := range headers("application/x-ndjson") {
			w.Header()[k] = vs
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	defer srv.Close()

	get := func(tb testing.TB) string {
		client := &http.Client{Transport: v.Wrap(tb, srv.Client().Transport)}
		resp, err := client.Get(srv.URL + "/workspaces?page[limit]=2")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		got, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return string(got)
	}

	status, body = 200, string(js(t, workspace()))+"\n"
	if got := get(t); got != body {
		t.Errorf("body after Wrap = %q, want %q", got, body)
	}

	status, body = 200, string(js(t, with(workspace(), "id", del)))+"\n"
	rec := &recorder{TB: t}
	if got := get(rec); got != body {
		t.Errorf("body after Wrap = %q, want %q", got, body)
	}
	if len(rec.errs) == 0 || !strings.Contains(strings.Join(rec.errs, "\n"), "id") {
		t.Errorf("Wrap did not report the missing id: %q", rec.errs)
	}
}
