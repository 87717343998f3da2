package main

import (
	"bytes"
	"context"
	"io"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
)

// runHelp runs plumb with args and returns stdout, stderr and the error.
func runArgs(args ...string) (string, string, error) {
	var out, errb bytes.Buffer
	err := run(context.Background(), args, envOf(nil), strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), err
}

// commandPaths lists every command of the command line, as "user create".
func commandPaths(t *testing.T) (all, leaves []string) {
	t.Helper()
	var root cli
	p, err := newParser(&root, envOf(nil), io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var walk func(n *kong.Node)
	walk = func(n *kong.Node) {
		for _, c := range n.Children {
			if c.Type != kong.CommandNode || c.Hidden {
				continue
			}
			all = append(all, c.Path())
			if len(c.Children) == 0 {
				leaves = append(leaves, c.Path())
			}
			walk(c)
		}
	}
	walk(p.Model.Node)
	return all, leaves
}

// Every command and subcommand has its own help, printed on stdout with
// exit status 0 for --help, -h and "plumb help …"; every leaf command's help
// has examples.
func TestEveryCommandHasHelp(t *testing.T) {
	all, leaves := commandPaths(t)
	if len(leaves) < 30 {
		t.Fatalf("only %d commands: %v", len(leaves), leaves)
	}
	isLeaf := map[string]bool{}
	for _, l := range leaves {
		isLeaf[l] = true
	}
	// Every block of help.tmpl is a command's (or a shared paragraph, named
	// in parentheses): a misspelt block would never be shown.
	isCommand := map[string]bool{"plumb": true}
	for _, p := range all {
		isCommand[p] = true
	}
	for _, tm := range helpTemplates.Templates() {
		if name := tm.Name(); name != "help.tmpl" && !strings.HasPrefix(name, "(") && !isCommand[name] {
			t.Errorf("help.tmpl has a block %q: no such command", name)
		}
	}
	for _, path := range all {
		words := strings.Fields(path)
		for _, args := range [][]string{append(words, "--help"), append(words, "-h"), append([]string{"help"}, words...)} {
			out, errs, err := runArgs(args...)
			if err != nil || errs != "" {
				t.Errorf("%v: err %v, stderr %q", args, err, errs)
				continue
			}
			if !strings.HasPrefix(out, "Usage: plumb "+path) {
				t.Errorf("%v: help starts %q", args, firstLine(out))
			}
			if isLeaf[path] && !strings.Contains(out, "Examples:") {
				t.Errorf("%v: help has no examples", args)
			}
		}
	}
	for _, args := range [][]string{nil, {"help"}, {"--help"}} {
		out, _, err := runArgs(args...)
		if err != nil || !strings.Contains(out, "Usage: plumb <command>") || !strings.Contains(out, "upload-token") {
			t.Errorf("%v: err %v, output %q", args, err, firstLine(out))
		}
		if n := strings.Count(out, "\n"); n > 60 {
			t.Errorf("%v: the top-level help is %d lines", args, n)
		}
	}
	// The CI commands' help says where the connection comes from and what
	// the exit statuses mean.
	out, _, _ := runArgs("help", "upload", "coverage")
	for _, s := range []string{"PLUMB_TOKEN", "PLUMB_URL", "PLUMB_PROJECT", "Exit status: 0 done; 1 the server refused", "--coverage-tag"} {
		if !strings.Contains(out, s) {
			t.Errorf("upload coverage help lacks %q", s)
		}
	}
	// --timeout says what it bounds: the command, or in analyze (whose
	// --history makes a request per commit) each request.
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	if !strings.Contains(norm(out), "--timeout=DURATION Longest the command may take, retries included") {
		t.Errorf("upload coverage help on --timeout:\n%s", out)
	}
	if out, _, _ := runArgs("help", "analyze"); !strings.Contains(norm(out), "--timeout=DURATION Longest each request to the server (the upload; with --history each commit's upload and each lookup) may take, retries included") {
		t.Errorf("analyze help on --timeout:\n%s", out)
	}
	out, _, _ = runArgs("serve", "--help")
	for _, s := range []string{"--addr", "$PLUMB_ADDR", "--database", "$PLUMB_DATABASE_URL", "default 127.0.0.1:8080"} {
		if !strings.Contains(out, s) {
			t.Errorf("serve help lacks %q", s)
		}
	}
	// Server flags are hidden where they do nothing, but still accepted.
	if out, _, _ := runArgs("user", "create", "--help"); strings.Contains(out, "--addr") || !strings.Contains(out, "--database") {
		t.Errorf("user create help shows --addr or lacks --database:\n%s", out)
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// Mistakes on the command line are usage errors (exit status 2) that say
// how to get help.
func TestCommandLineMistakes(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"frobnicate"}, "run 'plumb --help'"},
		{[]string{"user"}, "run 'plumb user --help'"},
		{[]string{"user", "create"}, "run 'plumb user create --help'"},
		{[]string{"workspace", "applications", "acme", "maybe"}, `"on","off"`},
		{[]string{"serve", "--rate-limit", "0"}, "--rate-limit must be a positive integer"},
		{[]string{"completion", "tcsh"}, "bash"},
	} {
		_, _, err := runArgs(c.args...)
		if exitCode(err) != 2 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v (exit %d), want a usage error with %q", c.args, err, exitCode(err), c.want)
		}
	}
}

