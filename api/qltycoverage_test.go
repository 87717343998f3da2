package api_test

// The qlty CLI's coverage uploads (docs/migrate-from-qlty.md), driven by a
// replay of the CLI: qltyCLI sends what "qlty coverage publish" and "qlty
// coverage complete" send (github.com/qltysh/qlty: qlty-coverage's publish,
// export, token and ci modules, qlty-cloud's client), field for field, and
// the results are read back through the v1 coverage endpoint and compared,
// line for line, with the same report uploaded through the ingestion API
// (what plumb upload coverage sends).

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api"
	"github.com/plumbhq/plumb/sqlstore"
)

// ---- the replay of the qlty CLI ----

// qltyCLI is one CI job running the qlty CLI: QLTY_API_URL, the token as
// QLTY_COVERAGE_TOKEN, --project, and the CI's environment (GitHub Actions).
type qltyCLI struct {
	ts      *testServer
	token   string
	project string
	env     map[string]string
}

// githubEnv is a GitHub Actions push to main of acme/web.
func githubEnv(sha string) map[string]string {
	return map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_REF_TYPE": "branch", "GITHUB_REF_NAME": "main", "GITHUB_REF": "refs/heads/main",
		"GITHUB_SHA": sha, "GITHUB_EVENT_NAME": "push", "GITHUB_REPOSITORY": "acme/web", "GITHUB_RUN_ID": "9001", "GITHUB_RUN_ATTEMPT": "2",
		"GITHUB_SERVER_URL": "https://github.com", "GITHUB_WORKFLOW": "ci", "GITHUB_JOB": "test",
	}
}

// githubPullEnv is a GitHub Actions pull_request run: GITHUB_REF_NAME is
// "<n>/merge", GITHUB_HEAD_REF the pull request's branch.
func githubPullEnv(sha string, pr int, head string) map[string]string {
	env := githubEnv(sha)
	env["GITHUB_REF_NAME"] = strconv.Itoa(pr) + "/merge"
	env["GITHUB_REF"] = "refs/pull/" + strconv.Itoa(pr) + "/merge"
	env["GITHUB_HEAD_REF"] = head
	env["GITHUB_EVENT_NAME"] = "pull_request"
	return env
}

// expandedToken is token.rs's expand_token: a workspace token (qltcw_)
// without "/" gets "/<project>": --project, else the last segment of
// GITHUB_REPOSITORY without ".git".
func (c *qltyCLI) expandedToken() string {
	if !strings.HasPrefix(c.token, "qltcw_") || strings.Contains(c.token, "/") {
		return c.token
	}
	project := c.project
	if project == "" {
		repo := c.env["GITHUB_REPOSITORY"]
		project = strings.TrimSuffix(repo[strings.LastIndex(repo, "/")+1:], ".git")
	}
	return c.token + "/" + project
}

// publishOptions are qlty coverage publish's flags.
type publishOptions struct {
	reports       map[string]string // report path (as given on the command line) → LCOV text
	order         []string          // the reports' order
	tag, name     string
	totalParts    int
	incomplete    bool
	selection     bool
	stripPrefix   string // the git root the CLI strips (StripPrefix::new_from_git_root)
	commitSHA     string // --override-commit-sha
	omitParts     bool   // a zip without file_coverages (raw reports only)
	tamper        func(members map[string][]byte) map[string][]byte
	commitMessage string
}

// kv is a JSON object with its members in the serializer's order.
type kv []struct {
	k string
	v any
}

func (o *kv) add(k string, v any) {
	*o = append(*o, struct {
		k string
		v any
	}{k, v})
}

func (o kv) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(p.k)
		v, err := json.Marshal(p.v)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// pbTime is a google.protobuf.Timestamp as pbjson writes it: RFC 3339,
// UTC, with 0, 3, 6 or 9 fractional digits.
func pbTime(t time.Time) string {
	t = t.UTC()
	switch ns := t.Nanosecond(); {
	case ns == 0:
		return t.Format("2006-01-02T15:04:05Z")
	case ns%1e6 == 0:
		return t.Format("2006-01-02T15:04:05.000Z")
	case ns%1e3 == 0:
		return t.Format("2006-01-02T15:04:05.000000Z")
	}
	return t.Format("2006-01-02T15:04:05.000000000Z")
}

// metadata is MetadataPlanner::compute on GitHub Actions, serialized as
// the CoverageMetadata serializer does (camelCase, empty members left out,
// 64-bit and optional numbers as their types say, enums by name).
func (c *qltyCLI) metadata(o publishOptions, now time.Time, excluded int) kv {
	env := c.env
	branch := ""
	if env["GITHUB_REF_TYPE"] != "" && env["GITHUB_REF_TYPE"] != "tag" {
		branch = env["GITHUB_REF_NAME"]
	}
	pr := ""
	if env["GITHUB_HEAD_REF"] != "" && strings.HasPrefix(env["GITHUB_REF"], "refs/pull/") && strings.HasSuffix(env["GITHUB_REF"], "/merge") {
		pr = strings.TrimSuffix(strings.TrimPrefix(env["GITHUB_REF"], "refs/pull/"), "/merge")
	}
	gitTag := ""
	if env["GITHUB_REF_TYPE"] == "tag" {
		gitTag = env["GITHUB_REF_NAME"]
	}
	sha := env["GITHUB_SHA"]
	if o.commitSHA != "" {
		sha = o.commitSHA
	}
	var m kv
	m.add("buildId", env["GITHUB_RUN_ID"]+":"+env["GITHUB_RUN_ATTEMPT"])
	m.add("ci", "GitHub")
	if branch != "" {
		m.add("branch", branch)
	}
	m.add("commitSha", sha)
	msg := o.commitMessage
	if msg == "" {
		msg = "Add the calculator\n\nWith tests."
	}
	m.add("commitMessage", msg)
	m.add("authorName", "Ada")
	m.add("authorEmail", "ada@example.com")
	m.add("authorTime", pbTime(now.Add(-time.Hour).Truncate(time.Second)))
	m.add("committerName", "Ada")
	m.add("committerEmail", "ada@example.com")
	m.add("commitTime", pbTime(now.Add(-time.Hour).Truncate(time.Second)))
	if pr != "" {
		m.add("pullRequestNumber", pr)
	}
	if o.tag != "" {
		m.add("tag", o.tag)
	}
	m.add("uploadedAt", pbTime(now))
	m.add("cliVersion", "0.600.0 (1a2b3c4 2026-01-15)")
	if o.totalParts > 0 {
		m.add("totalPartsCount", o.totalParts)
	}
	m.add("uploaderTool", "qlty-action")
	m.add("publishCommand", "qlty coverage publish "+strings.Join(o.order, " "))
	m.add("uploaderToolVersion", "v2")
	if o.name != "" {
		m.add("name", o.name)
	}
	if o.incomplete || o.totalParts > 1 {
		m.add("incomplete", true)
	}
	if excluded > 0 {
		m.add("excludedFilesCount", excluded)
	}
	switch {
	case pr != "":
		m.add("referenceType", "REFERENCE_TYPE_PULL_REQUEST")
	case gitTag != "":
		m.add("referenceType", "REFERENCE_TYPE_TAG")
	case branch != "":
		m.add("referenceType", "REFERENCE_TYPE_BRANCH")
	}
	if gitTag != "" {
		m.add("gitTag", gitTag)
	}
	if o.selection {
		m.add("selection", "selected")
	}
	return m
}

