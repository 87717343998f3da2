package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api"
	"github.com/plumbhq/plumb/ratelimit"
	"github.com/plumbhq/plumb/sqlstore"
)

// TestSourceCommand: plumb source prints a kept file's bytes at the default
// branch (asked of the server) or at --ref, and exits 1 with the server's
// reason when there is none.
func TestSourceCommand(t *testing.T) {
	ctx := context.Background()
	db, err := sqlstore.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "plumb.db"), sqlstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	step := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	_, err = db.CreateUser(ctx, "ada", "Ada")
	step(err)
	_, token, err := db.CreateToken(ctx, "ada", "cli")
	step(err)
	_, err = db.CreateWorkspace(ctx, plumb.WorkspaceInput{Key: "acme"})
	step(err)
	step(db.AddMember(ctx, "acme", "ada", plumb.RoleMember))
	p, err := db.CreateProject(ctx, plumb.ProjectInput{Workspace: "acme", Key: "lib", DefaultBranch: "trunk"})
	step(err)
	old, head := strings.Repeat("a", 40), strings.Repeat("b", 40)
	for i, c := range []string{old, head} {
		_, err = db.AddSnapshot(ctx, plumb.SnapshotInput{ProjectID: p.ID, Branch: "trunk", CommitSHA: c, AnalyzedAt: time.Now().Add(time.Duration(i-5) * time.Minute),
			Files: []plumb.FileFigures{{Path: "lib/a.py", Lines: 1, LOC: 1}}})
		step(err)
		text := "x = " + c[:1] + "\n"
		_, err = db.PutSources(ctx, p.ID, c, "upload", func(put func(string, io.Reader) error) error {
			return put("lib/a.py", strings.NewReader(text))
		})
		step(err)
	}
	srv := httptest.NewServer(api.NewServer(db, ratelimit.NewMemory(5000, time.Now), slog.New(slog.NewTextHandler(io.Discard, nil)), api.Config{}))
	defer srv.Close()
	env := map[string]string{"PLUMB_URL": srv.URL, "PLUMB_TOKEN": token}
	cli := func(args ...string) (string, string, error) {
		var stdout, stderr bytes.Buffer
		err := run(ctx, append([]string{"source", "--project", "acme/lib"}, args...), envOf(env), nil, &stdout, &stderr)
		return stdout.String(), stderr.String(), err
	}
	if out, errs, err := cli("lib/a.py"); err != nil || out != "x = b\n" {
		t.Errorf("default branch: %q %q %v", out, errs, err)
	}
	if out, errs, err := cli("--ref", old[:8], "lib/a.py"); err != nil || out != "x = a\n" {
		t.Errorf("--ref: %q %q %v", out, errs, err)
	}
	_, _, err = cli("lib/b.py")
	if code := exitCode(err); code != 1 || !strings.Contains(err.Error(), "not uploaded") {
		t.Errorf("a file without source: exit %d, %v", code, err)
	}
	_, _, err = cli("--project", "acme", "lib/a.py")
	if code := exitCode(err); code != 2 {
		t.Errorf("a bad --project: exit %d, %v", code, err)
	}
}
