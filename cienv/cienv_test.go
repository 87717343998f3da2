package cienv

import (
	"os"
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
func TestDetectFromEnvironment(t *testing.T) {
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
		want Info
	}{
		{"no CI", map[string]string{"HOME": "/root"}, Info{}},
		{"GitHub push", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SHA": shaA, "GITHUB_REF": "refs/heads/feature/x", "GITHUB_REF_NAME": "feature/x"},
			Info{Provider: "GitHub Actions", Commit: shaA, Branch: "feature/x"}},
		{"GitHub tag", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SHA": shaA, "GITHUB_REF": "refs/tags/v1.2.0", "GITHUB_REF_NAME": "v1.2.0"},
			Info{Provider: "GitHub Actions", Commit: shaA, Tag: "v1.2.0"}},
		{"GitHub pull request", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SHA": shaA, "GITHUB_REF": "refs/pull/42/merge",
			"GITHUB_REF_NAME": "42/merge", "GITHUB_HEAD_REF": "fix-bug", "GITHUB_BASE_REF": "main"},
			Info{Provider: "GitHub Actions", Commit: shaA, Branch: "fix-bug", PullRequest: 42, BaseBranch: "main"}},
		{"GitHub short names only", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SHA": shaA, "GITHUB_REF_NAME": "main", "GITHUB_REF_TYPE": "branch"},
			Info{Provider: "GitHub Actions", Commit: shaA, Branch: "main"}},
		{"GitHub pull request by ref name", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SHA": shaA, "GITHUB_REF_NAME": "7/merge", "GITHUB_HEAD_REF": "topic"},
			Info{Provider: "GitHub Actions", Commit: shaA, Branch: "topic", PullRequest: 7}},
		{"GitHub pull request event: the head commit, not the merge", prEnv(prEvent),
			Info{Provider: "GitHub Actions", Commit: shaB, Branch: "fix-bug", PullRequest: 42}},
		{"GitHub pull_request_target: number from the payload", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SHA": shaA,
			"GITHUB_REF": "refs/heads/main", "GITHUB_EVENT_NAME": "pull_request_target", "GITHUB_HEAD_REF": "fix-bug", "GITHUB_EVENT_PATH": prEvent},
			Info{Provider: "GitHub Actions", Commit: shaB, Branch: "fix-bug", PullRequest: 42}},
		{"GitHub push event", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SHA": shaA, "GITHUB_REF": "refs/heads/main", "GITHUB_EVENT_PATH": pushEvent},
			Info{Provider: "GitHub Actions", Commit: shaA, Branch: "main"}},
		{"GitHub unreadable event file", prEnv(brokenEvent), Info{Provider: "GitHub Actions", Commit: shaA, Branch: "fix-bug", PullRequest: 42}},
		{"GitHub event file with a bad sha", prEnv(badSHAEvent), Info{Provider: "GitHub Actions", Commit: shaA, Branch: "fix-bug", PullRequest: 42}},
		{"GitHub missing event file", prEnv(filepath.Join(events, "nope.json")), Info{Provider: "GitHub Actions", Commit: shaA, Branch: "fix-bug", PullRequest: 42}},
		{"GitLab merged results pipeline: the source branch head", map[string]string{"GITLAB_CI": "true", "CI_COMMIT_SHA": shaA,
			"CI_MERGE_REQUEST_SOURCE_BRANCH_SHA": shaB, "CI_MERGE_REQUEST_IID": "17", "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME": "mr-branch",
			"CI_MERGE_REQUEST_EVENT_TYPE": "merged_result"},
			Info{Provider: "GitLab CI", Commit: shaB, Branch: "mr-branch", PullRequest: 17}},
		{"GitLab branch", map[string]string{"GITLAB_CI": "true", "CI": "true", "CI_COMMIT_SHA": shaA, "CI_COMMIT_BRANCH": "main", "CI_COMMIT_REF_NAME": "main"},
			Info{Provider: "GitLab CI", Commit: shaA, Branch: "main"}},
		{"GitLab tag", map[string]string{"GITLAB_CI": "true", "CI_COMMIT_SHA": shaA, "CI_COMMIT_TAG": "v2", "CI_COMMIT_REF_NAME": "v2"},
			Info{Provider: "GitLab CI", Commit: shaA, Tag: "v2"}},
		{"GitLab merge request", map[string]string{"GITLAB_CI": "true", "CI_COMMIT_SHA": shaA, "CI_MERGE_REQUEST_IID": "17",
			"CI_MERGE_REQUEST_SOURCE_BRANCH_NAME": "mr-branch", "CI_COMMIT_REF_NAME": "mr-branch"},
			Info{Provider: "GitLab CI", Commit: shaA, Branch: "mr-branch", PullRequest: 17}},
		{"CircleCI branch", map[string]string{"CIRCLECI": "true", "CIRCLE_SHA1": shaA, "CIRCLE_BRANCH": "develop"},
			Info{Provider: "CircleCI", Commit: shaA, Branch: "develop"}},
		{"CircleCI pull request", map[string]string{"CIRCLECI": "true", "CIRCLE_SHA1": shaA, "CIRCLE_BRANCH": "pull/99",
			"CIRCLE_PULL_REQUEST": "https://github.com/acme/web/pull/99"},
			Info{Provider: "CircleCI", Commit: shaA, Branch: "pull/99", PullRequest: 99}},
		{"CircleCI fork pull request", map[string]string{"CIRCLECI": "true", "CIRCLE_SHA1": shaA, "CIRCLE_BRANCH": "x", "CIRCLE_PR_NUMBER": "5"},
			Info{Provider: "CircleCI", Commit: shaA, Branch: "x", PullRequest: 5}},
		{"CircleCI tag", map[string]string{"CIRCLECI": "true", "CIRCLE_SHA1": shaA, "CIRCLE_TAG": "v3"},
			Info{Provider: "CircleCI", Commit: shaA, Tag: "v3"}},
		{"Buildkite branch", map[string]string{"BUILDKITE": "true", "BUILDKITE_COMMIT": shaA, "BUILDKITE_BRANCH": "main", "BUILDKITE_PULL_REQUEST": "false"},
			Info{Provider: "Buildkite", Commit: shaA, Branch: "main"}},
		{"Buildkite pull request", map[string]string{"BUILDKITE": "true", "BUILDKITE_COMMIT": shaA, "BUILDKITE_BRANCH": "topic", "BUILDKITE_PULL_REQUEST": "123"},
			Info{Provider: "Buildkite", Commit: shaA, Branch: "topic", PullRequest: 123}},
		{"Buildkite HEAD build", map[string]string{"BUILDKITE": "true", "BUILDKITE_COMMIT": "HEAD", "BUILDKITE_BRANCH": "main", "BUILDKITE_TAG": "v4"},
			Info{Provider: "Buildkite", Branch: "main", Tag: "v4"}},
		{"Jenkins freestyle", map[string]string{"JENKINS_URL": "https://ci.example/", "GIT_COMMIT": shaA, "GIT_BRANCH": "origin/release/1.x"},
			Info{Provider: "Jenkins", Commit: shaA, Branch: "release/1.x"}},
		{"Jenkins multibranch pull request", map[string]string{"JENKINS_URL": "https://ci.example/", "GIT_COMMIT": shaA, "BRANCH_NAME": "PR-8",
			"CHANGE_ID": "8", "CHANGE_BRANCH": "feature-y"},
			Info{Provider: "Jenkins", Commit: shaA, Branch: "feature-y", PullRequest: 8}},
		{"Jenkins multibranch branch", map[string]string{"JENKINS_URL": "https://ci.example/", "GIT_COMMIT": shaA, "BRANCH_NAME": "main"},
			Info{Provider: "Jenkins", Commit: shaA, Branch: "main"}},
		{"Jenkins tag", map[string]string{"JENKINS_URL": "https://ci.example/", "GIT_COMMIT": shaA, "BRANCH_NAME": "v5", "TAG_NAME": "v5"},
			Info{Provider: "Jenkins", Commit: shaA, Tag: "v5"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Detect(envOf(c.env), notGit); got != c.want {
				t.Errorf("Detect\n got %+v\nwant %+v", got, c.want)
			}
		})
	}
}

