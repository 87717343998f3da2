package api_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/sqlstore"
)

// issueFixture is the current snapshot of acme/web used by the issue tests,
// in listing order. Names are the issues' fingerprints.
func issueFixture() []plumb.Issue {
	// Sorted as an analysis stores them: file path, start line, rule key.
	return []plumb.Issue{
		{Fingerprint: "i1", Tool: "gitleaks", RuleKey: "aws-key", Message: "AWS key", Category: "secret", Level: "medium",
			Path: "config/.env", StartLine: ptr(1), EndLine: ptr(1)},
		{Fingerprint: "i2", Tool: "trivy", RuleKey: "CVE-2026-0001", Message: "vulnerable dependency", Category: "dependency_alert", Level: "fmt", Status: "ignored",
			DocumentationURL: "https://avd.aquasec.com/nvd/cve-2026-0001", Path: "go.mod"},
		{Fingerprint: "i3", Tool: "eslint", RuleKey: "no-unused-vars", Message: "x is unused", Category: "lint", Level: "low",
			DocumentationURL: "https://eslint.org/docs/rules/no-unused-vars", Path: "src/a.js", StartLine: ptr(3), EndLine: ptr(3)},
		{Fingerprint: "i4", Tool: "eslint", RuleKey: "eqeqeq", Message: "Use ===", Category: "style", Level: "note", Status: "ignored",
			Path: "src/a.js", StartLine: ptr(5)},
		{Fingerprint: "i5", Tool: "golangci-lint", RuleKey: "errcheck", Message: "Error return value is not checked", Category: "bug", Level: "high",
			Path: "src/b.go", StartLine: ptr(10), EndLine: ptr(12)},
		{Fingerprint: "i6", Tool: "golangci-lint", RuleKey: "gofmt", Message: "not gofmt-ed", Category: "style", Level: "fmt",
			Path: "src/b.go", StartLine: ptr(20)},
		{Fingerprint: "i7", Tool: "Semgrep", RuleKey: "sql-injection", Message: "say \"hi\", then\nbye;\r\nlone\rCR", Category: "vulnerability", Level: "high",
			Path: "src/c.py"},
		{Fingerprint: "i8", Tool: "ESLint", RuleKey: "complexity", Message: "Too complex", Category: "structure", Level: "medium",
			Path: "src/d.js"},
	}
}

// issueView is the API object of an issue (the spec's Issue table).
func issueView(is plumb.Issue) map[string]any {
	loc := map[string]any{"path": is.Path}
	if is.StartLine != nil {
		loc["startLine"] = *is.StartLine
	}
	if is.EndLine != nil {
		loc["endLine"] = *is.EndLine
	}
	v := map[string]any{"id": is.ID, "fingerprint": is.Fingerprint, "tool": is.Tool, "ruleKey": is.RuleKey, "message": is.Message,
		"category": is.Category, "level": is.Level, "status": is.Status, "location": loc}
	if is.DocumentationURL != "" {
		v["documentationUrl"] = is.DocumentationURL
	}
	return v
}

type issueWorld struct {
	*world
	issues map[string]plumb.Issue // by fingerprint, with id and status
}

func newIssueWorld(t *testing.T) *issueWorld {
	w := &issueWorld{world: newWorld(t), issues: map[string]plumb.Issue{}}
	// An older default-branch snapshot, replaced by the current one.
	w.snapshot(t, plumb.SnapshotInput{ProjectID: w.Web.ID, Branch: "main", CommitSHA: "c0", AnalyzedAt: t0.Add(-2 * time.Hour),
		Issues: []plumb.Issue{{Fingerprint: "old", Tool: "eslint", RuleKey: "r", Message: "old", Category: "lint", Level: "low", Path: "src/a.js"}}})
	in := issueFixture()
	for i := range in {
		in[i].ID = sqlstore.NewID()
		if in[i].Status == "" {
			in[i].Status = "open"
		}
		w.issues[in[i].Fingerprint] = in[i]
	}
	w.snapshot(t, plumb.SnapshotInput{ProjectID: w.Web.ID, Branch: "main", CommitSHA: "c1", AnalyzedAt: t0.Add(-time.Hour), Issues: in})
	// A later analysis of another branch does not change the current issues.
	w.snapshot(t, plumb.SnapshotInput{ProjectID: w.Web.ID, Branch: "feature", CommitSHA: "c2", AnalyzedAt: t0,
		Issues: []plumb.Issue{{Fingerprint: "feature", Tool: "eslint", RuleKey: "r", Message: "feature", Category: "lint", Level: "low", Path: "src/a.js"}}})
	// Another project's issues.
	w.snapshot(t, plumb.SnapshotInput{ProjectID: w.API.ID, Branch: "main", CommitSHA: "c3", AnalyzedAt: t0,
		Issues: []plumb.Issue{{Fingerprint: "api", Tool: "eslint", RuleKey: "r", Message: "api", Category: "lint", Level: "low", Path: "x.js"}}})
	return w
}

