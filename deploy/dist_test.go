//go:build unix

package deploy_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/plumbhq/plumb/internal/testtool"
)

// scripts/dist builds a static binary with the version and commit stamped in
// and a SHA256SUMS that verifies. (CI builds all six targets in .ci/run;
// here only this machine's, which the test then runs.)
func TestDistScript(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a release binary")
	}
	for _, tool := range []struct{ name, pkg string }{{"bash", "bash"}, {"git", "git"}, {"sha256sum", "coreutils"}} {
		testtool.Need(t, tool.name, "scripts/dist needs it (apt-get install -y "+tool.pkg+")")
	}
	// The binary's stamped commit is compared with HEAD: the test needs a
	// git checkout of plumb.
	head, err := exec.Command("git", "rev-parse", "--verify", "HEAD").CombinedOutput()
	commit := strings.TrimSpace(string(head))
	if err != nil || len(commit) < 12 {
		t.Fatalf("git rev-parse --verify HEAD: %v: %s\nthe test compares the release binary's stamped commit with HEAD, so it runs in a git checkout of plumb (git clone, not an archive)", err, commit)
	}
	out := t.TempDir()
	target := runtime.GOOS + "/" + runtime.GOARCH
	cmd := exec.Command("bash", "scripts/dist", "v9.8.7-test")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "OUT="+out, "TARGETS="+target, "TRIMPATH=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scripts/dist: %v\n%s", err, b)
	}
	name := "plumb-v9.8.7-test-" + runtime.GOOS + "-" + runtime.GOARCH
	v, err := exec.Command(filepath.Join(out, name), "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(v), "plumb v9.8.7-test (commit "+commit[:12]) {
		t.Errorf("plumb version of the release binary: %q (HEAD %s)", v, commit)
	}
	sums, err := os.ReadFile(filepath.Join(out, "SHA256SUMS"))
	if err != nil || !strings.Contains(string(sums), "  "+name+"\n") {
		t.Fatalf("SHA256SUMS: %q %v", sums, err)
	}
	check := exec.Command("sha256sum", "-c", "SHA256SUMS")
	check.Dir = out
	if b, err := check.CombinedOutput(); err != nil {
		t.Errorf("sha256sum -c: %v\n%s", err, b)
	}
	// Static: no dynamic section (file(1) may be absent; read the ELF).
	if runtime.GOOS == "linux" {
		if b, err := exec.Command("ldd", filepath.Join(out, name)).CombinedOutput(); err == nil && !strings.Contains(string(b), "not a dynamic executable") && !strings.Contains(string(b), "statically linked") {
			t.Errorf("the release binary is dynamic: %s", b)
		}
	}
}