// plumb version and --version print the stamped version and commit, or
// what the toolchain recorded.
func TestVersion(t *testing.T) {
	oldV, oldC, oldR := version, commit, readBuildInfo
	t.Cleanup(func() { version, commit, readBuildInfo = oldV, oldC, oldR })

	version, commit = "v1.2.3", "0123456789abcdef0123456789abcdef01234567"
	for _, args := range [][]string{{"version"}, {"--version"}, {"serve", "--version"}} {
		out, _, err := runArgs(args...)
		if err != nil || !strings.HasPrefix(out, "plumb v1.2.3 (commit 0123456789ab, ") {
			t.Errorf("%v: %q, %v", args, out, err)
		}
	}
	version, commit = "", ""
	readBuildInfo = func() (*debug.BuildInfo, bool) {
		return &debug.BuildInfo{Main: debug.Module{Version: "v0.9.0"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "fedcba9876543210"}, {Key: "vcs.time", Value: "2026-11-25T06:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}, true
	}
	out, _, err := runArgs("version")
	if err != nil || !strings.HasPrefix(out, "plumb v0.9.0 (commit fedcba987654+modified, 2026-11-25T06:00:00Z, go") {
		t.Errorf("from the build info: %q, %v", out, err)
	}
	out, _, _ = runArgs("version", "--verbose")
	if !strings.Contains(out, "commit    fedcba9876543210\n") || !strings.Contains(out, "modified  true\n") {
		t.Errorf("version --verbose: %q", out)
	}
	readBuildInfo = func() (*debug.BuildInfo, bool) { return nil, false }
	if out, _, _ := runArgs("version"); !strings.HasPrefix(out, "plumb (devel) (go") {
		t.Errorf("without build info: %q", out)
	}
}

// The completion script asks plumb __complete, which lists subcommands and
// flags.
func TestCompletion(t *testing.T) {
	out, _, err := runArgs("completion", "bash")
	if err != nil || !strings.Contains(out, "complete -o default -F _plumb_complete plumb") || !strings.Contains(out, "__complete") {
		t.Fatalf("completion bash: %v\n%s", err, out)
	}
	if out, _, err := runArgs("completion", "zsh"); err != nil || !strings.Contains(out, "bashcompinit") {
		t.Errorf("completion zsh: %v\n%s", err, out)
	}
	for _, c := range []struct {
		words []string
		want  string
	}{
		{[]string{""}, "analyze\napplication\nbuild\ncompletion\ndemo\nexport\ngate\nimport\nmember\nmigrate\nproject\nprojects\nserve\nsource\ntoken\nupload\nupload-token\nuser\nversion\nwhoami\nworkspace\n"},
		{[]string{"up"}, "upload\nupload-token\n"},
		{[]string{"project", "upload-token", ""}, "create\nlist\nrevoke\n"},
		{[]string{"upload", "coverage", "--url", "x", "--co"}, "--commit\n--coverage-tag\n"},
		{[]string{"serve", "--redis"}, "--redis-url\n"},
		{[]string{"user", "create", "--ad"}, ""}, // hidden there
	} {
		out, _, err := runArgs(append([]string{"__complete"}, c.words...)...)
		if err != nil || out != c.want {
			t.Errorf("__complete %q: %v\n got %q\nwant %q", c.words, err, out, c.want)
		}
	}
}
