package analyze

// Helpers of the accuracy tests: they run the reference tools (cloc,
// gocognit, jscpd) when they are installed, and say what to install when
// they are not. docs/analyze.md ("Accuracy against the reference tools")
// quotes the figures these tests print and the commands behind them.

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/plumbhq/plumb/internal/testtool"
)

// corpus is a tree the accuracy tests compare with the reference tools:
// the directories dirs (all of it when empty) of root.
type corpus struct {
	name, root string
	dirs       []string
}

// paths are the directories the reference tools read.
func (c corpus) paths() []string {
	if len(c.dirs) == 0 {
		return []string{c.root}
	}
	out := make([]string, len(c.dirs))
	for i, d := range c.dirs {
		out[i] = filepath.Join(c.root, d)
	}
	return out
}

// corpora are the real trees the line-count and duplication tests compare
// (docs/analyze.md, "Accuracy"): by default a part of the Go standard
// library (net/), Debian's Python tree (/usr/lib/python3*) and the npm
// tree $PLUMB_NPM_TREE names (.ci/run installs one); with
// PLUMB_ANALYZE_CORPUS=full the whole standard library instead of net/.
func corpora(t *testing.T) []corpus {
	t.Helper()
	src := filepath.Join(goroot(t), "src")
	out := []corpus{{"go-net", src, []string{"net"}}}
	if os.Getenv("PLUMB_ANALYZE_CORPUS") == "full" {
		out = []corpus{{"go", src, nil}}
	}
	var pys []string
	matches, _ := filepath.Glob("/usr/lib/python3*")
	for _, p := range matches {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			pys = append(pys, filepath.Base(p))
		}
	}
	if len(pys) > 0 {
		out = append(out, corpus{"debian-python", "/usr/lib", pys})
	}
	if p := os.Getenv("PLUMB_NPM_TREE"); p != "" {
		out = append(out, corpus{"npm", p, nil})
	} else {
		missing(t, "the npm tree: set PLUMB_NPM_TREE (.ci/run installs it)")
	}
	return append(out, debianTrees(t)...)
}

// debianTrees are the trees of Debian packages the accuracy tests compare
// too, none of which plumb was tuned on (.ci/run installs them, pinned, in
// its "analyzer accuracy trees" block): Ruby's standard library and gems,
// PHP libraries, Rust crates, C and C++ headers, the Java class library's
// java.util, Perl modules. A tree that is not installed is skipped, or
// fails the test under CI=true.
func debianTrees(t *testing.T) []corpus {
	t.Helper()
	var out []corpus
	for _, c := range []struct {
		corpus
		pkg string
	}{
		{corpus{"debian-ruby", "/usr/lib/ruby", []string{"3.1.0"}}, "ruby"},
		{corpus{"debian-ruby-gems", "/usr/share/rubygems-integration/all", []string{"gems"}}, "ruby-rack ruby-thor"},
		{corpus{"debian-php", "/usr/share/php", []string{"Symfony", "League"}}, "php-symfony-console php-league-commonmark"},
		{corpus{"debian-rust", "/usr/share/cargo", []string{"registry"}}, "librust-regex-dev librust-serde-dev"},
		{corpus{"debian-c-headers", "/usr/include", []string{"linux"}}, "linux-libc-dev"},
		{corpus{"debian-cxx-headers", "/usr/include/c++", []string{"12"}}, "libstdc++-12-dev"},
		{corpus{"debian-perl", "/usr/share", []string{"perl5"}}, "perl"},
	} {
		ok := true
		for _, p := range c.paths() {
			if _, err := os.Stat(p); err != nil {
				ok = false
			}
		}
		if !ok {
			missing(t, "%s is not installed: apt-get install -y %s", strings.Join(c.paths(), " "), c.pkg)
			continue
		}
		out = append(out, c.corpus)
	}
	if j := javaTree(t); j != "" {
		out = append(out, corpus{"openjdk-17-java.util", j, nil})
	}
	return out
}

