package api_test

// Regression tests of issue #14 ("Hardening what is shipped"), through HTTP,
// on every backend (TestMain runs the suite on SQLite and PostgreSQL).

import (
	"bufio"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api"
	"github.com/plumbhq/plumb/ratelimit"
	"github.com/plumbhq/plumb/sqlstore"
)

// Item 1: text with a NUL character or invalid UTF-8 is refused at the edge
// with a 400 naming where it was, never a 500 (PostgreSQL cannot store it)
// and never stored (SQLite could).
func TestTextRule(t *testing.T) {
	w := newIngWorld(t)
	w.setComponents(t, "acme/web", true)
	w.projectAdmin(t, "acme/web", "alice")
	w.do(t, "POST", "/gh/acme/projects/web/components", w.Carol, jsonBody, `{"name":"x","pathGlobs":["src/*"]}`).wantStatus(t, http.StatusCreated)
	gets := []struct{ path, names string }{
		{"/gh/acme%00/applications", "ownerKeyOrId"},
		{"/gh/acme%ff/projects/web/issues", "ownerKeyOrId"},
		{"/gh/acme/projects/web%00/builds", "projectKeyOrId"},
		{"/gh/acme/projects/web/builds/%00%00%00", "buildId"},
		{"/gh/acme/applications/a%c3", "applicationIdOrName"},
		{"/gh/acme/projects/web/components/x%00/metrics", "componentIdOrName"},
		{"/gh/acme/projects/web/files?path=%ff%fe", "path"},
		{"/gh/acme/projects/web/coverage/file?reference=refs/heads/main%00&path=a.go", "reference"},
		{"/gh/acme/projects/web/coverage/file?reference=refs/heads/main&path=a%00.go", "path"},
		{"/gh/acme/applications?name=%00", "name"},
		{"/gh/acme/projects/web/issues?tool=go%ffvet", "tool"},
		{"/gh/acme/projects/web/builds?status=%00", "status"},
		{"/gh/acme/projects/web/components/x/metrics/series?metric=LOC%00", "metric"},
	}
	for _, g := range gets {
		t.Run("GET "+g.path, func(t *testing.T) {
			w.get(t, g.path, w.Alice).wantError(t, http.StatusBadRequest, g.names)
		})
	}
	bodies := []struct{ method, path, body, names string }{
		{"POST", "/gh/acme/applications", `{"name":"App","description":"a\u0000b"}`, "description"},
		{"POST", "/gh/acme/applications", "{\"name\":\"App\",\"description\":\"a\xffb\"}", "description"},
		{"POST", "/gh/acme/projects/web/components", `{"name":"c","pathGlobs":["src/*","x\u0000"]}`, "pathGlobs[1]"},
		{"POST", ingWeb + "/builds", `{"type":"analysis","branchName":"main","commitSha":"` + ingSha + `","commitMessage":"fix\u0000"}`, "commitMessage"},
		{"POST", ingWeb + "/upload-tokens", `{"name":"ci\u0000"}`, "name"},
	}
	for _, b := range bodies {
		t.Run(b.method+" "+b.path+" "+b.names, func(t *testing.T) {
			w.do(t, b.method, b.path, w.Carol, jsonBody, b.body).wantError(t, http.StatusBadRequest, "Field "+b.names)
		})
	}
	t.Run("nothing was stored", func(t *testing.T) {
		r := w.get(t, "/gh/acme/applications", w.Alice).wantStatus(t, http.StatusOK)
		if n := len(dataOf(t, r)); n != 0 {
			t.Errorf("%d applications stored", n)
		}
	})
	t.Run("coverage report paths", func(t *testing.T) {
		w.postCoverage(t, w.Upload, ingQuery("commitSha", ingSha), nil, "SF:src/a\x00.c\nDA:1,1\nend_of_record\n").
			wantError(t, http.StatusBadRequest, "file path \"src/a\\x00.c\" contains a NUL")
		w.postCoverage(t, w.Upload, ingQuery("commitSha", ingSha), nil, "SF:src/a\xff.c\nDA:1,1\nend_of_record\n").
			wantError(t, http.StatusBadRequest, "is not valid UTF-8")
	})
	t.Run("upload query parameters", func(t *testing.T) {
		w.postCoverage(t, w.Upload, "commitSha="+ingSha+"&branch=ma%00in", nil, ingLCOV).wantError(t, http.StatusBadRequest, "branch")
	})
	t.Run("analysis strings", func(t *testing.T) {
		for _, c := range []struct{ body, names string }{
			{`{"commitSha":"` + ingSha + `","branch":"ma\u0000in","files":[{"path":"a.go"}]}`, "branch"},
			{`{"commitSha":"` + ingSha + `","branch":"main","files":[{"path":"a\u0000.go"}]}`, "files[0].path"},
			{"{\"commitSha\":\"" + ingSha + "\",\"branch\":\"main\",\"files\":[{\"path\":\"a\xff.go\"}]}", "UTF-8"},
			{`{"commitSha":"` + ingSha + `","branch":"main","files":[{"path":"a.go"}],"sarif":[` + sarifWith(`"message":{"text":"bad\u0000"}`) + `]}`, "message"},
		} {
			w.do(t, "POST", ingWeb+"/analyses", w.Upload, jsonBody, c.body).wantError(t, http.StatusBadRequest, c.names)
		}
	})
	t.Run("SARIF strings", func(t *testing.T) {
		post := func(body string) *resp {
			return w.do(t, "POST", ingWeb+"/sarif?"+ingQuery("commitSha", ingSha, "branch", "main"), w.Upload, nil, body)
		}
		post(sarifWith(`"message":{"text":"bad\u0000"}`)).wantError(t, http.StatusBadRequest, "its message contains a NUL")
		post(sarifWith("\"message\":{\"text\":\"bad\xfe\"}")).wantError(t, http.StatusBadRequest, "UTF-8")
	})
	t.Run("Idempotency-Key", func(t *testing.T) {
		w.postCoverage(t, w.Upload, ingQuery("commitSha", ingSha), hdr("Idempotency-Key", "k\xff"), ingLCOV).
			wantError(t, http.StatusBadRequest, "Idempotency-Key")
	})
}

