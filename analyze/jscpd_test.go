package analyze

import (
	"encoding/json"
	"fmt"
	goscanner "go/scanner"
	gotoken "go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/plumbhq/plumb/analyze/token"
	"github.com/plumbhq/plumb/internal/testtool"
)

// jscpdMajor is the jscpd the duplication figures are compared with: its
// version 5 (npm jscpd@5.3.3 in .ci/run) has the options that make the
// comparison like for like.
const jscpdMajor = "jscpd 5."

// jscpdArgs are the settings both sides share: clones of at least 50
// tokens and 5 lines (our defaults), comments left out (jscpd's "weak"
// mode; its default keeps comments as tokens), no file-size limit.
var jscpdArgs = []string{"--min-tokens", "50", "--min-lines", "5", "--mode", "weak", "--max-size", "1000mb", "--absolute", "--reporters", "json"}

func jscpdBinary(t *testing.T) string {
	t.Helper()
	bin := tool(t, "PLUMB_JSCPD", "jscpd", "npm install jscpd@5.3.3 and put node_modules/.bin on PATH")
	out, err := exec.Command(bin, "--version").CombinedOutput()
	if err != nil {
		testtool.Missing(t, "jscpd --version: %v: %s (npm install jscpd@5.3.3)", err, out)
	}
	if v := strings.TrimSpace(string(out)); !strings.HasPrefix(v, jscpdMajor) {
		testtool.Missing(t, "%s is installed; the comparison needs %sx (npm install jscpd@5.3.3)", v, jscpdMajor)
	}
	return bin
}

// runJscpd returns, for each file of a corpus jscpd found in a clone, the
// lines some clone covers (on either side; a line once), keyed by the
// path relative to the corpus' root. periodic holds the spans of the
// clones whose two copies overlap in one file (left out of ranges) that
// are long enough to hold two copies of the minimum size side by side:
// plumb finds those spans as non-overlapping copies.
func runJscpd(t *testing.T, bin string, c corpus, normalise bool) (ranges, periodic map[string][][2]int32) {
	t.Helper()
	dir := c.root
	out := t.TempDir()
	args := append(append([]string{}, jscpdArgs...), "--output", out)
	if normalise {
		args = append(args, "--ignore-identifiers", "--ignore-literals")
	}
	cmd := exec.Command(bin, append(args, c.paths()...)...)
	cmd.Dir = out
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("jscpd: %v: %s", err, b)
	}
	b, err := os.ReadFile(filepath.Join(out, "jscpd-report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Duplicates []struct {
			Tokens                int32
			FirstFile, SecondFile struct {
				Name       string
				Start, End int32
			}
		}
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatalf("jscpd report: %v", err)
	}
	ranges, periodic = map[string][][2]int32{}, map[string][][2]int32{}
	overlapping := 0
	for _, d := range rep.Duplicates {
		// A clone whose two copies overlap in one file (a periodic run,
		// such as a list of imports against itself shifted by one line)
		// is reported by jscpd; plumb's copies never overlap, so such a
		// clone is counted as plumb counts it: not at all (plumb finds
		// the non-overlapping copies of a long enough periodic run).
		if a, b := d.FirstFile, d.SecondFile; a.Name == b.Name && a.Start <= b.End && b.Start <= a.End {
			overlapping++
			// its span's tokens, estimated from the shift in lines
			lo, hi := min(a.Start, b.Start), max(a.End, b.End)
			if span := d.Tokens * (hi - lo + 1) / max(1, a.End-a.Start+1); span >= 100 {
				rel, _ := filepath.Rel(dir, a.Name)
				periodic[filepath.ToSlash(rel)] = append(periodic[filepath.ToSlash(rel)], [2]int32{lo, hi})
			}
			continue
		}
		for _, f := range []struct {
			Name       string
			Start, End int32
		}{d.FirstFile, d.SecondFile} {
			rel, _ := filepath.Rel(dir, f.Name)
			rel = filepath.ToSlash(rel)
			ranges[rel] = append(ranges[rel], [2]int32{f.Start, f.End})
		}
	}
	if overlapping > 0 {
		t.Logf("%s: %d of jscpd's %d clones overlap themselves in one file, left out", c.name, overlapping, len(rep.Duplicates))
	}
	return ranges, periodic
}

