package web

import (
	"errors"
	"testing"

	"github.com/plumbhq/plumb"
)

// The web's one reading of a typed reference (docs/web.md, "References").
func TestResolveRef(t *testing.T) {
	// The project has branch main and feature/x, tag v1.0 and tag main
	// (a name that is both), and a commit starting with abcdef1.
	known := map[string]bool{"refs/heads/main": true, "refs/heads/feature/x": true, "refs/tags/v1.0": true,
		"refs/tags/main": true, "abcdef1": true, "abcdef12": true, "refs/heads/deadbee": true}
	var asked []string
	has := func(ref string) (bool, error) { asked = append(asked, ref); return known[ref], nil }
	for _, c := range []struct{ typed, want string }{
		{"", "refs/heads/trunk"}, // the default branch
		{"  ", "refs/heads/trunk"},
		{"main", "refs/heads/main"}, // branch before tag
		{"feature/x", "refs/heads/feature/x"},
		{"v1.0", "refs/tags/v1.0"},
		{"refs/tags/main", "refs/tags/main"},
		{"refs/heads/nope", "refs/heads/nope"}, // explicit forms are taken as written
		{"refs/pull/7", "refs/pull/7"},
		{"refs/pull/7/head", "refs/pull/7"},
		{"refs/pull/7/merge", "refs/pull/7"},
		{"abcdef1", "abcdef1"}, // a short SHA
		{"ABCDEF12", "abcdef12"},
		{"deadbee", "refs/heads/deadbee"}, // a branch that looks like a SHA is the branch
		{"0123456789ABCDEF0123456789abcdef01234567", "0123456789abcdef0123456789abcdef01234567"},
	} {
		got, err := resolveRef(c.typed, "trunk", has)
		if err != nil || got != c.want {
			t.Errorf("resolveRef(%q) = %q, %v; want %q", c.typed, got, err, c.want)
		}
	}
	for typed, msg := range map[string]string{
		"nope":    `No branch or tag "nope" has coverage in this project.`,
		"abc1234": `No branch, tag or commit "abc1234" has coverage in this project.`,
	} {
		asked = nil
		_, err := resolveRef(typed, "trunk", has)
		if plumb.ErrorCode(err) != plumb.ENOTFOUND || plumb.ErrorDetails(err)[0] != msg {
			t.Errorf("resolveRef(%q): %v, want ENOTFOUND %q", typed, err, msg)
		}
		if asked[0] != "refs/heads/"+typed || asked[1] != "refs/tags/"+typed {
			t.Errorf("resolveRef(%q) asked %v: the branch first, then the tag", typed, asked)
		}
	}
	boom := errors.New("database down")
	if _, err := resolveRef("main", "trunk", func(string) (bool, error) { return false, boom }); !errors.Is(err, boom) {
		t.Errorf("a failing lookup gives %v", err)
	}
}