// sarifWith is a one-result SARIF log whose result carries the given members
// besides its rule and location.
func sarifWith(members string) string {
	return `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"vet"}},"results":[{"ruleId":"R1",` + members +
		`,"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.go"},"region":{"startLine":1}}}]}]}]}`
}

// Item 6: a reference with an empty branch, tag or pull-request name is a 400.
func TestEmptyReferenceNames(t *testing.T) {
	w := newIngWorld(t)
	w.postCoverage(t, w.Upload, ingQuery("commitSha", ingSha, "branch", "main"), nil, ingLCOV).wantStatus(t, http.StatusCreated)
	for _, ref := range []string{"refs/heads/", "refs/tags/", "refs/pull/"} {
		w.get(t, "/gh/acme/projects/web/coverage/file?reference="+ref+"&path=src/a.c", w.Alice).
			wantError(t, http.StatusBadRequest, "reference \""+ref+"\" names no")
	}
	w.get(t, "/gh/acme/projects/web/coverage/file?reference=refs/heads/main&path=src/a.c", w.Alice).wantStatus(t, http.StatusOK)
}

// Item 7: analysis paths follow the rule of coverage paths: normalised, and
// refused when they leave the repository.
func TestAnalysisPathRule(t *testing.T) {
	w := newIngWorld(t)
	post := func(files string) *resp {
		return w.do(t, "POST", ingWeb+"/analyses", w.Upload, jsonBody, `{"commitSha":"`+ingSha+`","branch":"main","files":[`+files+`]}`)
	}
	for _, p := range []string{"../../etc/passwd", "a/../../b.go", "..", ""} {
		post(`{"path":"`+p+`","lines":1}`).wantError(t, http.StatusBadRequest, "files[0].path is \""+p+"\", which is not a file path inside the repository")
	}
	w.do(t, "POST", ingWeb+"/analyses", w.Upload, jsonBody, `{"commitSha":"`+ingSha+`","branch":"main","fullTree":false,"files":[],"removed":["../x.go"]}`).
		wantError(t, http.StatusBadRequest, "removed[0]")
	post(`{"path":"./src/../src/a.go","lines":3,"loc":2}`).wantStatus(t, http.StatusCreated)
	w.get(t, "/gh/acme/projects/web/files?path=src/a.go", w.Alice).wantStatus(t, http.StatusOK)
}

