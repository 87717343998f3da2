package web_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/plumbhq/plumb"
)

// Benchmarks of the file pages (issue 21's targets, docs/benchmarks.md): a
// 20,000-line file with coverage and 500 issues under 150 ms of server
// time; the tree of a 100,000-file project at its root and at a
// 2,000-file directory under 100 ms. Each iteration is one signed-in
// request through the whole site.

// bigGoFile is n lines of Go: a function every 20 lines.
func bigGoFile(n int) string {
	var b strings.Builder
	b.WriteString("package big\n")
	for i := 2; i <= n; i++ {
		switch {
		case i%20 == 2:
			fmt.Fprintf(&b, "func f%d(x int) int {\n", i)
		case i%20 == 1:
			b.WriteString("}\n")
		case i%20 == 5:
			b.WriteString("\tif x > 3 && x < 10 {\n")
		case i%20 == 7:
			b.WriteString("\t}\n")
		default:
			fmt.Fprintf(&b, "\tx += len(%q) // line %d\n", "some text", i)
		}
	}
	return b.String()
}

// coldPaths is how many copies of the big file BenchmarkFilePage/Cold can
// open for the first time (run it with -benchtime of at most that many x).
const coldPaths = 12

func BenchmarkFilePage(b *testing.B) {
	const lines, issues = 20000, 500
	text := bigGoFile(lines)
	var is []plumb.Issue
	for i := range issues {
		is = append(is, plumb.Issue{Tool: "vet", RuleKey: "R1", Message: fmt.Sprintf("finding %d <here>", i), Category: "bug", Level: "medium",
			Path: "big/big.go", StartLine: line(i*37%lines + 1), Fingerprint: fmt.Sprintf("b%d", i)})
	}
	// The same text under other paths: one blob, but each path's first
	// view lexes it (the lexer is chosen by the name).
	srcs := map[string]string{"big/big.go": text}
	for i := range coldPaths {
		srcs[fmt.Sprintf("big/cold%02d.go", i)] = text
	}
	f := filesSite(b, []plumb.FileFigures{{Path: "big/big.go", Lines: lines, LOC: lines, Complexity: 2000}}, is, srcs)
	hits := make([]int64, lines)
	for i := range hits {
		hits[i] = int64(i % 3) // missed, hit once, hit twice
	}
	if _, err := f.DB.AddCoverage(b.Context(), plumb.CoverageInput{ProjectID: f.ProjectID, CommitSHA: filesCommit, Branch: "main", CoverageTag: "unit", UploadedAt: t0,
		Files: []plumb.CoverageFile{{Path: "big/big.go", Hits: hits}}}); err != nil {
		b.Fatal(err)
	}
	br := f.browser(b)
	br.signIn("ada", filesPassword)
	b.Run("Warm", func(b *testing.B) {
		p := br.get("/w/oss/plumb/files/big/big.go")
		if p.Status != 200 || !strings.Contains(p.Body, `id="L20000"`) || !strings.Contains(p.Body, "finding 499 &lt;here&gt;") {
			b.Fatalf("status %d; the page lacks its last line or an issue", p.Status)
		}
		b.ReportMetric(float64(len(p.Body))/1e6, "MB/page")
		b.ResetTimer()
		for b.Loop() {
			if br.get("/w/oss/plumb/files/big/big.go").Status != 200 {
				b.Fatal("not 200")
			}
		}
	})
	b.Run("Cold", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if i == coldPaths {
				b.Fatalf("run with -benchtime of at most %dx", coldPaths)
			}
			p := br.get(fmt.Sprintf("/w/oss/plumb/files/big/cold%02d.go", i))
			if p.Status != 200 || !strings.Contains(p.Body, `id="L20000"`) {
				b.Fatalf("status %d; the page lacks its last line", p.Status)
			}
			i++
		}
	})
	b.Run("SourceAPI", func(b *testing.B) {
		_, token, err := f.DB.CreateToken(b.Context(), "ada", "bench")
		if err != nil {
			b.Fatal(err)
		}
		get := func() int {
			req, _ := http.NewRequest("GET", f.URL+"/gh/oss/projects/plumb/files/source?reference=main&path=big/big.go", nil)
			req.Header.Set("Authorization", "Bearer "+token)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			n, _ := io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode == 200 && n != int64(len(text)) {
				b.Fatalf("%d bytes, want %d", n, len(text))
			}
			return res.StatusCode
		}
		for b.Loop() {
			if st := get(); st != 200 {
				b.Fatalf("status %d", st)
			}
		}
	})
}

func BenchmarkTree(b *testing.B) {
	// 100,000 files: 50 top directories of 2,000 files each (in 40
	// subdirectories of 50).
	var files []plumb.FileFigures
	var cov []plumb.CoverageFile
	for d := range 50 {
		for i := range 2000 {
			p := fmt.Sprintf("pkg%02d/sub%02d/file%04d.go", d, i%40, i)
			files = append(files, plumb.FileFigures{Path: p, Lines: 120, LOC: 100, Complexity: int64(i % 17)})
			if i%2 == 0 {
				cov = append(cov, plumb.CoverageFile{Path: p, Hits: []int64{1, 0, 2, -1, 1}})
			}
		}
	}
	f := filesSite(b, files, nil, nil)
	if _, err := f.DB.AddCoverage(b.Context(), plumb.CoverageInput{ProjectID: f.ProjectID, CommitSHA: filesCommit, Branch: "main", CoverageTag: "big", UploadedAt: t0,
		Files: cov}); err != nil {
		b.Fatal(err)
	}
	br := f.browser(b)
	br.signIn("ada", filesPassword)
	for _, c := range []struct{ name, path, want string }{
		{"Root", "/w/oss/plumb/files", "100003 files"},
		{"Dir2000", "/w/oss/plumb/files/pkg07/", "2000 files"},
	} {
		b.Run(c.name, func(b *testing.B) {
			p := br.get(c.path)
			if p.Status != 200 || !strings.Contains(p.Body, c.want) {
				b.Fatalf("status %d; the page lacks %q", p.Status, c.want)
			}
			for b.Loop() {
				if br.get(c.path).Status != 200 {
					b.Fatal("not 200")
				}
			}
		})
	}
}
