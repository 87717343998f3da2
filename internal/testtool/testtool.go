// Package testtool is for tests that need a program this module does not
// build: a reference tool (cloc, jscpd, gocognit, staticcheck, diff-cover,
// oapi-codegen), a browser, a container engine, nginx, a database server.
//
// Outside CI a test whose program is missing skips, saying what to install.
// Under CI (the environment variable CI is true, as .ci/run, GitHub Actions
// and GitLab CI set it) the same test fails instead: a CI run must not pass
// with whole areas untested because a tool was not installed.
//
// Programs whose output a test compares are pinned: GoInstall builds a given
// version once into a cache folder, so a test never depends on whatever
// version happens to be on PATH.
package testtool

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// CI reports whether the tests run under CI (CI=true).
func CI() bool {
	v, err := strconv.ParseBool(os.Getenv("CI"))
	return err == nil && v
}

// Missing ends t for a program (or service) it needs and does not have: a
// skip with the message outside CI, a failure under CI. The message should
// say what to install.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if CI() {
		t.Fatalf("%s (CI=true: a missing tool fails the test instead of skipping it)", msg)
		return
	}
	t.Skip(msg)
}

// Need returns the path of the program name on PATH; without one it ends t
// with Missing, saying "name is not installed: install" (install says how,
// e.g. "apt-get install -y cloc").
func Need(t testing.TB, name, install string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Missing(t, "%s is not installed: %s", name, install)
	}
	return p
}

// CacheDir is the folder the pinned tools of the tests are installed into
// once: $PLUMB_TEST_TOOLS when set (.ci/run sets it and installs them there
// beforehand), else plumb-test in the user's cache folder.
func CacheDir() string {
	if d := os.Getenv("PLUMB_TEST_TOOLS"); d != "" {
		return d
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	return filepath.Join(cache, "plumb-test")
}

// GoInstall returns a binary of the Go command pkg at version (a module
// version such as v0.8.2), built once with "go install pkg@version" into
// CacheDir()/go/NAME@VERSION/ and reused by later runs. Without the go
// command or the module proxy it ends t with Missing.
func GoInstall(t testing.TB, pkg, version string) string {
	t.Helper()
	bin, err := TryGoInstall(pkg, version)
	if err != nil {
		Missing(t, "%v", err)
	}
	return bin
}

// TryGoInstall is GoInstall for a test that has a fallback: it returns the
// error instead of ending the test.
func TryGoInstall(pkg, version string) (string, error) {
	name := pkg[strings.LastIndex(pkg, "/")+1:]
	dir := filepath.Join(CacheDir(), "go", name+"@"+version)
	bin := filepath.Join(dir, name+exeSuffix())
	if fi, err := os.Stat(bin); err == nil && fi.Mode().IsRegular() {
		return bin, nil
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("the go command is not on PATH (install Go); it builds %s@%s", pkg, version)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	// Installed into a folder of its own, then renamed into place: test
	// binaries of several packages may install the same tool at once.
	tmp, err := os.MkdirTemp(dir, "install-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.Command(goBin, "install", pkg+"@"+version)
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "GOBIN="+tmp, "GOFLAGS=", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go install %s@%s failed (it needs the Go module proxy): %v\n%s", pkg, version, err, strings.TrimSpace(string(out)))
	}
	if err := os.Rename(filepath.Join(tmp, name+exeSuffix()), bin); err != nil {
		return "", err
	}
	return bin, nil
}

func exeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}