// list is the expected JSON list of the named issues.
func (w *issueWorld) list(hasMore bool, fps ...string) string {
	data := []any{}
	for _, fp := range fps {
		data = append(data, issueView(w.issues[fp]))
	}
	return mustJSON(map[string]any{"data": data, "meta": map[string]any{"hasMore": hasMore}})
}

func (w *issueWorld) rows(fps ...string) string {
	data := []any{}
	for _, fp := range fps {
		data = append(data, issueView(w.issues[fp]))
	}
	return mustJSON(data)
}

const issuesPath = "/gh/acme/projects/web/issues"

func TestListIssuesFilters(t *testing.T) {
	w := newIssueWorld(t)
	tests := []struct {
		query string
		want  []string
	}{
		{"", []string{"i1", "i3", "i5", "i6", "i7", "i8"}}, // status defaults to open
		{"?status=open", []string{"i1", "i3", "i5", "i6", "i7", "i8"}},
		{"?status=", []string{"i1", "i3", "i5", "i6", "i7", "i8"}},
		{"?status=ignored", []string{"i2", "i4"}},
		{"?status=open,ignored", []string{"i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8"}},
		{"?status=open&status=ignored", []string{"i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8"}},
		{"?status[]=ignored&status[]=open", []string{"i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8"}},
		{"?status%5B%5D=ignored", []string{"i2", "i4"}},
		{"?status[0]=ignored&status[1]=open", []string{"i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8"}},
		{"?status=ignored&status[]=open", []string{"i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8"}},
		{"?level=high", []string{"i5", "i7"}},
		{"?level=high,medium", []string{"i1", "i5", "i7", "i8"}},
		{"?level=high&level=medium", []string{"i1", "i5", "i7", "i8"}},
		{"?level[]=high&level[]=medium", []string{"i1", "i5", "i7", "i8"}},
		{"?level[0]=high&level[1]=medium", []string{"i1", "i5", "i7", "i8"}},
		{"?level=high&level[]=medium&level[2]=low", []string{"i1", "i3", "i5", "i7", "i8"}},
		{"?level=high,,&level=", []string{"i5", "i7"}}, // empty items are ignored
		{"?level=,", []string{"i1", "i3", "i5", "i6", "i7", "i8"}},
		{"?level=high&level=high", []string{"i5", "i7"}},
		{"?level=fmt", []string{"i6"}},
		{"?level=fmt&status=open,ignored", []string{"i2", "i6"}},
		{"?category=lint", []string{"i3"}},
		{"?category=style", []string{"i6"}},
		{"?category=style&status=ignored", []string{"i4"}},
		{"?category=style&status[]=open&status[]=ignored", []string{"i4", "i6"}},
		{"?category=secret,dependency_alert,vulnerability", []string{"i1", "i7"}},
		{"?category=performance", nil},
		{"?level=high&category=bug", []string{"i5"}}, // AND across parameters
		{"?level=high,medium&category=secret,structure", []string{"i1", "i8"}},
		{"?tool=eslint", []string{"i3", "i8"}}, // case-insensitive exact name
		{"?tool=ESLINT", []string{"i3", "i8"}},
		{"?tool=Golangci-Lint", []string{"i5", "i6"}},
		{"?tool=semgrep&level=high", []string{"i7"}},
		{"?tool=eslint,gitleaks", []string{"i1", "i3", "i8"}},
		{"?tool=eslint&tool[]=gitleaks", []string{"i1", "i3", "i8"}},
		{"?tool=lint", nil}, // not a substring match
		{"?tool=unknown-tool", nil},
		{"?tool=%E2%9C%93%20weird", nil},
		{"?tool=trivy&status=open,ignored", []string{"i2"}},
		{"?tool=eslint&status=ignored&level=note&category=style", []string{"i4"}},
		{"?unknown=1&page[offset]=", []string{"i1", "i3", "i5", "i6", "i7", "i8"}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			// JSON (a page, served from the issue index)…
			w.get(t, issuesPath+tt.query, w.Alice).wantJSON(t, http.StatusOK, w.list(false, tt.want...))
			// … and the NDJSON export (streamed from SQL) agree.
			r := w.get(t, issuesPath+tt.query, w.Alice, hdr("Accept", "application/x-ndjson")).wantStatus(t, http.StatusOK)
			assertJSON(t, []byte(mustJSON(ndjsonLines(t, r.Body))), w.rows(tt.want...))
			// … and a paged NDJSON.
			sep := "?"
			if tt.query != "" {
				sep = "&"
			}
			r = w.get(t, issuesPath+tt.query+sep+"page[limit]=100", w.Alice, hdr("Accept", "application/x-ndjson")).wantStatus(t, http.StatusOK)
			assertJSON(t, []byte(mustJSON(ndjsonLines(t, r.Body))), w.rows(tt.want...))
		})
	}
}

