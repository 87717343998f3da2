package api_test

// Issue 19, items 14 to 19: what a hostile or unlucky client still broke.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/plumbhq/plumb/internal/testclock"
	"github.com/plumbhq/plumb/internal/testtool"
	"github.com/redis/go-redis/v9"

	"github.com/plumbhq/plumb/api"
	"github.com/plumbhq/plumb/ratelimit"
	"github.com/plumbhq/plumb/sqlstore"
	"github.com/plumbhq/plumb/sqlstore/sqltest"
)

// storedRows counts the rows every upload kind writes, published or not,
// so a test can tell that a refused upload left nothing behind.
func storedRows(t *testing.T, ts *testServer) string {
	t.Helper()
	db := rawDB(t, ts)
	var out []string
	for _, table := range []string{"snapshots", "issues", "coverage_uploads", "coverage_files", "staged_coverage_files", "file_versions", "builds"} {
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM ` + table).Scan(&n); err != nil {
			t.Fatalf("count %s: %v", table, err)
		}
		out = append(out, fmt.Sprintf("%s=%d", table, n))
	}
	return strings.Join(out, " ")
}

// sarifFatal is a SARIF log whose one finding has a level SARIF does not
// define.
var sarifFatal = sarifWith(`"level":"fatal","message":{"text":"m"}`)

// Item 14: every upload is validated in full before anything depends on its
// branch, so the same bad report gets the same 400 on the default branch and
// on any other, and leaves nothing behind on either. (An analysis listing a
// path twice was refused on main and stored, without files, elsewhere.)
func TestUploadRefusedAlikeOnEveryBranch(t *testing.T) {
	w := newIngWorld(t)
	analysis := func(branch, members string) string {
		return `{"commitSha":"` + ingSha + `","branch":"` + branch + `",` + members + `}`
	}
	cases := []struct {
		kind, name string
		body       func(branch string) string
		want       string
	}{
		{"analysis", "path twice", func(b string) string {
			return analysis(b, `"files":[{"path":"a.go","lines":3},{"path":"b.go","lines":1},{"path":"./a.go","lines":2}]`)
		}, `files[2]: path "a.go" is listed twice`},
		{"analysis", "path twice, changes only", func(b string) string {
			return analysis(b, `"fullTree":false,"files":[{"path":"a.go","lines":3},{"path":"a.go","lines":3}]`)
		}, `files[1]: path "a.go" is listed twice`},
		{"analysis", "negative figure", func(b string) string {
			return analysis(b, `"files":[{"path":"a.go","lines":-1}]`)
		}, "must not be negative"},
		{"analysis", "loc above lines", func(b string) string {
			return analysis(b, `"files":[{"path":"a.go","lines":1,"loc":2}]`)
		}, "must not exceed lines"},
		{"analysis", "path outside", func(b string) string {
			return analysis(b, `"files":[{"path":"../a.go","lines":1}]`)
		}, "not a file path inside the repository"},
		{"analysis", "removed outside", func(b string) string {
			return analysis(b, `"fullTree":false,"files":[{"path":"a.go","lines":1}],"removed":["../b.go"]`)
		}, "removed[0]"},
		{"analysis", "no files for a full tree", func(b string) string { return analysis(b, `"files":[]`) }, "would remove every file"},
		{"analysis", "embedded finding of an unknown level", func(b string) string {
			return analysis(b, `"files":[{"path":"a.go","lines":1}],"sarif":[`+sarifFatal+`]`)
		}, `sarif[0]: SARIF report at runs[0].results[0].level`},
		{"sarif", "unknown level", func(string) string { return sarifFatal }, `expected one of error, warning, note, none, found "fatal"`},
		{"sarif", "malformed", func(string) string { return `{"version":"2.1.0","runs":[{"tool":{}}` }, "SARIF"},
		{"sarif", "NUL in a message", func(string) string { return sarifWith(`"message":{"text":"a\u0000b"}`) }, "NUL"},
		{"coverage", "line above the maximum", func(string) string { return "SF:a.c\nDA:1,1\nDA:4194305,1\nend_of_record\n" }, "4194304"},
		{"coverage", "DA before SF", func(string) string { return "DA:1,1\nend_of_record\n" }, "expected SF:<path> before DA"},
		{"coverage", "path outside", func(string) string { return "SF:../a.c\nDA:1,1\nend_of_record\n" }, "file in the repository"},
		{"coverage", "second file bad", func(string) string {
			return "SF:a.c\nDA:1,1\nend_of_record\nSF:b.c\nDA:1,-1\nend_of_record\n"
		}, "count of at least 0"},
		{"coverage", "empty", func(string) string { return "\n" }, "empty"},
		// Item 19: lenient accepts, now refused alike everywhere.
		{"coverage", "LCOV cut short", func(string) string { return "SF:a.c\nDA:1,1\nend_of_record\nSF:b.c\nDA:1,1\n" },
			`lcov report at line 5: expected end_of_record: the report ends inside the record of "b.c" (SF at line 4); was it cut short?`},
		{"coverage", "LCOV record not closed", func(string) string { return "SF:a.c\nDA:1,1\nSF:b.c\nDA:1,1\nend_of_record\n" },
			`lcov report at line 3: expected end_of_record before the next SF: the record of "a.c" (SF at line 1) is not closed`},
		{"coverage", "Istanbul count of an unknown statement", func(string) string {
			return `{"/ci/a.js": {"path": "/ci/a.js", "statementMap": {"0": {"start": {"line": 1}}}, "s": {"0": 1, "9": 4}}}`
		}, `istanbul report at line 1 ($["/ci/a.js"].s["9"]): expected a count for a statement of "statementMap", got one for statement "9"`},
		{"coverage", "noncharacter in a path", func(string) string { return "SF:src/a\uffff.c\nDA:1,1\nend_of_record\n" },
			`The report's file path "src/a\uffff.c" contains the Unicode noncharacter U+FFFF`},
		{"analysis", "noncharacter in a path", func(b string) string { return analysis(b, `"files":[{"path":"a\ufdd0.go","lines":1}]`) },
			"Field files[0].path contains the Unicode noncharacter U+FDD0"},
		{"sarif", "noncharacter in a rule", func(string) string {
			return `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"vet"}},"results":[{"ruleId":"R\ud83f\udffe","message":{"text":"m"},` +
				`"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.go"},"region":{"startLine":1}}}]}]}]}`
		}, "its ruleKey contains the Unicode noncharacter U+1FFFE"},
	}
	before := storedRows(t, w.testServer)
	for _, c := range cases {
		var answers []string
		for _, branch := range []string{"main", "feature/x"} {
			var r *resp
			switch c.kind {
			case "analysis":
				r = w.do(t, http.MethodPost, ingWeb+"/analyses", w.Upload, jsonBody, c.body(branch))
			case "sarif":
				r = w.do(t, http.MethodPost, ingWeb+"/sarif?"+ingQuery("commitSha", ingSha, "branch", branch), w.Upload, nil, c.body(branch))
			case "coverage":
				r = w.postCoverage(t, w.Upload, ingQuery("commitSha", ingSha, "branch", branch), nil, c.body(branch))
			}
			t.Run(c.kind+"/"+c.name+"/"+branch, func(t *testing.T) {
				r.wantError(t, http.StatusBadRequest, c.want)
			})
			answers = append(answers, string(r.Body))
		}
		if answers[0] != answers[1] {
			t.Errorf("%s %s: the default branch answers\n%s\nanother branch\n%s", c.kind, c.name, answers[0], answers[1])
		}
		if after := storedRows(t, w.testServer); after != before {
			t.Errorf("%s %s left rows behind: %s, before %s", c.kind, c.name, after, before)
		}
	}
}

// failureLimiters are the limiters the failure limit runs on: in process,
// on Redis (miniredis), and on a real Redis when PLUMB_TEST_REDIS_URL is set.
// Each makes a limiter of limit failures per hour on the given clock;
// shared tells whether two servers given the same one share its counts.
func failureLimiters(t *testing.T) []struct {
	name   string
	shared bool
	make   func(t *testing.T, limit int, now func() time.Time) ratelimit.Limiter
} {
	redisOn := func(client func(t *testing.T) *redis.Client) func(t *testing.T, limit int, now func() time.Time) ratelimit.Limiter {
		return func(t *testing.T, limit int, now func() time.Time) ratelimit.Limiter {
			c := client(t)
			prefix := fmt.Sprintf("plumbtest:authfail:%d:%d:", os.Getpid(), time.Now().UnixNano())
			t.Cleanup(func() {
				ctx := context.Background()
				iter := c.Scan(ctx, 0, prefix+"*", 100).Iterator()
				for iter.Next(ctx) {
					c.Del(ctx, iter.Val())
				}
			})
			return ratelimit.NewRedis(c, limit, ratelimit.RedisOptions{Prefix: prefix, Now: now})
		}
	}
	return []struct {
		name   string
		shared bool
		make   func(t *testing.T, limit int, now func() time.Time) ratelimit.Limiter
	}{
		{"memory", false, func(t *testing.T, limit int, now func() time.Time) ratelimit.Limiter {
			return ratelimit.NewMemory(limit, now)
		}},
		{"miniredis", true, redisOn(func(t *testing.T) *redis.Client {
			mr := miniredis.RunT(t)
			c := redis.NewClient(&redis.Options{Addr: mr.Addr()})
			t.Cleanup(func() { c.Close() })
			return c
		})},
		{"redis", true, redisOn(func(t *testing.T) *redis.Client {
			url := os.Getenv(sqltest.RedisEnv)
			if url == "" {
				testtool.Missing(t, "no real Redis: set %s (e.g. redis://127.0.0.1:6379/0) to run this against one", sqltest.RedisEnv)
			}
			opt, err := redis.ParseURL(url)
			if err != nil {
				t.Fatal(err)
			}
			c := redis.NewClient(opt)
			t.Cleanup(func() { c.Close() })
			return c
		})},
	}
}

// Item 15: the limit on failed token lookups throttles the failures, never
// a valid credential. After more than AuthFailureLimit requests with
// unknown tokens from one address (everyone, behind a proxy or NAT), that
// address's unknown tokens answer 429 (a repeated one without a lookup),
// while a valid API token and a valid upload token from it answer 200, on
// every limiter and, with Redis, on every replica.
func TestFailureLimitNeverRefusesValidTokens(t *testing.T) {
	for _, lim := range failureLimiters(t) {
		t.Run(lim.name, func(t *testing.T) {
			clock := testclock.New(t0)
			failures := lim.make(t, 100, clock.Now)
			w := newIngWorld(t, onDatabase(sqltest.DSN(t), clock), withConfig(api.Config{AuthFailures: failures}))
			gate := ingWeb + "/analyses?commitSha=" + ingSha
			for i := 0; i < 100; i++ {
				tok := fmt.Sprintf("plb_unknown%029d", i)
				if i%2 == 1 {
					tok = fmt.Sprintf("plbu_unknown%028d", i)
				}
				w.get(t, "/workspaces", tok).wantError(t, http.StatusUnauthorized, "not valid")
			}
			for i := 0; i < 5; i++ {
				r := w.get(t, "/workspaces", fmt.Sprintf("plb_fresh%031d", i)).wantError(t, http.StatusTooManyRequests, "unknown or revoked tokens")
				if r.Header.Get("x-ratelimit-resource") != "auth" || r.Header.Get("Retry-After") != "3600" {
					t.Errorf("429 of the failure limit: %v", r.Header)
				}
			}
			// Valid credentials from the same address go through.
			w.get(t, "/workspaces", w.Alice).wantStatus(t, http.StatusOK)
			w.get(t, gate, w.Upload).wantStatus(t, http.StatusOK)
			w.get(t, gate, w.Carol).wantStatus(t, http.StatusOK)
			w.postCoverage(t, w.Upload, ingQuery("commitSha", ingSha, "branch", "main"), nil, ingLCOV).wantStatus(t, http.StatusCreated)
			// A secret already known to be unknown costs no lookup: it
			// answers 429 even while the tokens cannot be read.
			db := rawDB(t, w.testServer)
			for _, stmt := range []string{`ALTER TABLE tokens RENAME TO tokens_away`, `ALTER TABLE upload_tokens RENAME TO upload_tokens_away`} {
				if _, err := db.Exec(stmt); err != nil {
					t.Fatal(err)
				}
			}
			w.get(t, "/workspaces", "plb_unknown00000000000000000000000000000").wantError(t, http.StatusTooManyRequests, "unknown or revoked tokens")
			w.get(t, gate, "plbu_unknown0000000000000000000000000001").wantError(t, http.StatusTooManyRequests, "unknown or revoked tokens")
			if r := w.get(t, "/workspaces", w.Alice); r.Status < 500 {
				t.Errorf("a lookup with the tokens unreadable answered %s", r)
			}
			for _, stmt := range []string{`ALTER TABLE tokens_away RENAME TO tokens`, `ALTER TABLE upload_tokens_away RENAME TO upload_tokens`} {
				if _, err := db.Exec(stmt); err != nil {
					t.Fatal(err)
				}
			}
			w.get(t, "/workspaces", w.Alice).wantStatus(t, http.StatusOK)
			if lim.shared {
				// Another replica sharing the counts throttles the same
				// address's failures and lets its valid tokens through.
				other := newTestServer(t, onDatabase(w.DSN, clock), withConfig(api.Config{AuthFailures: failures}))
				other.live[w.Alice], other.live[w.Upload] = true, true
				other.get(t, "/workspaces", "plb_other0000000000000000000000000000000").wantError(t, http.StatusTooManyRequests, "unknown or revoked tokens")
				other.get(t, "/workspaces", w.Alice).wantStatus(t, http.StatusOK)
				other.get(t, gate, w.Upload).wantStatus(t, http.StatusOK)
			}
			// The hour ends: failures are 401 again.
			clock.Advance(time.Hour + time.Second)
			w.get(t, "/workspaces", "plb_unknown00000000000000000000000000000").wantError(t, http.StatusUnauthorized, "not valid")
		})
	}
}

// stallBody sends a request head announcing a body of want bytes and only
// part of it, then waits for the answer on the raw connection.
func stallBody(t *testing.T, base, head string, part string, want int) (*http.Response, string, time.Duration) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	if _, err := fmt.Fprintf(conn, "%sContent-Length: %d\r\n\r\n%s", head, want, part); err != nil {
		t.Fatal(err)
	}
	conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a stalled body: %v", err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b), time.Since(start)
}

// Item 16: a client that stalls its request body gets 408 Request Timeout
// with the error body once the idle-read timeout passes, as a stalled head
// does: logged as the client's doing, never a 503 "under strain", and
// whatever the request timeout (which measures the server's own work).
func TestStalledBodyIs408(t *testing.T) {
	w := newIngWorld(t, withConfig(api.Config{UploadIdleTimeout: 400 * time.Millisecond, RequestTimeout: 200 * time.Millisecond}))
	auth := func(token string) string { return "Host: x\r\nAuthorization: Bearer " + token + "\r\n" }
	for _, c := range []struct {
		name, head, part string
	}{
		{"JSON body", "POST /gh/acme/applications HTTP/1.1\r\n" + auth(w.Alice) + "Content-Type: application/json\r\n", `{"name":"sto`},
		{"build", "POST " + ingWeb + "/builds HTTP/1.1\r\n" + auth(w.Upload) + "Content-Type: application/json\r\n", `{"type":"anal`},
		{"keyed build", "POST " + ingWeb + "/builds HTTP/1.1\r\n" + auth(w.Upload) + "Content-Type: application/json\r\nIdempotency-Key: k1\r\n", `{"type":`},
		{"coverage upload", "POST " + ingWeb + "/coverage?commitSha=" + ingSha + " HTTP/1.1\r\n" + auth(w.Upload), "SF:a.c\nDA:1,1\n"},
		{"analysis upload", "POST " + ingWeb + "/analyses HTTP/1.1\r\n" + auth(w.Upload) + "Content-Type: application/json\r\n", `{"commitSha":`},
	} {
		t.Run(c.name, func(t *testing.T) {
			logs := len(w.Logs.String())
			res, body, took := stallBody(t, w.URL, c.head, c.part, len(c.part)+100)
			if res.StatusCode != http.StatusRequestTimeout || !strings.Contains(body, `"status":"408"`) || !strings.Contains(body, "stalled") ||
				!strings.Contains(body, "400ms") {
				t.Errorf("stalled body: %d %s", res.StatusCode, body)
			}
			if res.Header.Get("Content-Type") != "application/json" || !res.Close {
				t.Errorf("408 headers %v (close %v), want the error body's and Connection: close", res.Header, res.Close)
			}
			if took > 10*time.Second {
				t.Errorf("the 408 came after %s with a 400ms idle timeout", took)
			}
			log := w.Logs.String()[logs:]
			if strings.Contains(log, "request timed out") || strings.Contains(log, "level=WARN") || strings.Contains(log, "level=ERROR") ||
				!strings.Contains(log, "client stalled its request body") {
				t.Errorf("log of a stalled body:\n%s", log)
			}
		})
	}
	// The stalls left nothing behind and the server serves on.
	w.get(t, "/gh/acme/applications", w.Alice).wantStatus(t, http.StatusOK)
}

// crashChildEnv names the variables of the server that TestUploadAfterKill
// starts in a child process (this test binary) and kills with SIGKILL.
const (
	crashChildEnv = "PLUMB_TEST_CRASH_CHILD_DSN"
)

// crashChild serves the API on the database at dsn, with a clock stopped at
// t0, and freezes every write right after the transaction that publishes
// it has committed, saying so on stdout: the moment a kill -9 leaves a
// stored upload without an answer.
func crashChild(dsn string) {
	clock := testclock.New(t0)
	db, err := sqlstore.Open(context.Background(), dsn, sqlstore.Options{Now: clock.Now, PublishHook: func(ctx context.Context, kind string) {
		fmt.Printf("published %s\n", kind)
		select {} // killed here
	}})
	if err != nil {
		fmt.Printf("error %v\n", err)
		os.Exit(1)
	}
	s := api.NewServer(db, ratelimit.NewMemory(5000, clock.Now), slog.New(slog.DiscardHandler), api.Config{})
	s.SetClock(clock.Now)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Printf("error %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("listening http://%s\n", ln.Addr())
	_ = http.Serve(ln, s)
	os.Exit(1)
}

// Item 17: an upload whose server is killed (SIGKILL) between the commit
// that publishes it and its response is not run again by a retry with the
// same Idempotency-Key after the key's lease: the answer was recorded in the
// publishing transaction, and the retry replays it. For each kind of keyed
// upload, on both backends.
func TestUploadAfterKillReplays(t *testing.T) {
	if dsn := os.Getenv(crashChildEnv); dsn != "" {
		crashChild(dsn)
		return
	}
	cases := []struct {
		kind, path string
		headers    map[string]string
		body       string
		stored     string // the rows one upload stores
	}{
		{"coverage", ingWeb + "/coverage?" + ingQuery("commitSha", ingSha, "branch", "main"), nil, ingLCOV, "coverage_uploads=1"},
		{"analysis", ingWeb + "/analyses", jsonBody,
			`{"commitSha":"` + ingSha + `","branch":"main","files":[{"path":"a.go","lines":3}],"sarif":[` + sarifWith(`"message":{"text":"m"}`) + `]}`, "snapshots=1 issues=1"},
		{"sarif", ingWeb + "/sarif?" + ingQuery("commitSha", ingSha, "branch", "feature"), nil, sarifWith(`"message":{"text":"m"}`), "snapshots=1 issues=1"},
		{"build", ingWeb + "/builds", jsonBody, `{"type":"analysis","branchName":"main","commitSha":"` + ingSha + `"}`, "builds=1"},
	}
	for _, c := range cases {
		t.Run(c.kind, func(t *testing.T) {
			w := newIngWorld(t)
			key := hdr("Idempotency-Key", "run-42-"+c.kind)
			for k, v := range c.headers {
				key[k] = v
			}
			child := exec.Command(os.Args[0], "-test.run=^TestUploadAfterKillReplays$", "-test.count=1")
			child.Env = append(os.Environ(), crashChildEnv+"="+w.DSN)
			out, err := child.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			child.Stderr = os.Stderr
			if err := child.Start(); err != nil {
				t.Fatal(err)
			}
			killed := false
			t.Cleanup(func() {
				if !killed {
					child.Process.Kill()
					child.Wait()
				}
			})
			lines := bufio.NewScanner(out)
			next := func(prefix string) string {
				t.Helper()
				for lines.Scan() {
					if l := lines.Text(); strings.HasPrefix(l, prefix) {
						return strings.TrimPrefix(l, prefix)
					} else if strings.HasPrefix(l, "error ") {
						t.Fatalf("child: %s", l)
					}
				}
				t.Fatalf("the child ended before %q: %v", prefix, lines.Err())
				return ""
			}
			base := next("listening ")
			// The first attempt: the child stores the upload and is killed
			// before it answers.
			go func() {
				req, _ := http.NewRequest(http.MethodPost, base+c.path, strings.NewReader(c.body))
				req.Header.Set("Authorization", "Bearer "+w.Upload)
				for k, v := range key {
					req.Header.Set(k, v)
				}
				if res, err := http.DefaultClient.Do(req); err == nil {
					res.Body.Close()
				}
			}()
			if got := next("published "); got != map[string]string{"sarif": "snapshot", "analysis": "snapshot"}[c.kind] && got != c.kind {
				t.Fatalf("published %q", got)
			}
			if err := child.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			child.Wait()
			killed = true
			// The retry comes after the key's lease has run out.
			w.Clock.Advance(sqlstore.IdempotencyLease + time.Second)
			r := w.do(t, http.MethodPost, c.path, w.Upload, key, c.body).wantStatus(t, http.StatusCreated)
			if r.Header.Get("Idempotent-Replayed") != "true" {
				t.Errorf("the retry after the kill ran the upload again: %s", r)
			}
			if c.kind == "build" && !strings.Contains(r.Header.Get("Location"), "/builds/") {
				t.Errorf("replayed build without its Location: %v", r.Header)
			}
			if rows := storedRows(t, w.testServer); !strings.Contains(rows, c.stored) {
				t.Errorf("after the kill and the retry: %s, want %s", rows, c.stored)
			}
			if c.kind == "coverage" {
				if got := w.fileCoverage(t, ingSha, "src/a.c")["default"]; fmt.Sprint(got) != "[1 0 -1 3]" {
					t.Errorf("hits %v, want one upload's [1 0 -1 3]", got)
				}
			}
			again := w.do(t, http.MethodPost, c.path, w.Upload, key, c.body).wantStatus(t, http.StatusCreated)
			if string(again.Body) != string(r.Body) || again.Header.Get("Idempotent-Replayed") != "true" {
				t.Errorf("a second retry: %s, want the first's %s", again, r)
			}
		})
	}
}

// Item 19: a Unicode noncharacter (U+FFFF and the others) is refused in what
// names something (paths, branches, tags, tools, rule keys, keys) and kept in
// free text (a finding's message).
func TestNoncharactersRefusedInNames(t *testing.T) {
	w := newIngWorld(t)
	q := ingQuery("commitSha", ingSha, "branch", "main")
	r := w.do(t, http.MethodPost, ingWeb+"/sarif?"+q, w.Upload, nil, sarifWith(`"message":{"text":"a \uffff in a message"}`)).wantStatus(t, http.StatusCreated)
	if !strings.Contains(string(r.Body), `"issues":1`) {
		t.Errorf("a finding whose message holds U+FFFF: %s", r)
	}
	for _, c := range []struct {
		name    string
		query   string
		headers map[string]string
		want    string
	}{
		{"branch", ingQuery("commitSha", ingSha, "branch", "feat\ufdef"), nil, "Query parameter branch contains the Unicode noncharacter U+FDEF"},
		{"tag", ingQuery("commitSha", ingSha, "tag", "v1\ufffe"), nil, "Query parameter tag contains the Unicode noncharacter U+FFFE"},
		{"coverage tag", ingQuery("commitSha", ingSha, "coverageTag", "unit\U0010ffff"), nil, "Query parameter coverageTag contains the Unicode noncharacter U+10FFFF"},
		{"Idempotency-Key", q, hdr("Idempotency-Key", "run\uffff"), "The Idempotency-Key header contains the Unicode noncharacter U+FFFF"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w.postCoverage(t, w.Upload, c.query, c.headers, ingLCOV).wantError(t, http.StatusBadRequest, c.want)
		})
	}
	w.do(t, http.MethodPost, ingWeb+"/builds", w.Upload, jsonBody, `{"type":"analysis","branchName":"main\uffff","commitSha":"`+ingSha+`"}`).
		wantError(t, http.StatusBadRequest, "Field branchName contains the Unicode noncharacter U+FFFF")
	w.do(t, http.MethodPost, ingWeb+"/analyses", w.Upload, jsonBody, `{"commitSha":"`+ingSha+`","branch":"x\ufdd0","files":[{"path":"a.go","lines":1}]}`).
		wantError(t, http.StatusBadRequest, "Field branch contains the Unicode noncharacter U+FDD0")
	// U+FFFD (the replacement character), U+FDCF and U+FDF0 are characters.
	w.postCoverage(t, w.Upload, ingQuery("commitSha", ingSha, "branch", "f\ufffd\ufdcf\ufdf0"), nil, "SF:src/\ufffd.c\nDA:1,1\nend_of_record\n").
		wantStatus(t, http.StatusCreated)
}
