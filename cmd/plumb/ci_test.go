package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plumbhq/plumb/internal/testtool"
)

func envOf(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

const (
	shaA = "1111111111111111111111111111111111111111"
	shaB = "2222222222222222222222222222222222222222"
)

// Each provider's variables give the commit, branch, tag and pull request;
// outside a git checkout nothing is added.
func TestDetectCIFromEnvironment(t *testing.T) {
	notGit := t.TempDir()
	// GitHub event payloads (GITHUB_EVENT_PATH), trimmed from real ones.
	events := t.TempDir()
	event := func(name, body string) string {
		p := filepath.Join(events, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	prEvent := event("pr.json", `{"action":"synchronize","number":42,"pull_request":{"number":42,"state":"open",
		"head":{"label":"octo:fix-bug","ref":"fix-bug","sha":"`+strings.ToUpper(shaB)+`","repo":{"full_name":"octo/web"}},
		"base":{"ref":"main","sha":"3333333333333333333333333333333333333333"},"merge_commit_sha":"`+shaA+`"},
		"repository":{"full_name":"octo/web"},"sender":{"login":"octo"}}`)
	pushEvent := event("push.json", `{"ref":"refs/heads/main","after":"`+shaA+`","head_commit":{"id":"`+shaA+`"}}`)
	brokenEvent := event("broken.json", `{"pull_request":{"head":{"sha":`)
	badSHAEvent := event("badsha.json", `{"pull_request":{"number":3,"head":{"sha":"not-a-sha"}}}`)
	prEnv := func(path string) map[string]string {
		return map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SHA": shaA, "GITHUB_REF": "refs/pull/42/merge", "GITHUB_EVENT_NAME": "pull_request",
			"GITHUB_HEAD_REF": "fix-bug", "GITHUB_EVENT_PATH": path}
	}
	cases := []struct {
		name string
		env  map[string]string
		want ciInfo
	}{
		{"no CI", map[string]string{"HOME": "/root"}, ciInfo{}},
		{"GitHub push", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SHA": shaA, "GITHUB_REF": "refs/heads/feature/x", "GITHUB_REF_NAME": "feature/x"},
			ciInfo{Provider: "GitHub Actions", Commit: shaA, Branch: "feature/x"}},
		{"GitHub tag", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SHA": shaA, "GITHUB_REF": "refs/tags/v1.2.0", "GITHUB_REF_NAME": "v1.2.0"},
			ciInfo{Provider: "GitHub Actions", Commit: shaA, Tag: "v1.2.0"}},
		{"GitHub pull request", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SHA": shaA, "GITHUB_REF": "refs/pull/42/merge",
			"GITHUB_REF_NAME": "42/merge", "GITHUB_HEAD_REF": "fix-bug", "GITHUB_BASE_REF": "main"},
			ciInfo{Provider: "GitHub Actions", Commit: shaA, Branch: "fix-bug", PullRequest: 42, BaseBranch: "main"}},
		{"GitHub short names only", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SHA": shaA, "GITHUB_REF_NAME": "main", "GITHUB_REF_TYPE": "branch"},
			ciInfo{Provider: "GitHub Actions", Commit: shaA, Branch: "main"}},
		{"GitHub pull request by ref name", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SHA": shaA, "GITHUB_REF_NAME": "7/merge", "GITHUB_HEAD_REF": "topic"},
			ciInfo{Provider: "GitHub Actions", Commit: shaA, Branch: "topic", PullRequest: 7}},
		{"GitHub pull request event: the head commit, not the merge", prEnv(prEvent),
			ciInfo{Provider: "GitHub Actions", Commit: shaB, Branch: "fix-bug", PullRequest: 42}},
		{"GitHub pull_request_target: number from the payload", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SHA": shaA,
			"GITHUB_REF": "refs/heads/main", "GITHUB_EVENT_NAME": "pull_request_target", "GITHUB_HEAD_REF": "fix-bug", "GITHUB_EVENT_PATH": prEvent},
			ciInfo{Provider: "GitHub Actions", Commit: shaB, Branch: "fix-bug", PullRequest: 42}},
		{"GitHub push event", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SHA": shaA, "GITHUB_REF": "refs/heads/main", "GITHUB_EVENT_PATH": pushEvent},
			ciInfo{Provider: "GitHub Actions", Commit: shaA, Branch: "main"}},
		{"GitHub unreadable event file", prEnv(brokenEvent), ciInfo{Provider: "GitHub Actions", Commit: shaA, Branch: "fix-bug", PullRequest: 42}},
		{"GitHub event file with a bad sha", prEnv(badSHAEvent), ciInfo{Provider: "GitHub Actions", Commit: shaA, Branch: "fix-bug", PullRequest: 42}},
		{"GitHub missing event file", prEnv(filepath.Join(events, "nope.json")), ciInfo{Provider: "GitHub Actions", Commit: shaA, Branch: "fix-bug", PullRequest: 42}},
		{"GitLab merged results pipeline: the source branch head", map[string]string{"GITLAB_CI": "true", "CI_COMMIT_SHA": shaA,
			"CI_MERGE_REQUEST_SOURCE_BRANCH_SHA": shaB, "CI_MERGE_REQUEST_IID": "17", "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME": "mr-branch",
			"CI_MERGE_REQUEST_EVENT_TYPE": "merged_result"},
			ciInfo{Provider: "GitLab CI", Commit: shaB, Branch: "mr-branch", PullRequest: 17}},
		{"GitLab branch", map[string]string{"GITLAB_CI": "true", "CI": "true", "CI_COMMIT_SHA": shaA, "CI_COMMIT_BRANCH": "main", "CI_COMMIT_REF_NAME": "main"},
			ciInfo{Provider: "GitLab CI", Commit: shaA, Branch: "main"}},
		{"GitLab tag", map[string]string{"GITLAB_CI": "true", "CI_COMMIT_SHA": shaA, "CI_COMMIT_TAG": "v2", "CI_COMMIT_REF_NAME": "v2"},
			ciInfo{Provider: "GitLab CI", Commit: shaA, Tag: "v2"}},
		{"GitLab merge request", map[string]string{"GITLAB_CI": "true", "CI_COMMIT_SHA": shaA, "CI_MERGE_REQUEST_IID": "17",
			"CI_MERGE_REQUEST_SOURCE_BRANCH_NAME": "mr-branch", "CI_COMMIT_REF_NAME": "mr-branch"},
			ciInfo{Provider: "GitLab CI", Commit: shaA, Branch: "mr-branch", PullRequest: 17}},
		{"CircleCI branch", map[string]string{"CIRCLECI": "true", "CIRCLE_SHA1": shaA, "CIRCLE_BRANCH": "develop"},
			ciInfo{Provider: "CircleCI", Commit: shaA, Branch: "develop"}},
		{"CircleCI pull request", map[string]string{"CIRCLECI": "true", "CIRCLE_SHA1": shaA, "CIRCLE_BRANCH": "pull/99",
			"CIRCLE_PULL_REQUEST": "https://github.com/acme/web/pull/99"},
			ciInfo{Provider: "CircleCI", Commit: shaA, Branch: "pull/99", PullRequest: 99}},
		{"CircleCI fork pull request", map[string]string{"CIRCLECI": "true", "CIRCLE_SHA1": shaA, "CIRCLE_BRANCH": "x", "CIRCLE_PR_NUMBER": "5"},
			ciInfo{Provider: "CircleCI", Commit: shaA, Branch: "x", PullRequest: 5}},
		{"CircleCI tag", map[string]string{"CIRCLECI": "true", "CIRCLE_SHA1": shaA, "CIRCLE_TAG": "v3"},
			ciInfo{Provider: "CircleCI", Commit: shaA, Tag: "v3"}},
		{"Buildkite branch", map[string]string{"BUILDKITE": "true", "BUILDKITE_COMMIT": shaA, "BUILDKITE_BRANCH": "main", "BUILDKITE_PULL_REQUEST": "false"},
			ciInfo{Provider: "Buildkite", Commit: shaA, Branch: "main"}},
		{"Buildkite pull request", map[string]string{"BUILDKITE": "true", "BUILDKITE_COMMIT": shaA, "BUILDKITE_BRANCH": "topic", "BUILDKITE_PULL_REQUEST": "123"},
			ciInfo{Provider: "Buildkite", Commit: shaA, Branch: "topic", PullRequest: 123}},
		{"Buildkite HEAD build", map[string]string{"BUILDKITE": "true", "BUILDKITE_COMMIT": "HEAD", "BUILDKITE_BRANCH": "main", "BUILDKITE_TAG": "v4"},
			ciInfo{Provider: "Buildkite", Branch: "main", Tag: "v4"}},
		{"Jenkins freestyle", map[string]string{"JENKINS_URL": "https://ci.example/", "GIT_COMMIT": shaA, "GIT_BRANCH": "origin/release/1.x"},
			ciInfo{Provider: "Jenkins", Commit: shaA, Branch: "release/1.x"}},
		{"Jenkins multibranch pull request", map[string]string{"JENKINS_URL": "https://ci.example/", "GIT_COMMIT": shaA, "BRANCH_NAME": "PR-8",
			"CHANGE_ID": "8", "CHANGE_BRANCH": "feature-y"},
			ciInfo{Provider: "Jenkins", Commit: shaA, Branch: "feature-y", PullRequest: 8}},
		{"Jenkins multibranch branch", map[string]string{"JENKINS_URL": "https://ci.example/", "GIT_COMMIT": shaA, "BRANCH_NAME": "main"},
			ciInfo{Provider: "Jenkins", Commit: shaA, Branch: "main"}},
		{"Jenkins tag", map[string]string{"JENKINS_URL": "https://ci.example/", "GIT_COMMIT": shaA, "BRANCH_NAME": "v5", "TAG_NAME": "v5"},
			ciInfo{Provider: "Jenkins", Commit: shaA, Tag: "v5"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := detectCI(envOf(c.env), notGit); got != c.want {
				t.Errorf("detectCI\n got %+v\nwant %+v", got, c.want)
			}
		})
	}
}

