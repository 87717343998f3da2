package cognitive

import (
	"github.com/plumbhq/plumb/analyze/token"
)

// The token-based scorer. It follows the published definition on a token
// stream rather than a syntax tree:
//
//   - +1, plus the nesting level, for if, the ternary ?:, switch (when,
//     match), for, foreach, while, do, loop, catch (rescue, except);
//   - +1 for else if / elif / elsif and for else (no nesting increment);
//   - +1 for goto, and for break or continue to a label;
//   - +1 for each run of like logical operators in an expression (&&, ||,
//     and, or);
//   - +1 once for a function that calls itself by name;
//   - the bodies of the structures above, and of functions nested in a
//     function (lambdas, closures, local functions), raise the nesting level.
//
// Brace languages find blocks by { }, Python by indentation, Ruby by its
// keywords and end, shell by its keywords (fi, done, esac).

var braceLanguages = map[string]bool{
	"C": true, "C++": true, "C/C++ Header": true, "Java": true, "C#": true, "JavaScript": true,
	"TypeScript": true, "JSX": true, "TSX": true, "Kotlin": true, "Swift": true, "Scala": true,
	"Rust": true, "PHP": true, "Objective-C": true, "Objective-C++": true, "Dart": true, "Groovy": true,
}

var shellLanguages = map[string]bool{"Bourne Shell": true, "Bourne Again Shell": true, "Korn Shell": true, "zsh": true}

func syntaxFor(language string) *token.Syntax {
	if braceLanguages[language] || shellLanguages[language] || language == "Python" || language == "Ruby" {
		return token.Syntaxes[language]
	}
	return nil
}

// parenHeaders are the languages whose control structures put their
// condition in parentheses, so a body may be one statement without braces.
var parenHeaders = map[string]bool{
	"C": true, "C++": true, "C/C++ Header": true, "Java": true, "C#": true, "JavaScript": true,
	"TypeScript": true, "JSX": true, "TSX": true, "PHP": true, "Objective-C": true, "Objective-C++": true,
	"Dart": true, "Groovy": true, "Kotlin": true, "Scala": true,
}

// ternaryLanguages have the ?: operator (elsewhere ? is an optional type,
// an error-propagation or safe-call operator).
var ternaryLanguages = map[string]bool{
	"C": true, "C++": true, "C/C++ Header": true, "Java": true, "C#": true, "JavaScript": true,
	"TypeScript": true, "JSX": true, "TSX": true, "PHP": true, "Objective-C": true, "Objective-C++": true,
	"Dart": true, "Groovy": true, "Swift": true,
}

func tokenFunctions(language string, sx *token.Syntax, src []byte) []Function {
	toks := token.Lex(sx, src)
	switch {
	case language == "Python":
		return pythonFunctions(src, toks)
	case language == "Ruby":
		return rubyFunctions(src, toks)
	case shellLanguages[language]:
		return shellFunctions(src, toks)
	}
	b := &braceScorer{src: src, toks: toks, ternary: ternaryLanguages[language], lang: language}
	b.run()
	return b.out
}

// fnState accumulates one top-level function.
type fnState struct {
	Function
	recursive bool
}

// logicChain counts runs of like logical operators: one per expression
// level (a call's parentheses start a new one, grouping parentheses do not).
type logicChain struct {
	last []string
}

func (c *logicChain) push()  { c.last = append(c.last, "") }
func (c *logicChain) pop()   { c.last = c.last[:max(0, len(c.last)-1)]; c.reset() }
func (c *logicChain) reset() { c.set("") }
func (c *logicChain) set(s string) {
	if len(c.last) == 0 {
		c.last = append(c.last, "")
	}
	c.last[len(c.last)-1] = s
}

// op returns 1 when op starts a new run.
func (c *logicChain) op(op string) int {
	if len(c.last) == 0 {
		c.last = append(c.last, "")
	}
	if c.last[len(c.last)-1] == op {
		return 0
	}
	c.last[len(c.last)-1] = op
	return 1
}

const (
	frameOther = iota
	frameFunc
	frameCtl
	frameVirtual // the one-statement body of a control structure without braces
)

type frame struct {
	kind    int
	nestInc int // 1 when the frame raises the nesting level
	isDo    bool
	paren   int // paren depth at which a virtual frame ends
	fn      *fnState
	top     bool // a top-level function's body
}

