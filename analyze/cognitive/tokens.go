package cognitive

import (
	"unsafe"

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

// chunkTokens bounds the tokens scored at once: a larger file is scored
// a chunk at a time (see tokenFunctions), so that memory stays bounded
// whatever the file's size.
var chunkTokens = 1 << 18

func tokenFunctions(language string, sx *token.Syntax, src []byte) []Function {
	toks := token.Borrow()
	defer func() { token.Return(toks) }()
	if len(src) < 4*chunkTokens { // fewer tokens than a chunk: at once
		toks = token.LexAppend(toks, sx, src)
		return scoreTokens(language, src, toks)
	}
	// A very large file (a minified bundle forced in) is lexed as a stream
	// and scored a chunk of about chunkTokens tokens at a time, each chunk
	// ending after a ; or } outside any string: a function that spans two
	// chunks is scored as two parts.
	var out []Function
	lx := token.NewLexer(sx, src)
	for !lx.Done() {
		toks = lx.Next(toks[:0], chunkTokens)
		for !lx.Done() && len(toks) < 2*chunkTokens {
			last := toks[len(toks)-1]
			if last.Kind == token.Punct && (last.Is(src, ";") || last.Is(src, "}")) && lx.InCode() {
				break
			}
			toks = lx.Next(toks, 1)
		}
		out = append(out, scoreTokens(language, src, toks)...)
	}
	return out
}

func scoreTokens(language string, src []byte, toks []token.Token) []Function {
	switch {
	case language == "Python":
		return pythonFunctions(src, toks)
	case language == "Ruby":
		return rubyFunctions(src, toks)
	case shellLanguages[language]:
		return shellFunctions(src, toks)
	}
	b := &braceScorer{src: src, toks: toks, ternary: ternaryLanguages[language], lang: language, closureAt: -1}
	b.run()
	return b.out
}

// fnState accumulates one top-level function.
type fnState struct {
	Function
	recursive bool
	// for SonarJS: increments inside nested functions, and whether the
	// function has structure of its own
	nestedInc     int
	ownStructural bool
}

// logicChain counts runs of like logical operators: one per expression
// level (a call's parentheses start a new one, grouping parentheses do not).
type logicChain struct {
	last []string
}

func (c *logicChain) push() { c.last = append(c.last, "") }
func (c *logicChain) top() string {
	if len(c.last) == 0 {
		return ""
	}
	return c.last[len(c.last)-1]
}
func (c *logicChain) pop()   { c.last = c.last[:max(0, len(c.last)-1)] }
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
	frameExpr    // the expression body of a lambda: x => x > 0 ? 1 : 2
)

type frame struct {
	kind    int
	nestInc int // 1 when the frame raises the nesting level
	isDo    bool
	kw      string // the control keyword whose body it is
	paren   int    // paren depth at which a virtual or expression frame ends
	first   int    // its body's first token
	fn      *fnState
	top     bool // a top-level function's body
	// JSX: an expression container ({cond && <A/>}), whose one run of
	// like logical operators is not counted (as sonarjs does)
	nested   bool // a nested function's body
	jsx      bool
	jsxOp    string // the container's first logical operator
	deferred int    // the increment not yet counted for it
	mixed    bool   // another operator, a ternary or a statement: counted
	declBody bool   // the expression body of a declared function (fun f() = …)
	indent   int    // Scala: the indentation of the def line of a declBody frame
}

// ternary is an open conditional expression: its branches nest, and each
// is an expression of its own for the runs of logical operators (a && (c
// ? d && e : f) is two runs); chain is the run before its ?, which goes on
// after it (a && (c ? d : e) && f is one run).
type ternary struct {
	paren, frames int
	chain         string
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
	at        int  // the token being read
	closureAt int  // Rust: the first token of a closure's body (|x| body)
	declEnd   int  // the token after the last expression body of a declared function: no header reaches back over it
	ternaries []ternary
	nestedFns int // nested function bodies open
	// sonarLeak (SonarJS mode): nesting levels that eslint-plugin-sonarjs
	// 4 opens and never closes in the current function, one for each
	// function that is a branch of a conditional expression
	sonarLeak int
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
		return !guardBefore[b.view(i-1)]
	case p.Kind == token.String && p.Flags&token.InterpOpen != 0:
		return false // s"${if (a) …}"
	case p.Kind == token.Number || p.Kind == token.String:
		return true
	}
	return b.is(i-1, ")") || b.is(i-1, "]")
}

func (b *braceScorer) is(i int, s string) bool {
	return i >= 0 && i < len(b.toks) && b.toks[i].Is(b.src, s)
}

// kind is the kind of token i, 0 outside the file.
func (b *braceScorer) kind(i int) token.Kind {
	if i < 0 || i >= len(b.toks) {
		return 0
	}
	return b.toks[i].Kind
}

// text is token i's text, a copy (for a name that outlives the scorer);
// "" outside the file.
func (b *braceScorer) text(i int) string {
	if i < 0 || i >= len(b.toks) {
		return ""
	}
	return b.toks[i].Text(b.src)
}

// view is token i's text as a view of the source (see tokenView), for
// comparisons; "" outside the file.
func (b *braceScorer) view(i int) string {
	if i < 0 || i >= len(b.toks) {
		return ""
	}
	return tokenView(b.src, b.toks[i])
}

// tokenView is a token's text as a view of the source, not a copy: for the
// scorers' main loops, which read every token's text to compare it and keep
// it only while they run (in the chain of operators). A name that outlives
// the scorer (a Function's) is made with text, a copy: the source's bytes
// are reused for the next file once the file is measured.
func tokenView(src []byte, t token.Token) string {
	if t.Len <= 0 {
		return ""
	}
	return unsafe.String(&src[t.Start], int(t.Len))
}

