package demo

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/plumbhq/plumb/dataset"
)

// TestSourcesMatchTheFigures: every file of every analysed or covered
// commit has a source with exactly the file's lines, long enough for its
// coverage and its issues, so the file pages never lack code in the demo;
// the Go sources are Go and hold one branch per point of complexity.
func TestSourcesMatchTheFigures(t *testing.T) {
	doc := Generate(testNows[0], testToken)
	type key struct{ project, commit string }
	blobs := map[[2]string]*dataset.SourceBlob{}
	for i := range doc.SourceBlobs {
		b := &doc.SourceBlobs[i]
		blobs[[2]string{b.ProjectID, b.BlobID}] = b
	}
	files := map[key]map[string]dataset.SourceFile{}
	for _, c := range doc.SourceCommits {
		m := map[string]dataset.SourceFile{}
		for _, f := range c.Files {
			m[f.Path] = f
		}
		files[key{c.ProjectID, c.CommitSHA}] = m
	}
	text := func(project string, f dataset.SourceFile) []string {
		t.Helper()
		b := blobs[[2]string{project, f.BlobID}]
		if b == nil {
			t.Fatalf("no content %s for %s", f.BlobID, f.Path)
		}
		body, err := b.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSuffix(string(body), "\n"), "\n")
	}
	goChecked := 0
	for _, s := range doc.Snapshots {
		src := files[key{s.ProjectID, s.CommitSHA}]
		if src == nil {
			t.Fatalf("snapshot %s (%s) has no sources", s.ID, s.Branch)
		}
		for _, f := range s.Files {
			sf, ok := src[f.Path]
			if !ok {
				t.Errorf("%s at %s: no source", f.Path, s.CommitSHA)
				continue
			}
			lines := text(s.ProjectID, sf)
			if int64(len(lines)) != f.Lines {
				t.Errorf("%s: %d lines of source, the figures say %d", f.Path, len(lines), f.Lines)
			}
			if strings.HasSuffix(f.Path, ".go") && goChecked < 400 {
				goChecked++
				body := strings.Join(lines, "\n")
				if _, err := parser.ParseFile(token.NewFileSet(), f.Path, body, 0); err != nil {
					t.Errorf("%s is not Go: %v", f.Path, err)
				}
				if ifs := int64(strings.Count(body, "\tif ")); ifs != f.Complexity && f.LOC > 6*f.Complexity+20 {
					t.Errorf("%s: %d branches, complexity %d", f.Path, ifs, f.Complexity)
				}
			}
		}
		for _, is := range s.Issues {
			if is.StartLine == nil || is.Path == "" {
				continue
			}
			sf, ok := src[is.Path]
			if !ok {
				t.Errorf("issue on %s at %s: the file has no source", is.Path, s.CommitSHA)
				continue
			}
			if n := len(text(s.ProjectID, sf)); *is.StartLine > n {
				t.Errorf("issue on %s:%d, but the source has %d lines", is.Path, *is.StartLine, n)
			}
		}
	}
	if goChecked == 0 {
		t.Fatal("no Go file checked")
	}
	for _, c := range doc.Coverage {
		src := files[key{c.ProjectID, c.CommitSHA}]
		if src == nil {
			t.Fatalf("coverage of %s has no sources", c.CommitSHA)
		}
		for _, f := range c.Files {
			sf, ok := src[f.Path]
			if !ok {
				t.Errorf("coverage of %s at %s: no source", f.Path, c.CommitSHA)
				continue
			}
			if n := len(text(c.ProjectID, sf)); len(f.Hits) > n {
				t.Errorf("coverage of %s has %d lines, the source %d", f.Path, len(f.Hits), n)
			}
		}
	}
}
