package analyze

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// goFixtures is the tree of Go functions scored by hand and by gocognit,
// and goGolden what gocognit v1.3.0 gives for it (file:line → score).
const (
	goFixtures = "cognitive/testdata/go"
	goGolden   = "cognitive/testdata/gocognit-expected.json"
)

// runGocognit scores every Go file under root with the gocognit command
// as it scores a directory (functions grouped by package for the
// recursion rule), keyed "rel/path.go:line". gocognit stops at the first
// file that does not parse, so it reads a mirror of the tree (symbolic
// links) without such files; they have no functions on our side either.
func runGocognit(t *testing.T, bin, root string) map[string]int {
	t.Helper()
	mirror := t.TempDir()
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || !d.Type().IsRegular() {
			return nil
		}
		if _, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ParseComments); err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		dst := filepath.Join(mirror, rel)
		os.MkdirAll(filepath.Dir(dst), 0o755)
		abs, _ := filepath.Abs(p)
		return os.Symlink(abs, dst)
	})
	cmd := exec.Command(bin, "-json", "-test", "-over", "-1", mirror) // -over -1: functions scoring 0 too
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("gocognit: %v: %s", err, stderr.String())
	}
	var stats []struct {
		Complexity int
		Pos        struct {
			Filename string
			Line     int
		}
	}
	if err := json.Unmarshal(out, &stats); err != nil {
		t.Fatalf("gocognit output: %v", err)
	}
	m := map[string]int{}
	for _, s := range stats {
		rel, _ := filepath.Rel(mirror, s.Pos.Filename)
		m[fmt.Sprintf("%s:%d", filepath.ToSlash(rel), s.Pos.Line)] = s.Complexity
	}
	return m
}

// ourGoScores is what analyze.Run gives for every Go function under root,
// keyed as runGocognit keys them, and the Go files it measured. gocognit
// places a function where a //line directive says it is (another line,
// maybe another file); plumb reports the file's own lines: a function of a
// file with such directives is also keyed at the place the directive gives.
func ourGoScores(t *testing.T, root string) (map[string]int, map[string]bool) {
	t.Helper()
	m := map[string]int{}
	files := map[string]bool{}
	for _, f := range measureAll(t, corpus{name: root, root: root}, noDup).Files {
		if f.Language != "Go" {
			continue
		}
		files[f.Path] = true
		byLine := map[int]int{}
		for _, fn := range f.Functions {
			m[fmt.Sprintf("%s:%d", f.Path, fn.Line)] = fn.Complexity
			byLine[fn.Line] = fn.Complexity
		}
		abs := filepath.Join(root, filepath.FromSlash(f.Path))
		src, err := os.ReadFile(abs)
		if err != nil || !strings.Contains(string(src), "//line ") {
			continue
		}
		fset := token.NewFileSet()
		af, err := parser.ParseFile(fset, abs, src, 0)
		if err != nil {
			continue
		}
		for _, d := range af.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok {
				at, own := fset.Position(fn.Pos()), fset.PositionFor(fn.Pos(), false)
				if rel, err := filepath.Rel(root, at.Filename); err == nil && at != own {
					m[fmt.Sprintf("%s:%d", filepath.ToSlash(rel), at.Line)] = byLine[own.Line]
				}
			}
		}
	}
	return m, files
}

// compareScores compares per function; a function gocognit leaves out
// (//gocognit:ignore) is not compared, nor one that a //line directive
// places in a file outside the tree.
func compareScores(ours map[string]int, files map[string]bool, ref map[string]int) (same, total int, diffs []string) {
	for k, want := range ref {
		got, ok := ours[k]
		if !ok && !files[k[:strings.LastIndexByte(k, ':')]] {
			continue
		}
		total++
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("%s: not measured, gocognit %d", k, want))
		case got == want:
			same++
		default:
			diffs = append(diffs, fmt.Sprintf("%s: %d, gocognit %d", k, got, want))
		}
	}
	sort.Strings(diffs)
	return
}

func readGolden(t *testing.T) map[string]int {
	t.Helper()
	b, err := os.ReadFile(goGolden)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]int
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestGoFixturesMatchGocognit compares the fixtures' scores with what
// gocognit gave for them (the golden file): it needs no tool.
func TestGoFixturesMatchGocognit(t *testing.T) {
	ref := readGolden(t)
	if len(ref) < 30 {
		t.Fatalf("only %d functions in %s", len(ref), goGolden)
	}
	ours, files := ourGoScores(t, goFixtures)
	same, total, diffs := compareScores(ours, files, ref)
	for _, d := range diffs {
		t.Error(d)
	}
	t.Logf("%d of %d functions equal to gocognit %s", same, total, gocognitVersion)
}

// TestGocognitGolden checks the golden file against gocognit itself
// (PLUMB_UPDATE_GOLDEN=1 rewrites it).
func TestGocognitGolden(t *testing.T) {
	got := runGocognit(t, gocognit(t), goFixtures)
	if os.Getenv("PLUMB_UPDATE_GOLDEN") != "" {
		b, _ := json.MarshalIndent(got, "", " ")
		if err := os.WriteFile(goGolden, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	files := map[string]bool{}
	for k := range got {
		files[k[:strings.LastIndexByte(k, ':')]] = true
	}
	_, _, diffs := compareScores(got, files, readGolden(t))
	for _, d := range diffs {
		t.Errorf("golden %s", d)
	}
	if len(got) != len(readGolden(t)) {
		t.Errorf("gocognit scores %d functions, the golden file %d", len(got), len(readGolden(t)))
	}
}

// TestGoStdlibMatchesGocognit compares every function of the Go standard
// library with gocognit: at least 99% must be equal (docs/analyze.md).
func TestGoStdlibMatchesGocognit(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the standard library comparison takes a while")
	}
	bin := gocognit(t)
	root := filepath.Join(goroot(t), "src")
	ours, files := ourGoScores(t, root)
	same, total, diffs := compareScores(ours, files, runGocognit(t, bin, root))
	for i, d := range diffs {
		if i < 40 {
			t.Log(d)
		}
	}
	pct := 100 * float64(same) / float64(total)
	t.Logf("Go standard library: %d of %d functions equal to gocognit %s (%.3f%%)", same, total, gocognitVersion, pct)
	if pct < 99 {
		t.Errorf("%.3f%% of functions equal to gocognit, below 99%%", pct)
	}
}
