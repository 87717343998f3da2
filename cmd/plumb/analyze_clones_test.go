package main

import (
	"strings"
	"testing"

	"github.com/plumbhq/plumb/ingest/analysis"
)

// Issue 21 item 3: plumb analyze sends the duplicated blocks it found, each
// place within a file of the upload, as the server checks them.
func TestAnalyzeSendsClones(t *testing.T) {
	loop := "\tfor i := 0; i < n; i++ {\n\t\tif i%2 == 0 && i > 3 || i < 1 {\n\t\t\ts += i * 7\n\t\t}\n\t}\n"
	src := "package p\n\nfunc F(n int) (s int) {\n" + strings.Repeat(loop, 4) + "\treturn s\n}\n"
	dir := analyzeTree(t, map[string]string{"p/f.go": src, "q/g.go": strings.Replace(src, "func F(", "func G(", 1)})
	res := runCLI(t, nil, nil, "", "analyze", dir, "--out", "-", "--commit", shaA, "--branch", "main")
	if res.err != nil {
		t.Fatalf("%v\n%s", res.err, res.stderr)
	}
	lines := map[string]int64{}
	var clones []analysis.Clone
	_, err := analysis.Read(strings.NewReader(res.stdout), analysis.Handler{
		File:  func(_ int, f analysis.File) error { lines[f.Path] = f.Lines; return nil },
		Clone: func(_ int, c analysis.Clone) error { clones = append(clones, c); return nil },
	})
	if err != nil {
		t.Fatalf("%v: %s", err, res.stdout)
	}
	if len(clones) == 0 {
		t.Fatalf("no clones in the upload: %s", res.stdout)
	}
	across := false
	for _, c := range clones {
		for _, p := range []analysis.Place{c.A, c.B} {
			if n, ok := lines[p.Path]; !ok || p.StartLine < 1 || p.EndLine < p.StartLine || p.EndLine > n {
				t.Errorf("clone place %+v is not within a file of the upload (%v)", p, lines)
			}
		}
		across = across || c.A.Path != c.B.Path
		if c.Lines < 1 {
			t.Errorf("clone %+v: lines %d", c, c.Lines)
		}
	}
	if !across {
		t.Errorf("no clone across the two files: %+v", clones)
	}
}
