package cienv

import (
	"cmp"
	"strings"
)

// detectMore reads Azure Pipelines, Bitbucket Pipelines, Travis CI, Drone
// and Woodpecker (docs/pull-requests.md lists the variables read).
func detectMore(env func(string) string) Info {
	var info Info
	switch {
	case env("TF_BUILD") == "True" || env("TF_BUILD") == "true":
		info = Info{Provider: "Azure Pipelines", Commit: env("BUILD_SOURCEVERSION")}
		ref := env("BUILD_SOURCEBRANCH")
		switch {
		case strings.HasPrefix(ref, "refs/tags/"):
			info.Tag = ref
		case strings.HasPrefix(ref, "refs/heads/"):
			info.Branch = ref
		}
		// Pull request builds: GitHub repositories give the number, Azure
		// Repos the id; the source commit is the head (BUILD_SOURCEVERSION
		// is the merge).
		info.PullRequest = PullRequestNumber(cmp.Or(env("SYSTEM_PULLREQUEST_PULLREQUESTNUMBER"), env("SYSTEM_PULLREQUEST_PULLREQUESTID")))
		if info.PullRequest != 0 {
			info.Branch = env("SYSTEM_PULLREQUEST_SOURCEBRANCH")
			info.BaseBranch = env("SYSTEM_PULLREQUEST_TARGETBRANCH")
			if sha := strings.ToLower(env("SYSTEM_PULLREQUEST_SOURCECOMMITID")); isCommitSHA(sha) {
				info.Commit = sha
			}
		}
	case env("BITBUCKET_BUILD_NUMBER") != "":
		info = Info{Provider: "Bitbucket Pipelines", Commit: env("BITBUCKET_COMMIT"), Branch: env("BITBUCKET_BRANCH"), Tag: env("BITBUCKET_TAG"),
			PullRequest: PullRequestNumber(env("BITBUCKET_PR_ID")), BaseBranch: env("BITBUCKET_PR_DESTINATION_BRANCH")}
	case env("TRAVIS") == "true":
		info = Info{Provider: "Travis CI", Commit: env("TRAVIS_COMMIT"), Branch: env("TRAVIS_BRANCH"), Tag: env("TRAVIS_TAG"),
			PullRequest: PullRequestNumber(env("TRAVIS_PULL_REQUEST"))} // "false" when not a pull request
		if info.PullRequest != 0 {
			// TRAVIS_BRANCH is the target of a pull request; TRAVIS_COMMIT
			// the merge.
			info.BaseBranch, info.Branch = info.Branch, env("TRAVIS_PULL_REQUEST_BRANCH")
			info.Commit = cmp.Or(env("TRAVIS_PULL_REQUEST_SHA"), info.Commit)
		}
		if info.Tag != "" && info.Branch == info.Tag {
			info.Branch = ""
		}
	case env("CI") == "woodpecker":
		info = Info{Provider: "Woodpecker", Commit: env("CI_COMMIT_SHA"), Branch: cmp.Or(env("CI_COMMIT_SOURCE_BRANCH"), env("CI_COMMIT_BRANCH")),
			Tag: env("CI_COMMIT_TAG"), PullRequest: PullRequestNumber(env("CI_COMMIT_PULL_REQUEST")), BaseBranch: env("CI_COMMIT_TARGET_BRANCH")}
	case env("DRONE") == "true":
		info = Info{Provider: "Drone", Commit: env("DRONE_COMMIT_SHA"), Branch: cmp.Or(env("DRONE_SOURCE_BRANCH"), env("DRONE_BRANCH")),
			Tag: env("DRONE_TAG"), PullRequest: PullRequestNumber(env("DRONE_PULL_REQUEST"))}
		if info.PullRequest != 0 {
			info.BaseBranch = env("DRONE_TARGET_BRANCH")
		}
	}
	if info.PullRequest == 0 {
		info.BaseBranch = "" // only a pull request has a target
	}
	if info.Tag != "" && info.Branch == info.Tag {
		info.Branch = ""
	}
	return info
}