func (b *braceScorer) inc(n int) {
	if b.cur != nil {
		b.cur.Complexity += n
		if b.nestedFns > 0 {
			b.cur.nestedInc += n
		}
	}
}

func (b *braceScorer) structural() {
	if b.cur != nil && b.nestedFns == 0 {
		b.cur.ownStructural = true
	}
	b.inc(1 + b.nest + b.sonarLeak)
}

// sonarBranch (SonarJS mode) notes a function that starts at token i as
// a branch of a conditional expression of the current function's own
// code (c ? function () { … } : d, c ? d : () => e): eslint-plugin-sonarjs
// 4.2.2 raises the function's own nesting on entering the branch and
// lowers its nested function's on leaving it (its exit handlers run in
// the opposite order), so everything after it in the function is nested
// one level deeper.
func (b *braceScorer) sonarBranch(i int) {
	if !SonarJS || b.cur == nil || b.nestedFns > 0 {
		return
	}
	if b.is(i, "async") {
		i++
	}
	switch {
	case b.is(i, "function"):
	case b.kind(i) == token.Ident && b.is(i+1, "=>"):
	case b.is(i, "("):
		j := matchParen(b.src, b.toks, i, 1)
		if j < 0 || !b.is(j+1, "=>") && !b.is(j+1, ":") {
			return
		}
		if b.is(j+1, ":") { // (x): T => …
			k := j + 2
			for k < len(b.toks) && k < j+maxHeader && !b.is(k, "=>") && !b.is(k, ",") && !b.is(k, ";") && !b.is(k, "{") {
				k++
			}
			if !b.is(k, "=>") {
				return
			}
		}
	default:
		return
	}
	b.sonarLeak++
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
		b.at = i
		for b.frameEnds(i) {
			b.endFrame(i - 1)
		}
		for b.ternaryEnds(i) {
			b.chain.pop()
			b.chain.set(b.ternaries[len(b.ternaries)-1].chain)
			b.ternaries = b.ternaries[:len(b.ternaries)-1]
			b.nest--
		}
		if i == b.closureAt && !b.is(i, "{") {
			b.startExprLambda(i - 1)
		}
		if t.Kind == token.String || t.Kind == token.Number {
			// an interpolation's code is an expression of its own, like a
			// call's arguments: "…${" opens it, "}…" closes it
			if t.Flags&token.InterpClose != 0 {
				if n := len(b.parens); n > 0 {
					if b.parens[n-1] {
						b.chain.pop()
					}
					b.parens = b.parens[:n-1]
				}
			}
			if t.Flags&token.InterpOpen != 0 {
				b.parens = append(b.parens, true)
				b.chain.push()
			}
			continue
		}
		s := tokenView(b.src, t)
		if t.Kind == token.Ident {
			if (b.lang == "TypeScript" || b.lang == "TSX") && s == "type" {
				if end := b.typeAlias(i); end > i {
					i = end // a type alias: types are not code
					continue
				}
			}
			if controlWordSet.Has(s) && b.isName(i) {
				b.callee(i, s)
				continue
			}
			b.keyword(i, s)
			continue
		}
		switch s {
		case "(", "[":
			// a call's arguments, a control header's condition and a
			// negated group are expressions of their own: if (a && b) {}
			// if (c && d) {} is two runs, a && !(b && c) too
			call := i > 0 && (b.toks[i-1].Kind == token.Ident || b.is(i-1, ")") || b.is(i-1, "]") || b.is(i-1, "!") && b.is(i, "("))
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
			if b.pending != "" && b.hdrOpen && len(b.parens) == b.pendAt && !b.is(i+1, "{") && !b.is(i+1, ")") && b.pending != "do" && b.pending != "else" &&
				!(b.lang == "C#" && b.pending == "catch" && b.is(i+1, "when")) { // C#: catch (E e) when (filter) {
				b.startBody(frameVirtual)
			}
		case "{":
			b.open(i)
		case "}":
			b.close(i)
		case ";":
			b.jsxMixed()
			b.chain.reset()
			if b.pending != "" && len(b.parens) <= b.pendAt && b.pending != "for" {
				b.pending = ""
			}
			b.endVirtual()
		case ",", "=", ":":
			if s == ":" && b.ternaryColon() {
				b.sonarBranch(i + 1)
			}
			if len(b.parens) == 0 || !b.parens[len(b.parens)-1] || s != ":" || b.ternaryColon() {
				b.chain.reset()
			}
			if s == "=" && !b.is(i+1, "{") {
				if kw := b.exprBodyDecl(i); kw >= 0 {
					b.startExprBody(kw, i)
				}
			}
		case "&&", "||":
			if b.lang == "Rust" && b.closureStart(i) {
				continue
			}
			if !b.binaryOperand(i) {
				continue // C++'s T&& x, Rust's &&x: a reference, no operator
			}
			// sonarjs counts && runs only: a || ends a run and counts nothing
			sonarOr := SonarJS && s == "||"
			if f := b.jsxFrame(); f != nil && !f.mixed {
				if f.jsxOp == "" {
					f.jsxOp = s
					if f.deferred = b.chain.op(s); sonarOr {
						f.deferred = 0
					}
					continue
				}
				if f.jsxOp == s {
					continue
				}
				b.jsxMixed()
			}
			if n := b.chain.op(s); !sonarOr {
				b.inc(n)
			}
		case "|":
			if b.lang == "Rust" {
				b.closureStart(i)
			}
		case "=>", "->":
			if !b.is(i+1, "{") && b.exprLambda(i) {
				b.startExprLambda(i)
			}
		case "?":
			if b.ternary && b.isTernary(i) {
				b.jsxMixed()
				b.structural()
				// its branches nest: a ? 1 : b ? 2 : 3 is 1 + 2
				if b.cur != nil {
					b.ternaries = append(b.ternaries, ternary{paren: len(b.parens), frames: len(b.frames), chain: b.chain.top()})
					b.chain.push()
					b.nest++
					b.sonarBranch(i + 1)
				}
			}
		}
	}
	for len(b.frames) > 0 {
		if b.frames[len(b.frames)-1].kind == frameExpr {
			b.endFrame(len(b.toks) - 1)
			continue
		}
		b.close(len(b.toks) - 1)
	}
}