func TestListIssuesInvalid(t *testing.T) {
	w := newIssueWorld(t)
	tests := []struct {
		query   string
		details []string
	}{
		{"?level=critical", []string{`level has the unknown value "critical"`}},
		{"?level=HIGH", []string{`level has the unknown value "HIGH"`}}, // enum values are case-sensitive
		{"?level[]=critical", []string{`level has the unknown value "critical"`}},
		{"?level[3]=critical", []string{`level has the unknown value "critical"`}},
		{"?category=Bug", []string{`category has the unknown value "Bug"`}},
		{"?status=closed", []string{`status has the unknown value "closed"`}},
		{"?status=all", []string{`status has the unknown value "all"`}},
		{"?status=open,fixed", []string{`status has the unknown value "fixed"`}},
		{"?level=x,y", []string{`level has the unknown value "x"`, `level has the unknown value "y"`}},
		{"?level=x&category=y&status=z", []string{`level has the unknown value "x"`, `category has the unknown value "y"`, `status has the unknown value "z"`}},
		{"?category=y&page[limit]=0&page[offset]=-1", []string{`category has the unknown value "y"`, "page[limit]", "page[offset]"}},
		{"?level=critical&tool=anything", []string{`level has the unknown value "critical"`}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			r := w.get(t, issuesPath+tt.query, w.Alice).wantError(t, http.StatusBadRequest, tt.details...)
			// The detail says what is accepted.
			if strings.Contains(tt.query, "level=critical") && !strings.Contains(r.details(t)[0], "high, medium, low, note, fmt") {
				t.Errorf("detail %q does not list the accepted values", r.details(t)[0])
			}
			w.get(t, issuesPath+tt.query, w.Alice, hdr("Accept", "text/csv")).wantError(t, http.StatusBadRequest, tt.details...)
		})
	}
}

func TestListIssuesPagination(t *testing.T) {
	w := newIssueWorld(t)
	tests := []struct {
		query   string
		want    []string
		hasMore bool
	}{
		{"?page[limit]=2", []string{"i1", "i3"}, true},
		{"?page[limit]=2&page[offset]=4", []string{"i7", "i8"}, false},
		{"?page[limit]=2&page[offset]=3", []string{"i6", "i7"}, true},
		{"?page[limit]=6", []string{"i1", "i3", "i5", "i6", "i7", "i8"}, false},
		{"?page[limit]=5", []string{"i1", "i3", "i5", "i6", "i7"}, true},
		{"?page[offset]=6", nil, false},
		{"?level=high,medium&page[limit]=2&page[offset]=2", []string{"i7", "i8"}, false},
		{"?level=high,medium&page[limit]=2&page[offset]=1", []string{"i5", "i7"}, true},
		{"?status=ignored&page[limit]=1", []string{"i2"}, true},
		{"?status=ignored&page[limit]=1&page[offset]=1", []string{"i4"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			w.get(t, issuesPath+tt.query, w.Alice).wantJSON(t, http.StatusOK, w.list(tt.hasMore, tt.want...))
		})
	}
	t.Run("next link keeps the filters and works", func(t *testing.T) {
		r := w.get(t, issuesPath+"?level=high,medium&tool[]=semgrep&tool[]=gitleaks&page[limit]=1", w.Alice)
		r.wantJSON(t, http.StatusOK, w.list(true, "i1"))
		next := r.links(t)["next"]
		u, err := url.Parse(next)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		if q.Get("level") != "high,medium" || strings.Join(q["tool[]"], ",") != "semgrep,gitleaks" || q.Get("page[offset]") != "1" || q.Get("page[limit]") != "1" {
			t.Errorf("next link %q", next)
		}
		r = w.get(t, next, w.Alice)
		r.wantJSON(t, http.StatusOK, w.list(false, "i7"))
		prev := r.links(t)["prev"]
		w.get(t, prev, w.Alice).wantJSON(t, http.StatusOK, w.list(true, "i1"))
	})
}