// Item 14: the analysis upload's Content-Type is parsed as a media type.
func TestAnalysisContentType(t *testing.T) {
	w := newIngWorld(t)
	body := `{"commitSha":"` + ingSha + `","branch":"main","files":[{"path":"a.go","lines":1}]}`
	for _, ct := range []string{"application/jsonx", "application/json-seq", "text/json", "application/json; charset"} {
		w.do(t, "POST", ingWeb+"/analyses", w.Upload, hdr("Content-Type", ct), body).wantStatus(t, http.StatusUnsupportedMediaType)
	}
	for _, ct := range []string{"application/json", "Application/JSON; charset=utf-8", "application/vnd.api+json"} {
		w.do(t, "POST", ingWeb+"/analyses", w.Upload, hdr("Content-Type", ct), body).wantStatus(t, http.StatusCreated)
	}
}

// rawDB opens the test server's database directly, to break it on purpose.
func rawDB(t *testing.T, ts *testServer) *sql.DB {
	t.Helper()
	dsn := ts.DSN
	driver := "pgx"
	if strings.HasPrefix(dsn, "sqlite:") {
		driver, dsn = "sqlite", "file:"+strings.TrimPrefix(dsn, "sqlite:")+"?_pragma=busy_timeout(10000)"
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// Item 9: a failing database is never a 404 on the ingestion path (the CLI
// takes 404 as final); it is a 5xx the client retries.
func TestIngestDatabaseErrorIsNot404(t *testing.T) {
	w := newIngWorld(t)
	db := rawDB(t, w.testServer)
	if _, err := db.Exec(`ALTER TABLE workspaces RENAME TO workspaces_gone`); err != nil {
		t.Fatal(err)
	}
	r := w.do(t, "POST", ingWeb+"/builds", w.Upload, jsonBody, `{"type":"analysis","branchName":"main","commitSha":"`+ingSha+`"}`)
	if r.Status < 500 {
		t.Errorf("build creation with a broken database answered %s, want a 5xx", r)
	}
}

// Item 12: the Host header is never reflected into Link or Location unless
// the operator trusts it.
func TestHostNotReflected(t *testing.T) {
	w := newIngWorld(t)
	for _, k := range []string{"aaa", "bbb"} {
		w.workspace(t, plumb.WorkspaceInput{Key: k})
		w.member(t, k, "alice", "member")
	}
	r := withHost(t, w.testServer, "GET", "/workspaces?page[limit]=1", w.Alice, "").wantStatus(t, http.StatusOK)
	if l := r.Header.Get("Link"); strings.Contains(l, "evil") || !strings.Contains(l, "<"+w.URL+"/workspaces?") {
		t.Errorf("Link %q, want the server's own address %s", l, w.URL)
	}
	r = withHost(t, w.testServer, "POST", ingWeb+"/builds", w.Upload, `{"type":"analysis","branchName":"main","commitSha":"`+ingSha+`"}`).
		wantStatus(t, http.StatusCreated)
	if l := r.Header.Get("Location"); strings.Contains(l, "evil") || !strings.HasPrefix(l, w.URL+"/gh/acme/projects/web/builds/") {
		t.Errorf("Location %q", l)
	}
	trusting := newTestServer(t, withConfig(api.Config{TrustHost: true}))
	trusting.user(t, "ann")
	tok := trusting.token(t, "ann")
	for _, k := range []string{"aaa", "bbb"} {
		trusting.workspace(t, plumb.WorkspaceInput{Key: k})
		trusting.member(t, k, "ann", "member")
	}
	r = withHost(t, trusting, "GET", "/workspaces?page[limit]=1", tok, "").wantStatus(t, http.StatusOK)
	if l := r.Header.Get("Link"); !strings.HasPrefix(l, "<https://evil.example/workspaces?") {
		t.Errorf("with TrustHost, Link %q, want the request's host", l)
	}
}

// withHost sends a request with "Host: evil.example" and
// "X-Forwarded-Proto: https".
func withHost(t *testing.T, ts *testServer, method, path, token, body string) *resp {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Host = "evil.example"
	req.Header.Set("Authorization", "Bearer "+token)
	return ts.send(t, req, path, "", map[string]string{"X-Forwarded-Proto": "https", "Content-Type": "application/json"})
}

// Item 10: ingestion requests other than a report's transfer answer within
// the request timeout when the store hangs.
func TestIngestRequestTimeout(t *testing.T) {
	build := `{"type":"analysis","branchName":"main","commitSha":"` + ingSha + `"}`
	t.Run("stuck dependency", func(t *testing.T) {
		w := newIngWorld(t, withLimiter(stuckLimiter{ratelimit.NewMemory(10, nil)}), withConfig(api.Config{RequestTimeout: 300 * time.Millisecond}))
		start := time.Now()
		w.do(t, "POST", ingWeb+"/builds", w.Upload, jsonBody, build).wantError(t, http.StatusServiceUnavailable, "took longer than 300ms")
		w.do(t, "GET", ingWeb+"/upload-tokens", w.Carol, nil, "").wantError(t, http.StatusServiceUnavailable, "took longer than 300ms")
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("two ingestion requests took %s with a 300ms request timeout", d)
		}
	})
	t.Run("locked table", func(t *testing.T) {
		w := newIngWorld(t, withConfig(api.Config{RequestTimeout: 300 * time.Millisecond}))
		if strings.HasPrefix(w.DSN, "sqlite:") {
			t.Skip("SQLite's busy wait on another process's lock does not heed cancellation; the stuck-dependency case covers SQLite")
		}
		// Hold a lock on the builds table, as a database that stopped
		// answering would.
		db := rawDB(t, w.testServer)
		ctx := context.Background()
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		if _, err := tx.ExecContext(ctx, `LOCK TABLE builds IN ACCESS EXCLUSIVE MODE`); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		w.do(t, "POST", ingWeb+"/builds", w.Upload, jsonBody, build).wantError(t, http.StatusServiceUnavailable, "took longer than 300ms")
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("build creation took %s with a 300ms request timeout", d)
		}
	})
}

