package web

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/plumbhq/plumb"
)

// References as people type them. The API takes only the contract's forms
// (refs/heads/<branch>, refs/tags/<tag>, refs/pull/<number>, a SHA); the web
// also takes a bare branch or tag name, and reads every form by one rule
// (docs/web.md, "References"):
//
//  1. refs/heads/B, refs/tags/T and refs/pull/N are what they say;
//     refs/pull/N/head and refs/pull/N/merge (GitHub's refs) are
//     refs/pull/N.
//  2. A full SHA (40 or 64 hex characters) is that commit.
//  3. Any other name X is the branch X if the project has it, else the tag
//     X, else, when X is 7 or more hex characters, the commit whose SHA
//     starts with X. Branch before tag, as `git switch` and `git checkout`
//     take a name.
//
// Whether the project "has" a candidate is asked of has (for the coverage
// viewer: the reference has coverage).

var (
	fullSHA   = regexp.MustCompile(`^(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{64})$`)
	shortSHA  = regexp.MustCompile(`^[0-9a-fA-F]{7,64}$`)
	githubPR  = regexp.MustCompile(`^refs/pull/([0-9]+)/(?:head|merge)$`)
	refPrefix = []string{"refs/heads/", "refs/tags/", "refs/pull/"}
)

// resolveRef turns what a person typed into the reference the store reads,
// by the rule above. An empty input is the default branch. When no
// candidate of a bare name is found, the error (ENOTFOUND) names what was
// tried.
func resolveRef(typed, defaultBranch string, has func(ref string) (bool, error)) (string, error) {
	typed = strings.TrimSpace(typed)
	switch {
	case typed == "":
		return "refs/heads/" + defaultBranch, nil
	case githubPR.MatchString(typed):
		return "refs/pull/" + githubPR.FindStringSubmatch(typed)[1], nil
	case hasAnyPrefix(typed, refPrefix):
		return typed, nil
	case fullSHA.MatchString(typed):
		return strings.ToLower(typed), nil
	}
	candidates := []string{"refs/heads/" + typed, "refs/tags/" + typed}
	if shortSHA.MatchString(typed) {
		candidates = append(candidates, strings.ToLower(typed))
	}
	for _, c := range candidates {
		ok, err := has(c)
		if err != nil {
			return "", err
		}
		if ok {
			return c, nil
		}
	}
	what := "branch or tag"
	if len(candidates) == 3 {
		what = "branch, tag or commit"
	}
	return "", plumb.Errorf(plumb.ENOTFOUND, "No %s %s has coverage in this project.", what, strconv.Quote(typed))
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// refLabel says what a resolved reference is, for headings ("" for a
// commit, which the heading names anyway).
func refLabel(ref string) string {
	switch {
	case strings.HasPrefix(ref, "refs/heads/"):
		return "branch " + strings.TrimPrefix(ref, "refs/heads/")
	case strings.HasPrefix(ref, "refs/tags/"):
		return "tag " + strings.TrimPrefix(ref, "refs/tags/")
	case strings.HasPrefix(ref, "refs/pull/"):
		return "pull request #" + strings.TrimPrefix(ref, "refs/pull/")
	}
	return ""
}