// maxTernary bounds the tokens read to find a conditional expression's
// : (its first branch may be a whole function: c ? new Observable((s) =>
// { … }) : EMPTY).
const maxTernary = 2000

// isTernary reports whether the ? at i has a : later in its expression,
// and follows an operand: not a type's ? (C#'s int? x, Swift's Int?,
// Java's <? extends T>, PHP's ?int, TypeScript's x?: T), nor a
// TypeScript conditional type (T extends U ? X : Y).
func (b *braceScorer) isTernary(i int) bool {
	if b.is(i+1, ":") || b.is(i+1, ".") || b.is(i+1, ")") || b.is(i+1, ",") || b.is(i+1, "=") || b.is(i+1, ">") || b.is(i+1, ";") ||
		b.is(i+1, "extends") || b.is(i+1, "super") {
		return false
	}
	p := b.kind(i - 1)
	if p != token.Ident && p != token.Number && p != token.String && !b.is(i-1, ")") && !b.is(i-1, "]") && !b.is(i-1, "}") &&
		!b.is(i-1, "!") && !b.is(i-1, "++") && !b.is(i-1, "--") {
		return false
	}
	if p == token.String && b.toks[i-1].Flags&token.InterpOpen != 0 {
		return false
	}
	spaceBefore := b.toks[i].Start > 0 && (b.src[b.toks[i].Start-1] == ' ' || b.src[b.toks[i].Start-1] == '\t' || b.src[b.toks[i].Start-1] == '\n')
	switch b.lang {
	case "Swift":
		if !spaceBefore {
			return false // Int?, x?.y: Swift's ternary ? has white space around it
		}
	case "C#", "Dart":
		if !spaceBefore && (p == token.Ident || b.is(i-1, ">") || b.is(i-1, "]")) && b.is(i+1, "{") {
			return false
		}
		if !spaceBefore && p == token.Ident && b.kind(i+1) == token.Ident && i+1 < len(b.toks) && b.src[b.toks[i].Start+1] == ' ' {
			return false // string? name
		}
	case "TypeScript", "TSX":
		if n := len(b.frames); n > 0 && (b.frames[n-1].kw == "interface" || b.frames[n-1].kw == "type") && len(b.parens) == 0 {
			return false
		}
		if b.conditionalType(i) {
			return false
		}
	}
	if !b.is(i-1, ")") && b.is(i+1, "{") && b.lang != "JavaScript" && b.lang != "JSX" && b.lang != "TypeScript" && b.lang != "TSX" && b.lang != "PHP" {
		return false // T? { : a type before a body
	}
	depth := 0
	for j := i + 1; j < len(b.toks) && j < i+maxTernary; j++ {
		s := b.view(j)
		if depth += bracketStep(s); depth < 0 {
			return false
		}
		if depth == 0 {
			switch s {
			case ";", ",": // a ; inside a branch's function body does not end it
				return false
			case ":":
				return true
			}
		}
	}
	return false
}

// bracketStep is 1 for an opening bracket, -1 for a closing one, else 0:
// the scans of this file keep their depth with it.
func bracketStep(s string) int {
	switch s {
	case "(", "[", "{":
		return 1
	case ")", "]", "}":
		return -1
	}
	return 0
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
		// the if's one-statement body ends here (languages without ;)
		if n := len(b.frames); n > 0 && b.frames[n-1].kind == frameVirtual && b.frames[n-1].paren >= len(b.parens) {
			b.pop()
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
		if b.lang == "Scala" && (b.pending == "for" || b.pending == "while") {
			b.pending = "" // Scala 3: for x <- xs do …, while c do …: the body (not nested: no braces)
			return
		}
		b.structural()
		b.setPending("do", i)
		if !b.is(i+1, "{") {
			b.startBody(frameVirtual)
		}
	case "catch":
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
		b.callee(i, s)
	}
}

// callee applies the recursion rule to the name at i.
func (b *braceScorer) callee(i int, s string) {
	if b.cur != nil && s == b.cur.Name && b.is(i+1, "(") && !b.is(i-1, "function") && !b.is(i-1, "fn") && !b.is(i-1, "fun") && !b.is(i-1, "func") && !b.is(i-1, "def") {
		if !b.is(i-1, ".") && !b.is(i-1, "->") || b.is(i-2, "this") || b.is(i-2, "self") || b.is(i-2, "$this") {
			b.cur.recursive = true
		}
	}
}

// controlWords are the words keyword acts on.
var controlWords = map[string]bool{"if": true, "elseif": true, "elif": true, "guard": true, "else": true,
	"switch": true, "when": true, "match": true, "for": true, "foreach": true, "loop": true, "repeat": true,
	"while": true, "do": true, "catch": true, "rescue": true, "except": true, "goto": true, "break": true,
	"continue": true, "and": true, "or": true}