// Item 4: a stalled upload holds no lock: a write in another project answers
// at once, and the stalled upload ends with a 408 after the idle timeout.
func TestStalledUploadBlocksNoWrite(t *testing.T) {
	w := newIngWorld(t, withConfig(api.Config{UploadIdleTimeout: 2 * time.Second}))
	w.setComponents(t, "globex/vault", true)
	conn, err := net.Dial("tcp", strings.TrimPrefix(w.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// A 100 MB coverage upload that stops after 115 KB.
	head := "POST " + ingWeb + "/coverage?commitSha=" + ingSha + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + w.Upload +
		"\r\nContent-Length: 100000000\r\n\r\n"
	part := strings.Repeat("SF:src/a.c\nDA:1,1\nend_of_record\n", 115<<10/32)
	if _, err := io.WriteString(conn, head+part); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // the upload is under way
	start := time.Now()
	w.do(t, "POST", "/gh/globex/projects/vault/components", w.Bob, jsonBody, `{"name":"core","pathGlobs":["src/*"]}`).
		wantStatus(t, http.StatusCreated)
	if d := time.Since(start); d > time.Second {
		t.Errorf("a component creation in another project took %s during a stalled upload", d)
	}
	w.do(t, "POST", ingWeb+"/builds", w.Upload, jsonBody, `{"type":"analysis","branchName":"main","commitSha":"`+ingSha+`"}`).
		wantStatus(t, http.StatusCreated)
	if d := time.Since(start); d > time.Second {
		t.Errorf("a build creation in the same project took %s during a stalled upload", d)
	}
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("the stalled upload got no answer: %v", err)
	}
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(b), `"status":"408"`) || !strings.Contains(string(b), "stalled") {
		t.Errorf("stalled upload: %d %s", res.StatusCode, b)
	}
}