// jscpdBounded are the trees whose duplicated lines must be within 10% of
// jscpd's: the Go standard library and its net/ (once the files jscpd
// misreads are left out), Debian's Python, the npm tree (JavaScript and
// TypeScript) and Java. The other trees are reported: the small Debian
// trees, where jscpd reads fewer files (C++ headers without an extension)
// or tokenises differently (PHP, Ruby).
var jscpdBounded = map[string]bool{"go": true, "go-net": true, "debian-python": true, "npm": true, "openjdk-17-java.util": true}

// jscpdMisreadsGo reports whether jscpd 5.3.3 misreads the Go file at
// path: its lexer takes a /* inside a raw string (`Accept: */*`) for the
// start of a comment, so that it sees none of the code up to the next */
// (often the end of the file) and finds no clone there. Such files are
// left out of the comparison, on both sides (docs/analyze.md).
func jscpdMisreadsGo(t *testing.T, path string) bool {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fset := gotoken.NewFileSet()
	var s goscanner.Scanner
	s.Init(fset.AddFile(path, -1, len(src)), src, nil, 0)
	for {
		_, tok, lit := s.Scan()
		switch {
		case tok == gotoken.EOF:
			return false
		case tok == gotoken.STRING && lit[0] == '`' && strings.Contains(lit, "/*"):
			return true
		}
	}
}

