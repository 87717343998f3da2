package api_test

// The ingestion endpoints (docs/ingest.md) over HTTP: credentials (user
// tokens of project admins, project upload tokens), coverage uploads in every
// format (detected and named, gzip, path mapping, merging, references,
// metrics, bad input, size limits), idempotency keys, SARIF findings per
// tool, analysis snapshots, the build lifecycle, and rate limiting. Every
// response is checked against the OpenAPI document by the harness.

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api"
	"github.com/plumbhq/plumb/api/apiv1"
	"github.com/plumbhq/plumb/ingest/sarif"
)

const (
	ingWeb    = "/ingest/gh/acme/projects/web"
	ingSha    = "abcdef0123456789abcdef0123456789abcdef01"
	ingShaOld = "0000000123456789abcdef0123456789abcdef01"
)

// ingWorld is the usual cast plus:
//   - carol (token Carol): member of acme and admin of acme/web;
//   - dave (token Dave): admin of acme (so of every project of it);
//   - Upload: an upload token of acme/web.
//
// alice stays a plain member of acme, and bob sees acme not at all.
type ingWorld struct {
	*world
	Carol, Dave string
	Upload      string
	UploadToken plumb.UploadToken
}

func newIngWorld(t *testing.T, opts ...serverOption) *ingWorld {
	t.Helper()
	w := &ingWorld{world: newWorld(t, opts...)}
	ts := w.testServer
	ts.user(t, "carol")
	ts.user(t, "dave")
	ts.member(t, "acme", "carol", plumb.RoleMember)
	ts.projectAdmin(t, "acme/web", "carol")
	ts.member(t, "acme", "dave", plumb.RoleAdmin)
	w.Carol = ts.token(t, "carol")
	w.Dave = ts.token(t, "dave")
	w.UploadToken, w.Upload = ingUploadToken(t, ts, "acme/web", true)
	return w
}

// ingUploadToken creates an upload token. live registers it with the harness
// as a valid token, whose responses must carry the rate-limit headers.
func ingUploadToken(t testing.TB, ts *testServer, ref string, live bool) (plumb.UploadToken, string) {
	t.Helper()
	ut, secret, err := ts.DB.CreateUploadToken(context.Background(), ref, "ci", "test")
	check(t, err)
	if !strings.HasPrefix(secret, "plbu_") {
		t.Fatalf("upload token %q does not start with plbu_", secret)
	}
	if live {
		ts.mu.Lock()
		ts.live[secret] = true
		ts.mu.Unlock()
	}
	return ut, secret
}

// ingQuery encodes name/value pairs as a query string.
func ingQuery(kv ...string) string {
	q := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		q.Add(kv[i], kv[i+1])
	}
	return q.Encode()
}

// postCoverage uploads a coverage report to acme/web.
func (w *ingWorld) postCoverage(t testing.TB, token, query string, headers map[string]string, body string) *resp {
	t.Helper()
	return w.do(t, http.MethodPost, ingWeb+"/coverage?"+query, token, headers, body)
}

func coverageOf(t testing.TB, r *resp) apiv1.CoverageUpload {
	t.Helper()
	var c apiv1.CoverageUpload
	mustUnmarshal(t, r.Body, &c)
	return c
}

// fileCoverage reads GET …/coverage/file of acme/web as alice: the hits per
// coverage tag.
func (w *ingWorld) fileCoverage(t testing.TB, ref, path string) map[string][]int64 {
	t.Helper()
	r := w.get(t, "/gh/acme/projects/web/coverage/file?reference="+url.QueryEscape(ref)+"&path="+url.QueryEscape(path), w.Alice).
		wantStatus(t, http.StatusOK)
	var body struct {
		Files []struct {
			Tag  string  `json:"tag"`
			Hits []int64 `json:"hits"`
		} `json:"files"`
	}
	mustUnmarshal(t, r.Body, &body)
	out := map[string][]int64{}
	for _, f := range body.Files {
		out[f.Tag] = f.Hits
	}
	return out
}

