package ops

import (
	"cmp"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Build is what a binary knows about its own build: what plumb version
// prints.
type Build struct {
	Version  string // module version: v1.2.0, or (devel) for a local build
	Commit   string // VCS revision, "" if unknown
	Time     string // commit time, RFC 3339, "" if unknown
	Modified bool   // the working tree had changes
	Go       string
	Platform string
}

// ReadBuild combines the version and commit stamped at build time (either
// may be "") with what the Go toolchain recorded in the binary (info, from
// debug.ReadBuildInfo; nil when there is none). A stamped value wins; a
// stamped commit also means the tree is not reported as modified.
func ReadBuild(version, commit string, info *debug.BuildInfo) Build {
	b := Build{Version: version, Commit: commit, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if info != nil {
		if b.Version == "" {
			b.Version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				if b.Commit == "" {
					b.Commit = s.Value
				}
			case "vcs.time":
				b.Time = s.Value
			case "vcs.modified":
				b.Modified = s.Value == "true" && commit == ""
			}
		}
	}
	if b.Version == "" {
		b.Version = "(devel)"
	}
	return b
}

// String is the one-line version: "plumb v1.2.0 (commit 0123abcd…, …)".
func (b Build) String() string {
	s := "plumb " + b.Version
	var extra []string
	if b.Commit != "" {
		c := b.Commit
		if len(c) > 12 {
			c = c[:12]
		}
		if b.Modified {
			c += "+modified"
		}
		extra = append(extra, "commit "+c)
	}
	if b.Time != "" {
		extra = append(extra, b.Time)
	}
	extra = append(extra, b.Go, b.Platform)
	return s + " (" + strings.Join(extra, ", ") + ")"
}

// Details is the build a detail a line, what plumb version --verbose prints.
func (b Build) Details() string {
	return fmt.Sprintf("version   %s\ncommit    %s\ntime      %s\nmodified  %t\ngo        %s\nplatform  %s\n",
		b.Version, cmp.Or(b.Commit, "unknown"), cmp.Or(b.Time, "unknown"), b.Modified, b.Go, b.Platform)
}
