// Package token splits source code into tokens (identifiers, keywords,
// numbers, strings, operators), dropping comments and white space, for
// the cognitive-complexity scorer and clone detection. One lexer serves
// every language through a small description of its comment and string
// syntax; it never fails: any byte sequence gives some tokens.
package token

import "sync"

// Kind is a token's class.
type Kind uint8

// Token kinds.
const (
	Ident Kind = iota + 1
	Number
	String
	Punct
)

// Token is one token: its kind, the 1-based line where it starts and the
// line where it ends, and its bytes in the source.
type Token struct {
	Kind       Kind
	Line, End  int32
	Start, Len int32
}

// Text returns the token's bytes.
func (t Token) Text(src []byte) string { return string(src[t.Start : t.Start+t.Len]) }

// Is reports whether the token's text is s (without allocating).
func (t Token) Is(src []byte, s string) bool {
	if int(t.Len) != len(s) {
		return false
	}
	return string(src[t.Start:t.Start+t.Len]) == s
}

// Syntax describes a language's lexical rules.
type Syntax struct {
	Line        []string    // line-comment starts
	Block       [][2]string // block comments
	NestedBlock bool        // block comments nest (Rust, Swift, Kotlin, Scala)
	Triple      bool        // """ and ''' strings (Python, Kotlin, Scala, Swift: """ only matters)
	SingleQuote bool        // '…' is a string (else a character literal, or a Rust lifetime)
	Backtick    bool        // `…` is a string (Go, JavaScript templates, shell)
	Dollar      bool        // $ may start or continue identifiers (JavaScript, PHP, shell)
	RubyDoc     bool        // =begin … =end comments
	Regex       bool        // /…/ regular expression literals where an operand may start (JavaScript)
}

// Syntaxes by language name (the names of package lang).
var Syntaxes = map[string]*Syntax{}

func init() {
	cLike := &Syntax{Line: []string{"//"}, Block: [][2]string{{"/*", "*/"}}}
	js := &Syntax{Line: []string{"//"}, Block: [][2]string{{"/*", "*/"}}, SingleQuote: true, Backtick: true, Dollar: true, Regex: true}
	nested := &Syntax{Line: []string{"//"}, Block: [][2]string{{"/*", "*/"}}, NestedBlock: true, Triple: true}
	for _, n := range []string{"C", "C++", "C/C++ Header", "Java", "C#", "Objective-C", "Objective-C++", "Dart", "Groovy", "Solidity", "Zig"} {
		Syntaxes[n] = cLike
	}
	Syntaxes["Go"] = &Syntax{Line: []string{"//"}, Block: [][2]string{{"/*", "*/"}}, Backtick: true}
	for _, n := range []string{"JavaScript", "TypeScript", "JSX", "TSX", "Vuejs Component", "QML"} {
		Syntaxes[n] = js
	}
	for _, n := range []string{"Kotlin", "Scala", "Swift"} {
		Syntaxes[n] = nested
	}
	Syntaxes["Rust"] = &Syntax{Line: []string{"//"}, Block: [][2]string{{"/*", "*/"}}, NestedBlock: true}
	Syntaxes["PHP"] = &Syntax{Line: []string{"//", "#"}, Block: [][2]string{{"/*", "*/"}}, SingleQuote: true, Dollar: true}
	Syntaxes["Python"] = &Syntax{Line: []string{"#"}, Triple: true, SingleQuote: true}
	Syntaxes["Ruby"] = &Syntax{Line: []string{"#"}, SingleQuote: true, RubyDoc: true, Backtick: true}
	sh := &Syntax{Line: []string{"#"}, SingleQuote: true, Backtick: true, Dollar: true}
	for _, n := range []string{"Bourne Shell", "Bourne Again Shell", "Korn Shell", "zsh", "C Shell"} {
		Syntaxes[n] = sh
	}
}

// operators are matched longest first.
var operators = []string{
	">>>=", "<<=", ">>=", "...", "===", "!==", "**=", "&&=", "||=", "??=", "<=>", "?.", "??",
	"&&", "||", "==", "!=", "<=", ">=", "->", "=>", "::", "++", "--", "+=", "-=", "*=", "/=",
	"%=", "&=", "|=", "^=", "<<", ">>", ":=", "**", "&^",
}