func gzipped(t testing.TB, s string) string {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := io.WriteString(zw, s); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// rawRequest sends a request whose body is read from body: with length -1
// it is sent chunked (no Content-Length).
func (ts *testServer) rawRequest(t testing.TB, method, path, token string, headers map[string]string, body io.Reader, length int64) *resp {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = length
	return ts.send(t, req, path, token, headers)
}

// onlyReader hides a reader's other methods, so a request built on it has
// no known length.
type onlyReader struct{ io.Reader }

const ingLCOV = "TN:\nSF:src/a.c\nDA:1,1\nDA:2,0\nDA:4,3\nend_of_record\n"

// ---- credentials ----

func TestIngestCredentials(t *testing.T) {
	w := newIngWorld(t)
	q := ingQuery("commitSha", ingSha, "branch", "main")

	t.Run("upload token: its project only", func(t *testing.T) {
		r := w.postCoverage(t, w.Upload, q, nil, ingLCOV).wantStatus(t, http.StatusCreated)
		if c := coverageOf(t, r); c.Format != "lcov" || c.CoveredLines != 2 || c.MissedLines != 1 {
			t.Errorf("upload result %+v", c)
		}
		// Another project of the same workspace, one of another workspace,
		// and one that does not exist all look the same.
		for _, p := range []string{"/ingest/gh/acme/projects/api", "/ingest/gh/globex/projects/vault", "/ingest/gh/acme/projects/nope", "/ingest/gh/nope/projects/web"} {
			w.do(t, http.MethodPost, p+"/coverage?"+q, w.Upload, nil, ingLCOV).wantError(t, http.StatusNotFound, "was not found")
			w.do(t, http.MethodPost, p+"/builds", w.Upload, jsonBody, `{"type":"analysis","branchName":"main","commitSha":"`+ingSha+`"}`).
				wantStatus(t, http.StatusNotFound)
		}
		// The project by id works too.
		w.do(t, http.MethodPost, "/ingest/gh/acme/projects/"+w.Web.ID+"/coverage?"+q, w.Upload, nil, ingLCOV).wantStatus(t, http.StatusCreated)
	})

	t.Run("upload token refused by the v1 API", func(t *testing.T) {
		// Not registered with the harness: a 401 carries no rate-limit headers.
		_, secret := ingUploadToken(t, w.testServer, "acme/web", false)
		for _, p := range []string{"/workspaces", "/gh/acme/projects/web/issues", "/gh/acme/projects/web/builds", "/rate_limit",
			"/gh/acme/projects/web/coverage/file?reference=" + ingSha + "&path=src/a.c"} {
			w.get(t, p, secret).wantError(t, http.StatusUnauthorized, "not valid")
		}
	})

	t.Run("revoked upload token", func(t *testing.T) {
		ut, secret := ingUploadToken(t, w.testServer, "acme/web", false)
		w.postCoverage(t, secret, q, nil, ingLCOV).wantStatus(t, http.StatusCreated)
		check(t, w.DB.RevokeUploadToken(context.Background(), ut.ID))
		w.postCoverage(t, secret, q, nil, ingLCOV).wantError(t, http.StatusUnauthorized, "revoked")
		w.do(t, http.MethodPost, ingWeb+"/builds", secret, jsonBody, `{}`).wantError(t, http.StatusUnauthorized, "revoked")
		// An unknown upload token, and no token at all.
		w.postCoverage(t, "plbu_nope", q, nil, ingLCOV).wantError(t, http.StatusUnauthorized, "not valid")
		w.postCoverage(t, "", q, nil, ingLCOV).wantError(t, http.StatusUnauthorized, "needs an API token")
		// The listing shows the revocation.
		list, err := w.DB.ListUploadTokens(context.Background(), "acme/web")
		check(t, err)
		revoked := 0
		for _, u := range list {
			if u.RevokedAt != nil {
				revoked++
				if u.ID != ut.ID {
					t.Errorf("token %s revoked, want only %s", u.ID, ut.ID)
				}
			}
		}
		if revoked != 1 {
			t.Errorf("%d revoked tokens listed, want 1", revoked)
		}
	})

	t.Run("user tokens", func(t *testing.T) {
		// A member who is not a project admin: 403, on every endpoint.
		w.postCoverage(t, w.Alice, q, nil, ingLCOV).wantError(t, http.StatusForbidden, "project admin")
		w.do(t, http.MethodPost, ingWeb+"/sarif?"+q, w.Alice, nil, `{}`).wantStatus(t, http.StatusForbidden)
		w.do(t, http.MethodPost, ingWeb+"/analyses", w.Alice, jsonBody, `{}`).wantStatus(t, http.StatusForbidden)
		w.do(t, http.MethodPost, ingWeb+"/builds", w.Alice, jsonBody, `{}`).wantStatus(t, http.StatusForbidden)
		// Not a member at all: the project is not visible.
		w.postCoverage(t, w.Bob, q, nil, ingLCOV).wantStatus(t, http.StatusNotFound)
		// The project admin, and a workspace admin.
		w.postCoverage(t, w.Carol, q, nil, ingLCOV).wantStatus(t, http.StatusCreated)
		w.postCoverage(t, w.Dave, q, nil, ingLCOV).wantStatus(t, http.StatusCreated)
		w.do(t, http.MethodPost, "/ingest/gh/acme/projects/api/coverage?"+q, w.Dave, nil, ingLCOV).wantStatus(t, http.StatusCreated)
		// carol administers web only.
		w.do(t, http.MethodPost, "/ingest/gh/acme/projects/api/coverage?"+q, w.Carol, nil, ingLCOV).wantStatus(t, http.StatusForbidden)
		// bob administers globex.
		w.do(t, http.MethodPost, "/ingest/gh/globex/projects/vault/coverage?"+q, w.Bob, nil, ingLCOV).wantStatus(t, http.StatusCreated)
	})

	t.Run("router and negotiation", func(t *testing.T) {
		w.get(t, ingWeb+"/coverage", w.Carol).wantError(t, http.StatusMethodNotAllowed, "POST")
		w.do(t, http.MethodPost, ingWeb+"/nope", w.Carol, nil, "x").wantStatus(t, http.StatusNotFound)
		w.postCoverage(t, w.Upload, q, hdr("Accept", "text/csv"), ingLCOV).wantStatus(t, http.StatusNotAcceptable)
		w.postCoverage(t, w.Upload, q, hdr("Accept", "application/json"), ingLCOV).wantStatus(t, http.StatusCreated)
	})
}

// ---- coverage ----

// ingFormats are small valid reports of each format, with the query that
// maps their paths and the line hits they give.
var ingFormats = []struct {
	format, report, query, path string
	hits                        []int64
}{
	{"lcov", "TN:unit\nSF:/ci/repo/src/a.c\nFN:1,main\nDA:1,1\nDA:2,0\nDA:4,3\nBRDA:4,0,0,1\nend_of_record\n",
		"stripPrefix=/ci/repo", "src/a.c", []int64{1, 0, -1, 3}},
	{"go", "mode: count\nexample.com/m/pkg/a.go:1.13,2.10 2 1\nexample.com/m/pkg/a.go:4.1,4.5 1 0\n",
		"modulePath=example.com/m", "pkg/a.go", []int64{1, 1, -1, 0}},
	{"cobertura", `<?xml version="1.0" ?>
<coverage line-rate="0.5" branch-rate="0" lines-covered="1" lines-valid="2" version="6.5.0" timestamp="1700000000">
	<sources><source>/ci/repo</source></sources>
	<packages><package name="shapes" line-rate="0.5"><classes>
		<class name="area.py" filename="src/area.py" line-rate="0.5"><lines><line number="1" hits="2"/><line number="3" hits="0"/></lines></class>
	</classes></package></packages>
</coverage>
`, "", "src/area.py", []int64{2, -1, 0}},
	{"jacoco", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><!DOCTYPE report PUBLIC "-//JACOCO//DTD Report 1.1//EN" "report.dtd"><report name="x"><sessioninfo id="s" start="1" dump="2"/><package name="com/acme"><sourcefile name="Cart.java"><line nr="2" mi="0" ci="3" mb="0" cb="0"/><line nr="3" mi="2" ci="0" mb="0" cb="0"/><counter type="LINE" missed="1" covered="1"/></sourcefile></package><counter type="LINE" missed="1" covered="1"/></report>`,
		"addPrefix=src/main/java", "src/main/java/com/acme/Cart.java", []int64{-1, 3, 0}},
	{"clover", `<?xml version="1.0" encoding="UTF-8"?>
<coverage generated="1700000000" clover="3.2.0">
  <project timestamp="1700000000" name="All files">
    <metrics statements="2" coveredstatements="1"/>
    <file name="cart.js" path="/ci/app/src/cart.js">
      <line num="1" count="4" type="stmt"/>
      <line num="2" count="1" type="method"/>
      <line num="3" count="0" type="stmt"/>
    </file>
  </project>
</coverage>
`, "stripPrefix=/ci/app", "src/cart.js", []int64{4, -1, 0}},
	{"simplecov", `{"rspec": {"coverage": {"/ci/app/lib/a.rb": {"lines": [null, 2, 0]}}, "timestamp": 1700000000}}`,
		"stripPrefix=/ci/app", "lib/a.rb", []int64{-1, 2, 0}},
	{"istanbul", `{"/ci/app/src/a.js": {"path": "/ci/app/src/a.js", "statementMap": {"0": {"start": {"line": 1, "column": 0}, "end": {"line": 1, "column": 9}}, "1": {"start": {"line": 3, "column": 0}, "end": {"line": 3, "column": 9}}}, "fnMap": {}, "branchMap": {}, "s": {"0": 5, "1": 0}, "f": {}, "b": {}}}`,
		"stripPrefix=/ci/app", "src/a.js", []int64{5, -1, 0}},
	{"qlty", `{"path":"/ci/app/src/q.go","hits":["3","-1","0"]}` + "\n" + `{"path":"/ci/app/src/q.go","hits":["0"]}` + "\n",
		"stripPrefix=/ci/app", "src/q.go", []int64{3, -1, 0}},
}

func TestIngestCoverageFormats(t *testing.T) {
	w := newIngWorld(t)
	for i, f := range ingFormats {
		t.Run(f.format, func(t *testing.T) {
			for j, mode := range []string{"detected", "named", "gzip", "gzip magic"} {
				sha := fmt.Sprintf("%040x", 0xf000+i*16+j)
				q := ingQuery("commitSha", sha, "branch", "main", "coverageTag", "unit")
				if f.query != "" {
					q += "&" + f.query
				}
				var headers map[string]string
				body := f.report
				switch mode {
				case "named":
					q += "&format=" + f.format
					headers = hdr("Content-Type", "application/octet-stream")
				case "gzip":
					body = gzipped(t, f.report)
					headers = hdr("Content-Encoding", "gzip", "Content-Type", "application/gzip")
				case "gzip magic":
					body = gzipped(t, f.report)
				}
				r := w.postCoverage(t, w.Upload, q, headers, body).wantStatus(t, http.StatusCreated)
				covered, missed, _ := plumb.CountHits(f.hits)
				got := coverageOf(t, r)
				want := apiv1.CoverageUpload{ID: got.ID, UploadedAt: got.UploadedAt, CommitSHA: sha, Branch: "main", CoverageTag: "unit", Format: f.format,
					Files: 1, CoveredLines: covered, MissedLines: missed}
				if got != want {
					t.Errorf("%s: upload result\n got %+v\nwant %+v", mode, got, want)
				}
				if !slices.Equal(w.fileCoverage(t, sha, f.path)["unit"], f.hits) {
					t.Errorf("%s: hits of %s %v, want %v", mode, f.path, w.fileCoverage(t, sha, f.path), f.hits)
				}
			}
		})
	}

	t.Run("named format wins over detection", func(t *testing.T) {
		// An LCOV report announced as JaCoCo is a malformed JaCoCo report.
		w.postCoverage(t, w.Upload, ingQuery("commitSha", ingSha, "format", "jacoco"), nil, ingLCOV).wantError(t, http.StatusBadRequest, "jacoco report")
	})

	t.Run("path mapping", func(t *testing.T) {
		// Backslashes, "./" and doubled slashes are normalised before the
		// prefixes apply.
		report := "SF:\\ci\\build\\./src//b.c\nDA:1,1\nend_of_record\nSF:/ci/build/src/c.c\nDA:2,0\nend_of_record\n"
		r := w.postCoverage(t, w.Upload, ingQuery("commitSha", "cccccccccc", "stripPrefix", "/ci/build", "addPrefix", "mod/"), nil, report).
			wantStatus(t, http.StatusCreated)
		if c := coverageOf(t, r); c.Files != 2 {
			t.Errorf("files %d, want 2", c.Files)
		}
		if got := w.fileCoverage(t, "cccccccccc", "mod/src/b.c")["default"]; !slices.Equal(got, []int64{1}) {
			t.Errorf("mod/src/b.c hits %v", got)
		}
		if got := w.fileCoverage(t, "cccccccccc", "mod/src/c.c")["default"]; !slices.Equal(got, []int64{-1, 0}) {
			t.Errorf("mod/src/c.c hits %v", got)
		}
		// Go without modulePath: the common directory of the import paths.
		w.postCoverage(t, w.Upload, ingQuery("commitSha", "dddddddddd"), nil, ingFormats[1].report).wantStatus(t, http.StatusCreated)
		if got := w.fileCoverage(t, "dddddddddd", "a.go")["default"]; !slices.Equal(got, []int64{1, 1, -1, 0}) {
			t.Errorf("a.go hits %v", got)
		}
	})
}

func TestIngestCoverageMergeAndReferences(t *testing.T) {
	w := newIngWorld(t)
	up := func(query, report string) apiv1.CoverageUpload {
		t.Helper()
		return coverageOf(t, w.postCoverage(t, w.Upload, query, nil, report).wantStatus(t, http.StatusCreated))
	}
	// Two uploads of one commit and coverage tag add up line by line; the
	// longer report sets the length, a line coverable in either is coverable.
	q := ingQuery("commitSha", strings.ToUpper(ingSha), "branch", "refs/heads/release", "tag", "refs/tags/v1.0", "coverageTag", "unit")
	first := up(q, "SF:src/a.c\nDA:1,1\nDA:2,0\nend_of_record\n")
	if first.CommitSHA != ingSha || first.Branch != "release" || first.Tag != "v1.0" || first.CoverageTag != "unit" {
		t.Errorf("first upload %+v: want the lower-case SHA and the refs without prefixes", first)
	}
	w.Clock.Advance(time.Minute)
	second := up(q, "SF:src/a.c\nDA:1,2\nDA:2,3\nDA:4,0\nend_of_record\n")
	if second.CoveredLines != 2 || second.MissedLines != 1 || second.ID == first.ID {
		t.Errorf("second upload %+v: counts are the report's own, and it is a new upload", second)
	}
	want := []int64{3, 3, -1, 0}
	// Another coverage tag of the commit stays apart.
	up(ingQuery("commitSha", ingSha, "coverageTag", "e2e"), "SF:src/a.c\nDA:3,1\nend_of_record\n")
	for _, ref := range []string{ingSha, ingSha[:7], "refs/heads/release", "refs/tags/v1.0"} {
		got := w.fileCoverage(t, ref, "src/a.c")
		if !slices.Equal(got["unit"], want) || !slices.Equal(got["e2e"], []int64{-1, -1, 1}) {
			t.Errorf("%s: hits %v, want unit %v and e2e [-1 -1 1]", ref, got, want)
		}
	}
	// The branch moves to its latest upload.
	w.Clock.Advance(time.Minute)
	up(ingQuery("commitSha", ingShaOld, "branch", "release"), "SF:src/a.c\nDA:1,9\nend_of_record\n")
	if got := w.fileCoverage(t, "refs/heads/release", "src/a.c")["default"]; !slices.Equal(got, []int64{9}) {
		t.Errorf("release after a newer upload: %v", got)
	}
	if got := w.fileCoverage(t, "refs/tags/v1.0", "src/a.c")["unit"]; !slices.Equal(got, want) {
		t.Errorf("the tag still names the first commit: %v", got)
	}
	for _, ref := range []string{"refs/heads/main", "refs/tags/v2", "1234567"} {
		w.get(t, "/gh/acme/projects/web/coverage/file?path=src/a.c&reference="+url.QueryEscape(ref), w.Alice).wantStatus(t, http.StatusNotFound)
	}
}

// A report may name one file in several records (LCOV test names,
// SimpleCov commands, Cobertura classes): they merge line by line.
func TestIngestCoverageFileInSeveralRecords(t *testing.T) {
	w := newIngWorld(t)
	twice := func(path string) string {
		return "TN:a\nSF:" + path + "\nDA:1,1\nDA:2,0\nend_of_record\nTN:b\nSF:" + path + "\nDA:2,1\nDA:3,0\nend_of_record\n"
	}
	merged := []int64{1, 1, 0}
	check := func(t *testing.T, sha, path string, r *resp) {
		t.Helper()
		if got := w.fileCoverage(t, sha, path)["default"]; !slices.Equal(got, merged) {
			t.Errorf("%s: hits %v, want %v", path, got, merged)
		}
		c := coverageOf(t, r)
		if c.Files != 1 {
			t.Errorf("files %d, want 1", c.Files)
		}
		if c.CoveredLines != 2 || c.MissedLines != 1 {
			t.Errorf("the upload answer counts %d covered, %d missed; the merged file has 2 and 1", c.CoveredLines, c.MissedLines)
		}
	}
	t.Run("a path the project knows", func(t *testing.T) {
		w.postCoverage(t, w.Upload, ingQuery("commitSha", ingShaOld), nil, "SF:src/a.c\nDA:1,1\nend_of_record\n").wantStatus(t, http.StatusCreated)
		r := w.postCoverage(t, w.Upload, ingQuery("commitSha", ingSha), nil, twice("src/a.c")).wantStatus(t, http.StatusCreated)
		check(t, ingSha, "src/a.c", r)
	})
	t.Run("a new path", func(t *testing.T) {
		r := w.postCoverage(t, w.Upload, ingQuery("commitSha", "abcabcabca"), nil, twice("src/new.c"))
		r.wantStatus(t, http.StatusCreated)
		check(t, "abcabcabca", "src/new.c", r)
	})
}

func TestIngestCoverageMetrics(t *testing.T) {
	w := newIngWorld(t)
	w.setComponents(t, "acme/web", true)
	w.do(t, http.MethodPost, "/gh/acme/projects/web/components", w.Carol, jsonBody, `{"name":"src","pathGlobs":["src/*"]}`).
		wantStatus(t, http.StatusCreated)
	metrics := func() (any, any) {
		t.Helper()
		m := mMetricValues(t, w.testServer, "/gh/acme/projects/web/components/src", w.Alice)
		return m["LCOV"], m["COV"]
	}
	if lcov, cov := metrics(); lcov != 0.0 || cov != "F" {
		t.Fatalf("before any upload: LCOV %v, COV %v", lcov, cov)
	}
	// A default-branch upload: src/a.c 2 of 3, src/b.c 0 of 1; other/c.c is
	// outside the component.
	report := "SF:src/a.c\nDA:1,1\nDA:2,4\nDA:3,0\nend_of_record\nSF:src/b.c\nDA:1,0\nend_of_record\nSF:other/c.c\nDA:1,1\nend_of_record\n"
	w.postCoverage(t, w.Upload, ingQuery("commitSha", ingSha, "branch", "main"), nil, report).wantStatus(t, http.StatusCreated)
	if lcov, cov := metrics(); lcov != 50.0 || cov != "D" {
		t.Errorf("after a default-branch upload: LCOV %v, COV %v; want 50 and D", lcov, cov)
	}
	// A second coverage tag of the commit: the union counts (b.c covered).
	w.Clock.Advance(time.Minute)
	w.postCoverage(t, w.Upload, ingQuery("commitSha", ingSha, "branch", "main", "coverageTag", "e2e"), nil, "SF:src/b.c\nDA:1,1\nend_of_record\n").
		wantStatus(t, http.StatusCreated)
	if lcov, cov := metrics(); lcov != 75.0 || cov != "B" {
		t.Errorf("after a second tag: LCOV %v, COV %v; want 75 and B", lcov, cov)
	}
	// Another branch's upload, and no branch at all, change nothing.
	w.Clock.Advance(time.Minute)
	w.postCoverage(t, w.Upload, ingQuery("commitSha", ingShaOld, "branch", "feature"), nil, "SF:src/a.c\nDA:1,0\nend_of_record\n").
		wantStatus(t, http.StatusCreated)
	w.postCoverage(t, w.Upload, ingQuery("commitSha", "1111111111"), nil, "SF:src/a.c\nDA:1,0\nend_of_record\n").wantStatus(t, http.StatusCreated)
	if lcov, cov := metrics(); lcov != 75.0 || cov != "B" {
		t.Errorf("after other branches' uploads: LCOV %v, COV %v; want 75 and B", lcov, cov)
	}
	// A newer default-branch commit replaces the measurement.
	w.Clock.Advance(time.Minute)
	w.postCoverage(t, w.Upload, ingQuery("commitSha", "2222222222", "branch", "main"), nil, "SF:src/a.c\nDA:1,0\nDA:2,0\nDA:3,1\nend_of_record\n").
		wantStatus(t, http.StatusCreated)
	if lcov, cov := metrics(); lcov != 33.33 || cov != "F" {
		t.Errorf("after a newer default-branch commit: LCOV %v, COV %v; want 33.33 and F", lcov, cov)
	}
}

func TestIngestCoverageBadInput(t *testing.T) {
	w := newIngWorld(t)
	q := ingQuery("commitSha", ingSha, "branch", "bad")
	// nothingStored: no coverage for the commit or the branch, and no
	// upload in the export.
	nothingStored := func(t *testing.T, path string) {
		t.Helper()
		w.get(t, "/gh/acme/projects/web/coverage/file?reference="+ingSha+"&path="+url.QueryEscape(path), w.Alice).
			wantError(t, http.StatusNotFound, "has no coverage")
		w.get(t, "/gh/acme/projects/web/coverage/file?reference=refs/heads/bad&path="+url.QueryEscape(path), w.Alice).
			wantError(t, http.StatusNotFound, "has no coverage")
		var dump bytes.Buffer
		check(t, w.DB.Export(context.Background(), &dump))
		if strings.Contains(dump.String(), ingSha) {
			t.Errorf("the export holds the commit of a refused upload")
		}
	}
	for _, c := range []struct {
		name, report, want string
	}{
		{"lcov line", "SF:src/a.c\nDA:1,1\nDA:x,1\nend_of_record\n", "lcov report at line 3: expected DA:<line>,<count>"},
		{"lcov negative", "SF:src/a.c\nDA:1,1\nend_of_record\nSF:src/b.c\nDA:2,-4\nend_of_record\n", "lcov report at line 5: expected DA:<line>,<count>[,<checksum>] with a count of at least 0"},
		{"cobertura element", strings.Replace(ingFormats[2].report, `number="3"`, `number="three"`, 1), `cobertura report at line 5 (<line>): expected number="<line number>"`},
		{"jacoco element", strings.Replace(ingFormats[3].report, `nr="3"`, `nr="-3"`, 1), `jacoco report at line 1 (<line> at column 278): expected nr="<line number>"`},
		{"clover type", strings.Replace(ingFormats[4].report, `type="method"`, `type="branch"`, 1), `clover report at line 7 (<line> at column 7): expected type="stmt", "cond" or "method", got "branch"`},
		{"simplecov path", `{"rspec": {"coverage": {"/ci/app/lib/a.rb": {"lines": [null, "two", 0]}}}}`, `simplecov report at line 1 ($.rspec.coverage["/ci/app/lib/a.rb"].lines[1])`},
		{"istanbul path", strings.Replace(ingFormats[6].report, `"1": 0}`, `"1": -2}`, 1), `istanbul report at line 1 ($["/ci/app/src/a.js"].s["1"])`},
		{"truncated XML", ingFormats[2].report[:200], "cobertura report at line 4 (<packages>): expected more input"},
		{"unknown format", "hello world\n", "cannot tell the coverage report's format"},
		{"json array", "[1, 2]", "JSON array"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w.postCoverage(t, w.Upload, q, nil, c.report).wantError(t, http.StatusBadRequest, c.want)
			nothingStored(t, "src/a.c")
		})
	}
	t.Run("gzip", func(t *testing.T) {
		// A corrupt gzip body: header right, data cut.
		gz := gzipped(t, ingLCOV)
		w.postCoverage(t, w.Upload, q, hdr("Content-Encoding", "gzip"), gz[:len(gz)-6]).wantError(t, http.StatusBadRequest, "")
		w.postCoverage(t, w.Upload, q, hdr("Content-Encoding", "gzip"), ingLCOV).wantError(t, http.StatusBadRequest, "not valid gzip")
		nothingStored(t, "src/a.c")
	})
	t.Run("empty", func(t *testing.T) {
		w.postCoverage(t, w.Upload, q, nil, "").wantError(t, http.StatusBadRequest, "empty")
		w.postCoverage(t, w.Upload, q, nil, " \n\t\n").wantError(t, http.StatusBadRequest, "empty")
	})
	t.Run("query", func(t *testing.T) {
		w.postCoverage(t, w.Upload, ingQuery("branch", "main"), nil, ingLCOV).wantError(t, http.StatusBadRequest, "commitSha is required")
		w.postCoverage(t, w.Upload, ingQuery("commitSha", ingSha, "format", "gcov"), nil, ingLCOV).
			wantError(t, http.StatusBadRequest, `format has the unknown value "gcov"`)
		w.postCoverage(t, w.Upload, ingQuery("format", "LCOV"), nil, ingLCOV).
			wantError(t, http.StatusBadRequest, "commitSha is required", "unknown value")
		for _, sha := range []string{"abc", "main", "xyz1234567", strings.Repeat("a", 65)} {
			w.postCoverage(t, w.Upload, ingQuery("commitSha", sha), nil, ingLCOV).wantError(t, http.StatusBadRequest, "commitSha")
		}
		w.postCoverage(t, w.Upload, ingQuery("commitSha", ingSha, "commitSha", ingShaOld), nil, ingLCOV).wantError(t, http.StatusBadRequest, "one value")
		nothingStored(t, "src/a.c")
	})
	t.Run("content encoding", func(t *testing.T) {
		for _, enc := range []string{"br", "deflate", "zstd"} {
			w.postCoverage(t, w.Upload, q, hdr("Content-Encoding", enc), ingLCOV).wantError(t, http.StatusUnsupportedMediaType, "Content-Encoding")
		}
		w.postCoverage(t, w.Upload, ingQuery("commitSha", ingShaOld), hdr("Content-Encoding", "identity"), ingLCOV).wantStatus(t, http.StatusCreated)
		nothingStored(t, "src/a.c")
	})
}

func TestIngestUploadLimit(t *testing.T) {
	const limit = 4096
	w := newIngWorld(t, withConfig(api.Config{MaxUploadBytes: limit}))
	q := ingQuery("commitSha", ingSha, "branch", "main")
	// report is an LCOV report of exactly n bytes (n ≥ 40).
	report := func(n int) string {
		head := "SF:src/a.c\nDA:1,1\nend_of_record\n"
		pad := n - len(head) - 2
		return head + "#" + strings.Repeat("x", pad) + "\n"
	}
	if len(report(limit)) != limit {
		t.Fatalf("report is %d bytes", len(report(limit)))
	}
	tooLarge := fmt.Sprintf("limit of %d bytes", limit)

	// With a Content-Length.
	w.postCoverage(t, w.Upload, q, nil, report(limit)).wantStatus(t, http.StatusCreated)
	w.postCoverage(t, w.Upload, q, nil, report(limit+1)).wantError(t, http.StatusRequestEntityTooLarge, tooLarge)
	// Chunked, without a Content-Length.
	chunked := func(body string, headers map[string]string) *resp {
		return w.rawRequest(t, http.MethodPost, ingWeb+"/coverage?"+q, w.Upload, headers, onlyReader{strings.NewReader(body)}, -1)
	}
	chunked(report(limit), nil).wantStatus(t, http.StatusCreated)
	chunked(report(limit+1), nil).wantError(t, http.StatusRequestEntityTooLarge, tooLarge)
	chunked(report(10*limit), nil).wantError(t, http.StatusRequestEntityTooLarge, tooLarge)
	// A gzip bomb: small on the wire, over the limit once decompressed,
	// announced or recognised by its magic bytes, with and without a length.
	bomb := gzipped(t, "SF:src/a.c\n"+strings.Repeat("DA:1,1\n", 20*limit)+"end_of_record\n")
	if len(bomb) >= limit {
		t.Fatalf("the bomb is %d bytes compressed", len(bomb))
	}
	w.postCoverage(t, w.Upload, q, hdr("Content-Encoding", "gzip"), bomb).wantError(t, http.StatusRequestEntityTooLarge, tooLarge)
	w.postCoverage(t, w.Upload, q, nil, bomb).wantError(t, http.StatusRequestEntityTooLarge, tooLarge)
	chunked(bomb, hdr("Content-Encoding", "gzip")).wantError(t, http.StatusRequestEntityTooLarge, tooLarge)
	// Over the limit before its format shows: too large, not unrecognised.
	chunked(strings.Repeat("?", 2*limit), nil).wantError(t, http.StatusRequestEntityTooLarge, tooLarge)
	w.postCoverage(t, w.Upload, q, nil, gzipped(t, strings.Repeat("?", 20*limit))).wantError(t, http.StatusRequestEntityTooLarge, tooLarge)
	// Decompressed to exactly the limit is within it.
	w.postCoverage(t, w.Upload, q, hdr("Content-Encoding", "gzip"), gzipped(t, report(limit))).wantStatus(t, http.StatusCreated)
	w.postCoverage(t, w.Upload, q, hdr("Content-Encoding", "gzip"), gzipped(t, report(limit+1))).wantError(t, http.StatusRequestEntityTooLarge, tooLarge)
	// The other uploads have the same limit.
	big := `{"version":"2.1.0","runs":[],"x":"` + strings.Repeat("x", limit) + `"}`
	w.do(t, http.MethodPost, ingWeb+"/sarif?"+q, w.Upload, nil, big).wantError(t, http.StatusRequestEntityTooLarge, tooLarge)
	w.do(t, http.MethodPost, ingWeb+"/analyses", w.Upload, jsonBody,
		`{"commitSha":"`+ingSha+`","branch":"main","removed":["`+strings.Repeat("x", limit)+`"]}`).wantError(t, http.StatusRequestEntityTooLarge, tooLarge)
	// Three uploads were stored, each covering line 1 once: the refused
	// ones left nothing.
	if got := w.fileCoverage(t, ingSha, "src/a.c")["default"]; !slices.Equal(got, []int64{3}) {
		t.Errorf("hits after the accepted uploads %v, want [3]", got)
	}
}

// ---- idempotency ----

func TestIngestIdempotency(t *testing.T) {
	w := newIngWorld(t)
	q := ingQuery("commitSha", ingSha, "branch", "main")
	key := hdr("Idempotency-Key", "ci-run-42")

	first := w.postCoverage(t, w.Upload, q, key, ingLCOV).wantStatus(t, http.StatusCreated)
	if first.Header.Get("Idempotent-Replayed") != "" {
		t.Errorf("the first answer says Idempotent-Replayed: %q", first.Header.Get("Idempotent-Replayed"))
	}
	for i := 0; i < 2; i++ {
		w.Clock.Advance(time.Hour)
		again := w.postCoverage(t, w.Upload, q, key, ingLCOV).wantStatus(t, http.StatusCreated)
		if again.Header.Get("Idempotent-Replayed") != "true" {
			t.Errorf("retry %d: Idempotent-Replayed %q, want true", i, again.Header.Get("Idempotent-Replayed"))
		}
		if !bytes.Equal(again.Body, first.Body) {
			t.Errorf("retry %d: body %s, want %s", i, again.Body, first.Body)
		}
	}
	// Counted once.
	if got := w.fileCoverage(t, ingSha, "src/a.c")["default"]; !slices.Equal(got, []int64{1, 0, -1, 3}) {
		t.Errorf("hits after retries %v, want one upload's", got)
	}
	// The same key on another request line is a conflict; nothing is stored.
	for _, other := range []string{
		ingWeb + "/coverage?" + ingQuery("commitSha", ingShaOld, "branch", "main"),
		ingWeb + "/coverage?" + q + "&coverageTag=unit",
		ingWeb + "/sarif?" + q,
	} {
		w.do(t, http.MethodPost, other, w.Upload, key, ingLCOV).wantError(t, http.StatusConflict, `Idempotency-Key "ci-run-42" was already used for a different upload`)
	}
	w.get(t, "/gh/acme/projects/web/coverage/file?reference="+ingShaOld+"&path=src/a.c", w.Alice).wantStatus(t, http.StatusNotFound)
	// The same key and request line with another body (other content, or
	// the same content gzipped: the body as sent counts) is a conflict too,
	// and stores nothing.
	for _, body := range []string{strings.Replace(ingLCOV, "DA:2,0", "DA:2,5", 1), ingLCOV + "\n", gzipped(t, ingLCOV)} {
		w.postCoverage(t, w.Upload, q, key, body).wantError(t, http.StatusConflict, `Idempotency-Key "ci-run-42" was already used for an upload with a different body`)
	}
	if got := w.fileCoverage(t, ingSha, "src/a.c")["default"]; !slices.Equal(got, []int64{1, 0, -1, 3}) {
		t.Errorf("hits after conflicting retries %v, want one upload's", got)
	}
	// Keys belong to a project: the same key elsewhere is new.
	w.do(t, http.MethodPost, "/ingest/gh/acme/projects/api/coverage?"+q, w.Dave, key, ingLCOV).wantStatus(t, http.StatusCreated)
	// A user token shares the project's keys.
	r := w.postCoverage(t, w.Carol, q, key, ingLCOV).wantStatus(t, http.StatusCreated)
	if r.Header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(r.Body, first.Body) {
		t.Errorf("carol's retry was not replayed: %s", r)
	}

	t.Run("a failed request leaves no key", func(t *testing.T) {
		k := hdr("Idempotency-Key", "ci-run-43")
		qq := ingQuery("commitSha", "4444444444", "branch", "main")
		w.postCoverage(t, w.Upload, qq, k, "SF:src/a.c\nDA:oops\n").wantStatus(t, http.StatusBadRequest)
		r := w.postCoverage(t, w.Upload, qq, k, ingLCOV).wantStatus(t, http.StatusCreated)
		if r.Header.Get("Idempotent-Replayed") != "" {
			t.Errorf("the retry after a failure was replayed: %s", r)
		}
	})
	t.Run("a request still running", func(t *testing.T) {
		// The first request with the key is under way (started, not
		// finished): a retry must wait.
		path, query := ingWeb+"/coverage", ingQuery("commitSha", "5555555555")
		sum := sha256.Sum256([]byte("POST " + path + "?" + query))
		_, _, _, done, err := w.DB.IdempotencyStart(context.Background(), w.Web.ID, "ci-run-44", hex.EncodeToString(sum[:]))
		if err != nil || done {
			t.Fatalf("IdempotencyStart: done %v, %v", done, err)
		}
		w.do(t, http.MethodPost, path+"?"+query, w.Upload, hdr("Idempotency-Key", "ci-run-44"), ingLCOV).
			wantError(t, http.StatusConflict, "still in progress")
	})
	t.Run("keys expire after a day", func(t *testing.T) {
		w.Clock.Advance(25 * time.Hour)
		r := w.postCoverage(t, w.Upload, q, key, ingLCOV).wantStatus(t, http.StatusCreated)
		if r.Header.Get("Idempotent-Replayed") != "" || bytes.Equal(r.Body, first.Body) {
			t.Errorf("a day-old key was replayed: %s", r)
		}
	})
	t.Run("key length", func(t *testing.T) {
		w.postCoverage(t, w.Upload, q, hdr("Idempotency-Key", strings.Repeat("k", 201)), ingLCOV).wantError(t, http.StatusBadRequest, "200 characters")
		w.postCoverage(t, w.Upload, q, hdr("Idempotency-Key", strings.Repeat("k", 200)), ingLCOV).wantStatus(t, http.StatusCreated)
	})
	t.Run("build creation", func(t *testing.T) {
		k := hdr("Idempotency-Key", "build-1", "Content-Type", "application/json")
		body := `{"type":"analysis","branchName":"main","commitSha":"` + ingSha + `"}`
		a := w.do(t, http.MethodPost, ingWeb+"/builds", w.Upload, k, body).wantStatus(t, http.StatusCreated)
		w.Clock.Advance(time.Minute)
		b := w.do(t, http.MethodPost, ingWeb+"/builds", w.Upload, k, body).wantStatus(t, http.StatusCreated)
		if b.Header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(a.Body, b.Body) || a.Header.Get("Location") != b.Header.Get("Location") {
			t.Errorf("replayed build creation differs:\n%s %v\n%s %v", a, a.Header, b, b.Header)
		}
		if n := len(dataOf(t, w.get(t, "/gh/acme/projects/web/builds", w.Alice))); n != 1 {
			t.Errorf("%d builds after a retried creation, want 1", n)
		}
		w.do(t, http.MethodPost, ingWeb+"/builds", w.Upload, k, strings.Replace(body, "analysis", "format", 1)).
			wantError(t, http.StatusConflict, "different body")
		if n := len(dataOf(t, w.get(t, "/gh/acme/projects/web/builds", w.Alice))); n != 1 {
			t.Errorf("%d builds after a conflicting retry, want 1", n)
		}
	})
	t.Run("analysis", func(t *testing.T) {
		k := hdr("Idempotency-Key", "analysis-1", "Content-Type", "application/json")
		body := `{"commitSha":"` + ingSha + `","branch":"feature","files":[{"path":"src/a.c","lines":10,"loc":8}]}`
		a := w.do(t, http.MethodPost, ingWeb+"/analyses", w.Upload, k, body).wantStatus(t, http.StatusCreated)
		b := w.do(t, http.MethodPost, ingWeb+"/analyses", w.Upload, k, body).wantStatus(t, http.StatusCreated)
		if b.Header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(a.Body, b.Body) {
			t.Errorf("analysis retry not replayed: %s", b)
		}
		w.do(t, http.MethodPost, ingWeb+"/analyses", w.Upload, k, strings.Replace(body, "10", "11", 1)).wantError(t, http.StatusConflict, "different body")
	})
	t.Run("a key kept without its body's hash replays any body", func(t *testing.T) {
		// Keys stored before bodies were hashed have an empty hash.
		path, query := ingWeb+"/coverage", ingQuery("commitSha", "6666666666")
		sum := sha256.Sum256([]byte("POST " + path + "?" + query))
		_, _, _, done, err := w.DB.IdempotencyStart(context.Background(), w.Web.ID, "legacy", hex.EncodeToString(sum[:]))
		if err != nil || done {
			t.Fatalf("IdempotencyStart: done %v, %v", done, err)
		}
		check(t, w.DB.IdempotencyFinish(context.Background(), w.Web.ID, "legacy", 201, string(first.Body), ""))
		r := w.do(t, http.MethodPost, path+"?"+query, w.Upload, hdr("Idempotency-Key", "legacy"), "anything").wantStatus(t, http.StatusCreated)
		if r.Header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(r.Body, first.Body) {
			t.Errorf("legacy key not replayed: %s", r)
		}
	})
}

// ---- SARIF ----

func readSARIF(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile("../ingest/sarif/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// issueKeys lists GET …/issues of acme/web (all pages) as
// "tool rule path:line status", sorted.
func (w *ingWorld) issueKeys(t testing.TB, status string) []string {
	t.Helper()
	var out []string
	next := "/gh/acme/projects/web/issues?page[limit]=100&status=" + status
	for next != "" {
		r := w.get(t, next, w.Alice).wantStatus(t, http.StatusOK)
		for _, v := range dataOf(t, r) {
			is := v.(map[string]any)
			loc := is["location"].(map[string]any)
			out = append(out, fmt.Sprintf("%s %s %s:%v %s", is["tool"], is["ruleKey"], loc["path"], loc["startLine"], is["status"]))
		}
		next = r.links(t)["next"]
	}
	sort.Strings(out)
	return out
}

func issueKeysOf(issues []plumb.Issue, status func(plumb.Issue) string) []string {
	var out []string
	for _, is := range issues {
		out = append(out, fmt.Sprintf("%s %s %s:%d %s", is.Tool, is.RuleKey, is.Path, *is.StartLine, status(is)))
	}
	sort.Strings(out)
	return out
}

func TestIngestSARIF(t *testing.T) {
	w := newIngWorld(t)
	staticcheck, golangci := readSARIF(t, "staticcheck.sarif"), readSARIF(t, "golangci-lint.sarif")
	parse := func(doc string) []plumb.Issue {
		is, err := sarif.Parse(strings.NewReader(doc), sarif.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return is
	}
	sc, gl := parse(staticcheck), parse(golangci)
	if len(sc) != 6 || len(gl) != 11 {
		t.Fatalf("the fixtures have %d and %d issues, want 6 and 11", len(sc), len(gl))
	}
	// One staticcheck finding was ignored before (its fingerprint's status).
	ignoredFP := sc[1].Fingerprint
	w.snapshot(t, plumb.SnapshotInput{ProjectID: w.Web.ID, Branch: "old", CommitSHA: "0000000", AnalyzedAt: t0.Add(-time.Hour),
		Issues: []plumb.Issue{{Fingerprint: ignoredFP, Tool: "staticcheck", RuleKey: sc[1].RuleKey, Path: sc[1].Path, Category: "dead_code", Level: "medium", Status: "ignored"}}})
	status := func(is plumb.Issue) string {
		if is.Fingerprint == ignoredFP {
			return "ignored"
		}
		return "open"
	}
	q := ingQuery("commitSha", ingSha, "branch", "main", "analyzedAt", "2026-03-02T09:00:00Z")
	snapshot := func(r *resp) map[string]any {
		t.Helper()
		var m map[string]any
		mustUnmarshal(t, r.Body, &m)
		return m
	}

	r := w.do(t, http.MethodPost, ingWeb+"/sarif?"+q, w.Upload, hdr("Content-Type", "application/sarif+json"), staticcheck).wantStatus(t, http.StatusCreated)
	if s := snapshot(r); s["issues"] != 6.0 || s["current"] != true || s["analyzedAt"] != "2026-03-02T09:00:00Z" || s["commitSha"] != ingSha || s["branch"] != "main" {
		t.Errorf("snapshot %v", s)
	}
	want := issueKeysOf(sc, status)
	if got := w.issueKeys(t, "open,ignored"); !slices.Equal(got, want) {
		t.Errorf("issues after staticcheck\n got %q\nwant %q", got, want)
	}
	if got := w.issueKeys(t, "ignored"); len(got) != 1 || !strings.Contains(got[0], sc[1].RuleKey) {
		t.Errorf("ignored issues %q, want the U1000 one", got)
	}

	// Another tool for the same commit, gzip-compressed: both tools' issues.
	r = w.do(t, http.MethodPost, ingWeb+"/sarif?"+q, w.Upload, hdr("Content-Encoding", "gzip"), gzipped(t, golangci)).wantStatus(t, http.StatusCreated)
	if s := snapshot(r); s["issues"] != 11.0 || s["current"] != true {
		t.Errorf("snapshot %v", s)
	}
	want = issueKeysOf(append(slices.Clone(sc), gl...), status)
	if got := w.issueKeys(t, "open,ignored"); !slices.Equal(got, want) {
		t.Errorf("issues after golangci-lint\n got %q\nwant %q", got, want)
	}

	// A re-upload of staticcheck replaces its issues: only the first two
	// results now; the ignored one stays ignored.
	var doc map[string]any
	mustUnmarshal(t, []byte(staticcheck), &doc)
	run := doc["runs"].([]any)[0].(map[string]any)
	run["results"] = run["results"].([]any)[:2]
	fewer, _ := json.Marshal(doc)
	w.do(t, http.MethodPost, ingWeb+"/sarif?"+q, w.Upload, nil, string(fewer)).wantStatus(t, http.StatusCreated)
	want = issueKeysOf(append(slices.Clone(sc[:2]), gl...), status)
	if got := w.issueKeys(t, "open,ignored"); !slices.Equal(got, want) {
		t.Errorf("issues after a staticcheck re-upload\n got %q\nwant %q", got, want)
	}
	if got := w.issueKeys(t, "ignored"); len(got) != 1 || !strings.Contains(got[0], "U1000") {
		t.Errorf("ignored issues after a re-upload %q", got)
	}

	// A clean run of staticcheck (no results: everything fixed) replaces its
	// issues too; golangci-lint's stay.
	run["results"] = []any{}
	clean, _ := json.Marshal(doc)
	r = w.do(t, http.MethodPost, ingWeb+"/sarif?"+q, w.Upload, nil, string(clean)).wantStatus(t, http.StatusCreated)
	if s := snapshot(r); s["issues"] != 0.0 || s["current"] != true {
		t.Errorf("clean snapshot %v", s)
	}
	want = issueKeysOf(gl, status)
	if got := w.issueKeys(t, "open,ignored"); !slices.Equal(got, want) {
		t.Errorf("issues after a clean staticcheck run\n got %q\nwant %q", got, want)
	}
	// And a new staticcheck run brings the ignored finding back ignored.
	w.do(t, http.MethodPost, ingWeb+"/sarif?"+q, w.Upload, nil, string(fewer)).wantStatus(t, http.StatusCreated)
	want = issueKeysOf(append(slices.Clone(sc[:2]), gl...), status)
	if got := w.issueKeys(t, "open,ignored"); !slices.Equal(got, want) {
		t.Errorf("issues after staticcheck again\n got %q\nwant %q", got, want)
	}

	// Other branches, and older analyses of the default branch, are not the
	// current state.
	r = w.do(t, http.MethodPost, ingWeb+"/sarif?"+ingQuery("commitSha", ingShaOld, "branch", "feature"), w.Upload, nil, staticcheck).wantStatus(t, http.StatusCreated)
	if s := snapshot(r); s["current"] != false || s["analyzedAt"] != tsf(t0) {
		t.Errorf("feature snapshot %v: not current, analysed now", s)
	}
	r = w.do(t, http.MethodPost, ingWeb+"/sarif?"+ingQuery("commitSha", ingShaOld, "branch", "refs/heads/main", "analyzedAt", "2026-03-01T00:00:00+01:00"),
		w.Upload, nil, staticcheck).wantStatus(t, http.StatusCreated)
	if s := snapshot(r); s["current"] != false || s["branch"] != "main" || s["analyzedAt"] != "2026-02-28T23:00:00Z" {
		t.Errorf("older main snapshot %v", s)
	}
	if got := w.issueKeys(t, "open,ignored"); !slices.Equal(got, want) {
		t.Errorf("issues changed by a non-current snapshot\n got %q\nwant %q", got, want)
	}

	t.Run("bad input", func(t *testing.T) {
		for _, c := range []struct{ name, body, want string }{
			{"results not an array", `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":{}}]}`, "runs[0].results"},
			{"result without message", `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"ruleId":"r"}]}]}`, "runs[0].results[0].message"},
			{"version", `{"version":"2.0.0","runs":[]}`, "SARIF report at version"},
			{"truncated", staticcheck[:len(staticcheck)/2], "cut short"},
			{"not JSON", "<xml/>", "invalid JSON"},
		} {
			t.Run(c.name, func(t *testing.T) {
				w.do(t, http.MethodPost, ingWeb+"/sarif?"+q, w.Upload, nil, c.body).wantError(t, http.StatusBadRequest, c.want)
			})
		}
		w.do(t, http.MethodPost, ingWeb+"/sarif?"+ingQuery("commitSha", ingSha), w.Upload, nil, staticcheck).wantError(t, http.StatusBadRequest, "branch is required")
		w.do(t, http.MethodPost, ingWeb+"/sarif?"+ingQuery("branch", "main"), w.Upload, nil, staticcheck).wantError(t, http.StatusBadRequest, "commitSha")
		w.do(t, http.MethodPost, ingWeb+"/sarif?"+ingQuery("commitSha", "main", "branch", "main"), w.Upload, nil, staticcheck).wantError(t, http.StatusBadRequest, "hexadecimal")
		w.do(t, http.MethodPost, ingWeb+"/sarif?"+q+"&analyzedAt=yesterday", w.Upload, nil, staticcheck).wantError(t, http.StatusBadRequest, "one value")
		w.do(t, http.MethodPost, ingWeb+"/sarif?"+ingQuery("commitSha", ingSha, "branch", "main", "analyzedAt", "yesterday"), w.Upload, nil, staticcheck).
			wantError(t, http.StatusBadRequest, "RFC 3339")
		// Nothing stored.
		if got := w.issueKeys(t, "open,ignored"); !slices.Equal(got, want) {
			t.Errorf("issues changed by refused uploads\n got %q\nwant %q", got, want)
		}
	})
}

