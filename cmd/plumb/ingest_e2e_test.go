package main

// End to end: `plumb serve`, the administration commands and the CI client
// (`plumb upload …`, `plumb build …`), all through run, against one
// database. Every real-tool coverage fixture of ingest/coverage/testdata is
// uploaded as a CI job would, and the covered and missed lines the server then
// reports must equal the tool's own summary recorded in the fixture's README.
// Runs on SQLite, and on PostgreSQL too when PLUMB_TEST_POSTGRES_URL is set.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb/ingest/coverage"
	"github.com/plumbhq/plumb/internal/testtool"
	"github.com/plumbhq/plumb/openapi"
	"github.com/plumbhq/plumb/openapi/openapitest"
	"github.com/plumbhq/plumb/sqlstore/sqltest"
)

const covFixtures = "../../ingest/coverage/testdata/"

// e2eFixture is one real tool's coverage report and the tool's own line
// summary of the same run, as its README records it.
type e2eFixture struct {
	file  string   // below ingest/coverage/testdata
	flags []string // the path-mapping flags the README's tests use
	opt   coverage.Options
	// covered and missed lines by the tool's own summary (README).
	covered, missed int64
	// toolSummary reads the same numbers from the tool's output stored next
	// to the report; nil when the tool has no line summary (Go's is per
	// statement: the README gives the lines by hand from the blocks).
	toolSummary func(t *testing.T) (covered, missed int64)
	// repeats: the report names some files in several records (SimpleCov's
	// per-command results), which the server merges.
	repeats bool
}

var e2eFixtures = []e2eFixture{
	{file: "lcov/coverage.info", flags: []string{"--strip-prefix", "/tmp/plumb-lcov-fixture"}, opt: coverage.Options{StripPrefix: "/tmp/plumb-lcov-fixture"},
		covered: 21, missed: 7, toolSummary: ofTotal("lcov/lcov-summary.txt", `lines\.+: [0-9.]+% \((\d+) of (\d+) lines\)`)},
	{file: "cobertura/gcovr.xml",
		covered: 21, missed: 7, toolSummary: ofTotal("cobertura/gcovr-summary.txt", `lines: [0-9.]+% \((\d+) out of (\d+)\)`)},
	{file: "cobertura/py/coveragepy.xml",
		covered: 14, missed: 2, toolSummary: coveragePyReport},
	{file: "go/count.out", flags: []string{"--module-path", "example.com/plumbfixture"}, opt: coverage.Options{ModulePath: "example.com/plumbfixture"},
		covered: 26, missed: 13},
	{file: "go/coverpkg.out", flags: []string{"--module-path", "example.com/plumbfixture"}, opt: coverage.Options{ModulePath: "example.com/plumbfixture"},
		covered: 26, missed: 13},
	{file: "go/metric.out", flags: []string{"--module-path", "github.com/plumbhq/plumb"}, opt: coverage.Options{ModulePath: "github.com/plumbhq/plumb"},
		covered: 507, missed: 8},
	{file: "jacoco/jacoco.xml", flags: []string{"--add-prefix", "src"}, opt: coverage.Options{AddPrefix: "src"},
		covered: 42, missed: 17, toolSummary: jacocoCounter},
	{file: "clover/nyc/clover.xml", flags: []string{"--strip-prefix", "/tmp/plumb-fixture/js"}, opt: coverage.Options{StripPrefix: "/tmp/plumb-fixture/js"},
		covered: 32, missed: 7, toolSummary: ofTotal("clover/nyc/text-summary.txt", istanbulLines)},
	{file: "clover/c8/clover.xml", flags: []string{"--strip-prefix", "/tmp/plumb-fixture/js"}, opt: coverage.Options{StripPrefix: "/tmp/plumb-fixture/js"},
		covered: 71, missed: 15, toolSummary: ofTotal("clover/c8/text-summary.txt", istanbulLines)},
	{file: "clover/phpunit/clover.xml", flags: []string{"--strip-prefix", "/tmp/plumb-fixture/php"}, opt: coverage.Options{StripPrefix: "/tmp/plumb-fixture/php"},
		covered: 19, missed: 10, toolSummary: ofTotal("clover/phpunit/coverage.txt", `Lines:\s+[0-9.]+% \((\d+)/(\d+)\)`)},
	{file: "istanbul/nyc/coverage-final.json", flags: []string{"--strip-prefix", "/tmp/plumb-fixture/js"}, opt: coverage.Options{StripPrefix: "/tmp/plumb-fixture/js"},
		covered: 32, missed: 7, toolSummary: ofTotal("istanbul/nyc/text-summary.txt", istanbulLines)},
	{file: "istanbul/c8/coverage-final.json", flags: []string{"--strip-prefix", "/tmp/plumb-fixture/js"}, opt: coverage.Options{StripPrefix: "/tmp/plumb-fixture/js"},
		covered: 71, missed: 15, toolSummary: ofTotal("istanbul/c8/text-summary.txt", istanbulLines)},
	{file: "simplecov/.resultset.json", flags: []string{"--strip-prefix", "/tmp/plumb-fixture/ruby"}, opt: coverage.Options{StripPrefix: "/tmp/plumb-fixture/ruby"},
		covered: 40, missed: 6, toolSummary: simpleCovSummary, repeats: true},
}