type braceScorer struct {
	src     []byte
	toks    []token.Token
	lang    string
	ternary bool
	out     []Function

	frames    []frame
	nest      int // cognitive nesting level inside the current function
	ctl       int // control-flow nesting depth
	cur       *fnState
	parens    []bool // open ( [ : true for a call's parentheses
	chain     logicChain
	pending   string // control keyword whose body has not started
	pendAt    int    // paren depth of the pending keyword
	pendIdx   int    // token index of the pending keyword
	hdrOpen   bool   // the pending keyword's (header) has been opened
	elseIf    bool
	lastDo    bool // the frame just closed was a do body
	guardElse bool // Swift: the next else belongs to a guard
}

var guardBefore = map[string]bool{"return": true, "else": true, "in": true, "let": true, "mut": true, "break": true, "match": true}

// isGuard reports whether the if at i follows a pattern (case x if c =>,
// Some(v) if c =>) rather than starting an expression.
func (b *braceScorer) isGuard(i int) bool {
	if i == 0 {
		return false
	}
	p := b.toks[i-1]
	switch {
	case p.Kind == token.Ident:
		return !guardBefore[b.text(i-1)]
	case p.Kind == token.Number || p.Kind == token.String:
		return true
	}
	return b.is(i-1, ")") || b.is(i-1, "]")
}

func (b *braceScorer) is(i int, s string) bool {
	return i >= 0 && i < len(b.toks) && b.toks[i].Is(b.src, s)
}

func (b *braceScorer) text(i int) string {
	if i < 0 || i >= len(b.toks) {
		return ""
	}
	return b.toks[i].Text(b.src)
}

func (b *braceScorer) inc(n int) {
	if b.cur != nil {
		b.cur.Complexity += n
	}
}

func (b *braceScorer) structural() { b.inc(1 + b.nest) }

var nestingKeywords = map[string]bool{
	"if": true, "for": true, "foreach": true, "while": true, "switch": true, "catch": true, "do": true,
	"else": true, "when": true, "match": true, "loop": true, "repeat": true, "guard": true,
}

var containerKeywords = map[string]bool{
	"class": true, "struct": true, "interface": true, "enum": true, "namespace": true, "object": true,
	"trait": true, "impl": true, "record": true, "module": true, "extension": true, "protocol": true,
	"union": true, "new": true, "extern": true, "package": true,
}

// arrowLambdas write lambdas as (x) => { … } (elsewhere => ends a match
// arm or a when branch).
var arrowLambdas = map[string]bool{"JavaScript": true, "TypeScript": true, "JSX": true, "TSX": true, "C#": true, "Dart": true, "Scala": true}

// caseArm reports whether the header of the { at i is a Scala case.
func (b *braceScorer) caseArm(i int) bool {
	for j := b.headerStart(i); j < i; j++ {
		if b.is(j, "case") {
			return true
		}
	}
	return false
}

// declKeywords start a function declaration (fun name(…), def name …).
var declKeywords = map[string]bool{"fn": true, "fun": true, "func": true, "def": true}

// closureLanguages write lambdas as a bare { … } block.
var closureLanguages = map[string]bool{"Kotlin": true, "Swift": true, "Scala": true, "Groovy": true}

// blockWords precede a { that is no closure.
var blockWords = map[string]bool{"try": true, "finally": true, "get": true, "set": true, "init": true, "defer": true,
	"didSet": true, "willSet": true, "companion": true, "object": true, "constructor": true, "catch": true,
	"else": true, "do": true, "repeat": true, "in": true, "where": true, "class": true, "struct": true,
	"enum": true, "interface": true, "extension": true, "protocol": true, "trait": true, "new": true}

// specifiers may follow a C++ parameter list with a (…) of their own.
var specifiers = map[string]bool{"noexcept": true, "throw": true, "__attribute__": true, "requires": true, "alignas": true}

var notNames = map[string]bool{"if": true, "for": true, "foreach": true, "while": true, "switch": true,
	"catch": true, "return": true, "sizeof": true, "typeof": true, "when": true, "match": true, "using": true,
	"lock": true, "synchronized": true, "with": true, "fixed": true, "checked": true, "unchecked": true, "elseif": true}

