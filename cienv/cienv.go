// Package cienv tells what a CI run is building, from the CI provider's
// environment variables and, for what they leave out, the git checkout:
// the commit, the branch or tag, the pull (merge) request and its target
// branch (Detect), and the commit's message (CommitMessage).
//
// The providers and the variables read (docs/pull-requests.md has the same
// table for users):
//
//   - GitHub Actions (GITHUB_ACTIONS=true): GITHUB_SHA, GITHUB_REF,
//     GITHUB_REF_TYPE, GITHUB_REF_NAME, GITHUB_HEAD_REF, GITHUB_BASE_REF, and
//     the event payload at GITHUB_EVENT_PATH (a pull request's head commit
//     and number; a push's head commit message).
//   - GitLab CI (GITLAB_CI): CI_COMMIT_SHA, CI_MERGE_REQUEST_SOURCE_BRANCH_SHA,
//     CI_COMMIT_TAG, CI_COMMIT_BRANCH, CI_COMMIT_REF_NAME,
//     CI_MERGE_REQUEST_IID, CI_MERGE_REQUEST_SOURCE_BRANCH_NAME,
//     CI_MERGE_REQUEST_TARGET_BRANCH_NAME, CI_COMMIT_MESSAGE.
//   - CircleCI (CIRCLECI=true): CIRCLE_SHA1, CIRCLE_BRANCH, CIRCLE_TAG,
//     CIRCLE_PULL_REQUEST, CIRCLE_PR_NUMBER.
//   - Buildkite (BUILDKITE=true): BUILDKITE_COMMIT, BUILDKITE_BRANCH,
//     BUILDKITE_TAG, BUILDKITE_PULL_REQUEST,
//     BUILDKITE_PULL_REQUEST_BASE_BRANCH, BUILDKITE_MESSAGE.
//   - Jenkins (JENKINS_URL): GIT_COMMIT, GIT_BRANCH, BRANCH_NAME, TAG_NAME,
//     CHANGE_ID, CHANGE_BRANCH, CHANGE_TARGET.
//   - Azure Pipelines (TF_BUILD=True): BUILD_SOURCEVERSION,
//     BUILD_SOURCEBRANCH, BUILD_SOURCEVERSIONMESSAGE,
//     SYSTEM_PULLREQUEST_PULLREQUESTNUMBER, SYSTEM_PULLREQUEST_PULLREQUESTID,
//     SYSTEM_PULLREQUEST_SOURCEBRANCH, SYSTEM_PULLREQUEST_TARGETBRANCH,
//     SYSTEM_PULLREQUEST_SOURCECOMMITID.
//   - Bitbucket Pipelines (BITBUCKET_BUILD_NUMBER): BITBUCKET_COMMIT,
//     BITBUCKET_BRANCH, BITBUCKET_TAG, BITBUCKET_PR_ID,
//     BITBUCKET_PR_DESTINATION_BRANCH.
//   - Travis CI (TRAVIS=true): TRAVIS_COMMIT, TRAVIS_BRANCH, TRAVIS_TAG,
//     TRAVIS_PULL_REQUEST, TRAVIS_PULL_REQUEST_BRANCH,
//     TRAVIS_PULL_REQUEST_SHA, TRAVIS_COMMIT_MESSAGE.
//   - Woodpecker (CI=woodpecker): CI_COMMIT_SHA, CI_COMMIT_SOURCE_BRANCH,
//     CI_COMMIT_BRANCH, CI_COMMIT_TAG, CI_COMMIT_PULL_REQUEST,
//     CI_COMMIT_TARGET_BRANCH, CI_COMMIT_MESSAGE.
//   - Drone (DRONE=true): DRONE_COMMIT_SHA, DRONE_SOURCE_BRANCH,
//     DRONE_BRANCH, DRONE_TAG, DRONE_PULL_REQUEST, DRONE_TARGET_BRANCH,
//     DRONE_COMMIT_MESSAGE.
//
// Outside these (or for what they leave out) git answers, through package
// gitrepo: HEAD's commit, and its branch and tag only when HEAD is the
// commit being reported.
package cienv

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/plumbhq/plumb/gitrepo"
)

// Info is what a CI run is building: the commit, the branch or tag, and
// the pull (merge) request when the run is for one.
type Info struct {
	Provider    string // "GitHub Actions", "GitLab CI", "CircleCI", "Buildkite", "Jenkins", or "" outside CI
	Commit      string
	Branch      string
	Tag         string
	PullRequest int    // 0 when the run is not for a pull request
	BaseBranch  string // the pull request's target branch, when the CI names it
}

