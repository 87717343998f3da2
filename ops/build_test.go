package ops

import (
	"runtime/debug"
	"strings"
	"testing"
)

// A stamped version and commit win over the recorded ones; without either,
// the toolchain's record is used; without anything, the build is (devel).
func TestReadBuild(t *testing.T) {
	info := &debug.BuildInfo{Main: debug.Module{Version: "v0.9.0"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "fedcba9876543210"}, {Key: "vcs.time", Value: "2026-11-25T06:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}

	b := ReadBuild("v1.2.3", "0123456789abcdef", info)
	if b.Version != "v1.2.3" || b.Commit != "0123456789abcdef" || b.Modified || b.Time != "2026-11-25T06:00:00Z" {
		t.Errorf("stamped: %+v", b)
	}
	if s := b.String(); !strings.HasPrefix(s, "plumb v1.2.3 (commit 0123456789ab, 2026-11-25T06:00:00Z, go") {
		t.Errorf("stamped String: %q", s)
	}
	b = ReadBuild("", "", info)
	if s := b.String(); !strings.HasPrefix(s, "plumb v0.9.0 (commit fedcba987654+modified, 2026-11-25T06:00:00Z, go") {
		t.Errorf("recorded String: %q", s)
	}
	b = ReadBuild("", "", nil)
	if b.Version != "(devel)" || b.Commit != "" || !strings.HasPrefix(b.String(), "plumb (devel) (go") {
		t.Errorf("nothing known: %+v %q", b, b.String())
	}
}

// TestBuildDetails: a detail a line, "unknown" for what the build does not
// know.
func TestBuildDetails(t *testing.T) {
	b := Build{Version: "v1.2.0", Time: "2026-11-25T06:00:00Z", Modified: true, Go: "go1.25.4", Platform: "linux/amd64"}
	want := "version   v1.2.0\ncommit    unknown\ntime      2026-11-25T06:00:00Z\nmodified  true\ngo        go1.25.4\nplatform  linux/amd64\n"
	if got := b.Details(); got != want {
		t.Errorf("Details:\n%s\nwant:\n%s", got, want)
	}
}