func (b *braceScorer) run() {
	for i := 0; i < len(b.toks); i++ {
		t := b.toks[i]
		if t.Kind == token.String || t.Kind == token.Number {
			continue
		}
		s := t.Text(b.src)
		if t.Kind == token.Ident {
			b.keyword(i, s)
			continue
		}
		switch s {
		case "(", "[":
			call := i > 0 && (b.toks[i-1].Kind == token.Ident && !nestingKeywords[b.text(i-1)] || b.is(i-1, ")") || b.is(i-1, "]"))
			b.parens = append(b.parens, call)
			if call {
				b.chain.push()
			}
			if b.pending != "" && len(b.parens) == b.pendAt+1 && parenHeaders[b.lang] && (i == b.pendIdx+1 || i == b.pendIdx+2 && b.is(i-1, "await")) {
				b.hdrOpen = true
			}
		case ")", "]":
			if n := len(b.parens); n > 0 {
				if b.parens[n-1] {
					b.chain.pop()
				}
				b.parens = b.parens[:n-1]
			}
			// the end of a control header without a brace body
			if b.pending != "" && b.hdrOpen && len(b.parens) == b.pendAt && !b.is(i+1, "{") && !b.is(i+1, ")") && b.pending != "do" && b.pending != "else" {
				b.startBody(frameVirtual)
			}
		case "{":
			b.open(i)
		case "}":
			b.close(i)
		case ";":
			b.chain.reset()
			if b.pending != "" && len(b.parens) <= b.pendAt && b.pending != "for" {
				b.pending = ""
			}
			b.endVirtual()
		case ",", "=", ":":
			if len(b.parens) == 0 || !b.parens[len(b.parens)-1] || s != ":" {
				b.chain.reset()
			}
		case "&&", "||":
			b.inc(b.chain.op(s))
		case "?":
			if b.ternary && b.isTernary(i) {
				b.structural()
			}
		}
	}
	for len(b.frames) > 0 {
		b.close(len(b.toks) - 1)
	}
}

// isTernary reports whether the ? at i has a : later in its expression.
func (b *braceScorer) isTernary(i int) bool {
	if b.is(i+1, ":") || b.is(i+1, ".") || b.is(i+1, ")") || b.is(i+1, ",") || b.is(i+1, "=") || b.is(i+1, ">") {
		return false
	}
	depth := 0
	for j := i + 1; j < len(b.toks) && j < i+200; j++ {
		switch b.text(j) {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth < 0 {
				return false
			}
		case ";":
			return false
		case ",":
			if depth == 0 {
				return false
			}
		case ":":
			if depth == 0 {
				return true
			}
		}
	}
	return false
}

func (b *braceScorer) keyword(i int, s string) {
	switch s {
	case "if", "elseif", "elif":
		if s == "if" && (b.lang == "Rust" || b.lang == "Scala") && b.isGuard(i) {
			return // a match arm's guard: part of the match
		}
		if s == "if" && b.elseIf {
			b.elseIf = false
			b.inc(1)
		} else if s != "if" {
			b.inc(1)
		} else {
			b.structural()
		}
		b.setPending("if", i)
	case "guard":
		if b.lang == "Swift" {
			b.structural()
			b.guardElse = true
		}
	case "else":
		if b.guardElse {
			b.guardElse = false
			b.setPending("else", i)
			return
		}
		if b.is(i+1, "->") {
			return // Kotlin: the else branch of a when
		}
		if b.is(i+1, "if") {
			b.elseIf = true
			return
		}
		b.inc(1)
		b.setPending("else", i)
		if !b.is(i+1, "{") && !b.is(i+1, ":") {
			b.startBody(frameVirtual)
		}
	case "switch", "when", "match":
		if s == "when" && b.lang != "Kotlin" || s == "match" && b.lang != "Rust" && b.lang != "Scala" && b.lang != "PHP" {
			return
		}
		b.structural()
		b.setPending(s, i)
	case "for", "foreach", "loop", "repeat":
		if s == "loop" && b.lang != "Rust" || s == "repeat" && b.lang != "Swift" {
			return
		}
		b.structural()
		if s == "repeat" {
			b.setPending("do", i) // repeat { } while c
			return
		}
		b.setPending("for", i)
	case "while":
		if b.lastDo && b.is(i-1, "}") {
			b.lastDo = false
			return // the condition of do … while
		}
		b.structural()
		b.setPending("while", i)
	case "do":
		if b.lang == "Swift" { // do { } catch
			b.setPending("try", i)
			return
		}
		b.structural()
		b.setPending("do", i)
		if !b.is(i+1, "{") {
			b.startBody(frameVirtual)
		}
	case "catch", "rescue", "except":
		b.structural()
		b.setPending("catch", i)
	case "goto":
		b.inc(1)
	case "break", "continue":
		if n := i + 1; n < len(b.toks) && b.toks[n].Line == b.toks[i].Line && (b.toks[n].Kind == token.Ident || b.toks[n].Kind == token.Number) {
			b.inc(1)
		}
	case "and", "or":
		if b.lang == "PHP" {
			b.inc(b.chain.op(s))
		}
	default:
		if b.cur != nil && s == b.cur.Name && b.is(i+1, "(") && !b.is(i-1, "function") && !b.is(i-1, "fn") && !b.is(i-1, "fun") && !b.is(i-1, "func") && !b.is(i-1, "def") {
			if !b.is(i-1, ".") && !b.is(i-1, "->") || b.is(i-2, "this") || b.is(i-2, "self") || b.is(i-2, "$this") {
				b.cur.recursive = true
			}
		}
	}
}