// jscpdReadsExts finds which extensions of the measured files (with a
// lexer here) jscpd reads: jscpd picks files by extension, and reads none
// without one (the C++ library's vector, map…) nor some that cloc and
// plumb know (its .tcc). For each extension it is run once on two copies
// of the tree's largest file with that extension; its report counts the
// files it read.
func jscpdReadsExts(t *testing.T, bin, root string, files []File) map[string]bool {
	t.Helper()
	largest := map[string]File{}
	for _, f := range files {
		e := path.Ext(f.Path)
		if token.Syntaxes[f.Language] != nil && f.Lines > largest[e].Lines {
			largest[e] = f
		}
	}
	reads := map[string]bool{}
	for e, f := range largest {
		b, err := os.ReadFile(filepath.Join(root, f.Path))
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		for _, n := range []string{"a", "b"} {
			if err := os.WriteFile(filepath.Join(dir, n+e), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		out := filepath.Join(dir, "out")
		cmd := exec.Command(bin, append(append([]string{}, jscpdArgs...), "--output", out, dir)...)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("jscpd: %v: %s", err, b)
		}
		var rep struct {
			Statistics struct{ Total struct{ Sources int } }
		}
		if b, err := os.ReadFile(filepath.Join(out, "jscpd-report.json")); err == nil {
			json.Unmarshal(b, &rep)
		}
		reads[e] = rep.Statistics.Total.Sources > 0
	}
	return reads
}

// lineUnion counts the lines inclusive ranges cover.
func lineUnion(rs [][2]int32) int {
	sort.Slice(rs, func(i, j int) bool { return rs[i][0] < rs[j][0] })
	n, end := 0, int32(0)
	for _, r := range rs {
		if r[0] > end {
			n += int(r[1]-r[0]) + 1
			end = r[1]
		} else if r[1] > end {
			n += int(r[1] - end)
			end = r[1]
		}
	}
	return n
}

// TestDuplicationMatchesJscpd compares the duplicated lines of real trees
// with jscpd's at the same minimum size, both with identifiers and
// literals as written (duplication.exact) and normalised (our default;
// jscpd's --ignore-identifiers --ignore-literals): the totals within 10%.
func TestDuplicationMatchesJscpd(t *testing.T) {
	bin := jscpdBinary(t)
	for _, c := range corpora(t) {
		for _, mode := range []struct {
			name string
			dup  int
		}{{"exact", dupExact}, {"normalised", dupNormalised}} {
			t.Run(c.name+"/"+mode.name, func(t *testing.T) {
				theirs, periodic := runJscpd(t, bin, c, mode.dup == dupNormalised)
				withPeriodic := 0 // jscpd's total with its periodic spans counted as plumb counts them
				res := measureAll(t, c, mode.dup)
				type total struct{ files, lines, ours, theirs int }
				by := map[string]*total{}
				var sum total
				measured := map[string]bool{}
				var worst []string
				noLexer := 0
				var misread, unread struct{ files, ours, theirs int }
				reads := jscpdReadsExts(t, bin, c.root, res.Files)
				for _, f := range res.Files {
					measured[f.Path] = true
					th := lineUnion(theirs[f.Path])
					if token.Syntaxes[f.Language] == nil { // JSON, Markdown…: no clone detection here
						noLexer += th
						continue
					}
					if !reads[path.Ext(f.Path)] {
						unread.files++
						unread.ours += f.DuplicatedLines
						unread.theirs += th
						continue
					}
					if f.Language == "Go" && jscpdMisreadsGo(t, filepath.Join(c.root, f.Path)) {
						misread.files++
						misread.ours += f.DuplicatedLines
						misread.theirs += th
						continue
					}
					withPeriodic += lineUnion(append(append([][2]int32{}, theirs[f.Path]...), periodic[f.Path]...))
					if f.DuplicatedLines == 0 && th == 0 {
						continue
					}
					x := by[f.Language]
					if x == nil {
						x = &total{}
						by[f.Language] = x
					}
					for _, p := range []*total{x, &sum} {
						p.files++
						p.lines += f.Lines
						p.ours += f.DuplicatedLines
						p.theirs += th
					}
					worst = append(worst, fmt.Sprintf("%+7d %s (%s): %d, jscpd %d", f.DuplicatedLines-th, f.Path, f.Language, f.DuplicatedLines, th))
				}
				unmeasured := 0
				for name, rs := range theirs {
					if !measured[name] {
						unmeasured += lineUnion(rs)
					}
				}
				unmeasured += noLexer
				if unread.files > 0 {
					t.Logf("%d files with an extension jscpd does not read (or none), left out: duplicated lines %d", unread.files, unread.ours)
				}
				if misread.files > 0 {
					t.Logf("%d Go files jscpd misreads (a raw string holding /*), left out: duplicated lines %d, jscpd %d", misread.files, misread.ours, misread.theirs)
				}
				langs := make([]string, 0, len(by))
				for l, x := range by {
					langs = append(langs, fmt.Sprintf("%s %d/%d", l, x.ours, x.theirs))
				}
				sort.Strings(langs)
				sort.Slice(worst, func(i, j int) bool { return absDiff(worst[i]) > absDiff(worst[j]) })
				for i, w := range worst {
					if i < 15 {
						t.Log(w)
					}
				}
				if sum.theirs == 0 {
					t.Skipf("jscpd found no clone in %s", c.paths())
				}
				ratio := float64(sum.ours) / float64(sum.theirs)
				t.Logf("%s, %s: duplicated lines %d, jscpd %d (ratio %.3f) in %d files with clones; by language (ours/jscpd): %s; jscpd's clones in files plumb does not measure (languages it has no lexer for): %d lines",
					c.name, mode.name, sum.ours, sum.theirs, ratio, sum.files, strings.Join(langs, ", "), unmeasured)
				t.Logf("%s, %s: with jscpd's self-overlapping clones counted by their span when it holds two copies of 50 tokens (as plumb finds such a run): jscpd %d (ratio %.3f)",
					c.name, mode.name, withPeriodic, float64(sum.ours)/float64(max(withPeriodic, 1)))
				if !jscpdBounded[c.name] {
					return // reported, not held to the bound (docs/analyze.md)
				}
				if ratio < 0.9 || ratio > 1.1 {
					t.Errorf("duplicated lines %d, jscpd %d: not within 10%%", sum.ours, sum.theirs)
				}
			})
		}
	}
}

// absDiff reads the difference at the start of a line of the report.
func absDiff(s string) int {
	var n int
	fmt.Sscan(s, &n)
	return max(n, -n)
}