// Detect reads the commit, branch, tag and pull request from the CI
// provider's environment variables, then fills what is still missing from
// the git checkout in gitDir ("" for the current directory). Git only fills
// the branch and tag when its HEAD is the commit being reported, so a tag is
// never attached to another commit. The CLI's flags override the result.
func Detect(getenv func(string) string, gitDir string) Info {
	info := DetectEnv(getenv)
	if info.Commit != "" && info.Branch != "" && info.Tag != "" {
		return info
	}
	head := gitrepo.Try(gitDir, "rev-parse", "--verify", "-q", "HEAD")
	if head == "" {
		return info
	}
	if info.Commit == "" {
		info.Commit = head
	}
	if !SameCommit(info.Commit, head) {
		return info
	}
	if info.Branch == "" {
		if b := gitrepo.Try(gitDir, "rev-parse", "--abbrev-ref", "HEAD"); b != "HEAD" {
			info.Branch = b
		}
	}
	if info.Tag == "" {
		info.Tag = gitrepo.Try(gitDir, "describe", "--tags", "--exact-match", "HEAD")
	}
	return info
}

// DetectEnv reads a CI provider's environment variables only.
func DetectEnv(getenv func(string) string) Info {
	env := func(name string) string { return strings.TrimSpace(getenv(name)) }
	var info Info
	switch {
	case env("GITHUB_ACTIONS") == "true":
		info = Info{Provider: "GitHub Actions", Commit: env("GITHUB_SHA")}
		ref := env("GITHUB_REF")
		if ref == "" {
			// Older runners and some events set only the short name.
			switch env("GITHUB_REF_TYPE") {
			case "branch":
				ref = "refs/heads/" + env("GITHUB_REF_NAME")
			case "tag":
				ref = "refs/tags/" + env("GITHUB_REF_NAME")
			}
		}
		switch {
		case strings.HasPrefix(ref, "refs/heads/"):
			info.Branch = strings.TrimPrefix(ref, "refs/heads/")
		case strings.HasPrefix(ref, "refs/tags/"):
			info.Tag = strings.TrimPrefix(ref, "refs/tags/")
		case strings.HasPrefix(ref, "refs/pull/"):
			// refs/pull/N/merge (or /head) for pull_request events.
			n, _, _ := strings.Cut(strings.TrimPrefix(ref, "refs/pull/"), "/")
			info.PullRequest = PullRequestNumber(n)
		}
		if info.PullRequest == 0 {
			if n, rest, ok := strings.Cut(env("GITHUB_REF_NAME"), "/"); ok && rest == "merge" {
				info.PullRequest = PullRequestNumber(n)
			}
		}
		// On pull requests the branch is the head (source) branch.
		if head := env("GITHUB_HEAD_REF"); head != "" {
			info.Branch = head
		}
		info.BaseBranch = env("GITHUB_BASE_REF")
		// On pull_request events GITHUB_SHA is GitHub's merge of the pull
		// request into its base, a commit nobody pushed; the event payload
		// names the pull request's head commit, which is what is reported.
		if sha, n := githubPullRequestHead(env("GITHUB_EVENT_PATH")); sha != "" {
			info.Commit = sha
			if info.PullRequest == 0 {
				info.PullRequest = n
			}
		}
	case env("GITLAB_CI") != "":
		// In merged results pipelines CI_COMMIT_SHA is the merge of the
		// source branch into the target; CI_MERGE_REQUEST_SOURCE_BRANCH_SHA
		// (set only there) is the merge request's head commit.
		info = Info{Provider: "GitLab CI", Commit: cmp.Or(env("CI_MERGE_REQUEST_SOURCE_BRANCH_SHA"), env("CI_COMMIT_SHA")), Tag: env("CI_COMMIT_TAG"),
			PullRequest: PullRequestNumber(env("CI_MERGE_REQUEST_IID"))}
		info.Branch = cmp.Or(env("CI_MERGE_REQUEST_SOURCE_BRANCH_NAME"), env("CI_COMMIT_BRANCH"))
		if info.Branch == "" && info.Tag == "" {
			info.Branch = env("CI_COMMIT_REF_NAME")
		}
		info.BaseBranch = env("CI_MERGE_REQUEST_TARGET_BRANCH_NAME")
	case env("CIRCLECI") == "true":
		info = Info{Provider: "CircleCI", Commit: env("CIRCLE_SHA1"), Branch: env("CIRCLE_BRANCH"), Tag: env("CIRCLE_TAG")}
		// CIRCLE_PULL_REQUEST is the pull request's URL: …/pull/123.
		if u := strings.TrimRight(env("CIRCLE_PULL_REQUEST"), "/"); u != "" {
			info.PullRequest = PullRequestNumber(u[strings.LastIndex(u, "/")+1:])
		}
		if info.PullRequest == 0 {
			info.PullRequest = PullRequestNumber(env("CIRCLE_PR_NUMBER"))
		}
	case env("BUILDKITE") == "true":
		info = Info{Provider: "Buildkite", Commit: env("BUILDKITE_COMMIT"), Branch: env("BUILDKITE_BRANCH"), Tag: env("BUILDKITE_TAG"),
			PullRequest: PullRequestNumber(env("BUILDKITE_PULL_REQUEST")), // "false" when not a pull request
			BaseBranch:  env("BUILDKITE_PULL_REQUEST_BASE_BRANCH")}
		if strings.EqualFold(info.Commit, "HEAD") {
			info.Commit = "" // a build of "HEAD" names no commit: ask git
		}
	case env("JENKINS_URL") != "":
		info = Info{Provider: "Jenkins", Commit: env("GIT_COMMIT"), Tag: env("TAG_NAME"), PullRequest: PullRequestNumber(env("CHANGE_ID")), BaseBranch: env("CHANGE_TARGET")}
		if b := env("CHANGE_BRANCH"); b != "" {
			info.Branch = b
		} else if b := env("GIT_BRANCH"); b != "" {
			info.Branch = stripRemote(b)
		} else if info.PullRequest == 0 {
			info.Branch = env("BRANCH_NAME") // multibranch pipelines
		}
		if info.Tag != "" && info.Branch == info.Tag {
			info.Branch = "" // a tag build names the tag as its branch
		}
	default:
		info = detectMore(env)
	}
	info.Branch = strings.TrimPrefix(info.Branch, "refs/heads/")
	info.Tag = strings.TrimPrefix(info.Tag, "refs/tags/")
	info.BaseBranch = strings.TrimPrefix(info.BaseBranch, "refs/heads/")
	return info
}

