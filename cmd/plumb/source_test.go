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
	"sync"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api"
	"github.com/plumbhq/plumb/internal/proctest"
	"github.com/plumbhq/plumb/ratelimit"
	"github.com/plumbhq/plumb/server"
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

// TestUploadCoverageSendsSources: plumb upload coverage --source, run in
// the checkout, sends the source of the report's files under the paths the
// coverage is stored under; a file the checkout lacks is a warning; when
// the project refuses sources the coverage is still stored, with a warning;
// without --source nothing is sent.
func TestUploadCoverageSendsSources(t *testing.T) {
	ctx := context.Background()
	url, token, db, p := sourceServer(t)
	dir := t.TempDir()
	for name, text := range map[string]string{"src/a.go": "package a\n\nvar A = 1\n", "src/b.go": "package a\n\nvar B = 2\n"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lcov := "SF:/builds/app/src/a.go\nDA:3,1\nend_of_record\nSF:/builds/app/src/b.go\nDA:3,0\nend_of_record\nSF:/builds/app/src/gone.go\nDA:1,1\nend_of_record\n"
	if err := os.WriteFile(filepath.Join(dir, "lcov.info"), []byte(lcov), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	env := envOf(map[string]string{"PLUMB_URL": url, "PLUMB_TOKEN": token, "PLUMB_PROJECT": "acme/lib"})
	upload := func(commit string, extra ...string) (string, string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		args := append([]string{"upload", "coverage", "lcov.info", "--commit", commit, "--branch", "trunk", "--retries", "0", "--strip-prefix", "/builds/app"}, extra...)
		if err := run(ctx, args, env, nil, &stdout, &stderr); err != nil {
			t.Fatalf("upload coverage: %v\n%s", err, stderr.String())
		}
		return stdout.String(), stderr.String()
	}
	one, two, three := strings.Repeat("1", 40), strings.Repeat("2", 40), strings.Repeat("3", 40)
	out, errs := upload(one, "--source", "--add-prefix", "svc")
	if !strings.Contains(out, "uploaded lcov.info: 3 files") || !strings.Contains(out, "uploaded source: 2 files (2 new contents") {
		t.Errorf("--source output: %q", out)
	}
	if !strings.Contains(errs, "warning: 1 of the report's 3 files are not in the working directory, their source was not sent: src/gone.go") {
		t.Errorf("--source did not warn of the missing file: %q", errs)
	}
	src, err := db.FileSource(ctx, p.ID, one, "svc/src/b.go")
	if err != nil || string(src.Content) != "package a\n\nvar B = 2\n" {
		t.Errorf("kept %+v, %v", src, err)
	}
	out, _ = upload(two)
	if strings.Contains(out, "uploaded source") {
		t.Errorf("without --source the source was sent: %q", out)
	}
	if src, _ := db.FileSource(ctx, p.ID, two, "src/a.go"); src.State != "absent" {
		t.Errorf("without --source: %+v kept", src)
	}
	if _, err := db.SetSourcesDisabled(ctx, p.ID, true); err != nil {
		t.Fatal(err)
	}
	out, errs = upload(three, "--source")
	if !strings.Contains(out, "uploaded lcov.info: 3 files") || strings.Contains(out, "uploaded source") {
		t.Errorf("sources refused: %q", out)
	}
	if !strings.Contains(errs, "warning: the source was not sent (the coverage was)") {
		t.Errorf("sources refused, no warning: %q", errs)
	}
}

// TestSourceServeFlags: the serve flags of sources reach the store's
// options, and bad values are usage errors before anything starts.
func TestSourceServeFlags(t *testing.T) {
	s := serverFlags{SourceMaxFileSize: 4096, RefuseSources: true, SourceCollectEvery: time.Minute, RateLimit: 1, AuthFailureLimit: 1, MaxBodyBytes: 1, MaxUploadBytes: 1}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	cfg := configOf(&s, &dbFlags{})
	o := cfg.StoreOptions()
	if o.SourceLimits.MaxFileSize != 4096 || !o.RefuseSources || cfg.SourceCollectEvery != time.Minute {
		t.Errorf("options %+v, config %+v", o, cfg)
	}
	for _, args := range [][]string{
		{"serve", "--source-max-file-size", "0"},
		{"serve", "--source-max-file-size", "16777217"},
		{"serve", "--source-collect-every", "-1s"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), append(args, "--database", "sqlite:"+filepath.Join(t.TempDir(), "x.db")), envOf(nil), nil, &stdout, &stderr)
		if code := exitCode(err); code != 2 || !strings.Contains(err.Error(), strings.TrimPrefix(args[1], "--")) {
			t.Errorf("%v: exit %d, %v", args, code, err)
		}
	}
}

// TestCollectSources: serve's collection deletes a commit's sources once no
// analysis or coverage upload refers to them past the grace hour, and logs
// the counts, never a path or content.
func TestCollectSources(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	now := time.Now()
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	db, err := sqlstore.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "plumb.db"), sqlstore.Options{Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.CreateWorkspace(ctx, plumb.WorkspaceInput{Key: "acme"}); err != nil {
		t.Fatal(err)
	}
	p, err := db.CreateProject(ctx, plumb.ProjectInput{Workspace: "acme", Key: "lib"})
	if err != nil {
		t.Fatal(err)
	}
	orphan := strings.Repeat("c", 40)
	if _, err := db.PutSources(ctx, p.ID, orphan, "upload", func(put func(string, io.Reader) error) error {
		return put("secret/key.go", strings.NewReader("package secret // hunter2\n"))
	}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	now = now.Add(2 * time.Hour)
	mu.Unlock()
	var logs proctest.Log
	log := slog.New(slog.NewTextHandler(&logs, nil))
	go server.CollectSources(ctx, db, time.Hour, log)
	deadline := time.Now().Add(10 * time.Second)
	for {
		src, err := db.FileSource(ctx, p.ID, orphan, "secret/key.go")
		if err != nil {
			t.Fatal(err)
		}
		if src.State == "absent" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the orphaned source was never deleted")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	if out := logs.String(); !strings.Contains(out, "deleted unreferenced sources") || strings.Contains(out, "hunter2") || strings.Contains(out, "secret/key.go") {
		t.Errorf("log: %q", out)
	}
}

// TestProjectSourcesCommand: plumb project sources off deletes a project's
// sources and refuses new ones; on takes them again.
func TestProjectSourcesCommand(t *testing.T) {
	ctx := context.Background()
	dbURL := "sqlite:" + filepath.Join(t.TempDir(), "plumb.db")
	db, err := sqlstore.Open(ctx, dbURL, sqlstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateWorkspace(ctx, plumb.WorkspaceInput{Key: "acme"}); err != nil {
		t.Fatal(err)
	}
	p, err := db.CreateProject(ctx, plumb.ProjectInput{Workspace: "acme", Key: "lib"})
	if err != nil {
		t.Fatal(err)
	}
	sha := strings.Repeat("d", 40)
	put := func() error {
		_, err := db.PutSources(ctx, p.ID, sha, "upload", func(put func(string, io.Reader) error) error {
			return put("a.go", strings.NewReader("package a\n"))
		})
		return err
	}
	if err := put(); err != nil {
		t.Fatal(err)
	}
	db.Close()
	cli := func(args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if err := run(ctx, append(args, "--database", dbURL), envOf(nil), nil, &stdout, &stderr); err != nil {
			t.Fatalf("%v: %v %s", args, err, stderr.String())
		}
		return stdout.String()
	}
	if out := cli("project", "sources", "acme/lib", "off"); out != "sources off on project acme/lib (deleted the sources of 1 commits, 1 contents)\n" {
		t.Errorf("off: %q", out)
	}
	db, err = sqlstore.Open(ctx, dbURL, sqlstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := put(); plumb.ErrorCode(err) != plumb.EFORBIDDEN {
		t.Errorf("a project with sources off took sources: %v", err)
	}
	db.Close()
	if out := cli("project", "sources", "acme/lib", "on"); out != "sources on on project acme/lib\n" {
		t.Errorf("on: %q", out)
	}
	db, err = sqlstore.Open(ctx, dbURL, sqlstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := put(); err != nil {
		t.Errorf("sources on again: %v", err)
	}
}
