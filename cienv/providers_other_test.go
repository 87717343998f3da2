package cienv

import "testing"

// The providers added for pull requests (#13): commit, branch, tag, pull
// request and its target branch.
func TestDetectMoreCI(t *testing.T) {
	notGit := t.TempDir()
	cases := []struct {
		name string
		env  map[string]string
		want Info
	}{
		{"Azure branch", map[string]string{"TF_BUILD": "True", "BUILD_SOURCEVERSION": shaA, "BUILD_SOURCEBRANCH": "refs/heads/main"},
			Info{Provider: "Azure Pipelines", Commit: shaA, Branch: "main"}},
		{"Azure tag", map[string]string{"TF_BUILD": "True", "BUILD_SOURCEVERSION": shaA, "BUILD_SOURCEBRANCH": "refs/tags/v1"},
			Info{Provider: "Azure Pipelines", Commit: shaA, Tag: "v1"}},
		{"Azure GitHub pull request: the source commit", map[string]string{"TF_BUILD": "True", "BUILD_SOURCEVERSION": shaA, "BUILD_SOURCEBRANCH": "refs/pull/12/merge",
			"SYSTEM_PULLREQUEST_PULLREQUESTNUMBER": "12", "SYSTEM_PULLREQUEST_SOURCEBRANCH": "refs/heads/topic",
			"SYSTEM_PULLREQUEST_TARGETBRANCH": "refs/heads/main", "SYSTEM_PULLREQUEST_SOURCECOMMITID": shaB},
			Info{Provider: "Azure Pipelines", Commit: shaB, Branch: "topic", PullRequest: 12, BaseBranch: "main"}},
		{"Azure Repos pull request id", map[string]string{"TF_BUILD": "True", "BUILD_SOURCEVERSION": shaA,
			"SYSTEM_PULLREQUEST_PULLREQUESTID": "34", "SYSTEM_PULLREQUEST_SOURCEBRANCH": "refs/heads/x", "SYSTEM_PULLREQUEST_TARGETBRANCH": "refs/heads/dev"},
			Info{Provider: "Azure Pipelines", Commit: shaA, Branch: "x", PullRequest: 34, BaseBranch: "dev"}},
		{"Bitbucket branch", map[string]string{"BITBUCKET_BUILD_NUMBER": "3", "BITBUCKET_COMMIT": shaA, "BITBUCKET_BRANCH": "main"},
			Info{Provider: "Bitbucket Pipelines", Commit: shaA, Branch: "main"}},
		{"Bitbucket pull request", map[string]string{"BITBUCKET_BUILD_NUMBER": "3", "BITBUCKET_COMMIT": shaA, "BITBUCKET_BRANCH": "topic",
			"BITBUCKET_PR_ID": "9", "BITBUCKET_PR_DESTINATION_BRANCH": "main"},
			Info{Provider: "Bitbucket Pipelines", Commit: shaA, Branch: "topic", PullRequest: 9, BaseBranch: "main"}},
		{"Bitbucket tag", map[string]string{"BITBUCKET_BUILD_NUMBER": "3", "BITBUCKET_COMMIT": shaA, "BITBUCKET_TAG": "v2"},
			Info{Provider: "Bitbucket Pipelines", Commit: shaA, Tag: "v2"}},
		{"Travis push", map[string]string{"TRAVIS": "true", "TRAVIS_COMMIT": shaA, "TRAVIS_BRANCH": "main", "TRAVIS_PULL_REQUEST": "false"},
			Info{Provider: "Travis CI", Commit: shaA, Branch: "main"}},
		{"Travis pull request: head commit and source branch", map[string]string{"TRAVIS": "true", "TRAVIS_COMMIT": shaA, "TRAVIS_BRANCH": "main",
			"TRAVIS_PULL_REQUEST": "5", "TRAVIS_PULL_REQUEST_BRANCH": "topic", "TRAVIS_PULL_REQUEST_SHA": shaB},
			Info{Provider: "Travis CI", Commit: shaB, Branch: "topic", PullRequest: 5, BaseBranch: "main"}},
		{"Travis tag", map[string]string{"TRAVIS": "true", "TRAVIS_COMMIT": shaA, "TRAVIS_BRANCH": "v3", "TRAVIS_TAG": "v3", "TRAVIS_PULL_REQUEST": "false"},
			Info{Provider: "Travis CI", Commit: shaA, Tag: "v3"}},
		{"Drone pull request", map[string]string{"DRONE": "true", "DRONE_COMMIT_SHA": shaA, "DRONE_BRANCH": "main", "DRONE_SOURCE_BRANCH": "topic",
			"DRONE_TARGET_BRANCH": "main", "DRONE_PULL_REQUEST": "4"},
			Info{Provider: "Drone", Commit: shaA, Branch: "topic", PullRequest: 4, BaseBranch: "main"}},
		{"Drone push", map[string]string{"DRONE": "true", "DRONE_COMMIT_SHA": shaA, "DRONE_BRANCH": "main", "DRONE_SOURCE_BRANCH": "main", "DRONE_TARGET_BRANCH": "main"},
			Info{Provider: "Drone", Commit: shaA, Branch: "main"}},
		{"Woodpecker pull request", map[string]string{"CI": "woodpecker", "CI_COMMIT_SHA": shaA, "CI_COMMIT_BRANCH": "main", "CI_COMMIT_SOURCE_BRANCH": "topic",
			"CI_COMMIT_TARGET_BRANCH": "main", "CI_COMMIT_PULL_REQUEST": "6"},
			Info{Provider: "Woodpecker", Commit: shaA, Branch: "topic", PullRequest: 6, BaseBranch: "main"}},
		{"Woodpecker tag", map[string]string{"CI": "woodpecker", "CI_COMMIT_SHA": shaA, "CI_COMMIT_TAG": "v9"},
			Info{Provider: "Woodpecker", Commit: shaA, Tag: "v9"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Detect(envOf(c.env), notGit); got != c.want {
				t.Errorf("Detect\n got %+v\nwant %+v", got, c.want)
			}
		})
	}
}