// MaxCommitMessage is the API's limit of a build's commitMessage, in
// characters.
const MaxCommitMessage = 10000

// commitMessage is the message of commit, as Detect finds the other
// fields: from the CI provider's environment when it gives the message of
// that very commit (on pull requests several name the merge commit's, which
// is not the one reported), else from the git checkout in gitDir when it has
// the commit; "" when neither knows it. It is cut to the API's limit.
func CommitMessage(getenv func(string) string, gitDir, commit string) string {
	msg := commitMessageEnv(func(name string) string { return strings.TrimSpace(getenv(name)) }, commit)
	if msg == "" && commit != "" {
		msg = gitrepo.Try(gitDir, "log", "-1", "--no-show-signature", "--format=%B", commit, "--")
	}
	msg = strings.TrimSpace(msg)
	if utf8.RuneCountInString(msg) > MaxCommitMessage {
		msg = string([]rune(msg)[:MaxCommitMessage])
	}
	return msg
}

// commitMessageEnv reads the commit message the CI provider gives, when it
// is the message of commit.
func commitMessageEnv(env func(string) string, commit string) string {
	of := func(shaVar, msgVar string) string {
		if SameCommit(env(shaVar), commit) {
			return env(msgVar)
		}
		return ""
	}
	switch {
	case env("GITHUB_ACTIONS") == "true":
		// Push events carry the head commit in the payload; pull request
		// events carry no message.
		return githubHeadCommitMessage(env("GITHUB_EVENT_PATH"), commit)
	case env("GITLAB_CI") != "", env("CI") == "woodpecker":
		return of("CI_COMMIT_SHA", "CI_COMMIT_MESSAGE")
	case env("BUILDKITE") == "true":
		return of("BUILDKITE_COMMIT", "BUILDKITE_MESSAGE")
	case env("TRAVIS") == "true":
		return of("TRAVIS_COMMIT", "TRAVIS_COMMIT_MESSAGE")
	case env("DRONE") == "true":
		return of("DRONE_COMMIT_SHA", "DRONE_COMMIT_MESSAGE")
	case env("TF_BUILD") == "True" || env("TF_BUILD") == "true":
		return of("BUILD_SOURCEVERSION", "BUILD_SOURCEVERSIONMESSAGE") // the first line only
	}
	return "" // CircleCI, Jenkins and Bitbucket Pipelines give none
}

