package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
)

// A file's history charts: the metrics page with ?file=, linked from the
// file page, charting the file alone (its figures at each default-branch
// analysis, its coverage at each default-branch upload naming it).
func TestFileHistoryPage(t *testing.T) {
	f := filesSite(t, nil, nil, nil)
	ctx := context.Background()
	week := t0.AddDate(0, 0, 7)
	if _, err := f.DB.AddSnapshot(ctx, plumb.SnapshotInput{ProjectID: f.ProjectID, Branch: "main", CommitSHA: strings.Repeat("2", 40), AnalyzedAt: week,
		Files: []plumb.FileFigures{{Path: "cmd/main.go", Lines: 14, LOC: 12, Complexity: 5}}}); err != nil {
		t.Fatal(err)
	}
	f.Clock.Set(week.Add(24 * time.Hour))
	b := f.browser(t)
	b.signIn("ada", filesPassword)
	const proj = "/w/oss/plumb"
	b.get(proj+"/files/cmd/main.go").want(t, 200, `href="/w/oss/plumb/metrics?file=cmd%2Fmain.go">This file's history</a>`)
	all := b.get(proj + "/metrics?file=cmd%2Fmain.go&window=1m")
	all.want(t, 200, "Metrics of file <code>cmd/main.go</code> in oss/plumb", "Cognitive Complexity", "Line Coverage",
		`<a href="/w/oss/plumb/files/cmd/main.go">cmd/main.go</a> alone`)
	if strings.Contains(all.Body, "(FILES") {
		t.Error("a file's history charts the number of files")
	}
	// The complexity of each week: 3 at the first analysis, 5 at the second.
	cx := b.get(proj + "/metrics?file=cmd/main.go&window=1m&interval=week&metric=CMPLX")
	cx.want(t, 200, "<td>3</td>", "<td>5</td>")
	if strings.Contains(cx.Body, "<td>12</td>") {
		t.Error("the whole project's complexity (3 + 12 in the first week) is charted instead of the file's")
	}
	// Coverage: 3 of 4 coverable lines in both tags together.
	b.get(proj+"/metrics?file=cmd/main.go&window=1m&metric=LCOV").want(t, 200, "<td>75%</td>")

	// A file no default-branch analysis or coverage has: empty charts that say why.
	b.get(proj+"/metrics?file=cmd/nope.go").want(t, 200, "No analysis or coverage upload of the default branch has this file")
	b.get(proj+"/metrics?file=../etc/passwd").want(t, 400, "..")
	b.get(proj+"/metrics?file=cmd/main.go&component=cli").want(t, 404) // no such component: checked first
	if _, err := f.DB.CreateComponent(ctx, plumb.Component{ProjectID: f.ProjectID, Name: "cli", PathGlobs: []string{"cmd/*"}, CreatorID: "ada"}); err != nil {
		t.Fatal(err)
	}
	b.get(proj+"/metrics?file=cmd/main.go&component=cli").want(t, 400, "not both")
	// An outsider sees nothing of it.
	eve := f.browser(t)
	eve.signIn("eve", filesPassword)
	eve.get(proj+"/metrics?file=cmd/main.go").want(t, 404)
}
