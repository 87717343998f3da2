package cognitive

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uudashr/gocognit"
)

// reference scores a Go file with gocognit, as its command does for a
// single file: one map entry per function, keyed by its line.
func reference(src []byte) (map[int]int, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	m := map[int]int{}
	for _, s := range gocognit.ComplexityStats(f, fset, nil) {
		m[s.Pos.Line] = s.Complexity
	}
	return m, nil
}

// compareTree compares every function of every Go file under root.
func compareTree(t *testing.T, root string) (same, total int, diffs []string) {
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		ref, err := reference(src)
		if err != nil {
			return nil // gocognit cannot score it either
		}
		ours, err := goFunctions(src)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			return nil
		}
		for _, fn := range ours {
			want, ok := ref[fn.Line]
			if !ok {
				continue // gocognit skips functions marked //gocognit:ignore
			}
			total++
			if fn.Complexity == want {
				same++
			} else {
				diffs = append(diffs, fmt.Sprintf("%s:%d %s: %d, gocognit %d", p, fn.Line, fn.Name, fn.Complexity, want))
			}
		}
		return nil
	})
	return
}

func TestGoFixturesMatchGocognit(t *testing.T) {
	same, total, diffs := compareTree(t, "testdata/go")
	if total < 20 {
		t.Fatalf("only %d functions in the fixtures", total)
	}
	for _, d := range diffs {
		t.Error(d)
	}
	t.Logf("%d/%d functions equal", same, total)
}

// TestGoStdlibMatchesGocognit compares every function of the Go standard
// library (PLUMB_ANALYZE_CORPUS=1; it takes a while): at least 99% equal.
func TestGoStdlibMatchesGocognit(t *testing.T) {
	if os.Getenv("PLUMB_ANALYZE_CORPUS") == "" {
		t.Skip("set PLUMB_ANALYZE_CORPUS=1 to compare the standard library")
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	same, total, diffs := compareTree(t, filepath.Join(strings.TrimSpace(string(goroot)), "src"))
	for i, d := range diffs {
		if i < 50 {
			t.Log(d)
		}
	}
	pct := 100 * float64(same) / float64(total)
	t.Logf("standard library: %d of %d functions equal to gocognit (%.3f%%)", same, total, pct)
	if pct < 99 {
		t.Errorf("%.3f%% < 99%%", pct)
	}
}