// githubHeadCommitMessage reads head_commit.message from a GitHub Actions
// event payload when head_commit is commit.
func githubHeadCommitMessage(path, commit string) string {
	if path == "" {
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	var ev struct {
		HeadCommit *struct {
			ID      string `json:"id"`
			Message string `json:"message"`
		} `json:"head_commit"`
	}
	if err := json.NewDecoder(io.LimitReader(f, 64<<20)).Decode(&ev); err != nil || ev.HeadCommit == nil || !SameCommit(ev.HeadCommit.ID, commit) {
		return ""
	}
	return ev.HeadCommit.Message
}

// githubPullRequestHead reads the head commit and number of the pull request
// from a GitHub Actions event payload (GITHUB_EVENT_PATH). It returns "" for
// events without a pull request, and for a payload it cannot read, so the
// run falls back to GITHUB_SHA.
func githubPullRequestHead(path string) (sha string, number int) {
	if path == "" {
		return "", 0
	}
	f, err := os.Open(path)
	if err != nil {
		return "", 0
	}
	defer f.Close()
	var ev struct {
		PullRequest *struct {
			Number int `json:"number"`
			Head   struct {
				SHA string `json:"sha"`
			} `json:"head"`
		} `json:"pull_request"`
	}
	// Payloads are small, but the bound keeps a stray file from costing much.
	if err := json.NewDecoder(io.LimitReader(f, 64<<20)).Decode(&ev); err != nil || ev.PullRequest == nil {
		return "", 0
	}
	sha = strings.ToLower(strings.TrimSpace(ev.PullRequest.Head.SHA))
	if !isCommitSHA(sha) {
		return "", 0
	}
	return sha, max(ev.PullRequest.Number, 0)
}

// isCommitSHA reports whether s is a full SHA-1 or SHA-256 commit id.
func isCommitSHA(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// stripRemote turns a Jenkins GIT_BRANCH such as origin/feature/x into the
// branch name feature/x.
func stripRemote(b string) string {
	for _, p := range []string{"refs/remotes/origin/", "remotes/origin/", "origin/", "refs/heads/"} {
		if strings.HasPrefix(b, p) {
			return strings.TrimPrefix(b, p)
		}
	}
	return b
}

// PullRequestNumber parses a pull request number; anything but a positive
// integer is 0.
func PullRequestNumber(s string) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 1 {
		return 0
	}
	return n
}

// SameCommit reports whether two commit ids name the same commit, either
// being possibly abbreviated (at least 7 hex digits).
func SameCommit(a, b string) bool {
	a, b = strings.ToLower(a), strings.ToLower(b)
	if len(a) > len(b) {
		a, b = b, a
	}
	return len(a) >= 7 && strings.HasPrefix(b, a)
}

// Given is what the command line says of the commit (plumb's --commit,
// --branch, --tag and --pr); "" is not given.
type Given struct{ Commit, Branch, Tag, PR string }

// Override lets what is given override what was detected (a tag detected
// for another commit is dropped; refs/heads/, refs/tags/ and a "#" before
// the number are trimmed) and checks the result: a commit SHA of 7 to 64
// hex digits, lower-cased, and a pull request number. Its errors name the
// flag to pass.
func Override(info Info, g Given) (Info, error) {
	if c := strings.TrimSpace(g.Commit); c != "" {
		if !SameCommit(c, info.Commit) {
			info.Tag = "" // the detected tag names another commit
		}
		info.Commit = c
	}
	if g.Branch != "" {
		info.Branch = strings.TrimPrefix(g.Branch, "refs/heads/")
	}
	if g.Tag != "" {
		info.Tag = strings.TrimPrefix(g.Tag, "refs/tags/")
	}
	if g.PR != "" {
		n := PullRequestNumber(strings.TrimPrefix(g.PR, "#"))
		if n == 0 {
			return info, fmt.Errorf("--pr must be a pull request number, got %q", g.PR)
		}
		info.PullRequest = n
	}
	if info.Commit == "" {
		return info, errors.New("could not tell which commit this is: pass --commit, or run in a git checkout or on a supported CI (GitHub Actions, GitLab CI, CircleCI, Buildkite, Jenkins, Azure Pipelines, Bitbucket Pipelines, Travis CI, Drone, Woodpecker)")
	}
	if len(info.Commit) < 7 || len(info.Commit) > 64 || strings.Trim(strings.ToLower(info.Commit), "0123456789abcdef") != "" {
		return info, fmt.Errorf("the commit must be a SHA of 7 to 64 hex digits, got %q", info.Commit)
	}
	info.Commit = strings.ToLower(info.Commit)
	return info, nil
}