const istanbulLines = `Lines\s*:\s*[0-9.]+% \(\s*(\d+)/(\d+)\s*\)`

func readFixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(covFixtures + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// ofTotal reads "covered of total" from a tool's summary.
func ofTotal(name, pattern string) func(t *testing.T) (int64, int64) {
	return func(t *testing.T) (int64, int64) {
		t.Helper()
		m := regexp.MustCompile(pattern).FindStringSubmatch(readFixture(t, name))
		if m == nil {
			t.Fatalf("%s: no %s", name, pattern)
		}
		covered, _ := strconv.ParseInt(m[1], 10, 64)
		total, _ := strconv.ParseInt(m[2], 10, 64)
		return covered, total - covered
	}
}

// coveragePyReport reads coverage.py's report: TOTAL statements, missed.
func coveragePyReport(t *testing.T) (int64, int64) {
	m := regexp.MustCompile(`TOTAL\s+(\d+)\s+(\d+)`).FindStringSubmatch(readFixture(t, "cobertura/py/coveragepy-report.txt"))
	if m == nil {
		t.Fatal("coveragepy-report.txt has no TOTAL")
	}
	stmts, _ := strconv.ParseInt(m[1], 10, 64)
	miss, _ := strconv.ParseInt(m[2], 10, 64)
	return stmts - miss, miss
}

// jacocoCounter reads the report's own LINE counter (the last one, the
// report's; the others are per package, class and file).
func jacocoCounter(t *testing.T) (int64, int64) {
	all := regexp.MustCompile(`<counter type="LINE" missed="(\d+)" covered="(\d+)"/>`).FindAllStringSubmatch(readFixture(t, "jacoco/jacoco.xml"), -1)
	if len(all) == 0 {
		t.Fatal("jacoco.xml has no LINE counter")
	}
	m := all[len(all)-1]
	missed, _ := strconv.ParseInt(m[1], 10, 64)
	covered, _ := strconv.ParseInt(m[2], 10, 64)
	return covered, missed
}

func simpleCovSummary(t *testing.T) (int64, int64) {
	var s struct {
		Covered int64 `json:"covered_lines"`
		Missed  int64 `json:"missed_lines"`
	}
	if err := json.Unmarshal([]byte(readFixture(t, "simplecov/summary.json")), &s); err != nil {
		t.Fatal(err)
	}
	return s.Covered, s.Missed
}

// reportPaths lists the repository paths a report names, as the server maps
// them with the same options.
func reportPaths(t *testing.T, f e2eFixture) []string {
	t.Helper()
	data := readFixture(t, f.file)
	format, err := coverage.Detect([]byte(data[:min(len(data), coverage.DetectBytes)]))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	err = coverage.Parse(strings.NewReader(data), format, f.opt, func(cf coverage.File) error {
		seen[cf.Path] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// e2e is a running server with a project acme/web, its admin's token and an
// upload token.
type e2e struct {
	dbURL, url string
	admin      string // ada's user token: member of acme, admin of acme/web
	member     string // cy's user token: a plain member of acme
	upload     string // an upload token of acme/web
	uploadID   string
	client     *http.Client // checks every response against the OpenAPI document
	stop       func()
}

// plumb runs the command line and returns its output and exit status.
func (e *e2e) plumb(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, envOf(map[string]string{}), strings.NewReader(""), &out, &errb)
	if err != nil {
		code = exitCode(err)
		fmt.Fprintf(&errb, "plumb: %v\n", err)
	}
	return out.String(), errb.String(), code
}

// must runs a command that must succeed.
func (e *e2e) must(t *testing.T, args ...string) string {
	t.Helper()
	out, errs, code := e.plumb(t, args...)
	if code != 0 {
		t.Fatalf("plumb %s: exit %d: %s%s", strings.Join(args, " "), code, out, errs)
	}
	return out
}

// adminCmd runs an administration command on the database.
func (e *e2e) adminCmd(t *testing.T, args ...string) string {
	t.Helper()
	return e.must(t, append(args, "--database", e.dbURL)...)
}

// ci runs an upload or build command against the server as the project's
// CI with a token.
func (e *e2e) ci(t *testing.T, token string, args ...string) (string, string, int) {
	t.Helper()
	return e.plumb(t, append(args, "--url", e.url, "--token", token, "--project", "acme/web", "--retries", "0", "--timeout", "1m")...)
}

// lastLine is the secret a create command prints on its last line.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// onBothBackends runs test against a fresh end-to-end server on SQLite and
// on PostgreSQL (skipped without PLUMB_TEST_POSTGRES_URL).
func onBothBackends(t *testing.T, test func(t *testing.T, e *e2e)) {
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			dbURL := "sqlite:" + filepath.Join(t.TempDir(), "plumb.db")
			if backend == "postgres" {
				dbURL = sqltest.PostgresDSN(t)
			}
			test(t, startE2E(t, dbURL))
		})
	}
}

