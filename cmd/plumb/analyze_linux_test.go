package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestAnalyzeGoesPastBadFiles: a file plumb analyze cannot read and a file
// that does not parse are named on stderr and left out (the unreadable one)
// or measured in part (the unparsable one: lines, no complexity); the
// analysis of the others goes on and exits 0.
func TestAnalyzeGoesPastBadFiles(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"ok.py":     "def f(x):\n    if x:\n        return 1\n    return 0\n",
		"bad.go":    "package x\n\nfunc (\n",
		"secret.js": "function f() { return 1; }\n",
		"bin.c":     "int x;\x00\x01\x02\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(dir, "secret.js"), 0); err != nil {
		t.Fatal(err)
	}
	outDir := t.TempDir()
	out := filepath.Join(outDir, "analysis.json")
	args := []string{"analyze", dir, "--out", out, "--commit", "7c7c7c7c7c", "--branch", "main"}
	var stderr string
	var code int
	if os.Geteuid() == 0 {
		// root reads any file: run the built command as nobody
		stderr, code = runAsNobody(t, []string{dir, outDir}, args...)
	} else {
		res := runCLI(t, nil, nil, "", args...)
		stderr, code = res.stderr, res.code
	}
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"skipped secret.js: unreadable:", "permission denied", "warning: bad.go: complexity not measured:"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Files []struct {
			Path       string
			Lines      int
			Complexity int
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	got := map[string][2]int{}
	for _, f := range doc.Files {
		got[f.Path] = [2]int{f.Lines, f.Complexity}
	}
	if len(got) != 2 || got["ok.py"] != [2]int{4, 1} || got["bad.go"] != [2]int{3, 0} {
		t.Errorf("files %v, want ok.py (4 lines, complexity 1) and bad.go (3 lines, not scored)", got)
	}
}

// runAsNobody builds the command and runs it as user nobody, after making
// dirs (and their parents) reachable and writable for it.
func runAsNobody(t *testing.T, dirs []string, args ...string) (string, int) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "plumb")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v: %s", err, out)
	}
	for _, d := range append(dirs, filepath.Dir(bin)) {
		for p := d; p != "/" && p != "."; p = filepath.Dir(p) {
			if st, err := os.Stat(p); err == nil && st.Mode().Perm()&0o005 != 0o005 {
				os.Chmod(p, st.Mode().Perm()|0o005)
			}
		}
	}
	os.Chmod(dirs[len(dirs)-1], 0o777)
	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	cmd.Env = []string{"HOME=/tmp", "PATH=/usr/bin:/bin", "CI=true"}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stderr.String(), code
}
