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
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Run(context.Background(), Options{Dir: dir, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
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