// Outside CI, a real checkout gives the commit, the branch and the tag of
// HEAD; CI variables take precedence, and git's branch and tag are used only
// for the commit CI names.
func TestDetectFromGit(t *testing.T) {
	dir, git := testtool.GitRepo(t)
	head := git("rev-parse", "HEAD")
	noEnv := envOf(nil)

	if got, want := Detect(noEnv, dir), (Info{Commit: head, Branch: "main"}); got != want {
		t.Errorf("untagged: got %+v, want %+v", got, want)
	}
	git("tag", "v1.0.0")
	if got, want := Detect(noEnv, dir), (Info{Commit: head, Branch: "main", Tag: "v1.0.0"}); got != want {
		t.Errorf("tagged: got %+v, want %+v", got, want)
	}

	// CI names the commit; git fills the tag because HEAD is that commit.
	gh := envOf(map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SHA": head, "GITHUB_REF": "refs/heads/release"})
	if got, want := Detect(gh, dir), (Info{Provider: "GitHub Actions", Commit: head, Branch: "release", Tag: "v1.0.0"}); got != want {
		t.Errorf("CI at HEAD: got %+v, want %+v", got, want)
	}
	// CI names another commit: git's branch and tag say nothing about it.
	other := envOf(map[string]string{"BUILDKITE": "true", "BUILDKITE_COMMIT": shaB})
	if got, want := Detect(other, dir), (Info{Provider: "Buildkite", Commit: shaB}); got != want {
		t.Errorf("CI elsewhere: got %+v, want %+v", got, want)
	}
	// A detached HEAD has no branch.
	git("checkout", "-q", "--detach")
	if got, want := Detect(noEnv, dir), (Info{Commit: head, Tag: "v1.0.0"}); got != want {
		t.Errorf("detached: got %+v, want %+v", got, want)
	}
	// Jenkins' GIT_BRANCH is used; the missing commit comes from git.
	jenkins := envOf(map[string]string{"JENKINS_URL": "https://ci.example/", "GIT_BRANCH": "origin/main"})
	if got, want := Detect(jenkins, dir), (Info{Provider: "Jenkins", Commit: head, Branch: "main", Tag: "v1.0.0"}); got != want {
		t.Errorf("Jenkins without GIT_COMMIT: got %+v, want %+v", got, want)
	}
}

// The commit message of a build comes from the CI provider when it gives
// the message of the commit reported, else from git when the checkout has
// the commit; never the message of another commit (issue 19 item 8).
func TestCommitMessage(t *testing.T) {
	dir, git := testtool.GitRepo(t)
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
		if got := CommitMessage(envOf(c.env), dir, c.commit); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	long := strings.Repeat("é", MaxCommitMessage+5)
	if got := CommitMessage(envOf(map[string]string{"BUILDKITE": "true", "BUILDKITE_COMMIT": shaA, "BUILDKITE_MESSAGE": long}), dir, shaA); got != long[:2*MaxCommitMessage] {
		t.Errorf("a message over the API's limit: %d characters", len([]rune(got)))
	}
}
