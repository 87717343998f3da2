package token

import (
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