func TestListIssuesFormats(t *testing.T) {
	w := newIssueWorld(t)
	t.Run("NDJSON", func(t *testing.T) {
		r := w.get(t, issuesPath+"?status=open,ignored", w.Alice, hdr("Accept", "application/x-ndjson")).wantStatus(t, http.StatusOK)
		if ct := r.Header.Get("Content-Type"); ct != "application/x-ndjson" {
			t.Errorf("Content-Type %q", ct)
		}
		lines := strings.Split(strings.TrimSuffix(string(r.Body), "\n"), "\n")
		if len(lines) != 8 {
			t.Fatalf("%d lines, want 8 (no meta line): %q", len(lines), r.Body)
		}
		// Each line is exactly the object of the JSON form's data.
		j := dataOf(t, w.get(t, issuesPath+"?status=open,ignored", w.Alice))
		for i, line := range lines {
			assertJSON(t, []byte(line), mustJSON(j[i]))
		}
	})
	t.Run("CSV", func(t *testing.T) {
		r := w.get(t, issuesPath+"?status=open,ignored", w.Alice, hdr("Accept", "text/csv")).wantStatus(t, http.StatusOK)
		if ct := r.Header.Get("Content-Type"); ct != "text/csv; charset=utf-8" {
			t.Errorf("Content-Type %q", ct)
		}
		id := func(fp string) string { return w.issues[fp].ID }
		want := "id,fingerprint,tool,ruleKey,message,category,level,status,documentationUrl,location.path,location.startLine,location.endLine\r\n" +
			id("i1") + ",i1,gitleaks,aws-key,AWS key,secret,medium,open,,config/.env,1,1\r\n" +
			id("i2") + ",i2,trivy,CVE-2026-0001,vulnerable dependency,dependency_alert,fmt,ignored,https://avd.aquasec.com/nvd/cve-2026-0001,go.mod,,\r\n" +
			id("i3") + ",i3,eslint,no-unused-vars,x is unused,lint,low,open,https://eslint.org/docs/rules/no-unused-vars,src/a.js,3,3\r\n" +
			id("i4") + ",i4,eslint,eqeqeq,Use ===,style,note,ignored,,src/a.js,5,\r\n" +
			id("i5") + ",i5,golangci-lint,errcheck,Error return value is not checked,bug,high,open,,src/b.go,10,12\r\n" +
			id("i6") + ",i6,golangci-lint,gofmt,not gofmt-ed,style,fmt,open,,src/b.go,20,\r\n" +
			// RFC 4180: quotes doubled, the field quoted, its line breaks kept as they are.
			id("i7") + ",i7,Semgrep,sql-injection,\"say \"\"hi\"\", then\nbye;\r\nlone\rCR\",vulnerability,high,open,,src/c.py,,\r\n" +
			id("i8") + ",i8,ESLint,complexity,Too complex,structure,medium,open,,src/d.js,,\r\n"
		if string(r.Body) != want {
			t.Errorf("CSV\n%q\nwant\n%q", r.Body, want)
		}
		recs := csvRecords(t, r.Body)
		if len(recs) != 9 || recs[7][4] != strings.ReplaceAll(w.issues["i7"].Message, "\r\n", "\n") {
			t.Errorf("CSV does not parse back: %q", recs)
		}
	})
	t.Run("CSV page", func(t *testing.T) {
		r := w.get(t, issuesPath+"?page[limit]=1&page[offset]=1", w.Alice, hdr("Accept", "text/csv")).wantStatus(t, http.StatusOK)
		recs := csvRecords(t, r.Body)
		if len(recs) != 2 || recs[1][1] != "i3" {
			t.Errorf("CSV page %q", recs)
		}
		if r.links(t)["next"] == "" || r.links(t)["prev"] == "" {
			t.Errorf("CSV page links %q", r.Header.Get("Link"))
		}
	})
}

