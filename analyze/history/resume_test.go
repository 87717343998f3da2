package history

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/plumbhq/plumb/gitrepo"
)

// Done asks the server about at most MaxAsk commits at a time, counts the
// files already in the directory, and keeps only the plan's commits.
func TestPlanDone(t *testing.T) {
	var p Plan
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 2*MaxAsk + 5 {
		p.Commits = append(p.Commits, gitrepo.Commit{SHA: fmt.Sprintf("%040x", i), Time: at.AddDate(0, 0, i)})
	}
	var asked []int
	known := func(shas []string) ([]string, error) {
		asked = append(asked, len(shas))
		// the server knows the first of each question, and a commit not asked about
		return []string{shas[0], "ffff"}, nil
	}
	dir := t.TempDir()
	if err := os.WriteFile(File(dir, p.Commits[7]), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	done, err := p.Done(known, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(asked, []int{MaxAsk, MaxAsk, 5}) {
		t.Errorf("asked about %v commits at a time, want %d, %d, 5", asked, MaxAsk, MaxAsk)
	}
	want := map[string]bool{p.Commits[0].SHA: true, p.Commits[7].SHA: true, p.Commits[MaxAsk].SHA: true, p.Commits[2*MaxAsk].SHA: true}
	if len(done) != len(want) {
		t.Errorf("done = %v, want %v", done, want)
	}
	for sha := range want {
		if !done[sha] {
			t.Errorf("%s not done", sha)
		}
	}
	if got := filepath.Base(File(dir, p.Commits[7])); got != "2025-01-08-"+p.Commits[7].SHA+".json" {
		t.Errorf("File = %s", got)
	}

	boom := errors.New("server down")
	if _, err := p.Done(func([]string) ([]string, error) { return nil, boom }, ""); !errors.Is(err, boom) {
		t.Errorf("Done with a failing question = %v, want %v", err, boom)
	}
	if done, err := p.Done(nil, ""); err != nil || len(done) != 0 {
		t.Errorf("Done with nothing to ask = %v, %v", done, err)
	}
}

// WriteFile leaves the whole file or none, never a half file or a .tmp.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a.json")
	if err := WriteFile(name, func(w io.Writer) error { _, err := io.WriteString(w, "whole"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(name); err != nil || string(b) != "whole" {
		t.Fatalf("file = %q, %v", b, err)
	}
	boom := errors.New("interrupted")
	other := filepath.Join(dir, "b.json")
	err := WriteFile(other, func(w io.Writer) error { io.WriteString(w, "half"); return boom })
	if !errors.Is(err, boom) {
		t.Errorf("err = %v, want %v", err, boom)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "a.json" {
		t.Errorf("after a failed write the directory holds %v, want only a.json", entries)
	}
	if err := WriteFile(filepath.Join(dir, "missing", "c.json"), func(io.Writer) error { return nil }); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}