// controlWordSet is controlWords for the scorer's look at every
// identifier (a set that rejects most words at its first probe).
var controlWordSet = func() token.WordSet {
	var words []string
	for w := range controlWords {
		words = append(words, w)
	}
	return token.NewWordSet(words...)
}()

// memberArrow: languages where -> reaches a member ($o->if, p->for).
var memberArrow = map[string]bool{"PHP": true, "C": true, "C++": true, "C/C++ Header": true, "Objective-C": true, "Objective-C++": true}

// isName reports whether the keyword at i is used as a name: a member
// after . ?. :: or ->, an object key or named argument (if: 1), an
// attribute or assignment (for=…), a declared name (function match),
// a Swift argument label (func f(for key: K)), a Rust raw identifier
// (r#match); or a word that is a keyword only in other languages.
func (b *braceScorer) isName(i int) bool {
	s := b.view(i)
	switch {
	case b.is(i-1, ".") || b.is(i-1, "?.") || b.is(i-1, "::") && b.lang != "Scala" || b.is(i-1, "->") && memberArrow[b.lang]:
		return true
	case b.is(i+1, ":") && s != "else" && s != "default" || b.is(i+1, "?") && b.is(i+2, ":"):
		return true // { if: 1 }, f(for: x), PHP's f(array: $a); not PHP's else:
	case b.is(i+1, "=") || b.is(i-1, "function") || b.is(i-1, "fun") || b.is(i-1, "func") || b.is(i-1, "def") || b.is(i-1, "fn"):
		return true
	case b.lang == "Swift" && (b.is(i-1, "(") || b.is(i-1, ",")) && b.kind(i+1) == token.Ident && b.is(i+2, ":"):
		return true
	case b.lang == "Scala" && b.is(i-1, "end") && b.toks[i-1].Line == b.toks[i].Line && lineIndent(b.src, int(b.toks[i-1].Start)) == column(b.src, b.toks[i-1]):
		return true // Scala 3's end markers: end if, end match, end while
	case b.lang == "Rust" && b.is(i-1, "#") && b.is(i-2, "r") && b.toks[i-1].Start == b.toks[i].Start-1:
		return true
	}
	switch s {
	case "foreach":
		return b.lang != "PHP" && b.lang != "C#"
	case "goto":
		return !memberArrow[b.lang] && b.lang != "C#"
	case "elseif":
		return b.lang != "PHP"
	case "elif", "rescue", "except":
		return true // Python's, Ruby's, shell's: scored by their own scorers
	case "catch":
		return !b.is(i-1, "}") // catch always follows a try's block
	}
	return false
}

// binaryOperand reports whether the && or || at i follows an operand (a
// binary operator), rather than starting a reference type (C++'s T&& x,
// auto&& v; Rust's &&x).
func (b *braceScorer) binaryOperand(i int) bool {
	p := b.kind(i - 1)
	if p != token.Ident && p != token.Number && p != token.String && !b.is(i-1, ")") && !b.is(i-1, "]") && !b.is(i-1, "}") && !b.is(i-1, "?") && !b.is(i-1, "!") &&
		!b.is(i-1, "++") && !b.is(i-1, "--") { // i-- && c: a postfix operator ends an operand
		return b.lang == "Rust" && b.is(i, "||") // a Rust closure: closureStart decided
	}
	if b.is(i, "&&") && (b.lang == "C++" || b.lang == "C/C++ Header" || b.lang == "Objective-C++") {
		// a reference: T&& x, auto&& x, (T&&), <T&&>, f(T&&...)
		if b.is(i-1, "auto") || b.is(i-1, "const") || b.is(i+1, ")") || b.is(i+1, ",") || b.is(i+1, ">") || b.is(i+1, "...") {
			return false
		}
		t, prev := b.toks[i], b.toks[i-1]
		if prev.Start+prev.Len == t.Start && int(t.Start+t.Len) < len(b.src) && b.src[t.Start+t.Len] == ' ' && b.kind(i+1) == token.Ident &&
			(b.is(i+2, ")") || b.is(i+2, ",") || b.is(i+2, "=") || b.is(i+2, ";") || b.is(i+2, ":")) {
			return false // T&& x) : a parameter's or a variable's type
		}
	}
	return true
}

// jsxContainer reports whether the { at i may open a JSX expression
// container: after a tag's >, an attribute's =, or text.
func (b *braceScorer) jsxContainer(i int) bool {
	if b.lang != "JavaScript" && b.lang != "JSX" && b.lang != "TSX" || i < 2 {
		return false
	}
	switch {
	case b.is(i-1, ">") || b.is(i-1, "}"): // <a>{…} and …}{…}
		return true
	case b.is(i-1, "="):
		return b.kind(i-2) == token.Ident && (b.kind(i-3) == token.Ident && !declWords[b.view(i-3)] || b.kind(i-3) == token.String)
	case b.kind(i-1) == token.Ident:
		w := b.view(i - 1)
		return !blockWords[w] && !containerKeywords[w] && !declWords[w] && w != "extends" && w != "implements"
	}
	return false
}

var declWords = map[string]bool{"let": true, "const": true, "var": true, "export": true, "default": true, "static": true,
	"readonly": true, "public": true, "private": true, "protected": true, "async": true, "return": true, "yield": true, "await": true}

// jsxFrame is the JSX expression container whose top level token i is in,
// or nil.
func (b *braceScorer) jsxFrame() *frame {
	n := len(b.frames)
	if n == 0 || !b.frames[n-1].jsx || len(b.parens) != b.frames[n-1].paren {
		return nil
	}
	return &b.frames[n-1]
}