func TestListIssuesCurrentSnapshot(t *testing.T) {
	w := newIssueWorld(t)
	t.Run("another project's issues are not listed", func(t *testing.T) {
		var fps []string
		for _, d := range dataOf(t, w.get(t, "/gh/acme/projects/api/issues", w.Alice)) {
			fps = append(fps, d.(map[string]any)["fingerprint"].(string))
		}
		if fmt.Sprint(fps) != "[api]" {
			t.Errorf("api issues %v", fps)
		}
	})
	t.Run("a project without analysis has no issues", func(t *testing.T) {
		w.project(t, plumb.ProjectInput{Workspace: "acme", Key: "empty"})
		w.get(t, "/gh/acme/projects/empty/issues", w.Alice).wantJSON(t, http.StatusOK, `{"data":[],"meta":{"hasMore":false}}`)
		r := w.get(t, "/gh/acme/projects/empty/issues", w.Alice, hdr("Accept", "text/csv"))
		if string(r.Body) != "id,fingerprint,tool,ruleKey,message,category,level,status,documentationUrl,location.path,location.startLine,location.endLine\r\n" {
			t.Errorf("empty CSV %q", r.Body)
		}
	})
	t.Run("a new default-branch analysis replaces the list at once", func(t *testing.T) {
		// Read once so the project's issue index is cached.
		w.get(t, issuesPath+"?page[limit]=1", w.Alice).wantJSON(t, http.StatusOK, w.list(true, "i1"))
		id := sqlstore.NewID()
		w.snapshot(t, plumb.SnapshotInput{ProjectID: w.Web.ID, Branch: "main", CommitSHA: "c9", AnalyzedAt: t0,
			Issues: []plumb.Issue{{ID: id, Fingerprint: "n1", Tool: "eslint", RuleKey: "r", Message: "new", Category: "lint", Level: "low", Path: "n.js"}}})
		w.get(t, issuesPath+"?page[limit]=1", w.Alice).wantJSON(t, http.StatusOK, mustJSON(map[string]any{
			"data": []any{map[string]any{"id": id, "fingerprint": "n1", "tool": "eslint", "ruleKey": "r", "message": "new",
				"category": "lint", "level": "low", "status": "open", "location": map[string]any{"path": "n.js"}}},
			"meta": map[string]any{"hasMore": false}}))
	})
}

// TestListIssuesLarge: JSON pages are capped at 100; exports without
// page[limit] have every row.
func TestListIssuesLarge(t *testing.T) {
	w := newWorld(t)
	const n = 250
	in := make([]plumb.Issue, n)
	for i := range in {
		in[i] = plumb.Issue{Fingerprint: fmt.Sprintf("f%03d", i), Tool: "t", RuleKey: "r", Message: "m", Category: "lint",
			Level: plumb.IssueLevels[i%5], Path: fmt.Sprintf("f%03d.go", i), StartLine: ptr(i + 1)}
	}
	w.snapshot(t, plumb.SnapshotInput{ProjectID: w.Web.ID, Branch: "main", CommitSHA: "c1", AnalyzedAt: t0, Issues: in})
	fps := func(rows []any) []string {
		var out []string
		for _, r := range rows {
			out = append(out, r.(map[string]any)["fingerprint"].(string))
		}
		return out
	}
	want := func(from, to, step int) string {
		var out []string
		for i := from; i < to; i += step {
			out = append(out, fmt.Sprintf("f%03d", i))
		}
		return fmt.Sprint(out)
	}
	if got := fps(dataOf(t, w.get(t, issuesPath+"?page[limit]=100&page[offset]=200", w.Alice))); fmt.Sprint(got) != want(200, 250, 1) {
		t.Errorf("last page %v", got)
	}
	if got := fps(dataOf(t, w.get(t, issuesPath, w.Alice))); fmt.Sprint(got) != want(0, 20, 1) {
		t.Errorf("default page %v", got)
	}
	r := w.get(t, issuesPath, w.Alice, hdr("Accept", "application/x-ndjson"))
	if got := fps(ndjsonLines(t, r.Body)); fmt.Sprint(got) != want(0, 250, 1) {
		t.Errorf("export has %d rows", len(got))
	}
	r = w.get(t, issuesPath+"?level=high&page[offset]=10", w.Alice, hdr("Accept", "application/x-ndjson"))
	if got := fps(ndjsonLines(t, r.Body)); fmt.Sprint(got) != want(50, 250, 5) {
		t.Errorf("filtered export from offset 10: %v", got)
	}
	r = w.get(t, issuesPath+"?level=high&page[offset]=10&page[limit]=3", w.Alice)
	if got := fps(dataOf(t, r)); fmt.Sprint(got) != want(50, 65, 5) {
		t.Errorf("filtered page from offset 10: %v", got)
	}
	r = w.get(t, issuesPath, w.Alice, hdr("Accept", "text/csv"))
	if recs := csvRecords(t, r.Body); len(recs) != 251 {
		t.Errorf("CSV export has %d records", len(recs))
	}
}
