package uploadbody

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Inputs: a regular file is read in place; stdin is copied once to a
// temporary file that Cleanup removes; empty files, directories, missing
// files and stdin twice are InputErrors (exit status 2).
func TestInputs(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "cover.out")
	if err := os.WriteFile(file, []byte("mode: set\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	in := &Inputs{Stdin: strings.NewReader("from stdin")}
	f, err := in.Open(file, "coverage report")
	if err != nil || f.Path != file || f.Name != file || f.Size != 10 {
		t.Errorf("a file: %+v %v", f, err)
	}
	s, err := in.Open("-", "coverage report")
	if err != nil || s.Name != "stdin" || s.Size != 10 || s.Path == "-" {
		t.Fatalf("stdin: %+v %v", s, err)
	}
	ct, err := s.Content()
	if err != nil || ct.Name != "stdin" || ct.Size != 10 {
		t.Errorf("content: %+v %v", ct, err)
	}
	var got strings.Builder
	if err := ct.Write(&got, func(r io.Reader) io.Reader { return r }); err != nil || got.String() != "from stdin" {
		t.Errorf("content read %q, %v", got.String(), err)
	}
	if err := s.Check("coverage report", func(r io.Reader) error { return errors.New("bad") }); err == nil || err.Error() != "the coverage report stdin: bad" {
		t.Errorf("check: %v", err)
	}
	for arg, want := range map[string]string{"-": "stdin ('-') can be read only once", empty: "is empty", dir: "is a directory", filepath.Join(dir, "none"): "cannot read the coverage report"} {
		_, err := in.Open(arg, "coverage report")
		var ie *InputError
		if !errors.As(err, &ie) || ie.ExitCode() != 2 || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an InputError with %q", arg, err, want)
		}
	}
	in.Cleanup()
	if _, err := os.Stat(s.Path); !os.IsNotExist(err) {
		t.Errorf("the copy of stdin is left after Cleanup: %v", err)
	}
}

// SARIF files are opened and checked before anything is sent: the first
// problem names its file, and stdin may be one of them.
func TestOpenSARIF(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.sarif")
	bad := filepath.Join(dir, "bad.sarif")
	if err := os.WriteFile(good, []byte(`{"version":"2.1.0","runs":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte(`{"version":"2.1.0","runs":[`), 0o644); err != nil {
		t.Fatal(err)
	}
	in := &Inputs{Stdin: strings.NewReader(`{"version":"2.1.0","runs":[]}`)}
	defer in.Cleanup()
	files, err := in.OpenSARIF([]string{good, "-"})
	if err != nil || len(files) != 2 || files[0].Path != good || files[1].Name != "stdin" || files[1].Size == 0 {
		t.Fatalf("two good files: %+v %v", files, err)
	}
	_, err = (&Inputs{}).OpenSARIF([]string{good, bad})
	var ie *InputError
	if !errors.As(err, &ie) || !strings.Contains(ie.Msg, "the SARIF file "+bad) {
		t.Fatalf("a broken SARIF file: %v", err)
	}
	if _, err := (&Inputs{}).OpenSARIF([]string{filepath.Join(dir, "missing.sarif")}); !errors.As(err, &ie) {
		t.Fatalf("a missing SARIF file: %v", err)
	}
}

// CheckStats counts a stats file's files and removed paths (a BOM allowed),
// and names the file when it is not a stats file.
func TestCheckStats(t *testing.T) {
	in := &Inputs{}
	good, err := in.Open(write(t, "stats.json", "\uFEFF"+`{"files":[{"path":"a.go","lines":3,"loc":2,"complexity":1,"duplicatedLines":0},{"path":"b.go","lines":1,"loc":1,"complexity":0,"duplicatedLines":0}],"removed":["old.go"]}`), "stats file")
	if err != nil {
		t.Fatal(err)
	}
	if files, removed, err := good.CheckStats(); err != nil || files != 2 || removed != 1 {
		t.Errorf("CheckStats = %d files, %d removed, %v; want 2, 1, nil", files, removed, err)
	}
	bad, err := in.Open(write(t, "bad.json", `{"files":[{"path":"a.go"`), "stats file")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = bad.CheckStats()
	var ie *InputError
	if !errors.As(err, &ie) || !strings.HasPrefix(ie.Msg, "the stats file "+bad.Name+": ") {
		t.Errorf("a broken stats file: %v, want an InputError naming %s", err, bad.Name)
	}
}

// OpenAnalysis checks the stats file and the SARIF files before anything
// is sent; the upload holds the head, the stats and the SARIF logs, its
// size the files' sum.
func TestOpenAnalysis(t *testing.T) {
	stats := write(t, "stats.json", `{"files":[{"path":"a.go","lines":3,"loc":2,"complexity":1,"duplicatedLines":0}],"removed":["old.go","gone.go"]}`)
	sarif := write(t, "x.sarif", `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[]}]}`)
	in := &Inputs{}
	a, err := in.OpenAnalysis(stats, []string{sarif})
	if err != nil || a.Files != 1 || a.Removed != 2 || len(a.SARIF) != 1 {
		t.Fatalf("OpenAnalysis: %+v %v", a, err)
	}
	ct := a.Content(Head{CommitSHA: "abc", Branch: "main", FullTree: true})
	if ct.Size != a.Stats.Size+a.SARIF[0].Size {
		t.Errorf("size %d, want %d", ct.Size, a.Stats.Size+a.SARIF[0].Size)
	}
	var b strings.Builder
	if err := ct.Write(&b, func(r io.Reader) io.Reader { return r }); err != nil || !strings.Contains(b.String(), `"commitSha":"abc"`) || !strings.Contains(b.String(), `"removed":["old.go","gone.go"]`) || !strings.Contains(b.String(), `"name":"x"`) {
		t.Errorf("the upload: %v\n%s", err, b.String())
	}
	var ie *InputError
	if _, err := in.OpenAnalysis(write(t, "bad.json", `{"files":[`), nil); !errors.As(err, &ie) {
		t.Errorf("a broken stats file: %v", err)
	}
	if _, err := in.OpenAnalysis(stats, []string{write(t, "bad.sarif", `{"runs":[`)}); !errors.As(err, &ie) {
		t.Errorf("a broken SARIF file: %v", err)
	}
}