func startE2E(t *testing.T, dbURL string) *e2e {
	t.Helper()
	testHooks(t) // no git detection, no progress bar, no real sleeps
	e := &e2e{dbURL: dbURL}
	e.adminCmd(t, "user", "create", "ada", "--name", "Ada")
	e.adminCmd(t, "user", "create", "cy")
	e.admin = lastLine(e.adminCmd(t, "token", "create", "ada", "--name", "ci"))
	e.member = lastLine(e.adminCmd(t, "token", "create", "cy", "--name", "laptop"))
	e.adminCmd(t, "workspace", "create", "acme")
	e.adminCmd(t, "member", "add", "acme", "ada")
	e.adminCmd(t, "member", "add", "acme", "cy")
	e.adminCmd(t, "project", "create", "acme/web", "--default-branch", "main")
	e.adminCmd(t, "project", "admin", "acme/web", "ada")
	out := e.adminCmd(t, "project", "upload-token", "create", "acme/web", "--name", "ci")
	e.upload = lastLine(out)
	if m := regexp.MustCompile(`created upload token ci \(([0-9a-f-]+)\)`).FindStringSubmatch(out); m != nil {
		e.uploadID = m[1]
	}
	if !strings.HasPrefix(e.upload, "plbu_") || e.uploadID == "" {
		t.Fatalf("upload-token create printed %q", out)
	}

	ctx, cancel := context.WithCancel(context.Background())
	addrFile := filepath.Join(t.TempDir(), "addr")
	done := make(chan error, 1)
	go func() { done <- runServe(ctx, dbURL, addrFile) }()
	e.url = "http://" + waitForFile(t, addrFile)
	stopped := false
	e.stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Error("serve did not stop")
		}
	}
	t.Cleanup(e.stop)
	e.client = &http.Client{Transport: openapitest.New(t, openapi.Document()).Wrap(t, nil)}
	return e
}