// jsxMixed: the container's expression is not one run of like logical
// operators: its first run counts after all.
func (b *braceScorer) jsxMixed() {
	if f := b.jsxFrame(); f != nil && !f.mixed {
		f.mixed = true
		b.inc(f.deferred)
		f.deferred = 0
	}
}

// ternaryEnds reports whether the innermost open conditional expression
// ends before token i: at a , or ; of its level, a bracket that closes
// an enclosing one, the end of its block, or a line break between two
// tokens that cannot continue an expression.
func (b *braceScorer) ternaryEnds(i int) bool {
	n := len(b.ternaries)
	if n == 0 {
		return false
	}
	tn := b.ternaries[n-1]
	if len(b.frames) < tn.frames {
		return true
	}
	t := b.toks[i]
	if t.Kind == token.String && t.Flags&token.InterpClose != 0 {
		return len(b.parens) <= tn.paren
	}
	switch b.view(i) {
	case ")", "]":
		return len(b.parens) <= tn.paren
	case "}":
		return len(b.frames) <= tn.frames
	case ",", ";":
		return len(b.parens) == tn.paren && len(b.frames) == tn.frames
	}
	if len(b.parens) != tn.paren || len(b.frames) != tn.frames || i == 0 || t.Line <= b.toks[i-1].End {
		return false
	}
	prev := b.toks[i-1]
	if prev.Kind == token.Punct && !b.is(i-1, ")") && !b.is(i-1, "]") && !b.is(i-1, "}") && !b.is(i-1, "++") && !b.is(i-1, "--") {
		return false
	}
	return t.Kind != token.Punct || b.is(i, "{") || b.is(i, "!") || b.is(i, "++") || b.is(i, "--")
}

// ternaryColon reports whether a : at the current level is the innermost
// open conditional expression's.
func (b *braceScorer) ternaryColon() bool {
	n := len(b.ternaries)
	return n > 0 && b.ternaries[n-1].paren == len(b.parens) && b.ternaries[n-1].frames == len(b.frames)
}

// conditionalType reports whether the TypeScript ? at i ends the
// condition of a conditional type: extends before it in its expression.
func (b *braceScorer) conditionalType(i int) bool {
	depth := 0
	for j := i - 1; j >= 0 && j > i-maxHeader; j-- {
		s := b.view(j)
		if depth -= bracketStep(s); depth < 0 {
			return false
		}
		if depth == 0 {
			switch s {
			case ";", ",", "=", "return", "&&", "||", "??", "=>", "?", ":":
				return false
			case "extends":
				return true
			}
		}
	}
	return false
}

// typeAlias returns the last token of the TypeScript type alias whose
// type keyword is at i (type A<T> = …;), or i when there is none there.
func (b *braceScorer) typeAlias(i int) int {
	if !(i == 0 || b.is(i-1, ";") || b.is(i-1, "{") || b.is(i-1, "}") || b.is(i-1, "export") || b.is(i-1, "declare") ||
		b.toks[i-1].End < b.toks[i].Line) || b.kind(i+1) != token.Ident || !(b.is(i+2, "=") || b.is(i+2, "<")) {
		return i
	}
	depth := 0
	for j := i + 1; j < len(b.toks); j++ {
		s := b.view(j)
		if depth += bracketStep(s); depth < 0 {
			return j - 1
		}
		if depth == 0 && s == ";" {
			return j
		}
		if depth == 0 && j+1 < len(b.toks) && b.toks[j+1].Line > b.toks[j].End {
			// a line break ends it unless an operator is on either side
			next := b.toks[j+1]
			contPrev := b.kind(j) == token.Punct && !b.is(j, ")") && !b.is(j, "]") && !b.is(j, "}") ||
				b.is(j, "extends") || b.is(j, "keyof") || b.is(j, "typeof") || b.is(j, "infer") || b.is(j, "is") || b.is(j, "as")
			contNext := next.Kind == token.Punct && !b.is(j+1, "(") && !b.is(j+1, "[") && !b.is(j+1, "{") && !b.is(j+1, "!") ||
				b.is(j+1, "extends")
			if !contPrev && !contNext {
				return j
			}
		}
	}
	return len(b.toks) - 1
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
	kw := b.pending
	b.pending = ""
	b.frames = append(b.frames, frame{kind: kind, nestInc: nest, isDo: isDo, kw: kw, paren: len(b.parens), first: b.at + 1})
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
	if f.nested {
		b.nestedFns--
	}
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
		kw := ""
		for j := b.headerStart(i); j < i && j >= 0; j++ {
			if b.is(j, "interface") || b.is(j, "type") {
				kw = b.view(j) // a TypeScript type's body: its arrows are types
			}
		}
		b.frames = append(b.frames, frame{kind: frameOther, kw: kw, jsx: b.jsxContainer(i), paren: len(b.parens)})
		return
	}
	if b.cur == nil {
		b.cur = &fnState{Function: Function{Name: name, Line: int(b.toks[i].Line), Params: params}}
		if h := b.headerStart(i); h >= 0 {
			b.cur.Line = int(b.toks[h].Line)
			// Kotlin, Scala: a line break may end a statement, so the
			// header may reach back over the line before; fun (def) starts it
			for j, kw := h, exprBodyKeywords[b.lang]; kw != "" && j < i; j++ {
				if b.is(j, kw) {
					b.cur.Line = int(b.toks[j].Line)
					break
				}
			}
		}
		b.frames = append(b.frames, frame{kind: frameFunc, fn: b.cur, top: true})
		b.nest, b.ctl = 0, 0
		return
	}
	b.frames = append(b.frames, frame{kind: frameFunc, nestInc: 1, nested: true})
	b.nest++
	b.nestedFns++
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
		b.emit(f.fn, i)
	}
	// the statement a virtual body held ends with its block
	if len(b.frames) > 0 && b.frames[len(b.frames)-1].kind == frameVirtual && !b.is(i+1, "else") && !b.is(i+1, "while") && !b.is(i+1, "catch") {
		b.endVirtual()
	}
}