// Item 8: a request with both Transfer-Encoding and Content-Length is
// answered and its connection closed, so a request hidden in its body is
// never served.
func TestTransferEncodingWithContentLengthClosesConnection(t *testing.T) {
	w := newWorld(t)
	srv := httptest.NewUnstartedServer(w.testServer.API)
	srv.Listener = api.WrapListener(srv.Listener)
	srv.Config = api.NewHTTPServer(w.testServer.API, nil)
	srv.Start()
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	hidden := "GET /workspaces HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + w.Alice + "\r\n\r\n"
	body := "0\r\n\r\n" + hidden
	req := fmt.Sprintf("POST /gh/acme/applications HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\n"+
		"Content-Length: %d\r\nTransfer-Encoding: chunked\r\n\r\n%s", w.Alice, len(body), body)
	if _, err := io.WriteString(conn, req); err != nil {
		t.Fatal(err)
	}
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	br := bufio.NewReader(conn)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	if !res.Close {
		t.Errorf("the response does not close the connection (Connection: %q)", res.Header.Get("Connection"))
	}
	if res2, err := http.ReadResponse(br, nil); err == nil {
		t.Errorf("the request hidden in the body was served: %d", res2.StatusCode)
	}
	// An ordinary request keeps its connection.
	conn2, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn2.Close()
	io.WriteString(conn2, hidden)
	conn2.SetReadDeadline(time.Now().Add(5 * time.Second))
	res, err = http.ReadResponse(bufio.NewReader(conn2), nil)
	if err != nil || res.StatusCode != http.StatusOK || res.Close {
		t.Errorf("ordinary request: %v %v", res, err)
	}
}