// ---- analyses ----

func TestIngestAnalysis(t *testing.T) {
	w := newIngWorld(t)
	w.setComponents(t, "acme/web", true)
	w.do(t, http.MethodPost, "/gh/acme/projects/web/components", w.Carol, jsonBody, `{"name":"store","pathGlobs":["store/*"]}`).
		wantStatus(t, http.StatusCreated)
	staticcheck := readSARIF(t, "staticcheck.sarif")
	post := func(body string, headers ...map[string]string) *resp {
		t.Helper()
		h := map[string]string{"Content-Type": "application/json"}
		for _, m := range headers {
			for k, v := range m {
				h[k] = v
			}
		}
		return w.do(t, http.MethodPost, ingWeb+"/analyses?stripPrefix=/ci", w.Upload, h, body)
	}
	fileMetrics := func(path string) map[string]any {
		t.Helper()
		return mCheckValues(t, w.get(t, "/gh/acme/projects/web/files?path="+url.QueryEscape(path), w.Alice).wantStatus(t, http.StatusOK))
	}
	pick := func(m map[string]any, keys ...string) string {
		var parts []string
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("%s=%v", k, m[k]))
		}
		return strings.Join(parts, " ")
	}
	keys := []string{"FILES", "SIZE", "LOC", "CMPLX", "DUP", "ISS"}

	// A full tree with the staticcheck findings (1 on format.go, 5 on
	// store.go), gzip-compressed; paths mapped.
	body := `{"commitSha":"` + ingSha + `","branch":"main","analyzedAt":"2026-03-02T09:30:00Z","files":[
		{"path":"/ci/store/store.go","lines":120,"loc":90,"complexity":14,"duplicatedLines":6},
		{"path":"store/format.go","lines":10,"loc":8,"complexity":1},
		{"path":"README.md","lines":40}],
		"sarif":[` + staticcheck + `]}`
	r := post(gzipped(t, body), hdr("Content-Encoding", "gzip")).wantStatus(t, http.StatusCreated)
	var snap map[string]any
	mustUnmarshal(t, r.Body, &snap)
	if snap["issues"] != 6.0 || snap["current"] != true || snap["analyzedAt"] != "2026-03-02T09:30:00Z" || snap["commitSha"] != ingSha {
		t.Errorf("snapshot %v", snap)
	}
	for path, want := range map[string]string{
		"store/store.go":  "FILES=1 SIZE=XS LOC=90 CMPLX=14 DUP=5 ISS=5",
		"store/format.go": "FILES=1 SIZE=XS LOC=8 CMPLX=1 DUP=0 ISS=1",
		"README.md":       "FILES=1 SIZE=XS LOC=0 CMPLX=0 DUP=0 ISS=0",
	} {
		if got := pick(fileMetrics(path), keys...); got != want {
			t.Errorf("%s: %s, want %s", path, got, want)
		}
	}
	comp := func() string {
		t.Helper()
		return pick(mMetricValues(t, w.testServer, "/gh/acme/projects/web/components/store", w.Alice), keys...)
	}
	if got, want := comp(), "FILES=2 SIZE=XS LOC=98 CMPLX=15 DUP=4.62 ISS=6"; got != want {
		t.Errorf("component store: %s, want %s", got, want)
	}
	if n := len(w.issueKeys(t, "open")); n != 6 {
		t.Errorf("%d open issues, want 6", n)
	}

	// Only what changed: store.go, format.go removed, no SARIF (no issues).
	w.Clock.Advance(time.Hour)
	r = post(`{"commitSha":"`+ingShaOld+`","branch":"refs/heads/main","fullTree":false,
		"files":[{"path":"store/store.go","lines":100,"loc":80,"complexity":10,"duplicatedLines":0}],"removed":["store/format.go"]}`).
		wantStatus(t, http.StatusCreated)
	mustUnmarshal(t, r.Body, &snap)
	if snap["issues"] != 0.0 || snap["current"] != true || snap["branch"] != "main" || snap["analyzedAt"] != tsf(t0.Add(time.Hour)) {
		t.Errorf("snapshot %v", snap)
	}
	w.get(t, "/gh/acme/projects/web/files?path=store/format.go", w.Alice).wantStatus(t, http.StatusNotFound)
	if got, want := pick(fileMetrics("store/store.go"), keys...), "FILES=1 SIZE=XS LOC=80 CMPLX=10 DUP=0 ISS=0"; got != want {
		t.Errorf("store.go: %s, want %s", got, want)
	}
	if got := pick(fileMetrics("README.md"), keys...); got != "FILES=1 SIZE=XS LOC=0 CMPLX=0 DUP=0 ISS=0" {
		t.Errorf("README.md kept by a partial analysis: %s", got)
	}
	if got, want := comp(), "FILES=1 SIZE=XS LOC=80 CMPLX=10 DUP=0 ISS=0"; got != want {
		t.Errorf("component store: %s, want %s", got, want)
	}

	// An older analysis arriving late is stored but not current.
	r = post(`{"commitSha":"1234567","branch":"main","analyzedAt":"2026-01-01T00:00:00Z","files":[{"path":"store/x.go","lines":1}]}`).
		wantStatus(t, http.StatusCreated)
	mustUnmarshal(t, r.Body, &snap)
	if snap["current"] != false {
		t.Errorf("a late analysis became current: %v", snap)
	}
	w.get(t, "/gh/acme/projects/web/files?path=store/x.go", w.Alice).wantStatus(t, http.StatusNotFound)

	t.Run("bad input", func(t *testing.T) {
		post(`{"fullTree":false,"commitSha":"`+ingSha+`","branch":"main","sarif":[{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":{}}]}]}`).
			wantError(t, http.StatusBadRequest, "sarif[0]: SARIF report at runs[0].results")
		post(`{"fullTree":false,"branch":"main"}`).wantError(t, http.StatusBadRequest, "commitSha is required")
		post(`{"fullTree":false,"commitSha":"`+ingSha+`"}`).wantError(t, http.StatusBadRequest, "branch is required")
		post(`{"fullTree":false,"commitSha":"not-a-sha","branch":"main"}`).wantError(t, http.StatusBadRequest, "hexadecimal")
		post(`{"fullTree":false,"commitSha":"`+ingSha+`","branch":"main","analyzedAt":"noon"}`).wantError(t, http.StatusBadRequest, "RFC 3339")
		post(`{"fullTree":false,"commitSha":"`+ingSha+`","branch":"main","colour":"blue"}`).wantError(t, http.StatusBadRequest, "colour")
		post(`{"commitSha":"`+ingSha+`","branch":"main","files":[{"path":"a","lines":"many"}]}`).wantError(t, http.StatusBadRequest, "documented shape")
		post(`{"commitSha":"`+ingSha+`","branch":"main","files":[{"path":"a","lines":1,"loc":5}]}`).wantError(t, http.StatusBadRequest, "must not exceed")
		post(`{"commitSha":"`+ingSha+`","branch":"main","files":[{"path":"a","lines":1},{"path":"a","lines":1}]}`).wantError(t, http.StatusBadRequest, "twice")
		post(`not json`).wantError(t, http.StatusBadRequest, "not valid JSON")
		post(`{"commitSha":"`+ingSha+`","branch":"main"}`).wantError(t, http.StatusBadRequest, "would remove every file")
		post(`{"fullTree":false,"commitSha":"`+ingSha+`","branch":"main"} {}`).wantError(t, http.StatusBadRequest, "exactly one JSON object")
		w.do(t, http.MethodPost, ingWeb+"/analyses", w.Upload, hdr("Content-Type", "text/plain"), `{}`).wantError(t, http.StatusUnsupportedMediaType, "application/json")
		w.do(t, http.MethodPost, ingWeb+"/analyses", w.Upload, nil, `{}`).wantError(t, http.StatusUnsupportedMediaType, "application/json")
		// Nothing stored: the state is the partial analysis'.
		if got, want := comp(), "FILES=1 SIZE=XS LOC=80 CMPLX=10 DUP=0 ISS=0"; got != want {
			t.Errorf("component store after refused uploads: %s, want %s", got, want)
		}
	})
}

