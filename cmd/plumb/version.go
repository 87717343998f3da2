package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/alecthomas/kong"

	"github.com/plumbhq/plumb/ops"
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

var readBuildInfo = debug.ReadBuildInfo

func currentBuild() ops.Build {
	info, ok := readBuildInfo()
	if !ok {
		info = nil
	}
	return ops.ReadBuild(version, commit, info)
}

// versionString is the one-line version: "plumb v1.2.0 (commit 0123abcd…)".
func versionString() string { return currentBuild().String() }

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

func (c *versionCmd) Run(e *runEnv) error { return printVersion(e.stdout, c.Verbose) }

func printVersion(w io.Writer, verbose bool) error {
	s := versionString() + "\n"
	if verbose {
		s = currentBuild().Details()
	}
	_, err := io.WriteString(w, s)
	return err
}