// lcovHits is the CLI's LCOV parser: per SF record, DA counts summed per
// line; lines up to the highest DA line, the others -1.
func lcovHits(text string) []struct {
	path string
	hits []int64
} {
	var out []struct {
		path string
		hits []int64
	}
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		sf, ok := strings.CutPrefix(lines[i], "SF:")
		if !ok {
			continue
		}
		counts := map[int]int64{}
		top := 0
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "end_of_record"); i++ {
			da, ok := strings.CutPrefix(lines[i], "DA:")
			if !ok {
				continue
			}
			parts := strings.Split(da, ",")
			n, _ := strconv.Atoi(parts[0])
			h, _ := strconv.ParseInt(parts[1], 10, 64)
			counts[n] += h
			top = max(top, n)
		}
		hits := make([]int64, top)
		for j := range hits {
			hits[j] = -1
		}
		for n, h := range counts {
			hits[n-1] = h
		}
		out = append(out, struct {
			path string
			hits []int64
		}{sf, hits})
	}
	return out
}

// export is Report::export_to: the zip's members, built before the upload
// is asked for (so metadata.json has no uploadId or projectId).
func (c *qltyCLI) export(o publishOptions, now time.Time) (members map[string][]byte, meta kv) {
	var reportFiles, fileCoverages [][]byte
	sha := c.env["GITHUB_SHA"]
	if o.commitSHA != "" {
		sha = o.commitSHA
	}
	branch := ""
	if c.env["GITHUB_REF_TYPE"] == "branch" {
		branch = c.env["GITHUB_REF_NAME"]
	}
	buildID := c.env["GITHUB_RUN_ID"] + ":" + c.env["GITHUB_RUN_ATTEMPT"]
	for _, path := range o.order {
		var rf kv
		rf.add("buildId", buildID)
		rf.add("format", "lcov")
		rf.add("path", path)
		if o.tag != "" {
			rf.add("tag", o.tag)
		}
		b, _ := json.Marshal(rf)
		reportFiles = append(reportFiles, b)
		for _, f := range lcovHits(o.reports[path]) {
			p := f.path
			if o.stripPrefix != "" {
				p = strings.TrimPrefix(strings.TrimPrefix(p, o.stripPrefix), "/")
			}
			p = strings.TrimPrefix(p, "./")
			covered, missed, omit := plumb.CountHits(f.hits)
			hits := make([]string, len(f.hits))
			for i, h := range f.hits {
				hits[i] = strconv.FormatInt(h, 10)
			}
			var fc kv
			fc.add("buildId", buildID)
			fc.add("path", p)
			var sum kv
			sum.add("covered", strconv.FormatInt(covered, 10))
			sum.add("missed", strconv.FormatInt(missed, 10))
			sum.add("omit", strconv.FormatInt(omit, 10))
			sum.add("total", strconv.Itoa(len(hits)))
			fc.add("summary", sum)
			if len(hits) > 0 { // an empty repeated field is left out
				fc.add("hits", hits)
			}
			if o.tag != "" {
				fc.add("tag", o.tag)
			}
			fc.add("commitSha", sha)
			fc.add("uploadedAt", pbTime(now))
			if branch != "" {
				fc.add("branch", branch)
			}
			b, _ := json.Marshal(fc)
			fileCoverages = append(fileCoverages, b)
		}
	}
	jsonl := func(rows [][]byte) []byte {
		var b bytes.Buffer
		for _, r := range rows {
			b.Write(r)
			b.WriteByte('\n')
		}
		return b.Bytes()
	}
	members = map[string][]byte{"report_files.jsonl": jsonl(reportFiles)}
	if !o.omitParts {
		for i := 0; i*5000 < len(fileCoverages); i++ {
			members[fmt.Sprintf("file_coverages-%03d.jsonl", i)] = jsonl(fileCoverages[i*5000 : min(len(fileCoverages), (i+1)*5000)])
		}
	}
	meta = c.metadata(o, now, 0)
	pretty, _ := json.MarshalIndent(meta, "", "  ")
	members["metadata.json"] = append(pretty, '\n')
	for _, path := range o.order {
		name := "raw_files/" + path
		if strings.HasPrefix(path, "/") {
			name = path // PathBuf::join with an absolute path is that path
		}
		members[name] = []byte(o.reports[path])
	}
	if o.tamper != nil {
		members = o.tamper(members)
	}
	return members, meta
}

