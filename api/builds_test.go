package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
)

type buildWorld struct {
	*world
	b map[string]plumb.Build
}

// newBuildWorld stores six builds of acme/web (and one of acme/api). The
// clock is at t0.
func newBuildWorld(t *testing.T) *buildWorld {
	w := &buildWorld{world: newWorld(t), b: map[string]plumb.Build{}}
	at := func(d time.Duration) *time.Time { v := t0.Add(d); return &v }
	add := func(name string, b plumb.Build) {
		b.ProjectID = w.Web.ID
		w.b[name] = w.build(t, b)
	}
	add("succeeded", plumb.Build{ID: "01900000-0000-7000-8000-000000000001", Type: "analysis", Status: "succeeded",
		BranchName: "main", CommitSHA: "1111111111111111111111111111111111111111", CommitMessage: "Fix bug",
		SubmittedAt: t0.Add(-3 * time.Hour), StartedAt: at(-3*time.Hour + 30*time.Second), FinishedAt: at(-3*time.Hour + 330*time.Second),
		Conclusion: ptr("succeeded"), ExitCode: ptr(0), Source: "github-actions", CommitterLogin: "alice"})
	add("failed", plumb.Build{ID: "01900000-0000-7000-8000-000000000002", Type: "format", Status: "failed",
		BranchName: "feature/x", CommitSHA: "2222222222222222222222222222222222222222", CommitMessage: "Multi\nline, \"quoted\"",
		SubmittedAt: t0.Add(-2 * time.Hour), StartedAt: at(-2*time.Hour + 10*time.Second), FinishedAt: at(-2*time.Hour + 70*time.Second),
		StatusReason: ptr("gofmt found 3 files"), Conclusion: ptr("failed"), ExitCode: ptr(1), Source: "cli",
		PullRequestNumber: ptr(42), CommitterLogin: "bob"})
	add("running", plumb.Build{ID: "01900000-0000-7000-8000-000000000003", Type: "analysis", Status: "running",
		BranchName: "main", CommitSHA: "3333333333333333333333333333333333333333", CommitMessage: "WIP",
		SubmittedAt: t0.Add(-time.Hour), StartedAt: at(-time.Hour + 2*time.Minute)})
	add("rejected", plumb.Build{ID: "01900000-0000-7000-8000-000000000006", Type: "analysis", Status: "rejected",
		BranchName: "main", CommitSHA: "6666666666666666666666666666666666666666",
		SubmittedAt: t0.Add(-time.Hour), FinishedAt: at(-time.Hour), StatusReason: ptr("quota exceeded")})
	add("submitted", plumb.Build{ID: "01900000-0000-7000-8000-000000000004", Type: "ssh", Status: "submitted",
		BranchName: "main", CommitSHA: "4444444444444444444444444444444444444444", CommitMessage: "Queued",
		SubmittedAt: t0.Add(-10 * time.Minute)})
	add("skipped", plumb.Build{ID: "01900000-0000-7000-8000-000000000005", Type: "coverage_setup", Status: "skipped",
		BranchName: "main", CommitSHA: "5555555555555555555555555555555555555555", CommitMessage: "Skip",
		SubmittedAt: t0.Add(-30 * time.Minute), FinishedAt: at(-29 * time.Minute), StatusReason: ptr("no coverage configured")})
	w.build(t, plumb.Build{ProjectID: w.API.ID, Type: "analysis", Status: "running", BranchName: "main", CommitSHA: "9", SubmittedAt: t0})
	return w
}