// Item 5: an Idempotency-Key left "in progress" by a server that is gone
// (killed mid-upload) is taken over by a retry once its lease runs out,
// while a key whose server still renews it stays refused.
func TestIdempotencyKeyOfDeadServer(t *testing.T) {
	w := newIngWorld(t)
	path, query := ingWeb+"/coverage", ingQuery("commitSha", ingSha, "branch", "main")
	sum := sha256.Sum256([]byte("POST " + path + "?" + query))
	// Another server on the same database takes the key, then dies.
	other, err := sqlstore.Open(context.Background(), w.DSN, sqlstore.Options{Now: w.Clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, done, err := other.IdempotencyStart(context.Background(), w.Web.ID, "ci-run-7", hex.EncodeToString(sum[:])); err != nil || done {
		t.Fatalf("IdempotencyStart: %v %v", done, err)
	}
	other.Close()
	key := hdr("Idempotency-Key", "ci-run-7")
	// Within its lease the upload might still run: refused.
	w.Clock.Advance(plumb.IdempotencyLease / 2)
	w.do(t, "POST", path+"?"+query, w.Upload, key, ingLCOV).wantError(t, http.StatusConflict, "still in progress")
	// Its lease ran out: the retry runs as new, and later retries replay it.
	w.Clock.Advance(plumb.IdempotencyLease)
	first := w.do(t, "POST", path+"?"+query, w.Upload, key, ingLCOV).wantStatus(t, http.StatusCreated)
	if first.Header.Get("Idempotent-Replayed") != "" {
		t.Errorf("the take-over was a replay: %s", first)
	}
	again := w.do(t, "POST", path+"?"+query, w.Upload, key, ingLCOV).wantStatus(t, http.StatusCreated)
	if again.Header.Get("Idempotent-Replayed") != "true" || string(again.Body) != string(first.Body) {
		t.Errorf("the retry after the take-over: %s", again)
	}
	if got := w.fileCoverage(t, ingSha, "src/a.c")["default"]; fmt.Sprint(got) != "[1 0 -1 3]" {
		t.Errorf("hits %v, want one upload's", got)
	}
}

// Item 13: failed token lookups are limited per client address, and a
// project's upload tokens share one quota (TestIngestRateLimit).
func TestFailedAuthenticationsLimited(t *testing.T) {
	w := newIngWorld(t, withConfig(api.Config{AuthFailureLimit: 3}))
	for i := 0; i < 3; i++ {
		w.get(t, "/workspaces", "plb_unknown").wantError(t, http.StatusUnauthorized, "not valid")
	}
	w.do(t, "POST", ingWeb+"/builds", "plbu_unknown", jsonBody, `{}`).wantError(t, http.StatusTooManyRequests, "unknown or revoked tokens")
	r := w.get(t, "/workspaces", "plb_unknown").wantError(t, http.StatusTooManyRequests, "unknown or revoked tokens")
	if ra := r.Header.Get("Retry-After"); ra != "3600" {
		t.Errorf("Retry-After %q, want 3600", ra)
	}
	// Requests without a token cost no lookup and are not limited.
	w.get(t, "/workspaces", "").wantError(t, http.StatusUnauthorized, "needs an API token")
	// The hour ends: lookups again.
	w.Clock.Advance(time.Hour + time.Second)
	w.get(t, "/workspaces", w.Alice).wantStatus(t, http.StatusOK)
}

// Item 3: stored hits cost what a report gives, not its largest line number;
// line numbers above the documented maximum (4,194,304) answer 400; reading
// a file of millions of lines answers the whole array.
func TestCoverageStorageFollowsReportedLines(t *testing.T) {
	w := newIngWorld(t)
	var report strings.Builder
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&report, "SF:src/f%d.c\nDA:4000000,1\nend_of_record\n", i)
	}
	w.postCoverage(t, w.Upload, ingQuery("commitSha", ingSha, "branch", "main"), hdr("Content-Encoding", "gzip"), gzipped(t, report.String())).
		wantStatus(t, http.StatusCreated)
	var stored int64
	if err := rawDB(t, w.testServer).QueryRow(`SELECT sum(length(hits)) FROM coverage_files`).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if stored > 50*64 {
		t.Errorf("50 files of one reported line each take %d bytes of hits, want at most %d", stored, 50*64)
	}
	r := w.get(t, "/gh/acme/projects/web/coverage/file?reference="+ingSha+"&path=src/f7.c", w.Alice).wantStatus(t, http.StatusOK)
	var body struct {
		Tags  []string         `json:"tags"`
		Files []map[string]any `json:"files"`
	}
	mustUnmarshal(t, r.Body, &body)
	f := body.Files[0]
	hits, _ := f["hits"].([]any)
	if len(hits) != 4000000 || hits[3999999] != 1.0 || hits[0] != -1.0 || hits[3999998] != -1.0 || fmt.Sprint(body.Tags) != "[default]" {
		t.Errorf("hits: %d lines, tags %v", len(hits), body.Tags)
	}
	if f["coveredLines"] != 1.0 || f["missedLines"] != 0.0 || f["omitLines"] != 3999999.0 || f["totalLines"] != 4000000.0 || f["tag"] != "default" || f["path"] != "src/f7.c" {
		t.Errorf("counts %v %v %v %v", f["coveredLines"], f["missedLines"], f["omitLines"], f["totalLines"])
	}
	w.postCoverage(t, w.Upload, ingQuery("commitSha", ingSha), nil, "SF:a.c\nDA:4194305,1\nend_of_record\n").
		wantError(t, http.StatusBadRequest, "4194304")
}