// javaTree extracts java.base/java/util of Debian's openjdk-17-source
// (src.zip) once, into the temporary directory, and returns it.
func javaTree(t *testing.T) string {
	t.Helper()
	const zipPath = "/usr/lib/jvm/openjdk-17/lib/src.zip"
	st, err := os.Stat(zipPath)
	if err != nil {
		missing(t, "%s is not installed: apt-get install -y openjdk-17-source", zipPath)
		return ""
	}
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("plumb-openjdk-src-%d", st.Size()))
	if _, err := os.Stat(filepath.Join(dir, "done")); err == nil {
		return filepath.Join(dir, "tree")
	}
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		if !strings.HasPrefix(f.Name, "java.base/java/util/") || f.FileInfo().IsDir() {
			continue
		}
		p := filepath.Join(dir, "tree", filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "done"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "tree")
}

// missing reports a reference tool or tree that is not installed: the
// test fails under CI=true (.ci/run installs them all), and is skipped
// with the install hint elsewhere. (Unlike testtool.Missing, the test goes on without that tree.)
func missing(t *testing.T, format string, args ...any) {
	t.Helper()
	if testtool.CI() {
		t.Fatalf("CI: "+format, args...)
	}
	t.Logf("skipped: "+format, args...)
}

// goroot is the Go installation the tests run with.
func goroot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// Clone detection in measureAll.
const (
	noDup = iota
	dupExact
	dupNormalised
)

// measureAll analyses a tree with every file in: vendored and generated
// files, no size limit, as the reference tools see it; dup says whether
// and how clones are sought.
func measureAll(t *testing.T, c corpus, dup int) *Result {
	t.Helper()
	yes := true
	cfg := Config{Vendored: &yes, Generated: &yes, MaxFileSize: 1 << 40}
	cfg.Duplication.Off = dup == noDup
	cfg.Duplication.Exact = dup == dupExact
	var exclude []string // the root's other entries
	if len(c.dirs) > 0 {
		keep := map[string]bool{}
		for _, d := range c.dirs {
			keep[d] = true
		}
		entries, err := os.ReadDir(c.root)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if !keep[e.Name()] {
				exclude = append(exclude, e.Name())
			}
		}
	}
	res, err := Run(context.Background(), Options{Dir: c.root, Config: &cfg, Exclude: exclude})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

var (
	gocognitOnce sync.Once
	gocognitPath string
	gocognitErr  string
)

// gocognitVersion is the gocognit the Go figures are compared with.
const gocognitVersion = "v1.3.0"

// gocognit builds github.com/uudashr/gocognit's command once per test
// run (go install in a scratch directory, never a dependency of this
// module), or names it with $PLUMB_GOCOGNIT; the test skips when neither
// works.
func gocognit(t *testing.T) string {
	t.Helper()
	gocognitOnce.Do(func() {
		if p := os.Getenv("PLUMB_GOCOGNIT"); p != "" {
			gocognitPath = p
			return
		}
		dir, err := os.MkdirTemp("", "plumb-gocognit-")
		if err != nil {
			gocognitErr = err.Error()
			return
		}
		cmd := exec.Command("go", "install", "github.com/uudashr/gocognit/cmd/gocognit@"+gocognitVersion)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOBIN="+dir, "GOFLAGS=")
		if out, err := cmd.CombinedOutput(); err != nil {
			gocognitErr = strings.TrimSpace(string(out))
			return
		}
		gocognitPath = filepath.Join(dir, "gocognit")
	})
	if gocognitPath == "" {
		testtool.Missing(t, "gocognit %s is not available (go install github.com/uudashr/gocognit/cmd/gocognit@%s failed: %s); it needs the Go module proxy, or set PLUMB_GOCOGNIT to a gocognit binary", gocognitVersion, gocognitVersion, gocognitErr)
	}
	return gocognitPath
}

// tool finds an installed reference tool, or skips the test saying how to
// install it.
func tool(t *testing.T, env, name, install string) string {
	t.Helper()
	if p := os.Getenv(env); p != "" {
		return p
	}
	p, err := exec.LookPath(name)
	if err != nil {
		testtool.Missing(t, "%s is not installed: %s (or set %s to its path); .ci/run installs it", name, install, env)
	}
	return p
}
