package lang

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/plumbhq/plumb/internal/testtool"
)

type clocEntry struct {
	Language             string
	Blank, Comment, Code int
}

func readExpected(t *testing.T) map[string]clocEntry {
	t.Helper()
	b, err := os.ReadFile("testdata/cloc-expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]clocEntry
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestClocFixtures compares every fixture with the counts cloc 1.96 gave
// (testdata/cloc-expected.json, written by cloc --by-file --json).
func TestClocFixtures(t *testing.T) {
	exp := readExpected(t)
	files, _ := os.ReadDir("testdata/cloc")
	if len(files) != len(exp) {
		t.Errorf("%d fixtures, %d expected counts", len(files), len(exp))
	}
	for name, e := range exp {
		src, err := os.ReadFile(filepath.Join("testdata/cloc", name))
		if err != nil {
			t.Fatal(err)
		}
		l := Detect(name, src)
		if l == nil {
			t.Errorf("%s: no language, cloc says %s", name, e.Language)
			continue
		}
		if l.Name != e.Language {
			t.Errorf("%s: language %s, cloc says %s", name, l.Name, e.Language)
		}
		c := l.Count(src)
		if c.Blank != e.Blank || c.Comment != e.Comment || c.Code != e.Code {
			t.Errorf("%s: blank %d comment %d code %d; cloc: %d %d %d", name, c.Blank, c.Comment, c.Code, e.Blank, e.Comment, e.Code)
		}
		if c.Lines != c.Blank+c.Comment+c.Code {
			t.Errorf("%s: %d lines is not the sum of its parts", name, c.Lines)
		}
	}
}

// TestClocGolden checks the golden counts against the installed cloc.
func TestClocGolden(t *testing.T) {
	cloc := testtool.Need(t, "cloc", "apt-get install -y cloc (Debian 12's 1.96, which the golden counts follow)")
	if v, _ := exec.Command(cloc, "--version").Output(); strings.TrimSpace(string(v)) != "1.96" {
		testtool.Missing(t, "cloc %s is installed; the golden counts follow cloc 1.96 (Debian 12's: apt-get install -y cloc)", strings.TrimSpace(string(v)))
	}
	out, err := exec.Command(cloc, "--quiet", "--by-file", "--skip-uniqueness", "--json", "testdata/cloc").Output()
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	for name, e := range readExpected(t) {
		var c clocEntry
		json.Unmarshal(got[filepath.Join("testdata/cloc", name)], &c)
		if c != e {
			t.Errorf("%s: cloc now says %+v, golden %+v", name, c, e)
		}
	}
}

// TestOnePassCount: the one-pass count of the languages whose one filter
// is cloc's C++ rule equals the filters' count on every fixture and on
// hand-made edge cases (comments ending in a backslash, unclosed /*, CRLF).
func TestOnePassCount(t *testing.T) {
	srcs := []string{
		"a // c \\\nb\n\n c\n",
		"x /* open\n\n\ny\n",
		"/* a */ /* b\n*/ c // d\r\ne \\\r\n\r\n f\n",
		"p\\\n\nq // r \\",
		"\xef\xbb\xbf// bom\n\tcode();\n/**/\n",
		"s = \"/* not */\" + '//';\n",
		"a = \"x/*\"; // \"*/\"\n\\\n  \\\n# c\n-- d\nb = '*/' + \"/*y\" /* z */\n\xc2\xa0\n#",
		"/* \"*/\" */ x\r\n  \t\\\r\n",
		"a = '/*';\nb = 1;\nc = '*/' + 2;\nd = 3; // '/*'\ne = 4;\n", // markers in single quotes only
	}
	var lineFiltered []string
	files, _ := os.ReadDir("testdata/cloc")
	for _, f := range files {
		b, _ := os.ReadFile(filepath.Join("testdata/cloc", f.Name()))
		srcs = append(srcs, string(b))
	}
	n := 0
	for _, name := range Names() {
		l := ByName(name)
		if (!l.onlyCPP || l.Script || l.continues != nil && !l.backslashCont) && l.lineFilters == nil {
			continue
		}
		if l.lineFilters != nil {
			lineFiltered = append(lineFiltered, name)
		}
		n++
		for _, src := range srcs {
			if fast, slow := l.Count([]byte(src)), l.count([]byte(src)); fast != slow {
				t.Errorf("%s on %q: one pass %+v, filters %+v", name, src, fast, slow)
			}
		}
	}
	if n < 40 {
		t.Errorf("only %d languages counted in one pass", n)
	}
	if !slices.Contains(lineFiltered, "Java") || len(lineFiltered) < 8 {
		t.Errorf("line filters before the C++ rule counted in one pass for %q only", lineFiltered)
	}
}

func TestDetect(t *testing.T) {
	for _, c := range []struct{ name, head, want string }{
		{"a/b.go", "", "Go"},
		{"x.d.ts", "", "TypeScript"},
		{"Makefile", "", "make"},
		{"tool", "#!/usr/bin/env python3\n", "Python"},
		{"tool", "#!/bin/bash\n", "Bourne Again Shell"},
		{"x.m", "#import <Foundation/Foundation.h>\n", "Objective-C"},
		{"x.m", "function y = f(x)\n", "MATLAB"},
		{"a.inc", "<?php\n?>\n", "PHP"}, // cloc wants both <? and ?>
		{"x.tsx", "", "TypeScript"},
		{"bin/setup.tt", "#!/usr/bin/env bash\n", "Bourne Again Shell"}, // an extension cloc does not map: the #! line
		{"notes.unknownext", "no #! line\n", ""},
		{"README", "", ""},
		{"x.go~", "", ""},
	} {
		l := Detect(c.name, []byte(c.head))
		got := ""
		if l != nil {
			got = l.Name
		}
		if got != c.want {
			t.Errorf("Detect(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestEveryLanguageCompiles(t *testing.T) {
	n := 0
	for _, name := range Names() {
		l := ByName(name)
		n += len(l.Unsupported)
	}
	if len(Names()) < 300 {
		t.Errorf("only %d languages", len(Names()))
	}
	t.Logf("%d languages, %d cloc filters not implemented", len(Names()), n)
}

// FuzzCount: any input counts without panicking, and the parts add up.
func FuzzCount(f *testing.F) {
	files, _ := os.ReadDir("testdata/cloc")
	for _, fi := range files {
		b, _ := os.ReadFile(filepath.Join("testdata/cloc", fi.Name()))
		f.Add(fi.Name(), b)
	}
	f.Fuzz(func(t *testing.T, name string, src []byte) {
		for _, ln := range []string{"Go", "Python", "HTML", "Ruby", "Java", "SQL", "Assembly", "JavaScript", "VHDL", "Gradle", "Harbour", name} {
			l := ByName(ln)
			if l == nil {
				l = Detect(name, src)
			}
			if l == nil {
				continue
			}
			c := l.Count(src)
			if c.Lines != c.Blank+c.Comment+c.Code || c.Comment < 0 || c.Code < 0 {
				t.Fatalf("%s: %+v", ln, c)
			}
			if slow := l.count(src); c != slow {
				t.Fatalf("%s: one pass %+v, filters %+v", ln, c, slow)
			}
		}
	})
}

// TestContentRules: the extensions cloc decides by content get the
// language cloc 1.96 gives each file of testdata/content, or none where
// cloc leaves the file out (testdata/content-expected.json holds cloc's
// answers: cloc --by-file --json --skip-uniqueness testdata/content).
func TestContentRules(t *testing.T) {
	b, err := os.ReadFile("testdata/content-expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]string
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if len(want) < 45 {
		t.Fatalf("only %d files", len(want))
	}
	for p, w := range want {
		src, err := os.ReadFile(filepath.Join("testdata/content", p))
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if l := Detect(p, src); l != nil {
			got = l.Name
		}
		if got != w {
			t.Errorf("%s: %q, cloc says %q", p, got, w)
		}
	}
}

// stripCommentsByRegexp is stripComments as cloc writes it: one regular
// expression (a line comment through its newline, or a block comment to
// its first closer), every match removed from the left.
func stripCommentsByRegexp(s, line, open, close string) string {
	var alts []string
	if line != "" {
		alts = append(alts, regexp.QuoteMeta(line)+`[^\n]*\n`)
	}
	if open != "" {
		alts = append(alts, regexp.QuoteMeta(open)+`(?s:.*?)`+regexp.QuoteMeta(close))
	}
	if alts == nil {
		return s
	}
	return regexp.MustCompile(strings.Join(alts, "|")).ReplaceAllLiteralString(s, "")
}

var stripMarkers = [][3]string{{"//", "/*", "*/"}, {"", "/*", "*/"}, {"--", "/*", "*/"}, {"#", "", ""}}

// TestStripCommentsSkips: the scan that jumps to the next marker byte
// removes what cloc's regular expression removes, on the fixtures and on edge
// cases (unclosed markers, a line comment without its newline, markers
// inside markers, -- next to /*).
func TestStripCommentsSkips(t *testing.T) {
	srcs := []string{"", "/", "//", "// x", "a // b\nc", "/* a", "a /* b */ c /* d", "x -- y /* z\n*/ w\n--\n",
		"/*/ */ //*\n*/", "a\n//\n/**/\n#x\n", "--/*\n*/--\n", "s = '//' + \"/*\"; // c\n"}
	files, _ := os.ReadDir("testdata/cloc")
	for _, f := range files {
		b, _ := os.ReadFile(filepath.Join("testdata/cloc", f.Name()))
		srcs = append(srcs, string(b))
	}
	for _, m := range stripMarkers {
		for _, s := range srcs {
			if got, want := stripComments(s, m[0], m[1], m[2]), stripCommentsByRegexp(s, m[0], m[1], m[2]); got != want {
				t.Errorf("markers %q on %q: %q, want %q", m, s, got, want)
			}
		}
	}
}

func FuzzStripComments(f *testing.F) {
	f.Add("a // b\n/* c */ d -- e\n")
	f.Fuzz(func(t *testing.T, s string) {
		for _, m := range stripMarkers {
			if got, want := stripComments(s, m[0], m[1], m[2]), stripCommentsByRegexp(s, m[0], m[1], m[2]); got != want {
				t.Fatalf("markers %q on %q: %q, want %q", m, s, got, want)
			}
		}
	})
}

// TestReplaceRegexPrefix: lines without the pattern's literal prefix are
// left alone, and the others replaced, as the pattern alone would.
func TestReplaceRegexPrefix(t *testing.T) {
	for _, p := range []string{`(?i)\\$`, `(?i)\xa0`, `(?i)^\s*#`, `ab+c`} {
		re := regexp.MustCompile(p)
		lines := []string{"a\\\n", "a\\", "a\\ b\n", "\xc2\xa0x\n", "  # c\n", "xabbbc abc\n", "none\n", ""}
		got := replaceRegex(re, " ")(append([]string(nil), lines...))
		for i, l := range lines {
			s, nl := chomp(l)
			if want := withNL(re.ReplaceAllLiteralString(s, " "), nl); got[i] != want {
				t.Errorf("%s on %q: %q, want %q", p, l, got[i], want)
			}
		}
	}
}

// BenchmarkCount: a C header (comments, declarations, macros continued
// with a backslash) and a Java class, counted as cloc counts them.
func BenchmarkCount(b *testing.B) {
	var h, j strings.Builder
	for i := range 500 {
		fmt.Fprintf(&h, "/*\n * field_%d: the state's count.\n */\nextern int field_%d (struct state *__s, int __n) __THROW; // see below\n", i, i)
		fmt.Fprintf(&h, "#define FIELD_%d(s) \\\n  ((s)->count + %d)\n\n", i, i)
		fmt.Fprintf(&j, "    /** Returns the count %d. */\n    public int count%d(String s) { return s.length() + %d; } // \"/*\"\n\n", i, i, i)
	}
	for _, c := range []struct{ lang, src string }{{"C/C++ Header", h.String()}, {"Java", "class A {\n" + j.String() + "}\n"}} {
		l, src := ByName(c.lang), []byte(c.src)
		b.Run(c.lang, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				l.Count(src)
			}
		})
	}
}

// TestFinalBackslash: Java's replace_regex (a backslash at the line's end
// becomes a space) without the regular expression does what the
// expression does, on lines with backslashes anywhere, several at the end,
// CRLF and no newline; and the line filters are skipped only on lines
// that hold neither a backslash nor a quote.
func TestFinalBackslash(t *testing.T) {
	re := regexp.MustCompile(`(?i)\\$`)
	viaRegexp, direct := replaceRegex(re, " "), replaceFinalBackslash(" ")
	rng := rand.New(rand.NewPCG(7, 8))
	parts := []string{`\`, "a", " ", "\r", "\n", `"`, "*"}
	for range 5000 {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		l := b.String()
		if i := strings.IndexByte(l, '\n'); i >= 0 {
			l = l[:i+1] // one line: a newline only at its end
		}
		if got, want := direct([]string{l})[0], viaRegexp([]string{l})[0]; got != want {
			t.Fatalf("%q: %q, the expression gives %q", l, got, want)
		}
	}
	java := ByName("Java")
	if java.filterNeeds == nil || !java.filterNeeds['\\'] || !java.filterNeeds['"'] || !java.filterNeeds['\''] || java.filterNeeds['*'] {
		t.Fatalf("Java's line filters are needed on every line: %v", java.filterNeeds)
	}
}
