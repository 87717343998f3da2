package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/plumbhq/plumb"
)

// CSV exports neutralise cells a spreadsheet would run as formulas: a cell
// starting with = + - @, a tab or a CR, that is not a number, gets a leading
// apostrophe. JSON keeps the values as they are.
func TestCSVFormulaInjection(t *testing.T) {
	w := newWorld(t)
	evil := []struct{ message, want string }{
		{`=HYPERLINK("http://evil.example","click")`, `"'=HYPERLINK(""http://evil.example"",""click"")"`},
		{"+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"},
		{"-2+3", "'-2+3"},
		{"@SUM(A1:A9)", "'@SUM(A1:A9)"},
		{"\t=1", "'\t=1"},
		{"\r=1", "\"'\r=1\""},
		{"-3.5", "-3.5"}, // a number stays a number
		{"a=b", "a=b"},
	}
	var issues []plumb.Issue
	for i, e := range evil {
		issues = append(issues, plumb.Issue{Fingerprint: string(rune('a' + i)), Tool: "semgrep", RuleKey: "r", Message: e.message,
			Category: "lint", Level: "low", Path: "src/x.go", Status: "open"})
	}
	w.snapshot(t, plumb.SnapshotInput{ProjectID: w.Web.ID, Branch: "main", CommitSHA: "c1", AnalyzedAt: t0, Issues: issues})

	r := w.get(t, "/gh/acme/projects/web/issues?sort=fingerprint", w.Alice, hdr("Accept", "text/csv")).wantStatus(t, http.StatusOK)
	body := string(r.Body)
	for _, e := range evil {
		if !strings.Contains(body, ",r,"+e.want+",lint,") {
			t.Errorf("message %q: CSV lacks the cell %q:\n%s", e.message, e.want, body)
		}
	}
	// JSON and NDJSON carry the message unchanged.
	for _, d := range dataOf(t, w.get(t, "/gh/acme/projects/web/issues?page[limit]=100", w.Alice)) {
		m := d.(map[string]any)["message"].(string)
		if strings.HasPrefix(m, "'") {
			t.Errorf("JSON message %q has the CSV apostrophe", m)
		}
	}
}

// Error details write < > & as they are, not as \u003c escapes.
func TestErrorDetailsReadable(t *testing.T) {
	w := newWorld(t)
	r := w.get(t, "/gh/acme/projects/web/issues?level=<script>&", w.Alice).wantStatus(t, http.StatusBadRequest)
	if strings.Contains(string(r.Body), `\u003c`) || !strings.Contains(string(r.Body), "<script>") {
		t.Errorf("error body %s", r.Body)
	}
}
