package cienv

import (
	"strings"
	"testing"
)

func TestOverride(t *testing.T) {
	sha := strings.Repeat("a", 40)
	detected := Info{Provider: "GitLab CI", Commit: sha, Branch: "main", Tag: "v9", PullRequest: 3}
	if got, err := Override(detected, Given{}); err != nil || got != detected {
		t.Errorf("nothing given: %+v %v", got, err)
	}
	got, err := Override(detected, Given{Commit: " ABCDEF1 ", Branch: "refs/heads/other", PR: "#12"})
	if want := (Info{Provider: "GitLab CI", Commit: "abcdef1", Branch: "other", PullRequest: 12}); err != nil || got != want {
		t.Errorf("overridden: %+v %v, want %+v", got, err, want)
	}
	if got, err := Override(detected, Given{Commit: sha[:12], Tag: "refs/tags/v10"}); err != nil || got.Tag != "v10" || got.Commit != sha[:12] {
		t.Errorf("the same commit, another tag: %+v %v", got, err)
	}
	for _, c := range []struct {
		info Info
		g    Given
		want string
	}{
		{Info{}, Given{}, "pass --commit"},
		{detected, Given{Commit: "xyz1234"}, "7 to 64 hex digits"},
		{detected, Given{Commit: "abc"}, "7 to 64 hex digits"},
		{detected, Given{PR: "0"}, "--pr must be a pull request number"},
		{detected, Given{PR: "twelve"}, "--pr must be a pull request number"},
	} {
		if _, err := Override(c.info, c.g); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v %+v: %v, want %q", c.info, c.g, err, c.want)
		}
	}
}
