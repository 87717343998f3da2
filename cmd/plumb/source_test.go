package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
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
// sourceServer runs the real API over a new SQLite store with user ada
// (token returned), member of workspace acme and admin of its project lib
// (default branch trunk).
func sourceServer(t *testing.T) (url, token string, db *sqlstore.DB, p plumb.Project) {
	t.Helper()
	ctx := context.Background()
	db, err := sqlstore.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "plumb.db"), sqlstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	step := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	_, err = db.CreateUser(ctx, "ada", "Ada")
	step(err)
	_, token, err = db.CreateToken(ctx, "ada", "cli")
	step(err)
	_, err = db.CreateWorkspace(ctx, plumb.WorkspaceInput{Key: "acme"})
	step(err)
	step(db.AddMember(ctx, "acme", "ada", plumb.RoleMember))
	p, err = db.CreateProject(ctx, plumb.ProjectInput{Workspace: "acme", Key: "lib", DefaultBranch: "trunk"})
	step(err)
	step(db.AddProjectAdmin(ctx, "acme/lib", "ada"))
	srv := httptest.NewServer(api.NewServer(db, ratelimit.NewMemory(5000, time.Now), slog.New(slog.NewTextHandler(io.Discard, nil)), api.Config{}))
	t.Cleanup(srv.Close)
	return srv.URL, token, db, p
}

func TestSourceCommand(t *testing.T) {
	ctx := context.Background()
	url, token, db, p := sourceServer(t)
	step := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	var err error
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
	env := map[string]string{"PLUMB_URL": url, "PLUMB_TOKEN": token}
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

// TestAnalyzeSendsSources: plumb analyze sends the measured files' source
// under the analysis' paths (after --add-prefix), and --no-source nothing.
func TestAnalyzeSendsSources(t *testing.T) {
	ctx := context.Background()
	url, token, db, p := sourceServer(t)
	dir := t.TempDir()
	for name, text := range map[string]string{"main.go": "package main\n\nfunc main() {}\n", "lib/util.py": "def f(x):\n    return x\n", "README.md": "# hi\n"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := envOf(map[string]string{"PLUMB_URL": url, "PLUMB_TOKEN": token, "PLUMB_PROJECT": "acme/lib"})
	analyzeAt := func(commit string, extra ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		args := append([]string{"analyze", dir, "--commit", commit, "--branch", "trunk", "--retries", "0"}, extra...)
		if err := run(ctx, args, env, nil, &stdout, &stderr); err != nil {
			t.Fatalf("analyze: %v\n%s", err, stderr.String())
		}
		return stdout.String()
	}
	one, two := strings.Repeat("1", 40), strings.Repeat("2", 40)
	out := analyzeAt(one, "--add-prefix", "svc")
	if !strings.Contains(out, "uploaded source: 3 files (3 new contents") {
		t.Errorf("analyze did not report the source: %q", out)
	}
	src, err := db.FileSource(ctx, p.ID, one, "svc/lib/util.py")
	if err != nil || string(src.Content) != "def f(x):\n    return x\n" {
		t.Errorf("kept %+v, %v", src, err)
	}
	out = analyzeAt(two, "--no-source")
	if strings.Contains(out, "uploaded source") {
		t.Errorf("--no-source sent the source: %q", out)
	}
	if src, _ := db.FileSource(ctx, p.ID, two, "main.go"); src.State != "absent" {
		t.Errorf("--no-source: %+v kept", src)
	}
}