// get reads a v1 resource as ada.
// fileMetrics reads a file's metrics in acme/web, by key.
func (e *e2e) fileMetrics(t *testing.T, path string) map[string]any {
	t.Helper()
	var body struct {
		Data []struct {
			Key   string `json:"key"`
			Value any    `json:"value"`
		} `json:"data"`
	}
	if st := e.get(t, "/gh/acme/projects/web/files?path="+path, &body); st != http.StatusOK {
		t.Fatalf("file metrics of %s: %d", path, st)
	}
	got := map[string]any{}
	for _, v := range body.Data {
		got[v.Key] = v.Value
	}
	return got
}

func (e *e2e) get(t *testing.T, path string, out any) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.url+path, nil)
	req.Header.Set("Authorization", "Bearer "+e.admin)
	res, err := e.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode == http.StatusOK && out != nil {
		if err := json.NewDecoder(res.Body).Decode(out); err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
	}
	return res.StatusCode
}

// storedLines sums the covered and missed lines the server reports for the
// paths at a commit (one coverage tag).
func (e *e2e) storedLines(t *testing.T, sha string, paths []string) (covered, missed int64) {
	t.Helper()
	for _, p := range paths {
		var body struct {
			Tags  []string `json:"tags"`
			Files []struct {
				Tag          string `json:"tag"`
				CoveredLines int64  `json:"coveredLines"`
				MissedLines  int64  `json:"missedLines"`
			} `json:"files"`
		}
		if st := e.get(t, "/gh/acme/projects/web/coverage/file?reference="+sha+"&path="+url.QueryEscape(p), &body); st != http.StatusOK {
			t.Fatalf("coverage of %s at %s: status %d", p, sha, st)
		}
		if len(body.Files) != 1 || body.Files[0].Tag != "ci" {
			t.Fatalf("coverage of %s at %s: %+v", p, sha, body)
		}
		covered += body.Files[0].CoveredLines
		missed += body.Files[0].MissedLines
	}
	return covered, missed
}

var uploadLine = regexp.MustCompile(`^uploaded (\S+): (\d+) files, (\d+) covered / (\d+) missed lines(?: \([0-9.]+%\))?, format (\w+), commit ([0-9a-f]+) on main\n$`)

func TestIngestEndToEnd(t *testing.T) {
	onBothBackends(t, func(t *testing.T, e *e2e) {
		t.Run("coverage of every real tool", func(t *testing.T) { e2eCoverage(t, e) })
		t.Run("sarif", func(t *testing.T) { e2eSARIF(t, e) })
		t.Run("analysis", func(t *testing.T) { e2eAnalysis(t, e) })
		t.Run("plumb analyze", func(t *testing.T) { e2eAnalyze(t, e) })
		t.Run("builds", func(t *testing.T) { e2eBuilds(t, e) })
		t.Run("upload tokens by a project admin", func(t *testing.T) { e2eUploadTokens(t, e) })
		t.Run("refusals and exit statuses", func(t *testing.T) { e2eRefusals(t, e) })
	})
}

func e2eCoverage(t *testing.T, e *e2e) {
	// Every fixture of the testdata directory is in the table.
	var onDisk []string
	for _, pattern := range []string{"*/*.info", "*/*.out", "*/*.xml", "*/*/*.xml", "*/*/coverage-final.json", "*/.resultset.json"} {
		m, _ := filepath.Glob(covFixtures + pattern)
		for _, f := range m {
			rel := strings.TrimPrefix(f, covFixtures)
			if rel != "jacoco/build.xml" && !strings.HasSuffix(rel, "/phpunit.xml") {
				onDisk = append(onDisk, rel)
			}
		}
	}
	var inTable []string
	for _, f := range e2eFixtures {
		inTable = append(inTable, f.file)
	}
	sort.Strings(onDisk)
	sort.Strings(inTable)
	if !slices.Equal(onDisk, inTable) {
		t.Errorf("real-tool fixtures on disk %q, in the table %q", onDisk, inTable)
	}

	for i, f := range e2eFixtures {
		t.Run(f.file, func(t *testing.T) {
			if f.toolSummary != nil {
				if c, m := f.toolSummary(t); c != f.covered || m != f.missed {
					t.Fatalf("the tool's own summary says %d covered, %d missed; the README %d, %d", c, m, f.covered, f.missed)
				}
			}
			sha := fmt.Sprintf("%040x", 0xe2e000+i)
			args := append([]string{"upload", "coverage", covFixtures + f.file, "--commit", sha, "--branch", "main", "--coverage-tag", "ci"}, f.flags...)
			out, errs, code := e.ci(t, e.upload, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s%s", code, out, errs)
			}
			m := uploadLine.FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("upload printed %q", out)
			}
			paths := reportPaths(t, f)
			format := strings.Split(f.file, "/")[0] // the directory is named after the format
			if m[2] != strconv.Itoa(len(paths)) || m[5] != format || m[6] != sha[:12] {
				t.Errorf("upload printed %q; want %d files, format %s, commit %s", out, len(paths), format, sha[:12])
			}
			// What the server stores, and reports back, file by file.
			if c, mi := e.storedLines(t, sha, paths); c != f.covered || mi != f.missed {
				t.Errorf("the server reports %d covered, %d missed lines; the tool's summary %d, %d", c, mi, f.covered, f.missed)
			}
			// The upload's answer counts the report's lines too.
			t.Run("upload answer", func(t *testing.T) {
				if m[3] != strconv.FormatInt(f.covered, 10) || m[4] != strconv.FormatInt(f.missed, 10) {
					t.Errorf("upload printed %s covered, %s missed; the tool's summary %d, %d", m[3], m[4], f.covered, f.missed)
				}
			})
		})
	}
}