// emit ends the top-level function fn at token i.
func (b *braceScorer) emit(fn *fnState, i int) {
	fn.EndLine = int(b.toks[max(i, 0)].End)
	if fn.recursive && !SonarJS {
		fn.Complexity++
	}
	if SonarJS {
		fn.Complexity -= fn.nestedInc
	}
	b.out = append(b.out, fn.Function)
	b.cur = nil
	b.nest, b.ctl = 0, 0
	for range b.ternaries {
		b.chain.pop()
	}
	b.sonarLeak = 0
	b.ternaries = b.ternaries[:0]
	b.nestedFns = 0
}

// exprLambda reports whether the => (or Java's ->) at i starts a lambda
// whose body is an expression: not a switch arm (Java's case X ->, C#'s
// switch expressions, Scala's case … =>), and in PHP only after fn (…).
func (b *braceScorer) exprLambda(i int) bool {
	switch b.lang {
	case "JavaScript", "JSX", "Dart":
		return b.view(i) == "=>"
	case "TypeScript", "TSX":
		return b.view(i) == "=>" && !b.typeArrow(i)
	case "C#", "Scala":
		if b.view(i) != "=>" || b.caseArm(i) {
			return false
		}
		start := i - 1 // the parameters' first token
		if b.is(i-1, ")") {
			start = b.openParen(i - 1)
		}
		if b.is(start-1, "{") {
			return false // { x => … }: the braces are the lambda
		}
		if b.lang == "Scala" && b.scalaFunctionType(i) {
			return false
		}
		if n := len(b.frames); n > 0 && b.frames[n-1].kw == "switch" {
			return false // a switch expression's arm
		}
		return true
	case "Java", "Groovy":
		if b.view(i) != "->" {
			return false
		}
		for j := b.headerStart(i); j < i; j++ {
			if b.is(j, "case") || b.is(j, "default") {
				return false
			}
		}
		return true
	case "PHP":
		if b.view(i) != "=>" || !b.is(i-1, ")") {
			return false
		}
		k := b.openParen(i - 1)
		return k > 0 && (b.is(k-1, "fn") || b.is(k-2, "fn") && b.is(k-1, "&"))
	}
	return false
}

// scalaFunctionType reports whether the Scala => at i is part of a type:
// a function type after the : of an annotation (g: T => Boolean,
// f: (Int, Int) => Int, h: Seq[T] => U) or in a type declaration (type F
// = [X] =>> G[X]).
func (b *braceScorer) scalaFunctionType(i int) bool {
	j := i - 1
	switch {
	case b.is(j, ")"):
		j = b.openParen(j)
	case b.is(j, "]"):
		for d := 0; j >= 0 && i-j < maxHeader; j-- {
			if b.is(j, "]") {
				d++
			} else if b.is(j, "[") {
				if d--; d == 0 {
					break
				}
			}
		}
		if j > 0 && b.kind(j-1) == token.Ident {
			j-- // Seq[T]
		}
	}
	if j > 0 && b.is(j-1, ":") {
		return true
	}
	k := i
	for k > 0 && b.toks[k-1].End == b.toks[i].Line {
		k--
	}
	return b.is(k, "type") || b.is(k+1, "type") && b.is(k, "opaque")
}

// typeArrow reports whether the TypeScript => at i belongs to a function
// type rather than a lambda: in a type alias, an interface or type body,
// after the : of a parameter's or a function's type annotation.
func (b *braceScorer) typeArrow(i int) bool {
	h := b.headerStart(i)
	if b.is(h, "type") || b.is(h, "export") && b.is(h+1, "type") {
		return true
	}
	if n := len(b.frames); n > 0 && (b.frames[n-1].kw == "interface" || b.frames[n-1].kw == "type") {
		return true
	}
	if !b.is(i-1, ")") {
		return false
	}
	k := b.openParen(i - 1)
	if k < 1 || !b.is(k-1, ":") {
		return false
	}
	// (a: (t: T) => U) in a parameter list, or f(): (t: T) => U
	return len(b.parens) > 0 || b.is(k-2, ")")
}

// matchParen finds the bracket that matches the ( or ) at j, reading
// forwards from a ( (step 1) or backwards from a ) (step -1), within
// maxHeader tokens; -1 when there is none.
func matchParen(src []byte, toks []token.Token, j, step int) int {
	d := 0
	for k := j; k >= 0 && k < len(toks) && (k-j)*step < maxHeader; k += step {
		switch {
		case toks[k].Is(src, "("):
			d += step
		case toks[k].Is(src, ")"):
			d -= step
		}
		if d == 0 {
			return k
		}
	}
	return -1
}

// groupLen is the number of tokens inside the (…) group opened at k.
func (b *braceScorer) groupLen(k int) int {
	return max(0, matchParen(b.src, b.toks, k, 1)-k)
}

// openParen finds the ( of the ) at j, or -1.
func (b *braceScorer) openParen(j int) int { return matchParen(b.src, b.toks, j, -1) }