// ---- builds ----

// ingBuild is a build's JSON as the v1 API shows it.
func ingBuild(id, status string, extra map[string]any) map[string]any {
	b := map[string]any{
		"id": id, "type": "analysis", "status": status, "branchName": "main", "commitSha": ingSha,
		"commitMessage": "Fix it", "submittedAt": tsf(t0), "finishedAt": nil, "queueSeconds": 0,
		"statusReason": nil, "conclusion": nil, "exitCode": nil, "source": "github_actions", "pullRequestNumber": 12,
		"committerLogin": "ada", "startedAt": nil, "executionSeconds": nil,
	}
	for k, v := range extra {
		b[k] = v
	}
	return b
}

func TestIngestBuilds(t *testing.T) {
	w := newIngWorld(t)
	create := func(token, body string) *resp {
		t.Helper()
		return w.do(t, http.MethodPost, ingWeb+"/builds", token, jsonBody, body)
	}
	report := func(id, body string) *resp {
		t.Helper()
		return w.do(t, http.MethodPost, ingWeb+"/builds/"+id+"/status", w.Upload, jsonBody, body)
	}
	full := `{"type":"analysis","branchName":"main","commitSha":"` + ingSha + `","commitMessage":"Fix it","source":"github_actions",
		"pullRequestNumber":12,"committerLogin":"ada","status":"submitted"}`

	r := create(w.Upload, full).wantStatus(t, http.StatusCreated)
	var b struct{ ID string }
	mustUnmarshal(t, r.Body, &b)
	r.wantJSON(t, http.StatusCreated, mustJSON(ingBuild(b.ID, "submitted", nil)))
	loc := r.Header.Get("Location")
	if loc != w.URL+"/gh/acme/projects/web/builds/"+b.ID {
		t.Errorf("Location %q", loc)
	}
	// The Location is the v1 build.
	w.get(t, loc, w.Alice).wantJSON(t, http.StatusOK, mustJSON(ingBuild(b.ID, "submitted", nil)))

	// Queued for 30 s, running for 90 s, then succeeded.
	w.Clock.Advance(10 * time.Second)
	report(b.ID, `{"status":"submitted"}`).wantJSON(t, http.StatusOK, mustJSON(ingBuild(b.ID, "submitted", map[string]any{"queueSeconds": 10})))
	w.Clock.Advance(20 * time.Second)
	running := ingBuild(b.ID, "running", map[string]any{"queueSeconds": 30, "startedAt": tsf(t0.Add(30 * time.Second))})
	report(b.ID, `{"status":"running"}`).wantJSON(t, http.StatusOK, mustJSON(running))
	w.Clock.Advance(45 * time.Second)
	// Repeating the status changes nothing.
	report(b.ID, `{"status":"running"}`).wantJSON(t, http.StatusOK, mustJSON(running))
	w.Clock.Advance(45 * time.Second)
	done := ingBuild(b.ID, "succeeded", map[string]any{"queueSeconds": 30, "startedAt": tsf(t0.Add(30 * time.Second)),
		"finishedAt": tsf(t0.Add(120 * time.Second)), "conclusion": "succeeded", "exitCode": 0, "executionSeconds": 90})
	report(b.ID, `{"status":"succeeded","exitCode":0}`).wantJSON(t, http.StatusOK, mustJSON(done))
	w.Clock.Advance(time.Hour)
	report(b.ID, `{"status":"succeeded","exitCode":3}`).wantJSON(t, http.StatusOK, mustJSON(done))
	w.get(t, "/gh/acme/projects/web/builds/"+b.ID, w.Alice).wantJSON(t, http.StatusOK, mustJSON(done))
	// A final status is final.
	for _, st := range []string{"running", "failed", "submitted", "skipped"} {
		report(b.ID, `{"status":"`+st+`"}`).wantError(t, http.StatusConflict, "has ended (succeeded)")
	}

	t.Run("impossible moves name the possible ones", func(t *testing.T) {
		w.Clock.Set(t0)
		r := create(w.Carol, `{"type":"format","branchName":"feature/x","commitSha":"ABCDEF0"}`).wantStatus(t, http.StatusCreated)
		var nb map[string]any
		mustUnmarshal(t, r.Body, &nb)
		if nb["status"] != "submitted" || nb["commitSha"] != "ABCDEF0" || nb["source"] != "" || nb["pullRequestNumber"] != nil || nb["commitMessage"] != "" {
			t.Errorf("defaults of a new build: %v", nb)
		}
		id := nb["id"].(string)
		report(id, `{"status":"succeeded"}`).wantError(t, http.StatusConflict, "is submitted and cannot become succeeded; it can become starting, running, failed, skipped, rejected")
		report(id, `{"status":"starting"}`).wantStatus(t, http.StatusOK)
		report(id, `{"status":"submitted"}`).wantError(t, http.StatusConflict, "it can become running, failed, skipped, rejected")
		report(id, `{"status":"running"}`).wantStatus(t, http.StatusOK)
		report(id, `{"status":"skipped"}`).wantError(t, http.StatusConflict, "it can become succeeded, failed")
		w.Clock.Advance(5 * time.Second)
		r = report(strings.ToUpper(id), `{"status":"failed","exitCode":2,"statusReason":"tests failed"}`).wantStatus(t, http.StatusOK)
		mustUnmarshal(t, r.Body, &nb)
		if nb["conclusion"] != "failed" || nb["exitCode"] != 2.0 || nb["statusReason"] != "tests failed" || nb["executionSeconds"] != 5.0 || nb["queueSeconds"] != 0.0 {
			t.Errorf("failed build %v", nb)
		}
	})
	t.Run("skipped and rejected have no conclusion", func(t *testing.T) {
		w.Clock.Set(t0)
		for _, st := range []string{"skipped", "rejected"} {
			r := create(w.Upload, `{"type":"ssh","branchName":"main","commitSha":"abcdef0"}`).wantStatus(t, http.StatusCreated)
			var nb map[string]any
			mustUnmarshal(t, r.Body, &nb)
			w.Clock.Advance(7 * time.Second)
			r = report(nb["id"].(string), `{"status":"`+st+`","statusReason":"nothing to do"}`).wantStatus(t, http.StatusOK)
			mustUnmarshal(t, r.Body, &nb)
			if nb["conclusion"] != nil || nb["finishedAt"] == nil || nb["startedAt"] != nil || nb["queueSeconds"] != 7.0 || nb["executionSeconds"] != nil {
				t.Errorf("%s build %v", st, nb)
			}
		}
	})
	t.Run("created running", func(t *testing.T) {
		w.Clock.Set(t0)
		r := create(w.Upload, `{"type":"analysis","branchName":"main","commitSha":"abcdef0","status":"running"}`).wantStatus(t, http.StatusCreated)
		var nb map[string]any
		mustUnmarshal(t, r.Body, &nb)
		if nb["startedAt"] != tsf(t0) || nb["queueSeconds"] != 0.0 {
			t.Errorf("a build created running: %v", nb)
		}
	})
	t.Run("bad requests", func(t *testing.T) {
		create(w.Upload, `{}`).wantError(t, http.StatusBadRequest, "type is required", "branchName is required", "commitSha is required")
		create(w.Upload, `{"type":"lint","branchName":"main","commitSha":"abc"}`).wantError(t, http.StatusBadRequest, "type must be one of", "at least 7")
		create(w.Upload, `{"type":"analysis","branchName":"main","commitSha":"abcdef0","status":"succeeded"}`).wantError(t, http.StatusBadRequest, "submitted, starting or running")
		create(w.Upload, `{"type":"analysis","branchName":"main","commitSha":"abcdef0","pullRequestNumber":0}`).wantError(t, http.StatusBadRequest, "pullRequestNumber")
		create(w.Upload, `[]`).wantStatus(t, http.StatusBadRequest)
		w.do(t, http.MethodPost, ingWeb+"/builds", w.Upload, nil, full).wantError(t, http.StatusUnsupportedMediaType, "application/json")
		report(b.ID, `{"status":"done"}`).wantError(t, http.StatusBadRequest, `status must be one of`)
		report(b.ID, `{}`).wantError(t, http.StatusBadRequest, "status is required")
		report(b.ID, `{"status":"failed","exitCode":"x"}`).wantError(t, http.StatusBadRequest, "exitCode")
		report("01900000-0000-7000-8000-0000000000ff", `{"status":"running"}`).wantError(t, http.StatusNotFound, "was not found")
		report("nope", `{"status":"running"}`).wantStatus(t, http.StatusNotFound)
		report("ab", `{"status":"running"}`).wantError(t, http.StatusBadRequest, "buildId")
		// Another project's build is not found through this one.
		other := w.build(t, plumb.Build{ProjectID: w.API.ID, Type: "analysis", Status: "submitted", BranchName: "main", CommitSHA: "abcdef0", SubmittedAt: t0})
		report(other.ID, `{"status":"running"}`).wantStatus(t, http.StatusNotFound)
		w.do(t, http.MethodPost, "/ingest/gh/acme/projects/api/builds/"+other.ID+"/status", w.Carol, jsonBody, `{"status":"running"}`).
			wantStatus(t, http.StatusForbidden)
		w.do(t, http.MethodPost, "/ingest/gh/acme/projects/api/builds/"+other.ID+"/status", w.Dave, jsonBody, `{"status":"running"}`).
			wantStatus(t, http.StatusOK)
	})
}