func e2eSARIF(t *testing.T, e *e2e) {
	const sha = "5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a"
	issues := func() map[string]int {
		t.Helper()
		var body struct {
			Data []struct {
				Tool string `json:"tool"`
			} `json:"data"`
		}
		if st := e.get(t, "/gh/acme/projects/web/issues?page[limit]=100", &body); st != http.StatusOK {
			t.Fatalf("issues: status %d", st)
		}
		n := map[string]int{}
		for _, is := range body.Data {
			n[is.Tool]++
		}
		return n
	}
	out, errs, code := e.ci(t, e.upload, "upload", "sarif", "../../ingest/sarif/testdata/staticcheck.sarif", "--commit", sha, "--branch", "main")
	if code != 0 || !strings.Contains(out, "6 issues, commit 5a5a5a5a5a5a on main") {
		t.Fatalf("upload sarif: exit %d: %s%s", code, out, errs)
	}
	if got := issues(); len(got) != 1 || got["staticcheck"] != 6 {
		t.Errorf("issues after staticcheck: %v", got)
	}
	// Another tool for the same commit, with the admin's user token: both.
	out, errs, code = e.ci(t, e.admin, "upload", "sarif", "../../ingest/sarif/testdata/golangci-lint.sarif", "--commit", sha, "--branch", "main")
	if code != 0 || !strings.Contains(out, "11 issues") {
		t.Fatalf("upload sarif: exit %d: %s%s", code, out, errs)
	}
	if got := issues(); len(got) != 2 || got["staticcheck"] != 6 || got["golangci-lint"] != 11 {
		t.Errorf("issues after golangci-lint: %v", got)
	}
}