// zipMembers writes members as compress_files does: deflated, mode 0755,
// in a HashMap's (random) order.
func zipMembers(t testing.TB, members map[string][]byte) []byte {
	t.Helper()
	names := make([]string, 0, len(members))
	for n := range members {
		names = append(names, n)
	}
	rand.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, n := range names {
		h := &zip.FileHeader{Name: n, Method: zip.Deflate}
		h.SetMode(0o755)
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(members[n]); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// qltyAnswer is an HTTP answer the CLI got.
type qltyAnswer struct {
	status int
	header http.Header
	body   []byte
}

// cliError is what the CLI prints of a refused POST (qlty-cloud's
// post_coverage_metadata): the "error" member when the body is JSON with
// one (a serde_json Value, so a string prints quoted), else the body.
func (a qltyAnswer) cliError(base string) string {
	var v map[string]json.RawMessage
	if json.Unmarshal(a.body, &v) == nil {
		if e, ok := v["error"]; ok {
			return fmt.Sprintf("HTTP Error %d: %s: %s", a.status, base, e)
		}
	}
	return fmt.Sprintf("HTTP Error %d: %s: %s", a.status, base, a.body)
}

func (a qltyAnswer) String() string {
	return fmt.Sprintf("%d %s", a.status, truncate(string(a.body), 600))
}

// data is the answer's "data" object.
func (a qltyAnswer) data(t testing.TB) map[string]any {
	t.Helper()
	var v struct {
		Data map[string]any `json:"data"`
	}
	if err := json.Unmarshal(a.body, &v); err != nil || v.Data == nil {
		t.Fatalf("answer without a data object: %s", a)
	}
	return v.Data
}

// wantError checks a refusal: the status, a body with the "error" member the
// CLI prints (holding want) beside the usual "errors".
func (a qltyAnswer) wantError(t testing.TB, status int, want string) {
	t.Helper()
	if a.status != status {
		t.Fatalf("status %d, want %d: %s", a.status, status, a)
	}
	var body struct {
		Error  *string `json:"error"`
		Errors []struct {
			Status, Title, Detail string
		} `json:"errors"`
	}
	if err := json.Unmarshal(a.body, &body); err != nil || body.Error == nil || len(body.Errors) == 0 {
		t.Fatalf(`refusal without {"error", "errors"}: %s`, a)
	}
	if !strings.Contains(*body.Error, want) {
		t.Errorf("error %q does not say %q", *body.Error, want)
	}
	if body.Errors[0].Status != strconv.Itoa(status) || body.Errors[0].Title != http.StatusText(status) {
		t.Errorf("errors[0] = %+v", body.Errors[0])
	}
	if ct := a.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
}

// send sends one request the way ureq does, with the CLI's headers, and
// checks the answer against the OpenAPI document.
func (c *qltyCLI) send(t testing.TB, method, target string, header map[string]string, body []byte) qltyAnswer {
	t.Helper()
	req, err := http.NewRequest(method, target, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := c.ts.srv.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, target, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	a := qltyAnswer{status: res.StatusCode, header: res.Header, body: b}
	if err := c.ts.validator.Validate(req, res.StatusCode, res.Header, b); err != nil {
		t.Errorf("%s %s: the answer does not match the OpenAPI document: %v\n%s", method, req.URL.Path, err, a)
	}
	return a
}

// postMetadata is Client::post_coverage_metadata: {"data": metadata} with
// the CLI's User-Agent and the bearer token.
func (c *qltyCLI) postMetadata(t testing.TB, path string, meta kv) qltyAnswer {
	t.Helper()
	body, err := json.Marshal(map[string]any{"data": meta})
	if err != nil {
		t.Fatal(err)
	}
	return c.send(t, http.MethodPost, c.ts.URL+path, map[string]string{
		"User-Agent": "qlty/0.600.0", "Authorization": "Bearer " + c.expandedToken(), "Content-Type": "application/json",
	}, body)
}

// put is Upload::upload_data: the zip, Content-Type application/zip, no
// token.
func (c *qltyCLI) put(t testing.TB, target string, zipBytes []byte) qltyAnswer {
	t.Helper()
	// A server with a public base URL (PLUMB_BASE_URL) names it in the
	// URL; the test reaches that server at its own address.
	target = strings.Replace(target, qltyPublicBase, c.ts.URL, 1)
	return c.send(t, http.MethodPut, target, map[string]string{"Content-Type": "application/zip", "User-Agent": "ureq/2.12.1"}, zipBytes)
}

// published is one publish's outcome.
type published struct {
	prepare qltyAnswer // POST /coverage
	upload  qltyAnswer // PUT of the zip
	zip     []byte
	target  string // the coverage.zip URL
}

// publish runs qlty coverage publish: export, prepare, upload.
func (c *qltyCLI) publish(t testing.TB, o publishOptions) published {
	t.Helper()
	now := c.ts.Clock.Now().Add(123456789 * time.Nanosecond)
	members, meta := c.export(o, now)
	var out published
	out.zip = zipMembers(t, members)
	out.prepare = c.postMetadata(t, "/coverage", meta)
	if out.prepare.status/100 != 2 {
		return out
	}
	d := out.prepare.data(t)
	target, _ := d["coverage.zip"].(string)
	if target == "" || d["id"] == "" || d["projectId"] == "" {
		t.Fatalf("answer without coverage.zip, id or projectId: %s", out.prepare)
	}
	out.target = target
	out.upload = c.put(t, target, out.zip)
	return out
}

// mustPublish publishes and requires both steps to succeed.
func (c *qltyCLI) mustPublish(t testing.TB, o publishOptions) published {
	t.Helper()
	p := c.publish(t, o)
	if p.prepare.status != http.StatusCreated {
		t.Fatalf("POST /coverage: %s", p.prepare)
	}
	if p.upload.status != http.StatusOK {
		t.Fatalf("PUT coverage.zip: %s", p.upload)
	}
	return p
}

// complete runs qlty coverage complete: MetadataPlanner::compute_minimal.
func (c *qltyCLI) complete(t testing.TB, tag string) qltyAnswer {
	t.Helper()
	var m kv
	m.add("commitSha", c.env["GITHUB_SHA"])
	if tag != "" {
		m.add("tag", tag)
	}
	m.add("uploadedAt", pbTime(c.ts.Clock.Now()))
	m.add("cliVersion", "0.600.0 (1a2b3c4 2026-01-15)")
	return c.postMetadata(t, "/coverage/complete", m)
}

// ---- the cast ----

// qltyPublicBase is the base URL of the server of TestQltyPublishEqualsPlumbUpload.
const qltyPublicBase = "https://plumb.example.com"

const (
	qSha  = "4f1c2a7e9b0d3c5a6f8e1d2c3b4a5f6e7d8c9b0a"
	qSha2 = "9b0e3d15a2c4e6f8a0b2c4d6e8f0a1b3c5d7e9f1"
)

// qltyWorld is the usual cast, alice project admin of acme/web and
// acme/api, with an upload token for each.
type qltyWorld struct {
	*world
	WebToken, APIToken string
}

func newQltyWorld(t *testing.T, opts ...serverOption) *qltyWorld {
	t.Helper()
	w := &qltyWorld{world: newWorld(t, opts...)}
	w.projectAdmin(t, "acme/web", "alice")
	w.projectAdmin(t, "acme/api", "alice")
	ctx := context.Background()
	var err error
	_, w.WebToken, err = w.DB.CreateUploadToken(ctx, "acme/web", "qlty", "cli")
	check(t, err)
	_, w.APIToken, err = w.DB.CreateUploadToken(ctx, "acme/api", "plumb", "cli")
	check(t, err)
	return w
}

func (w *qltyWorld) cli(token string, env map[string]string) *qltyCLI {
	return &qltyCLI{ts: w.testServer, token: token, env: env}
}

func lcovFixture(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile("../ingest/coverage/testdata/lcov/coverage.info")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// syntheticLCOV is an LCOV report of n files (from first on), with
// hit counts that vary by file and line.
func syntheticLCOV(first, n int, seed int64) string {
	r := rand.New(rand.NewSource(seed))
	var b strings.Builder
	for f := first; f < first+n; f++ {
		fmt.Fprintf(&b, "TN:\nSF:/work/repo/src/pkg%d/file%d.go\n", f%37, f)
		lines := 1 + r.Intn(60)
		for l := 1; l <= lines; l++ {
			if r.Intn(3) == 0 {
				continue
			}
			fmt.Fprintf(&b, "DA:%d,%d\n", l, r.Intn(4))
		}
		b.WriteString("end_of_record\n")
	}
	return b.String()
}

// synthPath is the path of file f of syntheticLCOV, stripped.
func synthPath(f int) string { return fmt.Sprintf("src/pkg%d/file%d.go", f%37, f) }

// plumbUpload sends a report as plumb upload coverage does, to acme/api.
func (w *qltyWorld) plumbUpload(t testing.TB, sha, tag, strip, report string) {
	t.Helper()
	q := url.Values{"commitSha": {sha}, "branch": {"main"}, "stripPrefix": {strip}, "format": {"lcov"}}
	if tag != "" {
		q.Set("coverageTag", tag)
	}
	w.do(t, http.MethodPost, "/ingest/gh/acme/projects/api/coverage?"+q.Encode(), w.APIToken, nil, report).wantStatus(t, http.StatusCreated)
}

// reportPaths are the repository paths of an LCOV report after strip.
func reportPaths(report, strip string) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range lcovHits(report) {
		p := strings.TrimPrefix(strings.TrimPrefix(f.path, strip), "/")
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// sameCoverage compares, file by file, the coverage of acme/web (the qlty
// CLI's) with acme/api's (plumb upload coverage's) at a reference.
func (w *qltyWorld) sameCoverage(t testing.TB, ref string, paths []string) {
	t.Helper()
	for _, p := range paths {
		web := w.get(t, "/gh/acme/projects/web/coverage/file?"+url.Values{"reference": {ref}, "path": {p}}.Encode(), w.Alice).wantStatus(t, http.StatusOK)
		apiSide := w.get(t, "/gh/acme/projects/api/coverage/file?"+url.Values{"reference": {ref}, "path": {p}}.Encode(), w.Alice).wantStatus(t, http.StatusOK)
		assertJSON(t, web.Body, string(apiSide.Body))
	}
}

// noCoverage checks that acme/web has no coverage for the commit.
func (w *qltyWorld) noCoverage(t testing.TB, sha, path string) {
	t.Helper()
	w.get(t, "/gh/acme/projects/web/coverage/file?"+url.Values{"reference": {sha}, "path": {path}}.Encode(), w.Alice).wantStatus(t, http.StatusNotFound)
}

// ---- tests ----

// A whole publish from GitHub Actions with the project's upload token: the
// answer's shape, the stored coverage equal line for line to plumb upload
// coverage's, the branch resolving, and the commit page URL.
func TestQltyPublishEqualsPlumbUpload(t *testing.T) {
	w := newQltyWorld(t, withConfig(api.Config{BaseURL: "https://plumb.example.com"}))
	report := lcovFixture(t)
	const root = "/tmp/plumb-lcov-fixture"
	cli := w.cli(w.WebToken, githubEnv(qSha))
	p := cli.mustPublish(t, publishOptions{reports: map[string]string{"coverage/lcov.info": report}, order: []string{"coverage/lcov.info"}, tag: "unit", stripPrefix: root})

	d := p.prepare.data(t)
	if d["projectId"] != w.Web.ID {
		t.Errorf("projectId %v, want %s", d["projectId"], w.Web.ID)
	}
	if want := "https://plumb.example.com/w/acme/web/coverage?ref=" + qSha; d["url"] != want {
		t.Errorf("url %v, want %s", d["url"], want)
	}
	u, err := url.Parse(p.target)
	if err != nil || u.Host != "plumb.example.com" || u.Path != "/coverage/uploads/"+d["id"].(string) || u.Query().Get("signature") == "" {
		t.Errorf("coverage.zip URL %q", p.target)
	}
	if cc := p.prepare.header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control %q", cc)
	}
	up := p.upload.data(t)
	if up["state"] != "published" || up["files"] != 2.0 || up["coveredLines"] != 21.0 || up["missedLines"] != 7.0 {
		t.Errorf("PUT answer %s", p.upload)
	}

	w.plumbUpload(t, qSha, "unit", root, report)
	w.sameCoverage(t, qSha, reportPaths(report, root))
	w.sameCoverage(t, "refs/heads/main", []string{"calc.c"})
	r := w.get(t, "/gh/acme/projects/web/coverage/file?reference="+qSha+"&path=calc.c", w.Alice).wantStatus(t, http.StatusOK)
	if !strings.Contains(string(r.Body), `"tags":["unit"]`) {
		t.Errorf("coverage tag: %s", r.Body)
	}
}

// Each CoverageMetadata field Plumb has a place for lands there: the pull
// request (and not GitHub's "<n>/merge" ref as a branch), the git tag, the
// coverage tag "default" without --tag, uploadedAt.
func TestQltyMetadataMapping(t *testing.T) {
	w := newQltyWorld(t)
	report := syntheticLCOV(0, 3, 1)
	// A pull request on GitHub Actions: the CLI sends GitHub's merge ref
	// "12/merge" as the branch (and no headRef): no branch is recorded.
	cli := w.cli(w.WebToken, githubPullEnv(qSha, 12, "feature/x"))
	cli.mustPublish(t, publishOptions{reports: map[string]string{"lcov.info": report}, order: []string{"lcov.info"}, stripPrefix: "/work/repo"})
	path := reportPaths(report, "/work/repo")[0]
	r := w.get(t, "/gh/acme/projects/web/coverage/file?reference=refs/pull/12&path="+path, w.Alice).wantStatus(t, http.StatusOK)
	if !strings.Contains(string(r.Body), `"tags":["default"]`) {
		t.Errorf("tags: %s", r.Body)
	}
	w.get(t, "/gh/acme/projects/web/coverage/file?reference=refs/heads/12/merge&path="+path, w.Alice).wantStatus(t, http.StatusNotFound)

	tagged := githubEnv(qSha2)
	tagged["GITHUB_REF_TYPE"], tagged["GITHUB_REF_NAME"], tagged["GITHUB_REF"] = "tag", "v1.2.0", "refs/tags/v1.2.0"
	w.cli(w.WebToken, tagged).mustPublish(t, publishOptions{reports: map[string]string{"lcov.info": report}, order: []string{"lcov.info"}, tag: "e2e", stripPrefix: "/work/repo"})
	r = w.get(t, "/gh/acme/projects/web/coverage/file?reference=refs/tags/v1.2.0&path="+path, w.Alice).wantStatus(t, http.StatusOK)
	if !strings.Contains(string(r.Body), `"tags":["e2e"]`) {
		t.Errorf("tags: %s", r.Body)
	}

	// The CLI's --selection has no place in Plumb: refused, saying so.
	a := cli.publish(t, publishOptions{reports: map[string]string{"lcov.info": report}, order: []string{"lcov.info"}, selection: true})
	a.prepare.wantError(t, http.StatusBadRequest, "selection")
	if got := a.prepare.cliError(w.URL); !strings.HasPrefix(got, `HTTP Error 400: `+w.URL+`: "data.selection is \"selected\"`) {
		t.Errorf("the CLI prints %q", got)
	}
}

// Multi-part reports: parts wait unseen until the declared count arrives,
// or until complete; then they publish as one upload, equal to the whole
// report uploaded through plumb upload coverage. A file in several parts
// merges line by line.
func TestQltyMultiPart(t *testing.T) {
	w := newQltyWorld(t)
	const root = "/work/repo"
	// Three parts: the first of 5,200 files (two file_coverages members),
	// each overlapping the one before by 100 files.
	parts := []string{syntheticLCOV(0, 5200, 1), syntheticLCOV(5100, 300, 2), syntheticLCOV(5300, 300, 3)}
	cli := w.cli(w.WebToken, githubEnv(qSha))
	for i, part := range parts {
		p := cli.mustPublish(t, publishOptions{reports: map[string]string{"lcov.info": part}, order: []string{"lcov.info"}, tag: "unit", totalParts: 3, stripPrefix: root})
		d := p.upload.data(t)
		if i < 2 {
			if d["state"] != "waiting" || d["partsReceived"] != float64(i+1) || d["partsExpected"] != 3.0 {
				t.Fatalf("part %d: %s", i+1, p.upload)
			}
			w.noCoverage(t, qSha, "src/pkg0/file0.go")
			continue
		}
		if d["state"] != "published" {
			t.Fatalf("last part: %s", p.upload)
		}
	}
	whole := strings.Join(parts, "")
	w.plumbUpload(t, qSha, "unit", root, whole)
	paths := reportPaths(whole, root)
	// The first and last files, and files two parts gave (merged).
	w.sameCoverage(t, qSha, []string{paths[0], paths[len(paths)-1], synthPath(4999), synthPath(5000), synthPath(5150), synthPath(5350), synthPath(5599)})
	// complete after the count arrived answers as well.
	d := cli.complete(t, "unit")
	if d.status != http.StatusOK {
		t.Fatalf("complete: %s", d)
	}
	if st, err := w.DB.QltyStats(context.Background()); err != nil || st.PartFiles != 0 {
		t.Errorf("part rows left after publishing: %+v %v", st, err)
	}

	// --incomplete twice, then complete; on another commit and tag.
	cli2 := w.cli(w.WebToken, githubEnv(qSha2))
	for _, part := range parts[:2] {
		p := cli2.mustPublish(t, publishOptions{reports: map[string]string{"lcov.info": part}, order: []string{"lcov.info"}, tag: "e2e", incomplete: true, stripPrefix: root})
		if p.upload.data(t)["state"] != "waiting" {
			t.Fatalf("incomplete part: %s", p.upload)
		}
	}
	w.noCoverage(t, qSha2, "src/pkg0/file0.go")
	cli2.complete(t, "unit").wantError(t, http.StatusNotFound, "coverage tag \"unit\"")
	c := cli2.complete(t, "e2e")
	if c.status != http.StatusOK || c.data(t)["url"] == "" || c.data(t)["parts"] != 2.0 {
		t.Fatalf("complete: %s", c)
	}
	both := parts[0] + parts[1]
	w.plumbUpload(t, qSha2, "e2e", root, both)
	w.sameCoverage(t, qSha2, []string{synthPath(0), synthPath(5150), synthPath(5399)})
	// A second complete replays.
	if again := cli2.complete(t, "e2e"); again.status != http.StatusOK || string(again.body) != string(c.body) {
		t.Errorf("second complete: %s, first %s", again, c)
	}
}

// A retried PUT of the same zip to the same URL replays the first answer
// and stores nothing twice; another zip to a used URL is refused; a URL
// that failed can be used again.
func TestQltyRetries(t *testing.T) {
	var failing atomic.Bool // the store fails its staged writes
	w := newQltyWorld(t, withStore(sqlstore.Options{StageHook: func(ctx context.Context, kind string) error {
		if failing.Load() {
			return errors.New("the disk went away")
		}
		return nil
	}}))
	report := syntheticLCOV(0, 5, 7)
	cli := w.cli(w.WebToken, githubEnv(qSha))
	opt := publishOptions{reports: map[string]string{"lcov.info": report}, order: []string{"lcov.info"}, stripPrefix: "/work/repo"}
	p := cli.mustPublish(t, opt)
	again := cli.put(t, p.target, p.zip)
	if again.status != http.StatusOK || again.header.Get("Idempotent-Replayed") != "true" || string(again.body) != string(p.upload.body) {
		t.Fatalf("retried PUT: %s", again)
	}
	w.plumbUpload(t, qSha, "", "/work/repo", report)
	w.sameCoverage(t, qSha, reportPaths(report, "/work/repo")) // once, not twice

	other := cli.publish(t, publishOptions{reports: map[string]string{"lcov.info": syntheticLCOV(0, 5, 8)}, order: []string{"lcov.info"}, stripPrefix: "/work/repo"})
	cli.put(t, p.target, other.zip).wantError(t, http.StatusConflict, "already used")

	// A refused zip uses the URL up (the CLI prints a refused upload's URL
	// in the CI log): the same zip gets the same refusal, another is
	// refused. A failure of the server's leaves it usable.
	fresh := cli.postMetadata(t, "/coverage", cli.metadata(opt, w.Clock.Now(), 0))
	target := fresh.data(t)["coverage.zip"].(string)
	first := cli.put(t, target, []byte("not a zip"))
	first.wantError(t, http.StatusBadRequest, "not a zip archive")
	if again := cli.put(t, target, []byte("not a zip")); again.status != http.StatusBadRequest || string(again.body) != string(first.body) || again.header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("the refused zip again: %s", again)
	}
	cli.put(t, target, p.zip).wantError(t, http.StatusConflict, "already used")
	fresh = cli.postMetadata(t, "/coverage", cli.metadata(opt, w.Clock.Now(), 0))
	target = fresh.data(t)["coverage.zip"].(string)
	failing.Store(true)
	cli.put(t, target, p.zip).wantError(t, http.StatusInternalServerError, "unexpected error")
	failing.Store(false)
	if ok := cli.put(t, target, p.zip); ok.status != http.StatusOK {
		t.Fatalf("PUT after a failure of the server's: %s", ok)
	}
}

// Upload URLs are bound to their upload, project, expiry and size limit,
// and expire.
func TestQltyUploadURLs(t *testing.T) {
	w := newQltyWorld(t, withConfig(api.Config{MaxUploadBytes: 1 << 20}))
	report := syntheticLCOV(0, 3, 1)
	cli := w.cli(w.WebToken, githubEnv(qSha))
	opt := publishOptions{reports: map[string]string{"lcov.info": report}, order: []string{"lcov.info"}, stripPrefix: "/work/repo"}
	zipBytes := zipMembers(t, func() map[string][]byte { m, _ := cli.export(opt, w.Clock.Now()); return m }())
	issue := func() string {
		a := cli.postMetadata(t, "/coverage", cli.metadata(opt, w.Clock.Now(), 0))
		if a.status != http.StatusCreated {
			t.Fatalf("POST /coverage: %s", a)
		}
		return a.data(t)["coverage.zip"].(string)
	}
	target := issue()
	u, _ := url.Parse(target)
	tampered := func(k, v string) string {
		q := u.Query()
		q.Set(k, v)
		c := *u
		c.RawQuery = q.Encode()
		return c.String()
	}
	other := issue()
	ou, _ := url.Parse(other)
	for name, bad := range map[string]string{
		"signature":      tampered("signature", "AAAA"),
		"longer expiry":  tampered("expires", strconv.FormatInt(w.Clock.Now().Add(24*time.Hour).Unix(), 10)),
		"larger limit":   tampered("limit", strconv.Itoa(1<<30)),
		"another upload": strings.Replace(target, u.Path, ou.Path, 1),
		"no signature":   strings.Split(target, "?")[0],
		"unknown upload": strings.Replace(target, u.Path, "/coverage/uploads/0190aaaa-0000-7000-8000-000000000000", 1),
	} {
		t.Run(name, func(t *testing.T) { cli.put(t, bad, zipBytes).wantError(t, http.StatusForbidden, "not valid") })
	}
	// Over the limit the URL names.
	big := make([]byte, 2<<20)
	cli.put(t, target, big).wantError(t, http.StatusRequestEntityTooLarge, "limit")
	// Expired.
	w.Clock.Advance(61 * time.Minute)
	cli.put(t, target, zipBytes).wantError(t, http.StatusForbidden, "expired")
	w.noCoverage(t, qSha, reportPaths(report, "/work/repo")[0])
	// Swept later, still refused.
	w.Clock.Advance(3 * time.Hour)
	if _, err := w.DB.SweepQltyUploads(context.Background()); err != nil {
		t.Fatal(err)
	}
	cli.put(t, target, zipBytes).wantError(t, http.StatusForbidden, "expired")
	if st, _ := w.DB.QltyStats(context.Background()); st != (plumb.QltyStats{}) {
		t.Errorf("left after the sweep: %+v", st)
	}
}

// The token forms the CLI sends, and the refusals of the wrong ones.
func TestQltyTokens(t *testing.T) {
	w := newQltyWorld(t)
	report := syntheticLCOV(0, 2, 3)
	opt := publishOptions{reports: map[string]string{"lcov.info": report}, order: []string{"lcov.info"}, stripPrefix: "/work/repo"}
	path := reportPaths(report, "/work/repo")[0]
	ok := func(t *testing.T, cli *qltyCLI, project string) {
		t.Helper()
		p := cli.mustPublish(t, opt)
		want := map[string]string{"web": w.Web.ID, "api": w.API.ID}[project]
		if p.prepare.data(t)["projectId"] != want {
			t.Errorf("projectId %v, want %s's", p.prepare.data(t)["projectId"], project)
		}
	}
	t.Run("workspace token form with the repository's name", func(t *testing.T) {
		// qltcw_<API token>: the CLI appends /web from GITHUB_REPOSITORY.
		cli := w.cli("qltcw_"+w.Alice, githubEnv(qSha))
		if got := cli.expandedToken(); got != "qltcw_"+w.Alice+"/web" {
			t.Fatalf("expanded %q", got)
		}
		ok(t, cli, "web")
	})
	t.Run("workspace token form with --project workspace/project", func(t *testing.T) {
		cli := w.cli("qltcw_"+w.Alice, githubEnv(qSha))
		cli.project = "acme/api"
		ok(t, cli, "api")
	})
	t.Run("API token with /workspace/project", func(t *testing.T) {
		ok(t, w.cli(w.Alice+"/acme/web", githubEnv(qSha)), "web")
	})
	t.Run("upload token with its own project", func(t *testing.T) {
		ok(t, w.cli("qltcw_"+w.WebToken, githubEnv(qSha)), "web")
	})
	refused := func(t *testing.T, token string, env map[string]string, status int, want string) {
		t.Helper()
		p := w.cli(token, env).publish(t, opt)
		p.prepare.wantError(t, status, want)
		if status == http.StatusUnauthorized && !strings.HasPrefix(p.prepare.header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("401 without WWW-Authenticate")
		}
	}
	t.Run("unknown token", func(t *testing.T) { refused(t, "plbu_nope", githubEnv(qSha), http.StatusUnauthorized, "") })
	t.Run("unknown workspace token", func(t *testing.T) { refused(t, "qltcw_plb_nope", githubEnv(qSha), http.StatusUnauthorized, "") })
	t.Run("API token without a project", func(t *testing.T) { refused(t, w.Alice, githubEnv(qSha), http.StatusBadRequest, "names no project") })
	t.Run("upload token of another project", func(t *testing.T) {
		refused(t, w.APIToken+"/web", githubEnv(qSha), http.StatusNotFound, "belongs to project acme/api")
	})
	t.Run("not the project's admin", func(t *testing.T) {
		w.user(t, "carol")
		w.member(t, "acme", "carol", plumb.RoleMember)
		refused(t, "qltcw_"+w.token(t, "carol"), githubEnv(qSha), http.StatusForbidden, "admin")
	})
	t.Run("a project the user cannot see", func(t *testing.T) { refused(t, w.Alice+"/globex/vault", githubEnv(qSha), http.StatusNotFound, "") })
	t.Run("revoked upload token", func(t *testing.T) {
		tok, secret, err := w.DB.CreateUploadToken(context.Background(), "acme/web", "gone", "cli")
		check(t, err)
		check(t, w.DB.RevokeUploadToken(context.Background(), tok.ID))
		refused(t, secret, githubEnv(qSha), http.StatusUnauthorized, "")
	})
	w.get(t, "/gh/acme/projects/web/coverage/file?reference="+qSha+"&path="+path, w.Alice).wantStatus(t, http.StatusOK)
}

// Zip hygiene: every refusal is a 4xx the CLI prints, and stores nothing.
func TestQltyZipHygiene(t *testing.T) {
	w := newQltyWorld(t, withConfig(api.Config{MaxUploadBytes: 8 << 20}))
	report := syntheticLCOV(0, 4, 5)
	path := reportPaths(report, "/work/repo")[0]
	cli := w.cli(w.WebToken, githubEnv(qSha))
	base := publishOptions{reports: map[string]string{"coverage/lcov.info": report}, order: []string{"coverage/lcov.info"}, stripPrefix: "/work/repo"}
	with := func(f func(m map[string][]byte) map[string][]byte) publishOptions {
		o := base
		o.tamper = f
		return o
	}
	cases := []struct {
		name   string
		opt    publishOptions
		raw    []byte // the body instead of the zip
		status int
		want   string
	}{
		{"traversal", with(func(m map[string][]byte) map[string][]byte { m["../evil.jsonl"] = []byte("x"); return m }), nil, 400, "leaves the archive"},
		{"traversal in raw_files", with(func(m map[string][]byte) map[string][]byte { m["raw_files/../../etc/x"] = []byte("x"); return m }), nil, 400, "leaves the archive"},
		{"absolute name", with(func(m map[string][]byte) map[string][]byte { m["/etc/passwd"] = []byte("x"); return m }), nil, 400, "absolute"},
		{"drive letter", with(func(m map[string][]byte) map[string][]byte { m[`C:\x.jsonl`] = []byte("x"); return m }), nil, 400, "absolute"},
		{"control character", with(func(m map[string][]byte) map[string][]byte { m["a\nb"] = []byte("x"); return m }), nil, 400, "control"},
		{"duplicate part number", with(func(m map[string][]byte) map[string][]byte {
			m["file_coverages-0000.jsonl"] = m["file_coverages-000.jsonl"]
			return m
		}), nil, 400, "both part 0"},
		{"no coverage", with(func(m map[string][]byte) map[string][]byte {
			return map[string][]byte{"metadata.json": m["metadata.json"]}
		}), nil, 400, "holds no coverage"},
		{"another commit's metadata", with(func(m map[string][]byte) map[string][]byte {
			m["metadata.json"] = []byte(`{"commitSha":"` + qSha2 + `"}`)
			return m
		}), nil, 400, "of commit " + qSha2},
		{"bad part line", with(func(m map[string][]byte) map[string][]byte {
			m["file_coverages-000.jsonl"] = append(m["file_coverages-000.jsonl"], []byte(`{"path":"x.go","hits":["-2"]}`+"\n")...)
			return m
		}), nil, 400, "file_coverages-000.jsonl: qlty report at line 5"},
		{"escaping file path", with(func(m map[string][]byte) map[string][]byte {
			m["file_coverages-000.jsonl"] = []byte(`{"path":"../x.go","hits":["1"]}` + "\n")
			return m
		}), nil, 400, "not a file in the repository"},
		{"over the upload limit", with(func(m map[string][]byte) map[string][]byte {
			m["file_coverages-001.jsonl"] = randomJSONLines(9 << 20)
			return m
		}), nil, 413, "upload limit"},
		{"not a zip", base, []byte("PK\x03\x04 but not really"), 400, "not a zip archive"},
		{"empty", base, []byte{}, 400, "not a zip archive"},
		{"encrypted member", base, encryptedZip(t), 400, "encrypted"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var a qltyAnswer
			if c.raw != nil {
				prep := cli.postMetadata(t, "/coverage", cli.metadata(c.opt, w.Clock.Now(), 0))
				if prep.status != http.StatusCreated {
					t.Fatalf("POST /coverage: %s", prep)
				}
				a = cli.put(t, prep.data(t)["coverage.zip"].(string), c.raw)
			} else {
				p := cli.publish(t, c.opt)
				if p.prepare.status != http.StatusCreated {
					t.Fatalf("POST /coverage: %s", p.prepare)
				}
				a = p.upload
			}
			a.wantError(t, c.status, c.want)
			w.noCoverage(t, qSha, path)
		})
	}
	if s, err := w.DB.StagedWriteStats(context.Background()); err != nil || s != (sqlstore.StagedWriteStats{}) {
		t.Errorf("staged rows left: %+v %v", s, err)
	}

	// A zip bomb: 80 MiB of blanks in a zip of 80 KB, on a server whose
	// upload limit (2 GiB) would take it.
	t.Run("bomb", func(t *testing.T) {
		bw := newQltyWorld(t)
		o := base
		o.tamper = func(m map[string][]byte) map[string][]byte {
			m["file_coverages-001.jsonl"] = bytes.Repeat([]byte(" "), 80<<20)
			return m
		}
		p := bw.cli(bw.WebToken, githubEnv(qSha)).publish(t, o)
		p.upload.wantError(t, http.StatusBadRequest, "zip bomb")
		bw.noCoverage(t, qSha, path)
	})

	// Raw reports only (no parts): read through format detection, with
	// the CLI's names for absolute and relative report paths.
	t.Run("raw reports", func(t *testing.T) {
		abs := "/home/runner/work/web/web/coverage/lcov.info"
		o := publishOptions{reports: map[string]string{abs: report, "./other/lcov.info": syntheticLCOV(10, 2, 9)},
			order: []string{abs, "./other/lcov.info"}, stripPrefix: "/work/repo", omitParts: true}
		p := cli.mustPublish(t, o)
		if d := p.upload.data(t); d["files"] != 6.0 {
			t.Errorf("raw reports: %s", p.upload)
		}
		// The raw reports keep the tool's paths: Plumb's rules apply.
		w.get(t, "/gh/acme/projects/web/coverage/file?reference="+qSha+"&path=work/repo/"+path, w.Alice).wantStatus(t, http.StatusOK)
	})
}

// randomJSONLines is n bytes of qlty lines that do not compress.
func randomJSONLines(n int) []byte {
	r := rand.New(rand.NewSource(42))
	var b bytes.Buffer
	for b.Len() < n {
		fmt.Fprintf(&b, `{"path":"r/%x.go","hits":["%d","%d","%d"]}`+"\n", r.Uint64(), r.Intn(1e6), r.Intn(1e6), r.Intn(1e6))
	}
	return b.Bytes()
}

// encryptedZip is a zip whose one member says it is encrypted.
func encryptedZip(t testing.TB) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	h := &zip.FileHeader{Name: "file_coverages-000.jsonl", Method: zip.Store, Flags: 0x1}
	wr, err := zw.CreateHeader(h)
	if err != nil {
		t.Fatal(err)
	}
	wr.Write([]byte(`{"path":"a.go","hits":["1"]}`))
	zw.Close()
	return b.Bytes()
}

// Parts that never complete expire QltyReportTTL after the latest one and
// leave nothing; a part arriving after its report completed is refused.
func TestQltyPartsExpireAndLateParts(t *testing.T) {
	w := newQltyWorld(t)
	report := syntheticLCOV(0, 3, 4)
	path := reportPaths(report, "/work/repo")[0]
	cli := w.cli(w.WebToken, githubEnv(qSha))
	opt := publishOptions{reports: map[string]string{"lcov.info": report}, order: []string{"lcov.info"}, incomplete: true, stripPrefix: "/work/repo"}
	cli.mustPublish(t, opt)
	w.Clock.Advance(23 * time.Hour)
	cli.mustPublish(t, opt) // keeps the report alive another day
	w.Clock.Advance(23 * time.Hour)
	ctx := context.Background()
	if _, err := w.DB.SweepQltyUploads(ctx); err != nil {
		t.Fatal(err)
	}
	if st, _ := w.DB.QltyStats(ctx); st.Reports != 1 || st.PartFiles != 6 {
		t.Fatalf("swept too early: %+v", st)
	}
	w.Clock.Advance(2 * time.Hour)
	if _, err := w.DB.SweepQltyUploads(ctx); err != nil {
		t.Fatal(err)
	}
	if st, _ := w.DB.QltyStats(ctx); st != (plumb.QltyStats{}) {
		t.Fatalf("left after expiry: %+v", st)
	}
	cli.complete(t, "").wantError(t, http.StatusNotFound, "No multi-part report")
	w.noCoverage(t, qSha, path)

	// A late part: its URL is issued, then complete publishes the part
	// received; the late zip is refused and leaves nothing.
	cli.mustPublish(t, opt)
	members, meta := cli.export(opt, w.Clock.Now())
	b := cli.postMetadata(t, "/coverage", meta)
	target := b.data(t)["coverage.zip"].(string)
	if c := cli.complete(t, ""); c.status != http.StatusOK || c.data(t)["parts"] != 1.0 {
		t.Fatalf("complete: %s", c)
	}
	cli.put(t, target, zipMembers(t, members)).wantError(t, http.StatusConflict, "after its report")
	if st, _ := w.DB.QltyStats(ctx); st.PartFiles != 0 {
		t.Errorf("the late part left rows: %+v", st)
	}
	w.plumbUpload(t, qSha, "", "/work/repo", report)
	w.sameCoverage(t, qSha, reportPaths(report, "/work/repo")) // the first part only
}