// ---- rate limit ----

func TestIngestRateLimit(t *testing.T) {
	w := newIngWorld(t, withRateLimit(3))
	q := ingQuery("commitSha", ingSha)
	for i := 1; i <= 3; i++ {
		r := w.postCoverage(t, w.Upload, q, nil, ingLCOV).wantStatus(t, http.StatusCreated)
		if st := headerStatus(t, r); st.Used != i || st.Remaining != 3-i || st.Limit != 3 {
			t.Errorf("upload %d: rate limit %+v", i, st)
		}
	}
	r := w.postCoverage(t, w.Upload, q, nil, ingLCOV).wantError(t, http.StatusTooManyRequests, "rate limit")
	if st := headerStatus(t, r); st.Remaining != 0 {
		t.Errorf("429 with %+v", st)
	}
	// Every upload token of a project spends the project's one quota: a
	// new token of acme/web is refused as well.
	_, same := ingUploadToken(t, w.testServer, "acme/web", true)
	w.postCoverage(t, same, q, nil, ingLCOV).wantError(t, http.StatusTooManyRequests, "rate limit")
	// Another project's token has its own; refused requests count too (a
	// 404 for another project, a 400).
	_, other := ingUploadToken(t, w.testServer, "acme/api", true)
	w.do(t, http.MethodPost, ingWeb+"/coverage?"+q, other, nil, ingLCOV).wantStatus(t, http.StatusNotFound)
	r = w.do(t, http.MethodPost, "/ingest/gh/acme/projects/api/coverage", other, nil, ingLCOV).wantStatus(t, http.StatusBadRequest)
	if st := headerStatus(t, r); st.Used != 2 {
		t.Errorf("acme/api's upload token: used %d, want 2 (its project's own quota)", st.Used)
	}
	// A user's quota is shared between the v1 API and ingestion.
	w.do(t, http.MethodPost, ingWeb+"/builds", w.Carol, jsonBody, `{"type":"analysis","branchName":"main","commitSha":"abcdef0"}`).wantStatus(t, http.StatusCreated)
	r = w.get(t, "/workspaces", w.Carol).wantStatus(t, http.StatusOK)
	if st := headerStatus(t, r); st.Used != 2 {
		t.Errorf("carol: used %d after an upload and a v1 request, want 2", st.Used)
	}
	// The reset lets uploads through again.
	w.Clock.Advance(time.Hour + time.Second)
	w.postCoverage(t, w.Upload, q, nil, ingLCOV).wantStatus(t, http.StatusCreated)
}

// A report that holds no files is refused and stores nothing, whether its
// format was detected or given.
func TestIngestEmptyReportRefused(t *testing.T) {
	w := newIngWorld(t)
	w.postCoverage(t, w.Upload, ingQuery("commitSha", ingSha, "format", "lcov"), nil, "TN:\n").
		wantError(t, http.StatusBadRequest, "holds no files")
	w.postCoverage(t, w.Upload, ingQuery("commitSha", ingSha, "format", "cobertura"), nil,
		`<?xml version="1.0"?><coverage line-rate="0"><sources/><packages/></coverage>`).
		wantError(t, http.StatusBadRequest, "holds no files")
	w.get(t, "/gh/acme/projects/web/coverage/file?reference="+ingSha+"&path=src/a.c", w.Alice).wantStatus(t, http.StatusNotFound)
}
