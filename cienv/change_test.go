package cienv

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/plumbhq/plumb/compare"
	"github.com/plumbhq/plumb/internal/testtool"
)

// A real git change: a modified file (lines inserted and one replaced), a
// renamed file with one line changed, a deleted file and a new one. The
// expected ranges are counted by hand from the edits below.
func TestComputeChangeFromGit(t *testing.T) {
	dir, git := testtool.GitRepo(t)
	write := func(name string, lines ...string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ten := []string{"l1", "l2", "l3", "l4", "l5", "l6", "l7", "l8", "l9", "l10"}
	write("m.go", ten...)
	write("old name.go", ten...)
	write("gone.go", "x", "y")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	base := git("rev-parse", "HEAD")
	git("checkout", "-q", "-b", "feature")
	// m.go: two lines inserted after l2 (head lines 3-4), l8 replaced
	// (head line 10).
	write("m.go", "l1", "l2", "new a", "new b", "l3", "l4", "l5", "l6", "l7", "L8", "l9", "l10")
	// renamed, l5 replaced: head line 5.
	os.Remove(filepath.Join(dir, "old name.go"))
	write("new name.go", "l1", "l2", "l3", "l4", "L5", "l6", "l7", "l8", "l9", "l10")
	os.Remove(filepath.Join(dir, "gone.go"))
	write("added.go", "a", "b", "c")
	git("add", "-A")
	git("commit", "-q", "-m", "feature")
	head := git("rev-parse", "HEAD")
	// main moves on: the merge base stays the base.
	git("checkout", "-q", "main")
	write("other.go", "o")
	git("add", "-A")
	git("commit", "-q", "-m", "main moves")

	gotBase, files, err := Change(dir, "main", head)
	if err != nil {
		t.Fatal(err)
	}
	if gotBase != base {
		t.Errorf("merge base = %s, want %s", gotBase, base)
	}
	want := []compare.FileChange{
		{Path: "added.go", Status: "added", AddedLines: []compare.LineRange{{Start: 1, End: 3}}},
		{Path: "gone.go", Status: "deleted"},
		{Path: "m.go", Status: "modified", AddedLines: []compare.LineRange{{Start: 3, End: 4}, {Start: 10, End: 10}}},
		{Path: "new name.go", PreviousPath: "old name.go", Status: "renamed", AddedLines: []compare.LineRange{{Start: 5, End: 5}}},
	}
	if !reflect.DeepEqual(files, want) {
		t.Errorf("files\n got %+v\nwant %+v", files, want)
	}
	if _, _, err := Change(dir, "no-such-branch", head); err == nil || !strings.Contains(err.Error(), "fetch-depth") {
		t.Errorf("unknown base: err = %v", err)
	}
}