func (b *braceScorer) setPending(k string, i int) {
	b.pendIdx = i
	b.pending = k
	b.pendAt = len(b.parens)
	b.hdrOpen = false
}

// startBody opens the body of the pending control structure.
func (b *braceScorer) startBody(kind int) {
	isDo := b.pending == "do"
	nest := 1
	if b.pending == "try" {
		nest = 0
	}
	b.pending = ""
	b.frames = append(b.frames, frame{kind: kind, nestInc: nest, isDo: isDo, paren: len(b.parens)})
	b.nest += nest
	b.ctl += nest
	if b.cur != nil {
		b.cur.Nesting = max(b.cur.Nesting, b.ctl)
	}
}

// endVirtual closes the one-statement bodies that end at a ;.
func (b *braceScorer) endVirtual() {
	for len(b.frames) > 0 {
		f := b.frames[len(b.frames)-1]
		if f.kind != frameVirtual || f.paren < len(b.parens) {
			return
		}
		b.pop()
		if b.pending != "" {
			return
		}
	}
}

func (b *braceScorer) pop() frame {
	f := b.frames[len(b.frames)-1]
	b.frames = b.frames[:len(b.frames)-1]
	b.nest -= f.nestInc
	if f.kind == frameCtl || f.kind == frameVirtual {
		b.ctl -= f.nestInc
	}
	return f
}

func (b *braceScorer) open(i int) {
	b.chain.push()
	if b.pending != "" && len(b.parens) == b.pendAt {
		b.startBody(frameCtl)
		return
	}
	if b.pending == "try" || b.is(i-1, "try") || b.is(i-1, "finally") {
		b.pending = ""
		b.frames = append(b.frames, frame{kind: frameOther})
		return
	}
	name, params, isFn := b.header(i)
	if !isFn {
		b.frames = append(b.frames, frame{kind: frameOther})
		return
	}
	if b.cur == nil {
		b.cur = &fnState{Function: Function{Name: name, Line: int(b.toks[i].Line), Params: params}}
		if h := b.headerStart(i); h >= 0 {
			b.cur.Line = int(b.toks[h].Line)
		}
		b.frames = append(b.frames, frame{kind: frameFunc, fn: b.cur, top: true})
		b.nest, b.ctl = 0, 0
		return
	}
	b.frames = append(b.frames, frame{kind: frameFunc, nestInc: 1})
	b.nest++
}

func (b *braceScorer) close(i int) {
	b.chain.pop()
	// a } also ends the one-statement bodies inside its block
	for len(b.frames) > 0 && b.frames[len(b.frames)-1].kind == frameVirtual {
		b.pop()
	}
	if len(b.frames) == 0 {
		return
	}
	f := b.pop()
	b.lastDo = f.isDo
	if f.top {
		fn := f.fn
		fn.EndLine = int(b.toks[i].End)
		if fn.recursive {
			fn.Complexity++
		}
		b.out = append(b.out, fn.Function)
		b.cur = nil
		b.nest, b.ctl = 0, 0
	}
	// the statement a virtual body held ends with its block
	if len(b.frames) > 0 && b.frames[len(b.frames)-1].kind == frameVirtual && !b.is(i+1, "else") && !b.is(i+1, "while") && !b.is(i+1, "catch") {
		b.endVirtual()
	}
}

// headerStart finds the first token of the declaration before the { at i:
// after the previous ; { or } at the same depth.
func (b *braceScorer) headerStart(i int) int {
	depth := 0
	for j := i - 1; j >= 0 && j > i-400; j-- {
		switch b.text(j) {
		case ")", "]":
			depth++
		case "(", "[":
			depth--
			if depth < 0 {
				return j + 1
			}
		case ";", "{", "}":
			if depth == 0 {
				return j + 1
			}
		}
	}
	return max(0, i-400)
}

