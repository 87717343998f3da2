package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/plumbhq/plumb/cienv"
	"github.com/plumbhq/plumb/internal/testtool"
)

// gitRepo makes a git repository with one commit on branch main.
var gitRepo = testtool.GitRepo

func envOf(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

const (
	shaA = "1111111111111111111111111111111111111111"
	shaB = "2222222222222222222222222222222222222222"
)

// Flags override every detected value; a tag detected for HEAD is dropped
// when --commit names another commit.
func TestResolveFlagsOverrideDetection(t *testing.T) {
	dir, git := gitRepo(t)
	git("tag", "v9")
	head := git("rev-parse", "HEAD")
	withGitDir(t, dir)
	env := envOf(map[string]string{"GITLAB_CI": "true", "CI_COMMIT_SHA": head, "CI_COMMIT_BRANCH": "main", "CI_MERGE_REQUEST_IID": "3"})

	o := &commitFlags{}
	got, err := o.resolve(env)
	if want := (cienv.Info{Provider: "GitLab CI", Commit: head, Branch: "main", Tag: "v9", PullRequest: 3}); err != nil || got != want {
		t.Errorf("detected: got %+v, %v; want %+v", got, err, want)
	}
	o = &commitFlags{Commit: strings.ToUpper(shaB[:10]), Branch: "refs/heads/other", PR: "#12"}
	got, err = o.resolve(env)
	if want := (cienv.Info{Provider: "GitLab CI", Commit: shaB[:10], Branch: "other", PullRequest: 12}); err != nil || got != want {
		t.Errorf("overridden: got %+v, %v; want %+v", got, err, want)
	}
	o = &commitFlags{Commit: shaB, Tag: "v10"}
	if got, err = o.resolve(env); err != nil || got.Tag != "v10" || got.Commit != shaB {
		t.Errorf("--tag: got %+v, %v", got, err)
	}
	for _, bad := range []*commitFlags{{Commit: "xyz1234"}, {Commit: "abc"}, {Commit: shaA, PR: "0"}, {Commit: shaA, PR: "twelve"}} {
		if _, err := bad.resolve(env); exitCode(err) != 2 {
			t.Errorf("%+v: err %v, want a usage error", bad, err)
		}
	}
	withGitDir(t, t.TempDir())
	if _, err := (&commitFlags{}).resolve(envOf(nil)); exitCode(err) != 2 || !strings.Contains(err.Error(), "--commit") {
		t.Errorf("no commit anywhere: err %v, want a usage error naming --commit", err)
	}
}

func withGitDir(t *testing.T, dir string) {
	t.Helper()
	old := ciGitDir
	ciGitDir = dir
	t.Cleanup(func() { ciGitDir = old })
}

// plumb build start sends the commit message it finds; --message wins.
func TestBuildStartSendsTheCommitMessage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{{nil, "Fix the bug"}, {[]string{"--message", "Given"}, "Given"}} {
		srv := newFakeIngest(t, buildOK)
		env := map[string]string{"GITLAB_CI": "true", "CI_COMMIT_SHA": shaA, "CI_COMMIT_BRANCH": "fix-bug", "CI_COMMIT_MESSAGE": "Fix the bug"}
		if res := runCLI(t, srv, env, "", append([]string{"build", "start", "--type", "analysis"}, c.args...)...); res.err != nil {
			t.Fatal(res.err)
		}
		var body map[string]any
		if err := json.Unmarshal(srv.requests()[0].Body, &body); err != nil {
			t.Fatal(err)
		}
		if body["commitMessage"] != c.want {
			t.Errorf("%v: commitMessage %v, want %q", c.args, body["commitMessage"], c.want)
		}
	}
	// From git, end to end: a checkout whose HEAD is the commit.
	dir, git := gitRepo(t)
	srv := newFakeIngest(t, buildOK)
	testHooks(t)
	withGitDir(t, dir)
	var stdout, stderr bytes.Buffer
	vars := map[string]string{"PLUMB_TOKEN": testToken, "PLUMB_PROJECT": "acme/web", "PLUMB_URL": srv.URL}
	if err := run(context.Background(), []string{"build", "start", "--type", "analysis"}, envOf(vars), strings.NewReader(""), &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	var body map[string]any
	if err := json.Unmarshal(srv.requests()[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	if body["commitMessage"] != "first" || body["commitSha"] != git("rev-parse", "HEAD") {
		t.Errorf("from git: %v", body)
	}
}
