// Package token splits source code into tokens (identifiers, keywords,
// numbers, strings, operators), dropping comments and white space, for
// the cognitive-complexity scorer and clone detection. One lexer serves
// every language through a small description of its comment and string
// syntax; it never fails: any byte sequence gives some tokens.
package token

import (
	"bytes"
	"strings"
	"sync"
)

// Kind is a token's class.
type Kind uint8

// Token kinds.
const (
	Ident Kind = iota + 1
	Number
	String
	Punct
)

// Flags of a String token that is part of an interpolating string.
const (
	// InterpOpen: the string part ends with an interpolation's opener
	// (${, #{, \(, {, $(): code follows, up to a String token with
	// InterpClose.
	InterpOpen uint8 = 1 << iota
	// InterpClose: the string part starts with the closer of an
	// interpolation (} or )).
	InterpClose
	// Template: text of a JavaScript template literal (a value: clone
	// detection keeps its text).
	Template
)

// Token is one token: its kind, the 1-based line where it starts and the
// line where it ends, and its bytes in the source.
type Token struct {
	Kind       Kind
	Flags      uint8 // of a String: InterpOpen, InterpClose, Template
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
	QuotedName  bool        // `…` on one line is an identifier (Kotlin, Swift, Scala: `if`, `match`)
	Dollar      bool        // $ may start or continue identifiers (JavaScript, PHP, shell)
	RubyDoc     bool        // =begin … =end comments
	Regex       bool        // /…/ regular expression literals where an operand may start (JavaScript)
	Interp      *Interp     // strings with code inside (template literals, f-strings…)
	// commentByte marks the first bytes of the comment starts (set by
	// init for the syntaxes of Syntaxes): other bytes skip the checks
	commentByte [256]bool
	ready       bool
	rawBacktick bool // `…` has no escapes (Go)
}

func (sx *Syntax) prepare() {
	for _, l := range sx.Line {
		sx.commentByte[l[0]] = true
	}
	for _, b := range sx.Block {
		sx.commentByte[b[0][0]] = true
	}
	sx.ready = true
}

// Interp describes a language's string interpolation.
type Interp struct {
	Quotes string // the quote bytes of the strings that interpolate
	// Prefix, when set, says which strings interpolate by the letters
	// right before the quote (Python's f"", C#'s $"", Scala's s""); nil:
	// every string of those quotes.
	Prefix   func(prefix string) bool
	Opens    []Opener
	Skips    []string // sequences that are text ({{ and }} in f-strings, $$ in Scala)
	Verbatim byte     // a prefix with this byte has no escapes and spans lines (C#'s @)
	Template bool     // JavaScript: the text parts are Template values
}

// Opener is the start of an interpolation: Seq in the text, of which Take
// bytes belong to the string (the rest is code), closed by Close.
type Opener struct {
	Seq   string
	Take  int
	Close byte
}

func (o *Opener) open() byte {
	if o.Close == ')' {
		return '('
	}
	return '{'
}

// strSpec is how one string is read.
type strSpec struct {
	quote     string
	escapes   bool
	multiline bool
	verbatim  bool // "" is a quote (C#'s @"")
	interp    *Interp
	flags     uint8 // Template
}

// interpolates sets sp.interp when the string whose quote is at i
// interpolates.
func (sx *Syntax) interpolates(src []byte, i int, sp *strSpec) {
	ip := sx.Interp
	if ip == nil || strings.IndexByte(ip.Quotes, src[i]) < 0 {
		return
	}
	if ip.Prefix != nil {
		j := i
		for j > 0 && i-j < 8 && (isIdentPart(src[j-1], true) && src[j-1] != '@' || src[j-1] == '@') {
			j--
		}
		p := string(src[j:i])
		if !ip.Prefix(p) {
			return
		}
		if ip.Verbatim != 0 && strings.IndexByte(p, ip.Verbatim) >= 0 {
			sp.escapes, sp.multiline, sp.verbatim = false, true, true
		}
	}
	sp.interp = ip
	if ip.Template {
		sp.flags = Template
	}
}

