// Package highlight turns source text into HTML lines with syntax classes
// for the file page and the pull-request diff.
//
// The languages the analyzer tokenises (package analyze/token: Go, C and
// C++, Java, C#, JavaScript and TypeScript, Python, Ruby, PHP, Rust,
// Kotlin, Swift, Scala, Dart, Groovy, shell) are highlighted from the
// analyzer's own tokens and a list of each language's reserved words:
// one pass over the text, about a hundred times faster than a regular
// expression lexer (docs/benchmarks.md, "File pages"), and the same
// reading of strings, comments and interpolations as the analyzer's. Every
// other language goes through chroma's lexer for the file's name, and a
// file chroma does not know is plain text.
//
// Every line is an HTML fragment whose spans carry chroma's short class
// names (k keyword, kc constant, kt type, nb builtin, nf function name,
// s string, m number, c comment, cp preprocessor, o operator, p
// punctuation), so one style sheet serves both paths; text is always
// escaped.
package highlight

import (
	"bytes"
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"

	"github.com/plumbhq/plumb/analyze/lang"
	"github.com/plumbhq/plumb/analyze/token"
)

// MaxHighlight is the longest text highlighted; a longer one is shown as
// plain text (the stored source's cap is lower by default).
const MaxHighlight = 4 << 20

// Lines returns text's lines as HTML fragments and the name of what
// highlighted them (a language, or "plain text").
func Lines(path string, text []byte) ([]string, string) {
	if len(text) > MaxHighlight {
		return Plain(text), "plain text"
	}
	if l := lang.Detect(path, text[:min(len(text), 4096)]); l != nil {
		if w := wordsOf(l.Name); w != nil {
			if sx := token.Syntaxes[l.Name]; sx != nil {
				return tokenLines(sx, w, text), l.Name
			}
		}
	}
	return chromaLines(path, string(text))
}

// Plain returns text's lines escaped, without highlighting.
func Plain(text []byte) []string {
	s := strings.TrimSuffix(string(text), "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = string(appendEscaped(nil, []byte(l)))
	}
	return lines
}

// lineWriter collects HTML lines: text written with a class is wrapped in
// a span that closes at each line end and opens again on the next line.
type lineWriter struct {
	lines []string
	b     []byte
}

func (w *lineWriter) write(s []byte, class string) {
	for {
		i := bytes.IndexByte(s, '\n')
		part := s
		if i >= 0 {
			part = s[:i]
		}
		if len(part) > 0 {
			if class != "" {
				w.b = append(w.b, `<span class="`...)
				w.b = append(w.b, class...)
				w.b = append(w.b, `">`...)
				w.b = appendEscaped(w.b, part)
				w.b = append(w.b, `</span>`...)
			} else {
				w.b = appendEscaped(w.b, part)
			}
		}
		if i < 0 {
			return
		}
		w.lines = append(w.lines, string(w.b))
		w.b = w.b[:0]
		s = s[i+1:]
	}
}

// appendEscaped appends s with HTML's special characters escaped.
func appendEscaped(b, s []byte) []byte {
	last := 0
	for i, c := range s {
		var esc string
		switch c {
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		default:
			continue
		}
		b = append(b, s[last:i]...)
		b = append(b, esc...)
		last = i + 1
	}
	return append(b, s[last:]...)
}

// done returns the lines; text ending in a newline has no empty last line.
func (w *lineWriter) done(text []byte) []string {
	if len(w.b) > 0 || !bytes.HasSuffix(text, []byte("\n")) {
		w.lines = append(w.lines, string(w.b))
	}
	return w.lines
}

// tokenLines highlights text from the analyzer's tokens: the bytes between
// two tokens are white space and comments (the only things the lexer
// skips), so what is not white space there is a comment.
func tokenLines(sx *token.Syntax, w *words, text []byte) []string {
	toks := token.Lex(sx, text)
	out := lineWriter{lines: make([]string, 0, countLines(text)), b: make([]byte, 0, 256)}
	pos := 0
	for i, t := range toks {
		start, end := int(t.Start), int(t.Start+t.Len)
		gap(&out, text[pos:start])
		pos = end
		out.write(text[start:end], w.class(text, toks, i))
	}
	gap(&out, text[pos:])
	return out.done(text)
}

// gap writes the bytes between two tokens: white space as it is, the rest
// (one or more comments and the space between them) as a comment.
func gap(out *lineWriter, b []byte) {
	if len(b) == 0 {
		return
	}
	first, last := -1, -1
	for i, c := range b {
		if !isSpace(c) {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		out.write(b, "")
		return
	}
	out.write(b[:first], "")
	out.write(b[first:last+1], "c")
	out.write(b[last+1:], "")
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func countLines(text []byte) int { return bytes.Count(text, []byte("\n")) + 1 }

// chromaLines highlights text with chroma's lexer for path (plain text
// when none matches).
func chromaLines(path, text string) ([]string, string) {
	lexer := lexers.Match(path)
	if lexer == nil {
		lexer = lexers.Fallback
	}
	lexer = chroma.Coalesce(lexer)
	it, err := lexer.Tokenise(nil, text)
	if err != nil {
		return Plain([]byte(text)), "plain text"
	}
	out := lineWriter{lines: make([]string, 0, strings.Count(text, "\n")+1)}
	for tok := it(); tok != chroma.EOF; tok = it() {
		out.write([]byte(tok.Value), chromaClass(tok.Type))
	}
	return out.done([]byte(text)), lexer.Config().Name
}

// chromaClass is chroma's short class of a token type, or of its nearest
// ancestor that has one ("" for plain text).
func chromaClass(t chroma.TokenType) string {
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
