package token

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRegexLiterals(t *testing.T) {
	src := []byte("x = /[({'\"]+$/g.test(s) / 2;\nreturn a < b && <a href={u} /> && c / d;\n")
	var texts []string
	for _, tk := range Lex(Syntaxes["JavaScript"], src) {
		texts = append(texts, tk.Text(src))
	}
	want := []string{"x", "=", `/[({'"]+$/g`, ".", "test", "(", "s", ")", "/", "2", ";",
		"return", "a", "<", "b", "&&", "<", "a", "href", "=", "{", "u", "}", "/", ">", "&&", "c", "/", "d", ";"}
	if len(texts) != len(want) {
		t.Fatalf("tokens %q, want %q", texts, want)
	}
	for i := range want {
		if texts[i] != want[i] {
			t.Errorf("token %d: %q, want %q", i, texts[i], want[i])
		}
	}
}

// TestInterpolation: the code inside a string's interpolation is lexed
// as code, between string parts marked InterpOpen and InterpClose, in
// every language that has interpolation; other strings stay whole.
func TestInterpolation(t *testing.T) {
	for _, c := range []struct{ lang, src, want string }{
		{"JavaScript", "`a${b ? `c${d}` : {e:1}.e}f` + `g`", "`a${|b|?|`c${|d|}`|:|{|e|:|1|}|.|e|}f`|+|`g`"},
		{"Python", `f"{a if b else c} {{x}}" + rf'{d}' + "{e}" + br"{f}"`, `f|"{|a|if|b|else|c|} {{x}}"|+|rf|'{|d|}'|+|"{e}"|+|br|"{f}"`},
		{"C#", `$"{(a ? b : c)} {{x}}" + $@"c:\{d}""" + @""`, `$|"{|(|a|?|b|:|c|)|} {{x}}"|+|$|@|"c:\{|d|}"""|+|@|""`},
		{"Swift", `"\(a ? b : c) \"x\" \(f(g))"`, `"\(|a|?|b|:|c|) \"x\" \(|f|(|g|)|)"`},
		{"Kotlin", `"${if (a) b else c}" + "$d"`, `"${|if|(|a|)|b|else|c|}"|+|"$d"`},
		{"Scala", `s"${if (a) b else c} $$ {x}" + "${y}"`, `s|"${|if|(|a|)|b|else|c|} $$ {x}"|+|"${y}"`},
		{"Ruby", `"#{a ? b : c}" + '#{x}'`, `"#{|a|?|b|:|c|}"|+|'#{x}'`},
		{"Bourne Shell", `x="$(if a; then b; fi) ${y:-$(z)}"`, `x|=|"$(|if|a|;|then|b|;|fi|) ${|y|:|-|$|(|z|)|}"`},
		{"PHP", `"{$a->b($c ? 1 : 2)} ${d}"`, `"{|$a|->|b|(|$c|?|1|:|2|)|} ${|d|}"`},
		{"Dart", `'${a ? 1 : 2}'`, `'${|a|?|1|:|2|}'`},
	} {
		src := []byte(c.src)
		var got []string
		for _, tk := range Lex(Syntaxes[c.lang], src) {
			got = append(got, tk.Text(src))
		}
		if g := strings.Join(got, "|"); g != c.want {
			t.Errorf("%s: %s\n got %s\nwant %s", c.lang, c.src, g, c.want)
		}
	}
	// flags: a template literal's parts are Template values
	src := []byte("`a${b}c`")
	toks := Lex(Syntaxes["TypeScript"], src)
	if len(toks) != 3 || toks[0].Flags != InterpOpen|Template || toks[2].Flags != InterpClose|Template {
		t.Errorf("flags of %q: %+v", src, toks)
	}
}

// FuzzLex: any input lexes in every syntax without panicking, into tokens
// that lie inside the input, in order, without overlap, on lines that only
// grow.
func FuzzLex(f *testing.F) {
	for _, dir := range []string{"../cognitive/testdata/tokens", "../cognitive/testdata/classes", "../lang/testdata/cloc"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, p := range files {
			b, _ := os.ReadFile(p)
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for name, sx := range Syntaxes {
			end, line := int32(0), int32(1)
			for _, tk := range Lex(sx, src) {
				if tk.Start < end || tk.Len <= 0 || int(tk.Start+tk.Len) > len(src) || tk.Line < line || tk.End < tk.Line {
					t.Fatalf("%s: token %+v after offset %d, line %d", name, tk, end, line)
				}
				end, line = tk.Start+tk.Len, tk.Line
			}
		}
	})
}

