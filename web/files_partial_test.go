package web_test

import (
	"context"
	"strings"
	"testing"

	"github.com/plumbhq/plumb"
)

// Partial lines on the file page: a covered line with some branch not run
// has its own mark, says its figures in words, counts in the header, is a
// stop of the "next missed" links, and follows the coverage-tag switcher
// (each tag's figures, or the union's, merged by maximum).
func TestFilePagePartialLines(t *testing.T) {
	const src = "package pkg\n\nfunc F(a, b bool) int {\n\tif a {\n\t\treturn 1\n\t}\n"
	f := filesSite(t, nil, nil, map[string]string{"pkg/cond.go": src})
	lb := func(line, total, covered int) plumb.LineBranches {
		return plumb.LineBranches{Line: line, Total: total, Covered: covered}
	}
	for tag, file := range map[string]plumb.CoverageFile{
		"unit": {Path: "pkg/cond.go", Hits: []int64{-1, 2, 2, 0, 1, -1}, Branches: []plumb.LineBranches{lb(2, 2, 1), lb(3, 4, 4), lb(5, 2, 1)}},
		"e2e":  {Path: "pkg/cond.go", Hits: []int64{-1, 1, 1, 0, -1, -1}, Branches: []plumb.LineBranches{lb(2, 2, 2), lb(3, 4, 1)}},
	} {
		if _, err := f.DB.AddCoverage(context.Background(), plumb.CoverageInput{ProjectID: f.ProjectID, CommitSHA: filesCommit, Branch: "main",
			CoverageTag: tag, UploadedAt: t0, Files: []plumb.CoverageFile{file}}); err != nil {
			t.Fatal(err)
		}
	}
	b := f.browser(t)
	b.signIn("ada", filesPassword)
	const page = "/w/oss/plumb/files/pkg/cond.go"
	cell := func(hits string, covered, total string) string {
		words := "partial: " + covered + " of " + total + " branches"
		return `<td class="cov">` + hits + `× <span class="br" title="` + words + `" aria-hidden="true">◐ ` + covered + "/" + total +
			`</span><span class="sr-only">, ` + words + `</span>`
	}

	// The union: line 2 ran both branches (e2e), line 3 all four (unit);
	// only line 5 is partial.
	union := b.get(page)
	union.want(t, 200,
		"3 covered, 1 of them partially, 1 missed",
		`<a href="#L4">First missed or partial line ↓</a>`,
		`id="L2" class="hit"`, `id="L3" class="hit"`,
		`id="L4" class="miss"><td class="ln"><a href="#L4">4</a></td><td class="cov"><a class="next" href="#L5" title="next missed or partial line">missed ↓</a>`,
		`id="L5" class="part"><td class="ln"><a href="#L5">5</a></td>`+cell("1", "1", "2")+`</td>`,
		`<span class="part">partial: some branches not run</span>`)

	// One tag: its own figures.
	unit := b.get(page + "?tag=unit")
	unit.want(t, 200,
		"3 covered, 2 of them partially, 1 missed",
		`<a href="#L2">First missed or partial line ↓</a>`,
		`id="L2" class="part"><td class="ln"><a href="#L2">2</a></td>`+cell("2", "1", "2")+` <a class="next" href="#L4" title="next missed or partial line">↓</a></td>`,
		`id="L3" class="hit"`, `id="L5" class="part"`)
	e2e := b.get(page + "?tag=e2e")
	e2e.want(t, 200, "2 covered, 1 of them partially, 1 missed", `id="L2" class="hit"`,
		`id="L3" class="part"><td class="ln"><a href="#L3">3</a></td>`+cell("1", "1", "4"))

	// A file without branch figures shows no partial line and no legend for
	// it (cmd/main.go of the fixture).
	plain := b.get("/w/oss/plumb/files/cmd/main.go")
	plain.want(t, 200, "First missed line ↓")
	if strings.Contains(plain.Body, `class="part"`) || strings.Contains(plain.Body, "of them partially") {
		t.Error("a file without branch figures shows partial lines")
	}
}
