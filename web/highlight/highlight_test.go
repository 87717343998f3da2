package highlight

import (
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var tagRE = regexp.MustCompile(`<span class="[a-z0-9]+">|</span>`)

// text is what a reader sees of an HTML line: the tags gone, the entities
// read.
func text(line string) string { return html.UnescapeString(tagRE.ReplaceAllString(line, "")) }

// checkLossless fails unless the HTML lines read back as src's lines, and
// every span is balanced on its line.
func checkLossless(t *testing.T, name string, src []byte, lines []string) {
	t.Helper()
	want := strings.Split(strings.TrimSuffix(string(src), "\n"), "\n")
	if len(src) == 0 {
		want = []string{""}
	}
	if len(lines) != len(want) {
		t.Fatalf("%s: %d lines, want %d", name, len(lines), len(want))
	}
	for i, l := range lines {
		// chroma reads invalid UTF-8 as U+FFFD, one per byte
		if got := text(l); got != want[i] && got != string([]rune(want[i])) {
			t.Fatalf("%s line %d: reads %q, want %q (html %q)", name, i+1, got, want[i], l)
		}
		if strings.Count(l, "<span") != strings.Count(l, "</span>") {
			t.Fatalf("%s line %d: unbalanced spans: %q", name, i+1, l)
		}
		if strings.ContainsAny(tagRE.ReplaceAllString(l, ""), "<>") {
			t.Fatalf("%s line %d: unescaped markup: %q", name, i+1, l)
		}
	}
}

// spans returns the classed texts of a line, as "class:text".
func spans(line string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`<span class="([a-z0-9]+)">([^<]*)</span>`).FindAllStringSubmatch(line, -1) {
		out = append(out, m[1]+":"+html.UnescapeString(m[2]))
	}
	return out
}

func TestGoClasses(t *testing.T) {
	src := "package main\n\n/* a\n   block */\nfunc main() { // say it\n\tx := \"<b>\" + `raw\nline` + fmt.Sprint(len(\"\"), 0x1F, nil)\n}\n"
	lines, name := Lines("cmd/main.go", []byte(src))
	if name != "Go" {
		t.Fatalf("lexer %q, want Go", name)
	}
	checkLossless(t, "main.go", []byte(src), lines)
	want := [][]string{
		{"k:package"},
		nil,
		{"c:/* a"},
		{"c:   block */"},
		{"k:func", "nf:main", "p:(", "p:)", "p:{", "c:// say it"},
		{"o::=", "s:\"<b>\"", "o:+", "s:`raw"},
		{"s:line`", "o:+", "p:.", "nf:Sprint", "p:(", "nb:len", "p:(", "s:\"\"", "p:)", "p:,", "m:0x1F", "p:,", "kc:nil", "p:)"},
		{"p:}"},
	}
	for i, w := range want {
		if got := spans(lines[i]); strings.Join(got, " ") != strings.Join(w, " ") {
			t.Errorf("line %d: spans %q, want %q", i+1, got, w)
		}
	}
}

func TestKeywordAfterMemberAccessIsAName(t *testing.T) {
	for _, tc := range []struct{ path, src, word string }{
		{"a.js", "p.then(f).catch(g)\n", "catch"},
		{"a.ts", "o?.delete()\n", "delete"},
		{"a.php", "<?php $x->list;\n", "list"},
		{"a.cpp", "Foo::new\n", "new"},
	} {
		lines, _ := Lines(tc.path, []byte(tc.src))
		for _, s := range spans(lines[0]) {
			if s == "k:"+tc.word {
				t.Errorf("%s: %q is highlighted as a keyword in %q", tc.path, tc.word, tc.src)
			}
		}
	}
	// and the same word on its own is one
	lines, _ := Lines("a.js", []byte("try { f() } catch (e) {}\n"))
	if !strings.Contains(strings.Join(spans(lines[0]), " "), "k:catch") {
		t.Errorf("catch of a try is not a keyword: %q", lines[0])
	}
}

