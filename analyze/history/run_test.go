package history

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/plumbhq/plumb/analyze"
	"github.com/plumbhq/plumb/gitrepo"
	"github.com/plumbhq/plumb/internal/testtool"
)

// fakeServer has analyses of the commits in has; it records what it is
// asked and sent.
type fakeServer struct {
	def    string
	has    map[string]bool
	asked  [][]string
	sent   []string // "sha branch files"
	refuse error
}

func (s *fakeServer) Analysed(_ context.Context, branch string, shas []string) (string, []string, error) {
	s.asked = append(s.asked, shas)
	var have []string
	for _, sha := range shas {
		if s.has[sha] {
			have = append(have, sha)
		}
	}
	return s.def, have, nil
}

func (s *fakeServer) Upload(_ context.Context, c gitrepo.Commit, doc analyze.Document) (bool, error) {
	if s.refuse != nil {
		return false, s.refuse
	}
	s.sent = append(s.sent, fmt.Sprintf("%s %s %d", c.SHA, doc.Branch, len(doc.Files)))
	return doc.Branch == s.def, nil
}

// report records a Reporter's calls.
type report struct{ calls []string }

func (r *report) NotDefault(b, def string)      { r.calls = append(r.calls, "not default "+b+" "+def) }
func (r *report) Shallow(b string, _ time.Time) { r.calls = append(r.calls, "shallow "+b) }
func (r *report) Planned(p Plan, done int) {
	r.calls = append(r.calls, fmt.Sprintf("planned %d %d", len(p.Commits), done))
}
func (r *report) Skipped(p Plan, i int) { r.calls = append(r.calls, "skipped "+p.Commits[i].SHA) }
func (r *report) Analysed(p Plan, s Step) {
	r.calls = append(r.calls, fmt.Sprintf("analysed %s %q %v %v", s.Commit.SHA, s.Wrote, s.Uploaded, s.InHistory))
}

// Run resolves the branch from the server, skips the commits the server
// has, uploads the others oldest first and reports each; without a
// server it writes one file per commit and a re-run resumes from them.
func TestRun(t *testing.T) {
	ctx := context.Background()
	t.Setenv("GIT_COMMITTER_DATE", "2025-03-03T10:00:00Z")
	dir, git := testtool.GitRepo(t)
	first := git("rev-parse", "HEAD")
	if err := os.WriteFile(filepath.Join(dir, "b.go"), []byte("package b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_COMMITTER_DATE", "2025-03-05T10:00:00Z")
	git("add", ".")
	git("commit", "-q", "-m", "b")
	second := git("rev-parse", "HEAD")
	at := func(s string) time.Time { t, _ := time.Parse(time.RFC3339, s); return t }
	job := Job{Dir: dir, Start: at("2025-03-01T00:00:00Z"), Now: at("2025-04-01T00:00:00Z"), Every: "day"}

	srv := &fakeServer{def: "main", has: map[string]bool{first: true}}
	job.Server = srv
	var r report
	plan, n, err := Run(ctx, job, &r)
	if err != nil || n != 1 || plan.Branch != "main" || len(plan.Commits) != 2 {
		t.Fatalf("upload: plan %+v, %d analysed, %v", plan, n, err)
	}
	want := []string{"planned 2 1", "skipped " + first, fmt.Sprintf("analysed %s \"\" true true", second)}
	if !slices.Equal(r.calls, want) || !slices.Equal(srv.sent, []string{second + " main 2"}) {
		t.Fatalf("upload: calls %q, sent %q; want %q", r.calls, srv.sent, want)
	}
	if len(srv.asked) != 2 || srv.asked[0] != nil || !slices.Equal(srv.asked[1], []string{first, second}) {
		t.Fatalf("upload: asked %q", srv.asked)
	}

	// Another branch than the server's default is noted; the server's
	// errors come back unchanged.
	refused := errors.New("refused")
	job.Branch, job.Server, r.calls = "main", &fakeServer{def: "trunk", refuse: refused}, nil
	if _, _, err := Run(ctx, job, &r); err != refused || r.calls[0] != "not default main trunk" {
		t.Fatalf("another branch: %q, %v", r.calls, err)
	}

	// Without a server: the repository's branch, one file per commit.
	out := filepath.Join(t.TempDir(), "out")
	job.Branch, job.Server, job.Out, r.calls = "", nil, out, nil
	if _, n, err := Run(ctx, job, &r); err != nil || n != 2 {
		t.Fatalf("files: %d analysed, %v (%q)", n, err, r.calls)
	}
	var doc analyze.Document
	b, err := os.ReadFile(File(out, plan.Commits[1]))
	if err != nil || json.Unmarshal(b, &doc) != nil || doc.CommitSHA != second || doc.Branch != "main" || doc.AnalyzedAt != "2025-03-05T10:00:00Z" {
		t.Fatalf("the file of %s: %+v %v", second, doc, err)
	}
	r.calls = nil
	if _, n, err := Run(ctx, job, &r); err != nil || n != 0 || !slices.Equal(r.calls, []string{"planned 2 2", "skipped " + first, "skipped " + second}) {
		t.Fatalf("re-run: %d analysed, %v, %q", n, err, r.calls)
	}

	// Errors a caller tells apart.
	if _, _, err := Run(ctx, Job{Dir: t.TempDir()}, &r); !errors.As(err, new(*NotInRepositoryError)) {
		t.Errorf("not a repository: %v", err)
	}
	job.Branch = "nope"
	if _, _, err := Run(ctx, job, &r); !errors.As(err, new(*NoBranchError)) {
		t.Errorf("no branch: %v", err)
	}
	job.Branch, job.Out = "main", filepath.Join(out, first[:8]+".json", "x")
	if err := os.WriteFile(filepath.Join(out, first[:8]+".json"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Run(ctx, job, &r); !errors.As(err, new(*OutputError)) {
		t.Errorf("an output directory that cannot be made: %v", err)
	}
}