// lexString reads a string's text from j (after its opening quote, or
// after an interpolation's closer) to the end of its closing quote, or to
// the end of an interpolation's opener (returned). A string without
// multiline ends at the end of its line.
func lexString(src []byte, j int, sp strSpec, line *int32) (int, *Opener) {
	n := len(src)
	q0 := sp.quote[0]
	for j < n {
		c := src[j]
		if ip := sp.interp; ip != nil {
			skipped := false
			for _, s := range ip.Skips {
				if hasPrefix(src, j, s) {
					j += len(s)
					skipped = true
					break
				}
			}
			if skipped {
				continue
			}
			for k := range ip.Opens {
				if o := &ip.Opens[k]; hasPrefix(src, j, o.Seq) {
					return j + o.Take, o
				}
			}
		}
		switch {
		case c == '\\' && sp.escapes && j+1 < n:
			if src[j+1] == '\n' {
				*line++
			}
			j += 2
			continue
		case c == q0 && (len(sp.quote) == 1 || hasPrefix(src, j, sp.quote)):
			if sp.verbatim && j+1 < n && src[j+1] == q0 {
				j += 2
				continue
			}
			return j + len(sp.quote), nil
		case c == '\n':
			if !sp.multiline {
				return j, nil
			}
			*line++
		}
		j++
	}
	return j, nil
}

// Syntaxes by language name (the names of package lang).
var Syntaxes = map[string]*Syntax{}