// TestCommentLines: the tokens after comments of several lines (closed,
// nested, unclosed) start on their own lines, and a line comment ends at
// its newline.
func TestCommentLines(t *testing.T) {
	for _, c := range []struct{ lang, src, want string }{
		{"C", "a /* x\n\n*/ b // c */ d\ne\n/* f", "a:1 b:3 e:4"},
		{"C", "/**/x/*\n*/y//\nz", "x:1 y:2 z:3"},
		{"Rust", "a /* b /* c\n*/ d\n*/ e /* f\n", "a:1 e:3"},
		{"Python", "a # b\n# c\nd", "a:1 d:3"},
		{"Java", "/*\n * doc\n */\nclass A {}", "class:4 A:4 {:4 }:4"},
	} {
		src := []byte(c.src)
		var got []string
		for _, tk := range Lex(Syntaxes[c.lang], src) {
			got = append(got, fmt.Sprintf("%s:%d", tk.Text(src), tk.Line))
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("%s %q: %s, want %s", c.lang, c.src, g, c.want)
		}
	}
}

// BenchmarkLex: the scorer's fixtures in C, C++, Java, Go, JavaScript
// and Python.
func BenchmarkLex(b *testing.B) {
	type file struct {
		sx  *Syntax
		src []byte
	}
	byExt := map[string]string{".c": "C", ".h": "C/C++ Header", ".cpp": "C++", ".java": "Java", ".go": "Go", ".js": "JavaScript", ".py": "Python"}
	var files []file
	size := 0
	for _, dir := range []string{"../cognitive/testdata/tokens", "../cognitive/testdata/classes"} {
		paths, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, p := range paths {
			lang := byExt[filepath.Ext(p)]
			if lang == "" {
				continue
			}
			src, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			files = append(files, file{Syntaxes[lang], src})
			size += len(src)
		}
	}
	if size == 0 {
		b.Fatal("no fixture found")
	}
	b.SetBytes(int64(size))
	toks := make([]Token, 0, 1<<12)
	for b.Loop() {
		for _, f := range files {
			toks = LexAppend(toks[:0], f.sx, f.src)
		}
	}
}

// TestWordSet: every word is in the set, and no other word, among many
// that share a length, a first or a last byte with one of them.
func TestWordSet(t *testing.T) {
	words := []string{"if", "else", "for", "while", "do", "switch", "case", "return", "x", "sizeof", "__attribute__"}
	ws := NewWordSet(append(words, "", "if")...)
	in := map[string]bool{}
	for _, w := range words {
		in[w] = true
		if !ws.Has(w) || !ws.HasBytes([]byte(w)) {
			t.Errorf("%q not found", w)
		}
	}
	for _, w := range []string{"", "i", "f", "iff", "fi", "els", "elsE", "forr", "whilst", "y", "X", "Return", "sizeo", "__attribute_", "ifx"} {
		if ws.Has(w) != in[w] {
			t.Errorf("Has(%q) = %v", w, ws.Has(w))
		}
	}
	if (WordSet{}).Has("if") {
		t.Error("the zero set has a word")
	}
}

func BenchmarkWordSet(b *testing.B) {
	ws := NewWordSet("if", "else", "for", "while", "do", "switch", "case", "return", "break", "continue", "goto", "catch")
	m := map[string]bool{"if": true, "else": true, "for": true, "while": true, "do": true, "switch": true, "case": true, "return": true, "break": true, "continue": true, "goto": true, "catch": true}
	idents := [][]byte{[]byte("size_t"), []byte("if"), []byte("__u32"), []byte("buffer"), []byte("n"), []byte("struct"), []byte("return"), []byte("EXIT_FAILURE")}
	b.Run("WordSet", func(b *testing.B) {
		for b.Loop() {
			for _, w := range idents {
				ws.HasBytes(w)
			}
		}
	})
	b.Run("map", func(b *testing.B) {
		for b.Loop() {
			for _, w := range idents {
				_ = m[string(w)]
			}
		}
	})
}