func e2eAnalysis(t *testing.T, e *e2e) {
	dir := t.TempDir()
	stats := filepath.Join(dir, "stats.json")
	if err := os.WriteFile(stats, []byte(`{"files":[{"path":"store/store.go","lines":90,"loc":70,"complexity":12,"duplicatedLines":9},
		{"path":"store/format.go","lines":8,"loc":6,"complexity":0,"duplicatedLines":0}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errs, code := e.ci(t, e.upload, "upload", "analysis", "--stats", stats, "--sarif", "../../ingest/sarif/testdata/staticcheck.sarif",
		"--commit", "6b6b6b6b6b", "--branch", "main")
	if code != 0 || !strings.Contains(out, "uploaded analysis: 2 files, 0 removed, 1 SARIF file(s), 6 issues") {
		t.Fatalf("upload analysis: exit %d: %s%s", code, out, errs)
	}
	got := e.fileMetrics(t, "store/store.go")
	if got["SIZE"] != "XS" || got["LOC"] != 70.0 || got["CMPLX"] != 12.0 || got["DUP"] != 10.0 || got["ISS"] != 5.0 {
		t.Errorf("file metrics of store/store.go: %v", got)
	}
}

func e2eBuilds(t *testing.T, e *e2e) {
	const sha = "7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c"
	out, errs, code := e.ci(t, e.upload, "build", "start", "--type", "analysis", "--commit", sha, "--branch", "main", "--message", "e2e", "--source", "ci")
	id := strings.TrimSpace(out)
	if code != 0 || !regexp.MustCompile(`^[0-9a-f-]{36}$`).MatchString(id) {
		t.Fatalf("build start: exit %d: %q %s", code, out, errs)
	}
	if out, errs, code := e.ci(t, e.upload, "build", "status", id, "--status", "running"); code != 0 || out != "build "+id+" is running\n" {
		t.Fatalf("build status: exit %d: %q %s", code, out, errs)
	}
	if out, errs, code := e.ci(t, e.upload, "build", "finish", id, "--exit-code", "0"); code != 0 || out != "build "+id+" is succeeded\n" {
		t.Fatalf("build finish: exit %d: %q %s", code, out, errs)
	}
	var b map[string]any
	if st := e.get(t, "/gh/acme/projects/web/builds/"+id, &b); st != http.StatusOK {
		t.Fatalf("get build: %d", st)
	}
	if b["status"] != "succeeded" || b["conclusion"] != "succeeded" || b["exitCode"] != 0.0 || b["commitSha"] != sha || b["branchName"] != "main" ||
		b["commitMessage"] != "e2e" || b["source"] != "ci" || b["startedAt"] == nil || b["finishedAt"] == nil || b["executionSeconds"] == nil {
		t.Errorf("build after finish: %v", b)
	}
	// build finish succeeds from every unfinished status the CLI can leave
	// a build in: running (build start's default), submitted and starting.
	for _, initial := range []string{"", "submitted", "starting", "running"} {
		args := []string{"build", "start", "--type", "analysis", "--commit", sha, "--branch", "main"}
		if initial != "" {
			args = append(args, "--status", initial)
		}
		out, errs, code := e.ci(t, e.upload, args...)
		bid := strings.TrimSpace(out)
		if code != 0 {
			t.Fatalf("build start %q: exit %d: %s", initial, code, errs)
		}
		var started map[string]any
		e.get(t, "/gh/acme/projects/web/builds/"+bid, &started)
		if want := firstOf(initial, "running"); started["status"] != want {
			t.Errorf("build start --status %q: status %v, want %s", initial, started["status"], want)
		}
		for i := 0; i < 2; i++ { // the second finish is a retry: a no-op
			if out, errs, code := e.ci(t, e.upload, "build", "finish", bid, "--exit-code", "0"); code != 0 || out != "build "+bid+" is succeeded\n" {
				t.Errorf("build finish from %q (try %d): exit %d: %q %s", initial, i+1, code, out, errs)
			}
		}
		var fin map[string]any
		e.get(t, "/gh/acme/projects/web/builds/"+bid, &fin)
		if fin["status"] != "succeeded" || fin["conclusion"] != "succeeded" || fin["startedAt"] == nil {
			t.Errorf("after finish from %q: %v", initial, fin)
		}
	}
	// A finished build is final: the server refuses (exit status 1) and says why.
	out, errs, code = e.ci(t, e.upload, "build", "finish", id, "--status", "failed")
	if code != exitRefused || !strings.Contains(errs, "409") || !strings.Contains(errs, "has ended") {
		t.Errorf("finishing a finished build: exit %d: %s%s", code, out, errs)
	}
	if out, errs, code := e.ci(t, e.upload, "build", "status", "01900000-0000-7000-8000-0000000000ff", "--status", "running"); code != exitRefused || !strings.Contains(errs, "404") {
		t.Errorf("an unknown build: exit %d: %s%s", code, out, errs)
	}
}

func e2eRefusals(t *testing.T, e *e2e) {
	report := covFixtures + "lcov/coverage.info"
	// A member who does not administer the project: 403, exit status 1.
	out, errs, code := e.ci(t, e.member, "upload", "coverage", report, "--commit", "8d8d8d8d8d", "--branch", "main")
	if code != exitRefused || !strings.Contains(errs, "403") {
		t.Errorf("non-admin upload: exit %d: %s%s", code, out, errs)
	}
	// A malformed report: 400 naming the line, exit status 1.
	bad := filepath.Join(t.TempDir(), "bad.info")
	if err := os.WriteFile(bad, []byte("SF:src/a.c\nDA:1,1\nDA:two,1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errs, code = e.ci(t, e.upload, "upload", "coverage", bad, "--commit", "8d8d8d8d8d", "--branch", "main")
	if code != exitRefused || !strings.Contains(errs, "400") || !strings.Contains(errs, "lcov report at line 3") {
		t.Errorf("malformed report: exit %d: %s%s", code, out, errs)
	}
	if st := e.get(t, "/gh/acme/projects/web/coverage/file?reference=8d8d8d8d8d&path=src/a.c", nil); st != http.StatusNotFound {
		t.Errorf("a refused upload stored coverage: %d", st)
	}
	// A revoked upload token: 401, exit status 1.
	e.adminCmd(t, "project", "upload-token", "revoke", e.uploadID)
	out, errs, code = e.ci(t, e.upload, "upload", "coverage", report, "--commit", "8d8d8d8d8d", "--branch", "main")
	if code != exitRefused || !strings.Contains(errs, "401") || !strings.Contains(errs, "revoked") {
		t.Errorf("revoked token: exit %d: %s%s", code, out, errs)
	}
	if list := e.adminCmd(t, "project", "upload-token", "list", "acme/web"); !strings.Contains(list, e.uploadID) || !strings.Contains(list, "CREATED BY") {
		t.Errorf("upload-token list: %s", list)
	}
	// No server: exit status 3.
	e.stop()
	out, errs, code = e.ci(t, e.admin, "upload", "coverage", report, "--commit", "8d8d8d8d8d", "--branch", "main")
	if code != exitGaveUp {
		t.Errorf("no server: exit %d: %s%s", code, out, errs)
	}
}

// e2eUploadTokens: a project admin creates, lists and revokes upload tokens
// with "plumb upload-token" through the API; the new token uploads, the
// revoked one is refused at once; a member who is not a project admin and an
// upload token are refused (exit status 1).
func e2eUploadTokens(t *testing.T, e *e2e) {
	secret, errs, code := e.ci(t, e.admin, "upload-token", "create", "--name", "gha")
	secret = strings.TrimSpace(secret)
	m := regexp.MustCompile(`created upload token gha \(([0-9a-f-]{36})\) for acme/web`).FindStringSubmatch(errs)
	if code != 0 || !strings.HasPrefix(secret, "plbu_") || strings.Contains(secret, "\n") || m == nil {
		t.Fatalf("upload-token create: exit %d, stdout %q, stderr %q", code, secret, errs)
	}
	id := m[1]
	report := filepath.Join(t.TempDir(), "lcov.info")
	if err := os.WriteFile(report, []byte("SF:src/t.c\nDA:1,1\nend_of_record\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, errs, code := e.ci(t, secret, "upload", "coverage", report, "--commit", "7e7e7e7e7e", "--branch", "main"); code != 0 {
		t.Fatalf("upload with the new token: exit %d: %s%s", code, out, errs)
	}
	list, errs, code := e.ci(t, e.admin, "upload-token", "list")
	var row string
	for _, line := range strings.Split(list, "\n") {
		if strings.HasPrefix(line, id) {
			row = line
		}
	}
	// id, name, created by, created, last used (just now), revoked (-).
	if f := strings.Fields(row); code != 0 || !strings.HasPrefix(list, "ID ") || len(f) != 6 || f[1] != "gha" || f[2] != "ada" || f[4] == "-" || f[5] != "-" {
		t.Fatalf("upload-token list: exit %d: %q%s", code, list, errs)
	}
	if strings.Contains(list, secret) {
		t.Error("the listing shows the secret")
	}
	for _, tok := range []string{e.member, secret} {
		if out, errs, code := e.ci(t, tok, "upload-token", "revoke", id); code != exitRefused || !strings.Contains(errs, "403") {
			t.Errorf("revoke refused: exit %d: %s%s", code, out, errs)
		}
	}
	if out, errs, code := e.ci(t, e.admin, "upload-token", "revoke", id); code != 0 || strings.TrimSpace(out) != "revoked upload token "+id {
		t.Fatalf("upload-token revoke: exit %d: %s%s", code, out, errs)
	}
	if out, errs, code := e.ci(t, secret, "upload", "coverage", report, "--commit", "7e7e7e7e7e", "--branch", "main"); code != exitRefused || !strings.Contains(errs, "revoked") {
		t.Errorf("upload with the revoked token: exit %d: %s%s", code, out, errs)
	}
	list, _, _ = e.ci(t, e.admin, "upload-token", "list")
	for _, line := range strings.Split(list, "\n") {
		if f := strings.Fields(line); strings.HasPrefix(line, id) && (len(f) != 6 || f[5] == "-") {
			t.Errorf("revoked token listed as %q", line)
		}
	}
	// Usage errors: exit status 2, nothing sent.
	for _, args := range [][]string{{"upload-token", "create"}, {"upload-token", "revoke"}, {"upload-token", "list", "extra"}, {"upload-token", "rotate"}} {
		if out, errs, code := e.ci(t, e.admin, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2: %s%s", args, code, out, errs)
		}
	}
	if out, errs, code := e.ci(t, e.admin, "upload-token", "revoke", "00000000-0000-7000-8000-000000000000"); code != exitRefused || !strings.Contains(errs, "404") {
		t.Errorf("revoke an unknown id: exit %d: %s%s", code, out, errs)
	}
}

// e2eAnalyze runs plumb analyze on a small tree and reads its figures back.
func e2eAnalyze(t *testing.T, e *e2e) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("package calc\n\n// Sum adds.\nfunc Sum(xs []int, a, b, c, d, e, f, g int) (n int) {\n")
	for range 5 {
		b.WriteString("\tfor _, x := range xs {\n\t\tif x > 0 && x < 10 || x == 20 {\n\t\t\tn += x\n\t\t}\n\t}\n")
	}
	b.WriteString("\treturn n\n}\n")
	files := map[string]string{
		"calc/sum.go":   b.String(),
		"calc/copy.go":  strings.Replace(b.String(), "func Sum(", "func Copy(", 1),
		"vendor/x/x.go": "package x\n",
		".gitignore":    "build/\n",
		"build/out.go":  "package build\n",
	}
	testtool.WriteFiles(t, dir, files)
	out, errs, code := e.ci(t, e.upload, "analyze", dir, "--commit", "7c7c7c7c7c", "--branch", "main", "--sarif", "../../ingest/sarif/testdata/staticcheck.sarif")
	if code != 0 || !strings.Contains(out, "uploaded analysis: 2 files,") {
		t.Fatalf("plumb analyze: exit %d: %s%s", code, out, errs)
	}
	got := e.fileMetrics(t, "calc/sum.go")
	// 5 × (for 1 + if 2 + && 1 + || 1) = 25; 31 lines, 29 of code; issues:
	// complexity, parameters, and the duplicated block (on the later copy)
	if got["LOC"] != 29.0 || got["CMPLX"] != 25.0 {
		t.Errorf("file metrics of calc/sum.go: %v", got)
	}
	out, errs, code = e.ci(t, e.upload, "analyze", dir, "--out", "-", "--commit", "7c7c7c7c7c", "--branch", "main")
	var doc struct {
		CommitSHA string            `json:"commitSha"`
		Files     []map[string]any  `json:"files"`
		SARIF     []json.RawMessage `json:"sarif"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || doc.CommitSHA != "7c7c7c7c7c" || len(doc.Files) != 2 || len(doc.SARIF) != 1 {
		t.Fatalf("plumb analyze --out -: exit %d: %s%s", code, out, errs)
	}
	out, _, code = e.ci(t, e.upload, "analyze", dir, "--format", "table")
	if code != 0 || !strings.Contains(out, "Go") || !strings.Contains(out, "cognitive-complexity 2") {
		t.Fatalf("plumb analyze --format table: exit %d: %s", code, out)
	}
}
