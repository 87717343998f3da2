package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/alecthomas/kong"
)

// Stamped at build time, for example by scripts/dist:
//
//	go build -ldflags "-X main.version=v1.2.0 -X main.commit=$(git rev-parse HEAD)" ./cmd/plumb
//
// When they are empty, the module version and the VCS details that the Go
// toolchain records in the binary are used instead.
var (
	version = ""
	commit  = ""
)

// buildInfo is what plumb version prints.
type buildInfo struct {
	Version  string // module version: v1.2.0, or (devel) for a local build
	Commit   string // VCS revision, "" if unknown
	Time     string // commit time, RFC 3339, "" if unknown
	Modified bool   // the working tree had changes
	Go       string
	Platform string
}

var readBuildInfo = debug.ReadBuildInfo

func currentBuild() buildInfo {
	b := buildInfo{Version: version, Commit: commit, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if info, ok := readBuildInfo(); ok {
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

// versionString is the one-line version: "plumb v1.2.0 (commit 0123abcd…)".
func versionString() string {
	b := currentBuild()
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

// versionFlag is --version: it prints the version and exits 0.
type versionFlag bool

func (versionFlag) IgnoreDefault() {}

func (versionFlag) BeforeReset(ctx *kong.Context) error {
	fmt.Fprintln(ctx.Stdout, versionString())
	ctx.Kong.Exit(0)
	return nil
}

type versionCmd struct {
	Verbose bool `name:"verbose" short:"v" help:"Print each detail on its own line."`
}

func (versionCmd) Help() string {
	return `The version and commit are stamped at build time (scripts/dist does it);
otherwise they come from what the Go toolchain recorded (go install …@v1.2.0
records the version, a build in a git checkout the commit).

Examples:

    plumb version
    plumb --version`
}

func (c *versionCmd) Run(e *runEnv) error { return printVersion(e.stdout, c.Verbose) }

func printVersion(w io.Writer, verbose bool) error {
	if !verbose {
		_, err := fmt.Fprintln(w, versionString())
		return err
	}
	b := currentBuild()
	fmt.Fprintf(w, "version   %s\n", b.Version)
	fmt.Fprintf(w, "commit    %s\n", firstOf(b.Commit, "unknown"))
	fmt.Fprintf(w, "time      %s\n", firstOf(b.Time, "unknown"))
	fmt.Fprintf(w, "modified  %t\n", b.Modified)
	fmt.Fprintf(w, "go        %s\n", b.Go)
	_, err := fmt.Fprintf(w, "platform  %s\n", b.Platform)
	return err
}
