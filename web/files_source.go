package web

import (
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"

	"github.com/plumbhq/plumb/analyze/cognitive"
	"github.com/plumbhq/plumb/analyze/lang"
)

// Source text as the file page shows it: highlighted with chroma's lexer
// for the file's name (plain text when none matches), one HTML fragment per
// line whose spans carry chroma's short class names (styled in
// web/static/style.css under .chroma; no inline style), and the
// functions the analyzer scores, with their cognitive complexity.

// maxHighlight is the longest text highlighted; a longer one is shown as
// plain text (the stored source's cap is lower by default).
const maxHighlight = 4 << 20

var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;")

// highlight returns the lines of text as HTML, and the lexer's name.
func highlight(path, text string) ([]string, string) {
	var lexer chroma.Lexer
	if len(text) <= maxHighlight {
		lexer = lexers.Match(path)
	}
	if lexer == nil {
		lexer = lexers.Fallback
	}
	lexer = chroma.Coalesce(lexer)
	it, err := lexer.Tokenise(nil, text)
	if err != nil {
		return plainLines(text), "plain text"
	}
	lines := make([]string, 0, strings.Count(text, "\n")+1)
	var b strings.Builder
	for tok := it(); tok != chroma.EOF; tok = it() {
		class := tokenClass(tok.Type)
		v := tok.Value
		for {
			part, rest, nl := strings.Cut(v, "\n")
			if part != "" {
				if class != "" {
					b.WriteString(`<span class="`)
					b.WriteString(class)
					b.WriteString(`">`)
					htmlEscaper.WriteString(&b, part)
					b.WriteString(`</span>`)
				} else {
					htmlEscaper.WriteString(&b, part)
				}
			}
			if !nl {
				break
			}
			lines = append(lines, b.String())
			b.Reset()
			v = rest
		}
	}
	if b.Len() > 0 || !strings.HasSuffix(text, "\n") {
		lines = append(lines, b.String())
	}
	return lines, lexer.Config().Name
}

// tokenClass is chroma's short class of a token type, or of its nearest
// ancestor that has one ("" for plain text).
func tokenClass(t chroma.TokenType) string {
	for _, c := range []chroma.TokenType{t, t.SubCategory(), t.Category()} {
		if c == chroma.Text || c == chroma.TextWhitespace || c == chroma.Other {
			return ""
		}
		if s, ok := chroma.StandardTypes[c]; ok && s != "" {
			return s
		}
	}
	return ""
}

// plainLines is text's lines escaped, without highlighting.
func plainLines(text string) []string {
	text = strings.TrimSuffix(text, "\n")
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = htmlEscaper.Replace(l)
	}
	return lines
}

// functionsAt scores the functions of a file as the analyzer does (package
// cognitive, the language package lang detects), by the line they start
// on; nil for a language without a scorer or a file that does not parse.
func functionsAt(path string, content []byte) map[int][]cognitive.Function {
	l := lang.Detect(path, content[:min(len(content), 4096)])
	if l == nil {
		return nil
	}
	fns, err := cognitive.Analyze(l.Name, content)
	if err != nil || len(fns) == 0 {
		return nil
	}
	out := make(map[int][]cognitive.Function, len(fns))
	for _, f := range fns {
		out[f.Line] = append(out[f.Line], f)
	}
	return out
}