func init() {
	cLike := &Syntax{Line: []string{"//"}, Block: [][2]string{{"/*", "*/"}}}
	dollarBrace := []Opener{{Seq: "${", Take: 2, Close: '}'}}
	for _, n := range []string{"C", "C++", "C/C++ Header", "Java", "Objective-C", "Objective-C++", "Solidity", "Zig"} {
		Syntaxes[n] = cLike
	}
	// C#: $"…{x}…" and $@"…" (verbatim: no escapes, "" is a quote)
	Syntaxes["C#"] = &Syntax{Line: []string{"//"}, Block: [][2]string{{"/*", "*/"}}, Interp: &Interp{Quotes: `"`,
		Prefix: func(p string) bool { return strings.Contains(p, "$") && strings.Trim(p, "$@") == "" },
		Opens:  []Opener{{Seq: "{", Take: 1, Close: '}'}}, Skips: []string{"{{", "}}"}, Verbatim: '@'}}
	Syntaxes["Dart"] = &Syntax{Line: []string{"//"}, Block: [][2]string{{"/*", "*/"}}, SingleQuote: true, Triple: true,
		Interp: &Interp{Quotes: `"'`, Opens: dollarBrace}}
	Syntaxes["Groovy"] = &Syntax{Line: []string{"//"}, Block: [][2]string{{"/*", "*/"}}, Triple: true,
		Interp: &Interp{Quotes: `"`, Opens: dollarBrace}}
	Syntaxes["Go"] = &Syntax{Line: []string{"//"}, Block: [][2]string{{"/*", "*/"}}, Backtick: true, rawBacktick: true}
	js := &Syntax{Line: []string{"//"}, Block: [][2]string{{"/*", "*/"}}, SingleQuote: true, Backtick: true, Dollar: true, Regex: true,
		Interp: &Interp{Quotes: "`", Opens: dollarBrace, Template: true}}
	for _, n := range []string{"JavaScript", "TypeScript", "JSX", "TSX", "Vuejs Component", "QML"} {
		Syntaxes[n] = js
	}
	Syntaxes["Kotlin"] = &Syntax{Line: []string{"//"}, Block: [][2]string{{"/*", "*/"}}, NestedBlock: true, Triple: true, QuotedName: true,
		Interp: &Interp{Quotes: `"`, Opens: dollarBrace}}
	Syntaxes["Swift"] = &Syntax{Line: []string{"//"}, Block: [][2]string{{"/*", "*/"}}, NestedBlock: true, Triple: true, QuotedName: true,
		Interp: &Interp{Quotes: `"`, Opens: []Opener{{Seq: `\(`, Take: 2, Close: ')'}}}}
	// Scala: any identifier right before the quote is an interpolator (s"", f"", raw"", sql"")
	Syntaxes["Scala"] = &Syntax{Line: []string{"//"}, Block: [][2]string{{"/*", "*/"}}, NestedBlock: true, Triple: true, QuotedName: true,
		Interp: &Interp{Quotes: `"`, Prefix: func(p string) bool { return p != "" && p[0] != '$' && p[0] != '@' && (p[0] < '0' || p[0] > '9') },
			Opens: dollarBrace, Skips: []string{"$$"}}}
	Syntaxes["Rust"] = &Syntax{Line: []string{"//"}, Block: [][2]string{{"/*", "*/"}}, NestedBlock: true}
	// PHP: "…{$x->f()}…" and "…${x}…"
	Syntaxes["PHP"] = &Syntax{Line: []string{"//", "#"}, Block: [][2]string{{"/*", "*/"}}, SingleQuote: true, Dollar: true,
		Interp: &Interp{Quotes: `"`, Opens: []Opener{{Seq: "{$", Take: 1, Close: '}'}, {Seq: "${", Take: 2, Close: '}'}}}}
	// Python: f"…{x}…", rf"", F"""…""" ({{ and }} are braces)
	Syntaxes["Python"] = &Syntax{Line: []string{"#"}, Triple: true, SingleQuote: true, Interp: &Interp{Quotes: `"'`,
		Prefix: func(p string) bool {
			return len(p) <= 2 && strings.ContainsAny(p, "fF") && strings.Trim(p, "fFrR") == ""
		},
		Opens: []Opener{{Seq: "{", Take: 1, Close: '}'}}, Skips: []string{"{{", "}}"}}}
	Syntaxes["Ruby"] = &Syntax{Line: []string{"#"}, SingleQuote: true, RubyDoc: true, Backtick: true,
		Interp: &Interp{Quotes: "\"`", Opens: []Opener{{Seq: "#{", Take: 2, Close: '}'}}}}
	// shell: "…$(cmd)…" and "…${x:-$(cmd)}…"
	sh := &Syntax{Line: []string{"#"}, SingleQuote: true, Backtick: true, Dollar: true,
		Interp: &Interp{Quotes: `"`, Opens: []Opener{{Seq: "$(", Take: 2, Close: ')'}, {Seq: "${", Take: 2, Close: '}'}}}}
	for _, n := range []string{"Bourne Shell", "Bourne Again Shell", "Korn Shell", "zsh", "C Shell"} {
		Syntaxes[n] = sh
	}
	for _, sx := range Syntaxes {
		if !sx.ready {
			sx.prepare()
		}
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

// identStart and identPart (without and with $) are isIdentStart and
// isIdentPart as tables, for the lexer's inner loop.
var (
	identStart [256]bool
	identPart  [2][256]bool
)

func init() {
	for c := range 256 {
		identStart[c] = isIdentStart(byte(c), false)
		identPart[0][c] = isIdentPart(byte(c), false)
		identPart[1][c] = isIdentPart(byte(c), true)
	}
}

// quote is the quote q, or three of it, as a string without allocating.
func quote(q byte, triple bool) string {
	switch {
	case q == '"' && triple:
		return `"""`
	case q == '\'' && triple:
		return "'''"
	case q == '"':
		return `"`
	case q == '\'':
		return "'"
	}
	return "`"
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
	lx := NewLexer(sx, src)
	for !lx.Done() {
		toks = lx.Next(toks, 1<<30)
	}
	return toks
}

// Lexer reads a source's tokens a batch at a time (Next), so that a very
// large file need not have all its tokens in memory at once.
type Lexer struct {
	sx          *Syntax
	src         []byte
	i           int
	line        int32
	atLineStart bool
	operand     bool // a / here would start a regular expression (sx.Regex)
	interp      []interpFrame
}

// interpFrame is an open interpolation: the code of a string's ${…},
// #{…}, \(…), {…} or $(…), and the string it continues.
type interpFrame struct {
	str         strSpec
	open, close byte
	depth       int // brackets of the open kind opened inside the code
}

// NewLexer starts lexing src.
func NewLexer(sx *Syntax, src []byte) *Lexer {
	return &Lexer{sx: sx, src: src, line: 1, atLineStart: true, operand: true}
}

// InCode reports whether the lexer is outside any string interpolation.
func (lx *Lexer) InCode() bool { return len(lx.interp) == 0 }

// Done reports whether every token has been read.
func (lx *Lexer) Done() bool { return lx.i >= len(lx.src) }

// Next appends up to max more tokens to toks.
func (lx *Lexer) Next(toks []Token, max int) []Token {
	sx, src := lx.sx, lx.src
	line := lx.line
	n := len(src)
	i := lx.i
	atLineStart := lx.atLineStart
	operand := lx.operand
	for added := 0; i < n && added < max; {
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
		if !sx.ready || sx.commentByte[c] {
			if lc := lineComment(sx, src, i); lc {
				if j := bytes.IndexByte(src[i:], '\n'); j >= 0 {
					i += j
				} else {
					i = n
				}
				continue
			}
			if j, ok := blockComment(sx, src, i, &line); ok {
				i = j
				continue
			}
		}
		start := i
		startLine := line
		kind := Punct
		var flags uint8
		if k := len(lx.interp); k > 0 {
			f := &lx.interp[k-1]
			switch c {
			case f.open:
				f.depth++
			case f.close:
				if f.depth > 0 {
					f.depth--
					break
				}
				// the interpolation ends: the string goes on
				str := f.str
				lx.interp = lx.interp[:k-1]
				j, op := lexString(src, i+1, str, &line)
				i = j
				kind = String
				flags = InterpClose | str.flags
				if op != nil {
					flags |= InterpOpen
					lx.interp = append(lx.interp, interpFrame{str: str, open: op.open(), close: op.Close})
				}
			}
		}
		switch {
		case kind == String: // read above
		case identStart[c] || c == '$' && sx.Dollar: // the commonest first: no other case starts so
			i++
			part := &identPart[0]
			if sx.Dollar {
				part = &identPart[1]
			}
			for i < n && part[src[i]] {
				i++
			}
			kind = Ident
		case c == '/' && sx.Regex && operand && i+1 < n && src[i+1] != '/' && src[i+1] != '*' && src[i+1] != '>': // not JSX's />
			if j, ok := regexLiteral(src, i); ok {
				i = j
				kind = String
				break
			}
			i++
		case sx.Triple && (hasPrefix(src, i, `"""`) || hasPrefix(src, i, `'''`) && sx.SingleQuote):
			i, flags = lx.openString(i, strSpec{quote: quote(src[i], true), escapes: true, multiline: true}, &line)
			kind = String
		case c == '"' || c == '\'' && sx.SingleQuote || c == '`' && sx.Backtick:
			i, flags = lx.openString(i, strSpec{quote: quote(src[i], false), escapes: c != '`' || !sx.rawBacktick, multiline: c == '`'}, &line)
			kind = String
		case c == '`' && sx.QuotedName && quotedName(src, i) > i:
			i = quotedName(src, i)
			kind = Ident
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
		toks = append(toks, Token{Kind: kind, Flags: flags, Line: startLine, End: line, Start: int32(start), Len: int32(i - start)})
		added++
		if sx.Regex {
			operand = flags&InterpOpen != 0 || operandNext(kind, src[start:i])
		}
	}
	lx.i, lx.line, lx.atLineStart, lx.operand = i, line, atLineStart, operand
	return toks
}

// openString reads the string whose opening quote (sp.quote) is at i, to
// its end or to an interpolation's opener (then open until its closer);
// it returns where the token ends and its flags.
func (lx *Lexer) openString(i int, sp strSpec, line *int32) (int, uint8) {
	lx.sx.interpolates(lx.src, i, &sp)
	j, op := lexString(lx.src, i+len(sp.quote), sp, line)
	flags := sp.flags
	if op != nil {
		flags |= InterpOpen
		lx.interp = append(lx.interp, interpFrame{str: sp, open: op.open(), close: op.Close})
	}
	return j, flags
}

// quotedName returns the end of the quoted identifier (`if`) at i, or i
// when the backtick is not closed on its line.
func quotedName(src []byte, i int) int {
	for j := i + 1; j < len(src) && src[j] != '\n'; j++ {
		if src[j] == '`' {
			if j == i+1 {
				return i
			}
			return j + 1
		}
	}
	return i
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

var newline = []byte{'\n'}

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
		j := i + len(b[0])
		if !sx.NestedBlock {
			// to the closer, counting the lines on the way
			k := bytes.Index(src[j:], []byte(b[1]))
			end := len(src)
			if k >= 0 {
				end = j + k + len(b[1])
			}
			*line += int32(bytes.Count(src[j:max(j, end-len(b[1]))], newline))
			return end, true
		}
		depth := 1
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
