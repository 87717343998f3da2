package testtool

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records how the helper ended the test.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper()                        {}
func (r *recorder) Skip(args ...any)               { r.skipped = fmt.Sprint(args...) }
func (r *recorder) Fatalf(format string, a ...any) { r.failed = fmt.Sprintf(format, a...) }

func TestMissingSkipsOutsideCIAndFailsUnderCI(t *testing.T) {
	for _, c := range []struct {
		ci   string
		fail bool
	}{{"", false}, {"false", false}, {"true", true}, {"1", true}} {
		t.Run("CI="+c.ci, func(t *testing.T) {
			t.Setenv("CI", c.ci)
			r := &recorder{TB: t}
			Missing(r, "cloc is not installed: %s", "apt-get install -y cloc")
			msg := r.skipped
			if c.fail {
				msg = r.failed
				if r.skipped != "" {
					t.Errorf("skipped under CI=%s: %q", c.ci, r.skipped)
				}
			} else if r.failed != "" {
				t.Errorf("failed outside CI: %q", r.failed)
			}
			if !strings.HasPrefix(msg, "cloc is not installed: apt-get install -y cloc") {
				t.Errorf("message %q (skipped %q, failed %q), want the install hint", msg, r.skipped, r.failed)
			}
		})
	}
}

func TestNeed(t *testing.T) {
	t.Setenv("CI", "true")
	r := &recorder{TB: t}
	if p := Need(r, "go", "install Go"); p == "" || r.failed != "" || r.skipped != "" {
		t.Errorf("Need(go) = %q (failed %q, skipped %q)", p, r.failed, r.skipped)
	}
	Need(r, "no-such-program-plumb", "apt-get install -y nothing")
	if !strings.Contains(r.failed, "no-such-program-plumb is not installed: apt-get install -y nothing") {
		t.Errorf("Need of a missing program under CI: failed %q, skipped %q", r.failed, r.skipped)
	}
}

// TryGoInstall reuses a binary in the cache folder without running go, and
// reports a failed install as an error naming the package and version.
func TestTryGoInstall(t *testing.T) {
	tools := t.TempDir()
	t.Setenv("PLUMB_TEST_TOOLS", tools)
	t.Setenv("GOPROXY", "off") // the module cache only: no network in this test
	_, err := TryGoInstall("example.com/nosuchmodule/cmd/tool", "v1.0.0")
	if err == nil || !strings.Contains(err.Error(), "go install example.com/nosuchmodule/cmd/tool@v1.0.0 failed") {
		t.Errorf("a module that does not exist: %v", err)
	}
	cached := filepath.Join(tools, "go", "tool@v1.0.0", "tool"+exeSuffix())
	if err := os.MkdirAll(filepath.Dir(cached), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cached, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", "") // no go command: the cached binary must do
	if got, err := TryGoInstall("example.com/nosuchmodule/cmd/tool", "v1.0.0"); got != cached || err != nil {
		t.Errorf("with the binary cached: %q, %v; want %s", got, err, cached)
	}
	if _, err := TryGoInstall("example.com/nosuchmodule/cmd/other", "v1.0.0"); err == nil || !strings.Contains(err.Error(), "go command is not on PATH") {
		t.Errorf("without go and nothing cached: %v", err)
	}
}
