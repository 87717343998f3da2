package demo

import (
	"strings"
	"testing"
)

// TestBranchFiguresMatchTheSources: the demo's branch figures sit on the
// `if` lines of the commit's source as the demo keeps it, two branches
// each, none run on a missed line, and some covered lines are partial, so
// the file pages show partial lines.
func TestBranchFiguresMatchTheSources(t *testing.T) {
	doc := Generate(testNows[0], testToken)
	blobs := map[[2]string][]string{}
	for i := range doc.SourceBlobs {
		b := &doc.SourceBlobs[i]
		body, err := b.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		blobs[[2]string{b.ProjectID, b.BlobID}] = strings.Split(string(body), "\n")
	}
	srcs := map[[3]string][]string{}
	for _, c := range doc.SourceCommits {
		for _, f := range c.Files {
			srcs[[3]string{c.ProjectID, c.CommitSHA, f.Path}] = blobs[[2]string{c.ProjectID, f.BlobID}]
		}
	}
	partial, figures := 0, 0
	for _, c := range doc.Coverage {
		for _, f := range c.Files {
			if len(f.Branches) == 0 {
				continue
			}
			lines := srcs[[3]string{c.ProjectID, c.CommitSHA, f.Path}]
			if lines == nil {
				t.Fatalf("%s at %s: branch figures but no source", f.Path, c.CommitSHA)
			}
			for _, b := range f.Branches {
				figures++
				text := strings.TrimSpace(lines[b.Line-1])
				h := f.Hits[b.Line-1]
				switch {
				case !strings.HasPrefix(text, "if"):
					t.Fatalf("%s:%d: branch figures on %q, not an if", f.Path, b.Line, text)
				case b.Total != 2 || h < 0 || (h == 0) != (b.Covered == 0):
					t.Fatalf("%s:%d: %+v with hits %d", f.Path, b.Line, b, h)
				case b.Covered < b.Total:
					if h > 0 {
						partial++
					}
				}
			}
		}
	}
	if partial == 0 || partial*2 > figures {
		t.Errorf("%d partial lines of %d with branch figures; want some, a minority", partial, figures)
	}
	if err := doc.Validate(); err != nil {
		t.Fatal(err)
	}
}