// header decides whether the { at i opens a function body, and finds its
// name and parameter count.
func (b *braceScorer) header(i int) (name string, params int, ok bool) {
	if b.is(i-1, "=>") && arrowLambdas[b.lang] && !b.caseArm(i) || b.is(i-1, "->") && (b.lang == "Java" || b.lang == "Groovy") {
		// arrow function / lambda: name from "name = (…) =>" when present
		start := b.headerStart(i)
		for j := start; j < i; j++ {
			if b.is(j, "=") || b.is(j, ":") {
				if j > 0 && b.toks[j-1].Kind == token.Ident {
					name = b.text(j - 1)
				}
				break
			}
		}
		if name == "" {
			name = "<lambda>"
		}
		return name, b.countParams(start, i), true
	}
	if b.is(i-1, "=>") || b.is(i-1, "->") {
		return "", 0, false // a match arm's or when branch's block
	}
	start := b.headerStart(i)
	for j := start; j < i; j++ {
		if declKeywords[b.text(j)] && b.toks[j].Kind == token.Ident && j+1 < i && b.toks[j+1].Kind == token.Ident {
			return b.text(j + 1), b.countParams(j+1, i), true
		}
	}
	if closureLanguages[b.lang] && b.cur != nil && (b.is(i-1, "(") || b.is(i-1, ",") || b.is(i-1, "=") ||
		b.toks[i-1].Kind == token.Ident && !blockWords[b.text(i-1)]) {
		return "<lambda>", 0, true // a trailing closure: xs.filter { … }
	}
	if b.lang == "Rust" && (b.is(i-1, "|") || b.is(i-1, "||")) {
		return "<closure>", 0, true
	}
	for j := start; j < i; j++ {
		if containerKeywords[b.text(j)] && b.toks[j].Kind == token.Ident {
			if !(b.text(j) == "new" && b.lang == "PHP") {
				return "", 0, false
			}
		}
	}
	// find the last (…) group of the header
	depth := 0
scan:
	for j := i - 1; j >= start; j-- {
		switch b.text(j) {
		case ")":
			if depth == 0 {
				// find its (
				d := 0
				for k := j; k >= start; k-- {
					if b.is(k, ")") {
						d++
					} else if b.is(k, "(") {
						d--
						if d == 0 {
							// the name before the (…), skipping generics <…>
							n := k - 1
							if b.is(n, ">") {
								for g := 1; n > start && g > 0; {
									n--
									if b.is(n, ">") {
										g++
									} else if b.is(n, "<") {
										g--
									}
								}
								n--
							}
							if specifiers[b.text(n)] { // noexcept(…), throw(…): look further left
								j = n
								continue scan
							}
							if n >= start && b.toks[n].Kind == token.Ident && !notNames[b.text(n)] {
								name = b.text(n)
								if name == "function" || name == "fn" || name == "func" {
									name = "<anonymous>"
									for m := n - 1; m >= start; m-- {
										if b.is(m, "=") || b.is(m, ":") {
											if m > 0 && b.toks[m-1].Kind == token.Ident {
												name = b.text(m - 1)
											}
											break
										}
									}
								}
								return name, b.countParams(k, j+1), true
							}
							if b.is(n, "]") || b.is(n, "function") { // C++ lambda [..](..) {, JS function (..) {
								return "<lambda>", b.countParams(k, j+1), true
							}
							if b.is(n, "<") || b.is(n, ",") { // a tuple type in a return type: Result<(), E>
								j = n
								continue scan
							}
							return "", 0, false
						}
					}
				}
				return "", 0, false
			}
		case "=", "return":
			if depth == 0 {
				return "", 0, false
			}
		}
	}
	return "", 0, false
}

// countParams counts the top-level commas of the first (…) group in
// [from, to) plus one, or 0 when it is empty.
func (b *braceScorer) countParams(from, to int) int {
	for j := from; j < to; j++ {
		if !b.is(j, "(") {
			continue
		}
		depth, n, any := 0, 0, false
		for k := j + 1; k < to; k++ {
			switch b.text(k) {
			case "(", "[", "{", "<":
				depth++
			case ")", "]", "}", ">":
				if depth == 0 && b.is(k, ")") {
					if any {
						n++
					}
					return n
				}
				depth--
			case ",":
				if depth == 0 {
					n++
				}
			default:
				if b.text(k) != "void" {
					any = true
				}
			}
		}
		return n
	}
	// a lambda with one bare parameter: x => {
	if to-from >= 2 && b.toks[to-2].Kind == token.Ident {
		return 1
	}
	return 0
}