// gitRepo makes a git repository with one commit on branch main.
func gitRepo(t *testing.T) (dir string, git func(args ...string) string) {
	t.Helper()
	testtool.Need(t, "git", "apt-get install -y git")
	dir = t.TempDir()
	git = func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=test@example.com", "GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=test@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	git("symbolic-ref", "HEAD", "refs/heads/main")
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "a.txt")
	git("commit", "-q", "-m", "first")
	return dir, git
}

// Outside CI, a real checkout gives the commit, the branch and the tag of
// HEAD; CI variables take precedence, and git's branch and tag are used only
// for the commit CI names.
func TestDetectCIFromGit(t *testing.T) {
	dir, git := gitRepo(t)
	head := git("rev-parse", "HEAD")
	noEnv := envOf(nil)

	if got, want := detectCI(noEnv, dir), (ciInfo{Commit: head, Branch: "main"}); got != want {
		t.Errorf("untagged: got %+v, want %+v", got, want)
	}
	git("tag", "v1.0.0")
	if got, want := detectCI(noEnv, dir), (ciInfo{Commit: head, Branch: "main", Tag: "v1.0.0"}); got != want {
		t.Errorf("tagged: got %+v, want %+v", got, want)
	}

	// CI names the commit; git fills the tag because HEAD is that commit.
	gh := envOf(map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SHA": head, "GITHUB_REF": "refs/heads/release"})
	if got, want := detectCI(gh, dir), (ciInfo{Provider: "GitHub Actions", Commit: head, Branch: "release", Tag: "v1.0.0"}); got != want {
		t.Errorf("CI at HEAD: got %+v, want %+v", got, want)
	}
	// CI names another commit: git's branch and tag say nothing about it.
	other := envOf(map[string]string{"BUILDKITE": "true", "BUILDKITE_COMMIT": shaB})
	if got, want := detectCI(other, dir), (ciInfo{Provider: "Buildkite", Commit: shaB}); got != want {
		t.Errorf("CI elsewhere: got %+v, want %+v", got, want)
	}
	// A detached HEAD has no branch.
	git("checkout", "-q", "--detach")
	if got, want := detectCI(noEnv, dir), (ciInfo{Commit: head, Tag: "v1.0.0"}); got != want {
		t.Errorf("detached: got %+v, want %+v", got, want)
	}
	// Jenkins' GIT_BRANCH is used; the missing commit comes from git.
	jenkins := envOf(map[string]string{"JENKINS_URL": "https://ci.example/", "GIT_BRANCH": "origin/main"})
	if got, want := detectCI(jenkins, dir), (ciInfo{Provider: "Jenkins", Commit: head, Branch: "main", Tag: "v1.0.0"}); got != want {
		t.Errorf("Jenkins without GIT_COMMIT: got %+v, want %+v", got, want)
	}
}

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
	if want := (ciInfo{Provider: "GitLab CI", Commit: head, Branch: "main", Tag: "v9", PullRequest: 3}); err != nil || got != want {
		t.Errorf("detected: got %+v, %v; want %+v", got, err, want)
	}
	o = &commitFlags{Commit: strings.ToUpper(shaB[:10]), Branch: "refs/heads/other", PR: "#12"}
	got, err = o.resolve(env)
	if want := (ciInfo{Provider: "GitLab CI", Commit: shaB[:10], Branch: "other", PullRequest: 12}); err != nil || got != want {
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

// The commit message of a build comes from the CI provider when it gives
// the message of the commit reported, else from git when the checkout has
// the commit; never the message of another commit (issue 19 item 8).
func TestCommitMessage(t *testing.T) {
	dir, git := gitRepo(t)
	git("commit", "-q", "--allow-empty", "-m", "Fix the bug\n\nThe longer story.")
	head := git("rev-parse", "HEAD")
	first := git("rev-parse", "HEAD~1")
	event := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(event, []byte(`{"head_commit":{"id":"`+shaA+`","message":"Push message\n\nbody"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		env    map[string]string
		commit string
		want   string
	}{
		{"git, HEAD", nil, head, "Fix the bug\n\nThe longer story."},
		{"git, an older commit", nil, first, "first"},
		{"git, a commit the checkout lacks", nil, shaB, ""},
		{"GitHub push event", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_PATH": event}, shaA, "Push message\n\nbody"},
		{"GitHub event of another commit: git", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_PATH": event}, head, "Fix the bug\n\nThe longer story."},
		{"GitLab", map[string]string{"GITLAB_CI": "true", "CI_COMMIT_SHA": shaA, "CI_COMMIT_MESSAGE": "From GitLab\n"}, shaA, "From GitLab"},
		{"GitLab merged results: the merge's message is not the head's", map[string]string{"GITLAB_CI": "true", "CI_COMMIT_SHA": shaB, "CI_COMMIT_MESSAGE": "Merge branch 'x'"}, shaA, ""},
		{"Buildkite", map[string]string{"BUILDKITE": "true", "BUILDKITE_COMMIT": shaA, "BUILDKITE_MESSAGE": "From Buildkite"}, shaA, "From Buildkite"},
		{"Travis", map[string]string{"TRAVIS": "true", "TRAVIS_COMMIT": shaA, "TRAVIS_COMMIT_MESSAGE": "From Travis"}, shaA, "From Travis"},
		{"Drone", map[string]string{"DRONE": "true", "DRONE_COMMIT_SHA": shaA, "DRONE_COMMIT_MESSAGE": "From Drone"}, shaA, "From Drone"},
		{"Woodpecker", map[string]string{"CI": "woodpecker", "CI_COMMIT_SHA": shaA, "CI_COMMIT_MESSAGE": "From Woodpecker"}, shaA, "From Woodpecker"},
		{"Azure", map[string]string{"TF_BUILD": "True", "BUILD_SOURCEVERSION": shaA, "BUILD_SOURCEVERSIONMESSAGE": "From Azure"}, shaA, "From Azure"},
		{"CircleCI gives none: git", map[string]string{"CIRCLECI": "true", "CIRCLE_SHA1": head}, head, "Fix the bug\n\nThe longer story."},
	} {
		if got := commitMessage(envOf(c.env), dir, c.commit); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	long := strings.Repeat("é", maxCommitMessage+5)
	if got := commitMessage(envOf(map[string]string{"BUILDKITE": "true", "BUILDKITE_COMMIT": shaA, "BUILDKITE_MESSAGE": long}), dir, shaA); got != long[:2*maxCommitMessage] {
		t.Errorf("a message over the API's limit: %d characters", len([]rune(got)))
	}
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