func TestLanguageRules(t *testing.T) {
	for _, tc := range []struct{ path, src, want string }{
		{"a.c", "#include <stdio.h>\n", "cp:#"},
		{"a.c", "#include <stdio.h>\n", "cp:include"},
		{"a.py", "@cache\ndef f(): return None  # why\n", "nd:@cache"},
		{"a.py", "def f(): return None  # why\n", "c:# why"},
		{"a.py", "def f(): return None  # why\n", "kc:None"},
		{"a.php", "<?php ECHO $name;\n", "k:ECHO"},
		{"a.php", "<?php ECHO $name;\n", "nv:$name"},
		{"run.sh", "if [ -n \"$x\" ]; then echo hi; fi\n", "k:then"},
		{"a.rb", "def f = \"#{x ? 1 : 2}\"\n", "k:def"},
		{"a.rs", "fn f<'a>(x: &'a str) -> u8 { 0 }\n", "kt:u8"},
		{"a.ts", "const s = `a ${b ? c : d} e`;\n", "s:`a ${"},
	} {
		lines, _ := Lines(tc.path, []byte(tc.src))
		checkLossless(t, tc.path, []byte(tc.src), lines)
		got := spans(strings.Join(lines, "\n"))
		found := false
		for _, s := range got {
			found = found || s == tc.want
		}
		if !found {
			t.Errorf("%s %q: no span %q in %q", tc.path, tc.src, tc.want, got)
		}
	}
}

// Languages without a word list go through chroma; names chroma does not
// know are plain text.
func TestOtherLanguages(t *testing.T) {
	src := "key: value # note\nlist:\n  - 1\n"
	lines, name := Lines("conf.yaml", []byte(src))
	if name != "YAML" {
		t.Errorf("lexer %q, want YAML", name)
	}
	checkLossless(t, "conf.yaml", []byte(src), lines)
	if len(spans(lines[0])) == 0 {
		t.Errorf("YAML line not highlighted: %q", lines[0])
	}
	lines, name = Lines("NOTES.unknown-ext", []byte("a < b\n"))
	checkLossless(t, "NOTES", []byte("a < b\n"), lines)
	if name == "" {
		t.Error("no name for plain text")
	}
	// over the cap: plain text, still every line
	big := []byte(strings.Repeat("x := 1\n", MaxHighlight/7+1))
	lines, name = Lines("big.go", big)
	if name != "plain text" || len(lines) != MaxHighlight/7+1 {
		t.Errorf("big file: %q, %d lines", name, len(lines))
	}
}

// Every file of this repository's web and analyzer packages, and every
// hand-scored fixture of the analyzer (one per language), reads back
// exactly.
func TestLosslessOnRealFiles(t *testing.T) {
	var files []string
	for _, glob := range []string{"../*.go", "../../analyze/*/*.go", "../../analyze/cognitive/testdata/*/*", "../../ingest/coverage/*.go"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() {
				files = append(files, f)
			}
		}
	}
	if len(files) < 50 {
		t.Fatalf("only %d files found", len(files))
	}
	langs := map[string]bool{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines, name := Lines(f, src)
		langs[name] = true
		checkLossless(t, f, src, lines)
	}
	t.Logf("%d files, languages %v", len(files), langs)
}

func FuzzLines(f *testing.F) {
	for _, s := range []string{"func f() { /* x\ny */ }", "a = `x${y ? `z` : 1}`", "s = f\"{a if b else c}\"", "#define X 1\n", "<?php \"{$a->b}\" ?>"} {
		f.Add("a.go", s)
		f.Add("a.ts", s)
		f.Add("a.py", s)
		f.Add("a.c", s)
		f.Add("a.php", s)
	}
	f.Fuzz(func(t *testing.T, path, src string) {
		if strings.ContainsRune(src, '\r') {
			return // a lone CR is a line end for chroma's fallback, not for the page
		}
		exts := []string{".go", ".ts", ".py", ".c", ".php", ".rb", ".kt", ".swift", ".scala", ".sh", ".rs", ".cs", ".yaml"}
		lines, _ := Lines("f"+exts[len(path)%len(exts)], []byte(src))
		checkLossless(t, path, []byte(src), lines)
	})
}

// BenchmarkLines highlights 20,000 lines of Go: the analyzer's tokens
// against chroma's lexer for the same text.
func BenchmarkLines(b *testing.B) {
	src, err := os.ReadFile("highlight.go")
	if err != nil {
		b.Fatal(err)
	}
	var text []byte
	for n := 0; n < 20000; n += strings.Count(string(src), "\n") {
		text = append(text, src...)
	}
	b.Run("tokens", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			Lines("big.go", text)
		}
	})
	b.Run("chroma", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			chromaLines("big.go", string(text))
		}
	})
}