// startExprLambda opens the expression body of the lambda whose arrow is
// at i: a function of its own at the top level (const f = (x) => …, C#'s
// int Area() => …), else a nesting level of the enclosing function.
func (b *braceScorer) startExprLambda(i int) {
	if b.cur != nil {
		b.frames = append(b.frames, frame{kind: frameExpr, nestInc: 1, paren: len(b.parens), first: i + 1, nested: true})
		b.nest++
		b.nestedFns++
		return
	}
	if b.lang == "Rust" {
		return // a closure outside a function (in a static): not a function of its own
	}
	name, params, first := b.lambdaHeader(i)
	b.cur = &fnState{Function: Function{Name: name, Line: int(b.toks[first].Line), Params: params}}
	b.frames = append(b.frames, frame{kind: frameExpr, fn: b.cur, top: true, paren: len(b.parens), first: i + 1})
	b.nest, b.ctl = 0, 0
}

// exprBodyKeywords declare a function whose body may be an expression
// after =: Kotlin's fun f(x: Int) = …, Scala's def f(x: Int) = ….
var exprBodyKeywords = map[string]string{"Kotlin": "fun", "Scala": "def"}

// exprBodyDecl finds the fun (def) keyword of the declaration whose
// expression body the = at i starts, or -1: reading back over the name,
// type parameters, receiver, parameters and return type, at the depth of
// the =, with no =, ;, { or } between (a default value's = is inside the
// parameters' parentheses; a property's = has no fun before it).
func (b *braceScorer) exprBodyDecl(i int) int {
	kw := exprBodyKeywords[b.lang]
	if kw == "" {
		return -1
	}
	depth := 0
	for j := i - 1; j >= 0 && j > i-maxHeader; j-- {
		switch b.view(j) {
		case ")", "]":
			depth++
		case "(", "[":
			if depth--; depth < 0 {
				return -1
			}
		case "=", ";", "{", "}", "=>", "->":
			if depth == 0 {
				return -1
			}
		case kw:
			if depth == 0 && b.kind(j) == token.Ident && !b.is(j-1, ".") && j+1 < i {
				return j
			}
			return -1
		}
	}
	return -1
}

// startExprBody opens the expression body after the = at i of the
// function declared at kw: a function of its own (or, inside another, a
// nesting level of it, like a lambda), named by the last name before its
// parameters (fun <T> List<T>.first(…) is first).
func (b *braceScorer) startExprBody(kw, i int) {
	if b.cur != nil {
		b.startExprLambda(i)
		b.frames[len(b.frames)-1].declBody = true
		b.frames[len(b.frames)-1].indent = lineIndent(b.src, int(b.toks[kw].Start))
		return
	}
	name, params, end := "", 0, i
	for j := kw + 1; j < i; j++ {
		if b.is(j, "(") {
			end = j
			params = b.countParams(j, i)
			break
		}
	}
	for j := end - 1; j > kw; j-- {
		if b.kind(j) == token.Ident {
			name = b.text(j)
			break
		}
	}
	b.cur = &fnState{Function: Function{Name: name, Line: int(b.toks[kw].Line), Params: params}}
	b.frames = append(b.frames, frame{kind: frameExpr, fn: b.cur, top: true, paren: len(b.parens), first: i + 1, declBody: true,
		indent: lineIndent(b.src, int(b.toks[kw].Start))})
	b.nest, b.ctl = 0, 0
}

// lambdaHeader names the lambda whose arrow is at i and counts its
// parameters: (a, b) => and a => take the name before = or :
// (const f = …, key: …); C# members take their own name (int Area() =>,
// string Name =>).
func (b *braceScorer) lambdaHeader(i int) (name string, params, first int) {
	first = i
	k := -1 // the parameters' (
	if b.is(i-1, ")") {
		k = b.openParen(i - 1)
	} else if b.lang == "TypeScript" || b.lang == "TSX" {
		// (p: P): R => : the parameters end before the return type's :
		for j := i - 1; j > 0 && j > i-maxHeader; j-- {
			if b.is(j, ")") && b.is(j+1, ":") {
				k = b.openParen(j)
				break
			}
			if b.is(j, "=") || b.is(j, ",") || b.is(j, ";") || b.is(j, "{") || b.is(j, "}") || b.is(j, "(") {
				break
			}
		}
	}
	before := i - 1
	switch {
	case k >= 0:
		params, first, before = b.countParams(k, k+1+b.groupLen(k)), k, k-1
		if b.is(before, "async") {
			before--
		}
	case b.kind(i-1) == token.Ident && b.lang == "C#":
		return b.text(i - 1), 0, i - 1
	case b.kind(i-1) == token.Ident:
		params, first, before = 1, i-1, i-2
	}
	if before >= 0 && b.kind(before) == token.Ident && !declKeywords[b.view(before)] && b.lang == "C#" {
		return b.text(before), params, before
	}
	if b.is(before, "=") || b.is(before, ":") {
		if before > 0 && b.kind(before-1) == token.Ident {
			return b.text(before - 1), params, before - 1
		}
	}
	return "<lambda>", params, max(first, 0)
}

// lineIndent is the number of blanks that start the line holding pos.
func lineIndent(src []byte, pos int) int {
	j := pos
	for j > 0 && src[j-1] != '\n' {
		j--
	}
	k := j
	for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
		k++
	}
	return k - j
}

