package analyze

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Each worker reads every file into one buffer it reuses: a short file
// read after a long one must be measured on its own bytes alone, and a
// file the buffer's capacity fits exactly must read whole.
func TestReadBufferReused(t *testing.T) {
	dir := t.TempDir()
	long := "package p\n\n" + strings.Repeat("// a comment\nvar x = 1\n\n", 400)
	files := map[string]string{
		"a.go": long,
		"b.go": "package p\n\nfunc f() {}\n",
		"c.py": "x = 1\n",
		"d.go": long[:len(long)/2] + "\n",
	}
	res := runOneWorker(t, dir, files)
	if len(res.Files) != len(files) {
		t.Fatalf("%d files measured: %+v", len(res.Files), res)
	}
	for _, f := range res.Files {
		want := strings.Count(files[f.Path], "\n")
		if f.Lines != want {
			t.Errorf("%s: %d lines, want %d", f.Path, f.Lines, want)
		}
	}
	for _, f := range res.Files {
		if f.Path == "b.go" && (len(f.Functions) != 1 || f.Functions[0].Name != "f") {
			t.Errorf("b.go: functions %+v", f.Functions)
		}
	}
}

// The scorers read tokens as views of the file's bytes, which the next
// file overwrites: the names they report must be copies.
func TestNamesOutliveTheReadBuffer(t *testing.T) {
	dir := t.TempDir()
	filler := strings.Repeat("zzzzzzzzzz yyyyyyyy xxxxxxx\n", 200)
	files := map[string]string{
		"0.js": "// " + filler, // read first: the buffer is large enough for every later file
		"a.js": "function alpha(x) {\n  if (x) { return alpha(x - 1) }\n}\n",
		"b.py": "def beta(x):\n    if x:\n        return beta(x - 1)\n",
		"c.rb": "def gamma(x)\n  if x\n    gamma(x - 1)\n  end\nend\n",
		"d.sh": "delta() {\n  if true; then echo; fi\n}\n",
		"e.c":  "int epsilon(int x) {\n  return x ? epsilon(x - 1) : 0;\n}\n",
		"f.js": "// " + filler,
		"g.py": "# " + filler,
	}
	res := runOneWorker(t, dir, files)
	want := map[string]string{"a.js": "alpha", "b.py": "beta", "c.rb": "gamma", "d.sh": "delta", "e.c": "epsilon"}
	for _, f := range res.Files {
		if name, ok := want[f.Path]; ok {
			if len(f.Functions) != 1 || f.Functions[0].Name != name {
				t.Errorf("%s: functions %+v, want one named %s", f.Path, f.Functions, name)
			}
			delete(want, f.Path)
		}
	}
	if len(want) != 0 {
		t.Errorf("not measured: %v", want)
	}
}

// runOneWorker writes files into dir and analyses it with one worker, so
// that every file is read into the same buffer, in path order.
func runOneWorker(t *testing.T, dir string, files map[string]string) *Result {
	t.Helper()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Run(context.Background(), Options{Dir: dir, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	return res
}
