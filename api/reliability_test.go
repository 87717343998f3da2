package api_test

// Issue 19, items 14 to 19: what a hostile or unlucky client still broke.

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// storedRows counts the rows every upload kind writes, published or not,
// so a test can tell that a refused upload left nothing behind.
func storedRows(t *testing.T, ts *testServer) string {
	t.Helper()
	db := rawDB(t, ts)
	var out []string
	for _, table := range []string{"snapshots", "issues", "coverage_uploads", "coverage_files", "staged_coverage_files", "file_versions"} {
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
