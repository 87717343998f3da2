package analyze

// Helpers of the accuracy tests: they run the reference tools (cloc,
// gocognit, jscpd) when they are installed, and say what to install when
// they are not. docs/analyze.md ("Accuracy against the reference tools")
// quotes the figures these tests print and the commands behind them.

import (
	"context"
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
	}
	return out
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
