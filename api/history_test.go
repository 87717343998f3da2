package api_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

var issueID = regexp.MustCompile(`"id":"[0-9a-f-]{36}"`)

// History in any order (docs/ingest.md, "Dated uploads and history"): a year
// of weekly analyses and coverage uploads of the default branch, sent in time
// order to one server and shuffled to another, give the same project and
// component series, the same current file metrics and the same current
// issues. The newest analysis stays current whatever arrived after it.
func TestIngestHistoryInAnyOrder(t *testing.T) {
	type upload struct {
		kind, query, body string
	}
	start := time.Date(2025, 3, 3, 12, 0, 0, 0, time.UTC)
	var uploads []upload
	for week := range 52 {
		at := start.AddDate(0, 0, 7*week).Format(time.RFC3339)
		sha := fmt.Sprintf("%040x", week+1)
		// The tree grows: store.go every week, a new file every 8 weeks.
		var files []string
		files = append(files, fmt.Sprintf(`{"path":"store/store.go","lines":%d,"loc":%d,"complexity":%d}`, 100+week*3, 80+week*2, 10+week%7))
		for f := 0; f <= week/8; f++ {
			files = append(files, fmt.Sprintf(`{"path":"lib/f%d.go","lines":%d,"loc":%d,"complexity":%d}`, f, 40+f, 30+f, f))
		}
		uploads = append(uploads, upload{"analysis", "", `{"commitSha":"` + sha + `","branch":"main","analyzedAt":"` + at + `","files":[` + strings.Join(files, ",") + `]}`})
		covered := min(week, 9)
		report := "SF:store/store.go\n"
		for l := 1; l <= 10; l++ {
			hits := 0
			if l <= covered {
				hits = 1
			}
			report += fmt.Sprintf("DA:%d,%d\n", l, hits)
		}
		report += "end_of_record\n"
		uploads = append(uploads, upload{"coverage", ingQuery("commitSha", sha, "branch", "main", "uploadedAt", at), report})
	}
	// Findings of a tool on the newest commit only.
	newest := fmt.Sprintf("%040x", 52)

	run := func(order []upload) map[string]string {
		w := newIngWorld(t)
		w.setComponents(t, "acme/web", true)
		w.do(t, http.MethodPost, "/gh/acme/projects/web/components", w.Carol, jsonBody, `{"name":"lib","pathGlobs":["lib/*"]}`).
			wantStatus(t, http.StatusCreated)
		for _, u := range order {
			switch u.kind {
			case "analysis":
				w.do(t, http.MethodPost, ingWeb+"/analyses", w.Upload, map[string]string{"Content-Type": "application/json"}, u.body).
					wantStatus(t, http.StatusCreated)
			default:
				w.postCoverage(t, w.Upload, u.query, nil, u.body).wantStatus(t, http.StatusCreated)
			}
		}
		w.do(t, http.MethodPost, ingWeb+"/sarif?"+ingQuery("commitSha", newest, "branch", "main", "analyzedAt", start.AddDate(0, 0, 7*51).Format(time.RFC3339)),
			w.Upload, nil, readSARIF(t, "staticcheck.sarif")).wantStatus(t, http.StatusCreated)
		out := map[string]string{}
		for _, path := range []string{
			"/gh/acme/projects/web/metrics/series?interval=week&from=2025-03-01T00:00:00Z&to=2026-03-01T00:00:00Z&metric=FILES,LOC,CMPLX,LCOV,COV",
			"/gh/acme/projects/web/components/lib/metrics/series?interval=month&from=2025-03-01T00:00:00Z&to=2026-03-01T00:00:00Z&metric=FILES,LOC",
			"/gh/acme/projects/web/metrics",
			"/gh/acme/projects/web/files?path=store/store.go",
			"/gh/acme/projects/web/issues?page[limit]=100",
		} {
			// Issue ids are new UUIDs on each server; the rest must match.
			out[path] = issueID.ReplaceAllString(string(w.get(t, path, w.Alice).wantStatus(t, http.StatusOK).Body), `"id":"…"`)
		}
		return out
	}
	inOrder := run(uploads)
	shuffled := append([]upload(nil), uploads...)
	rand.New(rand.NewPCG(7, 11)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	anyOrder := run(shuffled)
	for path, want := range inOrder {
		if got := anyOrder[path]; got != want {
			t.Errorf("%s differs when the history arrives shuffled:\n got: %s\nwant: %s", path, got, want)
		}
	}
	// The series are not empty: 52 weekly measurements of FILES.
	if n := strings.Count(inOrder["/gh/acme/projects/web/metrics/series?interval=week&from=2025-03-01T00:00:00Z&to=2026-03-01T00:00:00Z&metric=FILES,LOC,CMPLX,LCOV,COV"], `"key":"FILES"`); n == 0 {
		t.Errorf("no FILES series points: %s", inOrder["/gh/acme/projects/web/metrics/series?interval=week&from=2025-03-01T00:00:00Z&to=2026-03-01T00:00:00Z&metric=FILES,LOC,CMPLX,LCOV,COV"])
	}
}

// A SARIF upload then an analysis of the same commit without SARIF: the
// analysis keeps the SARIF tools' issues and says so; an analysis bringing
// that tool's own issues replaces them.
func TestIngestAnalysisKeepsSARIFIssues(t *testing.T) {
	w := newIngWorld(t)
	q := ingQuery("commitSha", ingSha, "branch", "main")
	w.do(t, http.MethodPost, ingWeb+"/sarif?"+q, w.Upload, nil, readSARIF(t, "staticcheck.sarif")).wantStatus(t, http.StatusCreated)
	if n := len(w.issueKeys(t, "open")); n != 6 {
		t.Fatalf("%d open issues after the SARIF upload, want 6", n)
	}
	post := func(body string) map[string]any {
		t.Helper()
		r := w.do(t, http.MethodPost, ingWeb+"/analyses", w.Upload, map[string]string{"Content-Type": "application/json"}, body).
			wantStatus(t, http.StatusCreated)
		var snap map[string]any
		mustUnmarshal(t, r.Body, &snap)
		return snap
	}
	w.Clock.Advance(time.Minute)
	snap := post(`{"commitSha":"` + ingSha + `","branch":"main","files":[{"path":"store/store.go","lines":120,"loc":90}]}`)
	if fmt.Sprint(snap["keptIssues"]) != "map[staticcheck:6]" || fmt.Sprint(snap["replacedIssues"]) != "map[]" || snap["issues"] != 0.0 || snap["current"] != true {
		t.Errorf("analysis without SARIF: %v", snap)
	}
	if n := len(w.issueKeys(t, "open")); n != 6 {
		t.Errorf("%d open issues after an analysis without SARIF, want the 6 of the SARIF upload", n)
	}
	// The same tool in the analysis replaces its issues.
	w.Clock.Advance(time.Minute)
	snap = post(`{"commitSha":"` + ingSha + `","branch":"main","files":[{"path":"store/store.go","lines":120,"loc":90}],"sarif":[` + readSARIF(t, "staticcheck.sarif") + `]}`)
	if fmt.Sprint(snap["keptIssues"]) != "map[]" || fmt.Sprint(snap["replacedIssues"]) != "map[staticcheck:6]" || snap["issues"] != 6.0 {
		t.Errorf("analysis with the same tool: %v", snap)
	}
	if n := len(w.issueKeys(t, "open")); n != 6 {
		t.Errorf("%d open issues after replacing, want 6", n)
	}
	// Another commit starts afresh: nothing to keep.
	w.Clock.Advance(time.Minute)
	snap = post(`{"commitSha":"` + ingShaOld + `","branch":"main","files":[{"path":"store/store.go","lines":120,"loc":90}]}`)
	if fmt.Sprint(snap["keptIssues"]) != "map[]" {
		t.Errorf("analysis of another commit: %v", snap)
	}
	if n := len(w.issueKeys(t, "open")); n != 0 {
		t.Errorf("%d open issues on a new commit without findings, want 0", n)
	}
}