func nullable[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

func tsPtr(p *time.Time) any {
	if p == nil {
		return nil
	}
	return tsf(*p)
}

// buildEntry is the list entry of a build: exactly the spec's "in list" fields.
func buildEntry(b plumb.Build, queue int64) map[string]any {
	return map[string]any{"id": b.ID, "type": b.Type, "status": b.Status, "branchName": b.BranchName, "commitSha": b.CommitSHA,
		"commitMessage": b.CommitMessage, "submittedAt": tsf(b.SubmittedAt), "finishedAt": tsPtr(b.FinishedAt), "queueSeconds": queue}
}

// buildFull is the single-build object: every field.
func buildFull(b plumb.Build, queue int64, exec any) map[string]any {
	m := buildEntry(b, queue)
	m["statusReason"] = nullable(b.StatusReason)
	m["conclusion"] = nullable(b.Conclusion)
	m["exitCode"] = nullable(b.ExitCode)
	m["source"] = b.Source
	m["pullRequestNumber"] = nullable(b.PullRequestNumber)
	m["committerLogin"] = b.CommitterLogin
	m["startedAt"] = tsPtr(b.StartedAt)
	m["executionSeconds"] = exec
	return m
}

// queue is each fixture build's queueSeconds at t0, and exec its executionSeconds.
var (
	queueAtT0  = map[string]int64{"succeeded": 30, "failed": 10, "running": 120, "rejected": 0, "submitted": 600, "skipped": 60}
	execOf     = map[string]any{"succeeded": 300, "failed": 60, "running": nil, "rejected": nil, "submitted": nil, "skipped": nil}
	buildOrder = []string{"submitted", "skipped", "rejected", "running", "failed", "succeeded"}
)

func (w *buildWorld) list(hasMore bool, names ...string) string {
	data := []any{}
	for _, n := range names {
		data = append(data, buildEntry(w.b[n], queueAtT0[n]))
	}
	return mustJSON(map[string]any{"data": data, "meta": map[string]any{"hasMore": hasMore}})
}

const buildsPath = "/gh/acme/projects/web/builds"

func TestListBuilds(t *testing.T) {
	w := newBuildWorld(t)
	tests := []struct {
		query   string
		want    []string
		hasMore bool
	}{
		// Most recently submitted first, then id descending.
		{"", buildOrder, false},
		{"?status=", buildOrder, false},
		{"?status=failed", []string{"failed"}, false},
		{"?status=running", []string{"running"}, false},
		{"?status=submitted", []string{"submitted"}, false},
		{"?status=starting", nil, false},
		{"?page[limit]=2", []string{"submitted", "skipped"}, true},
		{"?page[limit]=2&page[offset]=2", []string{"rejected", "running"}, true},
		{"?page[limit]=2&page[offset]=4", []string{"failed", "succeeded"}, false},
		{"?page[limit]=3&page[offset]=3", []string{"running", "failed", "succeeded"}, false},
		{"?status=succeeded&page[limit]=1", []string{"succeeded"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			w.get(t, buildsPath+tt.query, w.Alice).wantJSON(t, http.StatusOK, w.list(tt.hasMore, tt.want...))
		})
	}
	invalid := []struct {
		query   string
		details []string
	}{
		{"?status=queued", []string{`status has the unknown value "queued"`}},
		{"?status=FAILED", []string{`status has the unknown value "FAILED"`}},
		{"?status=failed&status=running", []string{"status takes one value"}},
		{"?status=failed,running", []string{`status has the unknown value "failed,running"`}},
		{"?status=bogus&page[limit]=101", []string{"status", "page[limit]"}},
	}
	for _, tt := range invalid {
		t.Run(tt.query, func(t *testing.T) {
			r := w.get(t, buildsPath+tt.query, w.Alice).wantError(t, http.StatusBadRequest, tt.details...)
			if strings.Contains(tt.query, "queued") && !strings.Contains(r.details(t)[0], "submitted, starting, running, succeeded, failed, skipped, rejected") {
				t.Errorf("detail %q does not list the accepted values", r.details(t)[0])
			}
		})
	}
	t.Run("next link keeps the filter", func(t *testing.T) {
		w2 := newBuildWorld(t)
		for i := 0; i < 3; i++ {
			w2.build(t, plumb.Build{ProjectID: w2.Web.ID, Type: "analysis", Status: "failed", BranchName: "main", CommitSHA: "x",
				SubmittedAt: t0.Add(-time.Duration(i+5) * time.Hour)})
		}
		r := w2.get(t, buildsPath+"?status=failed&page[limit]=2", w2.Alice).wantStatus(t, http.StatusOK)
		next := r.links(t)["next"]
		if !strings.Contains(next, "status=failed") {
			t.Fatalf("next link %q", next)
		}
		r = w2.get(t, next, w2.Alice)
		if d := dataOf(t, r); len(d) != 2 {
			t.Errorf("second page has %d builds", len(d))
		}
	})
	t.Run("queueSeconds of a queued build grows with time", func(t *testing.T) {
		w.Clock.Advance(100 * time.Second)
		defer w.Clock.Advance(-100 * time.Second)
		d := dataOf(t, w.get(t, buildsPath+"?status=submitted", w.Alice))
		assertJSON(t, []byte(mustJSON(d)), mustJSON([]any{buildEntry(w.b["submitted"], 700)}))
		// A started or finished one does not change.
		d = dataOf(t, w.get(t, buildsPath+"?status=skipped", w.Alice))
		assertJSON(t, []byte(mustJSON(d)), mustJSON([]any{buildEntry(w.b["skipped"], 60)}))
	})
	t.Run("NDJSON", func(t *testing.T) {
		r := w.get(t, buildsPath, w.Alice, hdr("Accept", "application/x-ndjson")).wantStatus(t, http.StatusOK)
		var want []any
		for _, n := range buildOrder {
			want = append(want, buildEntry(w.b[n], queueAtT0[n]))
		}
		assertJSON(t, []byte(mustJSON(ndjsonLines(t, r.Body))), mustJSON(want))
	})
	t.Run("CSV", func(t *testing.T) {
		r := w.get(t, buildsPath, w.Alice, hdr("Accept", "text/csv")).wantStatus(t, http.StatusOK)
		want := "id,type,status,branchName,commitSha,commitMessage,submittedAt,finishedAt,queueSeconds\r\n" +
			"01900000-0000-7000-8000-000000000004,ssh,submitted,main,4444444444444444444444444444444444444444,Queued,2026-03-02T09:50:00Z,,600\r\n" +
			"01900000-0000-7000-8000-000000000005,coverage_setup,skipped,main,5555555555555555555555555555555555555555,Skip,2026-03-02T09:30:00Z,2026-03-02T09:31:00Z,60\r\n" +
			"01900000-0000-7000-8000-000000000006,analysis,rejected,main,6666666666666666666666666666666666666666,,2026-03-02T09:00:00Z,2026-03-02T09:00:00Z,0\r\n" +
			"01900000-0000-7000-8000-000000000003,analysis,running,main,3333333333333333333333333333333333333333,WIP,2026-03-02T09:00:00Z,,120\r\n" +
			"01900000-0000-7000-8000-000000000002,format,failed,feature/x,2222222222222222222222222222222222222222,\"Multi\nline, \"\"quoted\"\"\",2026-03-02T08:00:00Z,2026-03-02T08:01:10Z,10\r\n" +
			"01900000-0000-7000-8000-000000000001,analysis,succeeded,main,1111111111111111111111111111111111111111,Fix bug,2026-03-02T07:00:00Z,2026-03-02T07:05:30Z,30\r\n"
		if string(r.Body) != want {
			t.Errorf("CSV\n%q\nwant\n%q", r.Body, want)
		}
	})
	t.Run("a project without builds", func(t *testing.T) {
		w.get(t, "/gh/acme/projects/api/builds?status=failed", w.Alice).wantJSON(t, http.StatusOK, `{"data":[],"meta":{"hasMore":false}}`)
	})
}

func TestGetBuild(t *testing.T) {
	w := newBuildWorld(t)
	for _, n := range buildOrder {
		t.Run(n, func(t *testing.T) {
			want := mustJSON(buildFull(w.b[n], queueAtT0[n], execOf[n]))
			w.get(t, buildsPath+"/"+w.b[n].ID, w.Alice).wantJSON(t, http.StatusOK, want)
		})
	}
	t.Run("exact fields of a finished build", func(t *testing.T) {
		w.get(t, buildsPath+"/"+w.b["failed"].ID, w.Alice).wantJSON(t, http.StatusOK, `{
			"id":"01900000-0000-7000-8000-000000000002","type":"format","status":"failed","branchName":"feature/x",
			"commitSha":"2222222222222222222222222222222222222222","commitMessage":"Multi\nline, \"quoted\"",
			"submittedAt":"2026-03-02T08:00:00Z","finishedAt":"2026-03-02T08:01:10Z","queueSeconds":10,
			"statusReason":"gofmt found 3 files","conclusion":"failed","exitCode":1,"source":"cli","pullRequestNumber":42,
			"committerLogin":"bob","startedAt":"2026-03-02T08:00:10Z","executionSeconds":60}`)
	})
	t.Run("an unfinished build has nulls", func(t *testing.T) {
		w.get(t, buildsPath+"/"+w.b["submitted"].ID, w.Alice).wantJSON(t, http.StatusOK, `{
			"id":"01900000-0000-7000-8000-000000000004","type":"ssh","status":"submitted","branchName":"main",
			"commitSha":"4444444444444444444444444444444444444444","commitMessage":"Queued",
			"submittedAt":"2026-03-02T09:50:00Z","finishedAt":null,"queueSeconds":600,
			"statusReason":null,"conclusion":null,"exitCode":null,"source":"","pullRequestNumber":null,
			"committerLogin":"","startedAt":null,"executionSeconds":null}`)
	})
	t.Run("by project id and workspace id", func(t *testing.T) {
		want := mustJSON(buildFull(w.b["running"], 120, nil))
		w.get(t, "/gh/"+w.Acme.ID+"/projects/"+w.Web.ID+"/builds/"+w.b["running"].ID, w.Alice).wantJSON(t, http.StatusOK, want)
	})
	t.Run("not found", func(t *testing.T) {
		for _, id := range []string{
			"01900000-0000-7000-8000-000000000009", // unknown
			"abc",                                  // not a UUID
			"not-a-uuid-at-all",
			"01900000-0000-7000-8000-00000000000",   // one digit short
			"01900000-0000-7000-8000-0000000000011", // one digit long
		} {
			w.get(t, buildsPath+"/"+id, w.Alice).wantError(t, http.StatusNotFound, "was not found")
		}
		// A build of another project of the same workspace.
		apiBuilds := dataOf(t, w.get(t, "/gh/acme/projects/api/builds", w.Alice))
		id := apiBuilds[0].(map[string]any)["id"].(string)
		w.get(t, buildsPath+"/"+id, w.Alice).wantStatus(t, http.StatusNotFound)
		w.get(t, "/gh/acme/projects/api/builds/"+id, w.Alice).wantStatus(t, http.StatusOK)
	})
}