// opChar marks the bytes operators of more than one byte are made of.
var opChar [256]bool

func init() {
	for _, op := range operators {
		for i := 0; i < len(op); i++ {
			opChar[op[i]] = true
		}
	}
}

func isIdentStart(c byte, dollar bool) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 || dollar && c == '$' || c == '@'
}

func isIdentPart(c byte, dollar bool) bool {
	return c != '@' && isIdentStart(c, dollar) || c >= '0' && c <= '9'
}

func hasPrefix(src []byte, i int, s string) bool {
	return len(src)-i >= len(s) && string(src[i:i+len(s)]) == s
}

// Lex splits src into tokens.
func Lex(sx *Syntax, src []byte) []Token { return LexAppend(nil, sx, src) }

// Borrow returns an empty token slice to lex into, from a pool; give it
// back with Return when its tokens are no longer needed.
func Borrow() []Token {
	if p, ok := pool.Get().(*[]Token); ok {
		return (*p)[:0]
	}
	return nil
}

// Return puts a slice from Borrow back in the pool.
func Return(toks []Token) {
	if cap(toks) > 0 && cap(toks) <= 1<<22 { // very large ones go to the collector
		pool.Put(&toks)
	}
}

var pool sync.Pool

// LexAppend splits src into tokens, appended to toks.
func LexAppend(toks []Token, sx *Syntax, src []byte) []Token {
	if toks == nil {
		toks = make([]Token, 0, len(src)/6)
	}
	line := int32(1)
	n := len(src)
	atLineStart := true
	operand := true // a / here would start a regular expression (sx.Regex)
	for i := 0; i < n; {
		c := src[i]
		if c == '\n' {
			line++
			i++
			atLineStart = true
			continue
		}
		if c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' {
			i++
			continue
		}
		wasLineStart := atLineStart
		atLineStart = false
		// comments
		if sx.RubyDoc && wasLineStart && hasPrefix(src, i, "=begin") {
			j := i
			for j < n {
				if src[j] == '\n' {
					line++
					if hasPrefix(src, j+1, "=end") {
						j++
						break
					}
				}
				j++
			}
			for j < n && src[j] != '\n' {
				j++
			}
			i = j
			continue
		}
		if lc := lineComment(sx, src, i); lc {
			for i < n && src[i] != '\n' {
				i++
			}
			continue
		}
		if j, ok := blockComment(sx, src, i, &line); ok {
			i = j
			continue
		}
		start := i
		startLine := line
		kind := Punct
		switch {
		case c == '/' && sx.Regex && operand && i+1 < n && src[i+1] != '/' && src[i+1] != '*' && src[i+1] != '>': // not JSX's />
			if j, ok := regexLiteral(src, i); ok {
				i = j
				kind = String
				break
			}
			i++
		case sx.Triple && (hasPrefix(src, i, `"""`) || hasPrefix(src, i, `'''`) && sx.SingleQuote):
			q := string(src[i : i+3])
			j := i + 3
			for j < n && !hasPrefix(src, j, q) {
				if src[j] == '\\' && j+1 < n {
					if src[j+1] == '\n' {
						line++
					}
					j += 2
					continue
				}
				if src[j] == '\n' {
					line++
				}
				j++
			}
			i = min(j+3, n)
			kind = String
		case c == '"' || c == '\'' && sx.SingleQuote || c == '`' && sx.Backtick:
			i = quoted(src, i, c, c != '`' || sx != Syntaxes["Go"], &line)
			kind = String
		case c == '\'':
			// character literal ('a', '\n', '\u{1F600}') or a lifetime/label ('a)
			j := i + 1
			if j < n && src[j] == '\\' {
				j += 2
				for j < n && src[j] != '\'' && src[j] != '\n' && j-i < 12 {
					j++
				}
			} else {
				for j < n && j-i < 6 && src[j] != '\'' && src[j] != '\n' && (src[j] >= 0x80 || j == i+1) {
					j++
				}
			}
			if j < n && src[j] == '\'' {
				i = j + 1
				kind = String
			} else {
				i++
				for i < n && isIdentPart(src[i], false) {
					i++
				}
				kind = Ident
			}
		case c >= '0' && c <= '9' || c == '.' && i+1 < n && src[i+1] >= '0' && src[i+1] <= '9':
			i++
			for i < n && (isIdentPart(src[i], false) || src[i] == '.' && i+1 < n && src[i+1] >= '0' && src[i+1] <= '9') {
				i++
			}
			kind = Number
		case isIdentStart(c, sx.Dollar):
			i++
			for i < n && isIdentPart(src[i], sx.Dollar) {
				i++
			}
			kind = Ident
		default:
			i++
			if i < n && opChar[src[i]] && opChar[c] {
				for _, op := range operators {
					if hasPrefix(src, start, op) {
						i = start + len(op)
						break
					}
				}
			}
		}
		toks = append(toks, Token{Kind: kind, Line: startLine, End: line, Start: int32(start), Len: int32(i - start)})
		if sx.Regex {
			operand = operandNext(kind, src[start:i])
		}
	}
	return toks
}

