package token

import (
	"os"
	"path/filepath"
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

// FuzzLex: any input lexes in every syntax without panicking, into tokens
// that lie inside the input, in order, without overlap, on lines that only
// grow.
func FuzzLex(f *testing.F) {
	for _, dir := range []string{"../cognitive/testdata/tokens", "../lang/testdata/cloc"} {
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