// frameEnds reports whether the one-statement body of a control
// structure, or the expression body of a lambda, on top of the frames ends
// before token i: at a bracket that closes an enclosing one, at a , or ; of
// a lambda's own level (a ; ends one-statement bodies by itself), or at a
// line break between two tokens that cannot continue a statement (for the
// languages where a line may end one).
func (b *braceScorer) frameEnds(i int) bool {
	n := len(b.frames)
	if n == 0 {
		return false
	}
	f := b.frames[n-1]
	if f.kind != frameExpr && f.kind != frameVirtual || i < f.first {
		return false
	}
	switch b.view(i) {
	case ")", "]":
		return len(b.parens) <= f.paren
	case "}":
		return f.kind == frameExpr && len(b.parens) <= f.paren
	case ",", ";":
		return f.kind == frameExpr && len(b.parens) == f.paren
	}
	if i == f.first || len(b.parens) != f.paren || b.toks[i].Line <= b.toks[i-1].End {
		return false
	}
	if f.declBody && b.lang == "Scala" {
		// Scala 3's indentation syntax (if … then, x match, for … do
		// without braces): the body is the lines indented past the def's
		return lineIndent(b.src, int(b.toks[i].Start)) <= f.indent
	}
	if b.pending != "" {
		return false
	}
	if b.is(i-1, "=>") || b.is(i-1, "->") || b.is(i-1, "else") {
		return false
	}
	prev, next := b.toks[i-1], b.toks[i]
	if prev.Kind == token.Punct && !b.is(i-1, ")") && !b.is(i-1, "]") && !b.is(i-1, "}") && !b.is(i-1, "++") && !b.is(i-1, "--") {
		return false // an operator or opening bracket ends the line: the expression goes on
	}
	return next.Kind != token.Punct || b.is(i, "{") || b.is(i, "(") || b.is(i, "[") || b.is(i, "!") || b.is(i, "++") || b.is(i, "--")
}

// closureStart reports whether the | or || at i opens a Rust closure's
// parameters (where an operand may start: after ( , = and the like), and
// marks where its body starts.
func (b *braceScorer) closureStart(i int) bool {
	if i > 0 {
		p := b.toks[i-1]
		if p.Kind == token.Number || p.Kind == token.String || p.Kind == token.Ident && !b.is(i-1, "move") && !b.is(i-1, "return") && !b.is(i-1, "in") ||
			b.is(i-1, ")") || b.is(i-1, "]") || b.is(i-1, "}") || b.is(i-1, "?") {
			return false
		}
	}
	if b.is(i, "||") {
		b.closureAt = i + 1
		return true
	}
	for j := i + 1; j < len(b.toks) && j < i+maxHeader; j++ {
		switch b.view(j) {
		case "|":
			b.closureAt = j + 1
			return true
		case ";", "{", "}":
			return false
		}
	}
	return false
}

// endFrame ends the one-statement or expression body on top of the
// frames after token i.
func (b *braceScorer) endFrame(i int) {
	f := b.pop()
	if f.declBody {
		b.declEnd = i + 1
	}
	if f.top {
		b.emit(f.fn, i)
	}
}

// headerStart finds the first token of the declaration before the { at i:
// after the previous ; { or } at the same depth.
func (b *braceScorer) headerStart(i int) int {
	depth := 0
	for j := i - 1; j >= 0 && j > i-400; j-- {
		if j < b.declEnd {
			return b.declEnd // a function with an expression body ended there
		}
		switch b.view(j) {
		case ")", "]":
			depth++
		case "(", "[":
			depth--
			if depth < 0 {
				return j + 1
			}
		case "}":
			// TypeScript: an object type in a generic parameter list
			// (<T extends { id: number }>) is part of the header
			if (b.lang == "TypeScript" || b.lang == "TSX") && (b.is(j+1, ">") || depth > 0) {
				depth++
				continue
			}
			if depth == 0 {
				return j + 1
			}
		case "{":
			if depth > 0 && (b.lang == "TypeScript" || b.lang == "TSX") {
				depth--
				continue
			}
			if depth == 0 {
				return j + 1
			}
		case ";":
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
		if b.toks[j].Kind == token.Ident && declKeywords[tokenView(b.src, b.toks[j])] && j+1 < i && b.toks[j+1].Kind == token.Ident {
			return b.text(j + 1), b.countParams(j+1, i), true
		}
	}
	if closureLanguages[b.lang] && b.cur != nil && (b.is(i-1, "(") || b.is(i-1, ",") || b.is(i-1, "=") ||
		b.toks[i-1].Kind == token.Ident && !blockWords[b.view(i-1)]) {
		return "<lambda>", 0, true // a trailing closure: xs.filter { … }
	}
	if b.lang == "Rust" && (b.is(i-1, "|") || b.is(i-1, "||")) {
		return "<closure>", 0, true
	}
	pd := 0
	for j := start; j < i; j++ {
		if b.is(j, "(") {
			pd++
		} else if b.is(j, ")") {
			pd--
		}
		if pd == 0 && b.toks[j].Kind == token.Ident && containerKeywords[tokenView(b.src, b.toks[j])] { // not f(struct s *p)
			if !(b.view(j) == "new" && b.lang == "PHP") {
				return "", 0, false
			}
		}
	}
	// find the last (…) group of the header
	depth := 0
scan:
	for j := i - 1; j >= start; j-- {
		switch b.view(j) {
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
							if specifiers[b.view(n)] { // noexcept(…), throw(…): look further left
								j = n
								continue scan
							}
							if n >= start && b.toks[n].Kind == token.Ident && (!notNames[b.view(n)] || b.is(n-1, "function")) {
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

func (b *braceScorer) len(k int) int { return int(b.toks[k].Len) }

// countParams counts the top-level commas of the first (…) group in
// [from, to) plus one, or 0 when it is empty.
func (b *braceScorer) countParams(from, to int) int {
	for j := from; j < to; j++ {
		if !b.is(j, "(") {
			continue
		}
		depth, n, any := 0, 0, false
		for k := j + 1; k < to; k++ {
			switch b.view(k) {
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
			case ">>", ">>>": // the ends of nested type arguments: List<List<Int>>
				depth = max(0, depth-b.len(k))
				any = true
			case ",":
				if depth == 0 {
					n++
				}
			default:
				if b.view(k) != "void" {
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