// operandNext says whether an operand (so a regular expression, not a
// division) may follow a token: after an operator or an opening bracket,
// and after the keywords that precede an expression, but not after a
// name, a literal, a closing ) or ], or the < of markup (JSX's </a>).
func operandNext(kind Kind, text []byte) bool {
	switch kind {
	case Number, String:
		return false
	case Ident:
		return exprKeywords[string(text)]
	}
	switch string(text) {
	case ")", "]", "<":
		return false
	}
	return true
}

var exprKeywords = map[string]bool{"return": true, "typeof": true, "case": true, "do": true, "else": true,
	"in": true, "of": true, "new": true, "delete": true, "void": true, "throw": true, "instanceof": true,
	"yield": true, "await": true}

// regexLiteral reads a regular expression literal from its opening /: to
// the next / outside a [class] and not escaped, then its flags. It must
// end on its line.
func regexLiteral(src []byte, i int) (int, bool) {
	class := false
	for j := i + 1; j < len(src); j++ {
		switch c := src[j]; {
		case c == '\\' && j+1 < len(src) && src[j+1] != '\n':
			j++
		case c == '\n':
			return i, false
		case c == '[':
			class = true
		case c == ']':
			class = false
		case c == '/' && !class:
			j++
			for j < len(src) && isIdentPart(src[j], false) {
				j++
			}
			return j, true
		}
	}
	return i, false
}

func lineComment(sx *Syntax, src []byte, i int) bool {
	for _, l := range sx.Line {
		if hasPrefix(src, i, l) {
			if l == "#" && i > 0 && (src[i-1] == '$' || src[i-1] == '{') { // shell ${#x}, $#
				return false
			}
			return true
		}
	}
	return false
}

func blockComment(sx *Syntax, src []byte, i int, line *int32) (int, bool) {
	for _, b := range sx.Block {
		if !hasPrefix(src, i, b[0]) {
			continue
		}
		depth := 1
		j := i + len(b[0])
		for j < len(src) && depth > 0 {
			switch {
			case hasPrefix(src, j, b[1]):
				depth--
				j += len(b[1])
			case sx.NestedBlock && hasPrefix(src, j, b[0]):
				depth++
				j += len(b[0])
			default:
				if src[j] == '\n' {
					*line++
				}
				j++
			}
		}
		return j, true
	}
	return i, false
}

// quoted skips a string from its opening quote; escapes says a backslash
// escapes the next byte. A string ends at its closing quote, or (except
// for backtick strings) at the end of the line.
func quoted(src []byte, i int, q byte, escapes bool, line *int32) int {
	j := i + 1
	for j < len(src) {
		c := src[j]
		switch {
		case c == '\\' && escapes && j+1 < len(src):
			if src[j+1] == '\n' {
				*line++
			}
			j += 2
			continue
		case c == q:
			return j + 1
		case c == '\n':
			if q != '`' {
				return j
			}
			*line++
		}
		j++
	}
	return j
}
