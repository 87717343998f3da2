package cognitive

import (
	"bytes"

	"github.com/plumbhq/plumb/analyze/token"
)

// block is an open block of an indentation- or keyword-delimited language.
type block struct {
	indent  int  // Python: the header's indentation
	nestInc int  // 1 when it raises the nesting level
	ctl     bool // a control-flow block
	fn      *fnState
	closer  string // Ruby/shell: the keyword or } that ends it
	until   int    // Ruby: an endless method's last token (0: none)
}

// scopes tracks the open blocks and the current top-level function.
type scopes struct {
	src    []byte
	toks   []token.Token
	stack  []block
	cur    *fnState
	nest   int
	ctl    int
	out    []Function
	chain  logicChain
	skipTo int // shell: tokens up to here belong to a function header
	open   int // Ruby: the endless methods open in stack
}

func (s *scopes) inc(n int) {
	if s.cur != nil {
		s.cur.Complexity += n
	}
}

func (s *scopes) structural() { s.inc(1 + s.nest) }

func (s *scopes) push(b block) {
	s.stack = append(s.stack, b)
	s.nest += b.nestInc
	if b.ctl {
		s.ctl += b.nestInc
		if s.cur != nil {
			s.cur.Nesting = max(s.cur.Nesting, s.ctl)
		}
	}
}

func (s *scopes) pop(endLine int) {
	b := s.stack[len(s.stack)-1]
	s.stack = s.stack[:len(s.stack)-1]
	if b.until > 0 {
		s.open--
	}
	s.nest -= b.nestInc
	if b.ctl {
		s.ctl -= b.nestInc
	}
	if b.fn != nil {
		b.fn.EndLine = endLine
		if b.fn.recursive {
			b.fn.Complexity++
		}
		s.out = append(s.out, b.fn.Function)
		s.cur = nil
		s.nest, s.ctl = 0, 0
	}
}

// function opens a function body: a new top-level function, or a nested
// one that raises the nesting level.
func (s *scopes) function(name string, line, params, indent int, closer string) {
	if s.cur == nil {
		s.cur = &fnState{Function: Function{Name: name, Line: line, Params: params}}
		s.push(block{indent: indent, fn: s.cur, closer: closer})
		s.nest, s.ctl = 0, 0
		return
	}
	s.push(block{indent: indent, nestInc: 1, closer: closer})
}

func (s *scopes) finish() []Function {
	end := 0
	if len(s.toks) > 0 {
		end = int(s.toks[len(s.toks)-1].End)
	}
	for len(s.stack) > 0 {
		s.pop(end)
	}
	return s.out
}

func (s *scopes) is(i int, t string) bool {
	return i >= 0 && i < len(s.toks) && s.toks[i].Is(s.src, t)
}

func (s *scopes) text(i int) string {
	if i < 0 || i >= len(s.toks) {
		return ""
	}
	return s.toks[i].Text(s.src)
}

func (s *scopes) recursion(i int, name string) {
	if s.cur != nil && name == s.cur.Name && s.is(i+1, "(") && !s.is(i-1, "def") && !s.is(i-1, "function") {
		if !s.is(i-1, ".") || s.is(i-2, "self") || s.is(i-2, "cls") {
			s.cur.recursive = true
		}
	}
}

// maxHeader bounds the tokens read for one parameter list, so that a
// parameter list that never closes costs no more than that.
const maxHeader = 1000

// column is the 0-based column of token t.
func column(src []byte, t token.Token) int {
	return int(t.Start) - (bytes.LastIndexByte(src[:t.Start], '\n') + 1)
}

// pythonFunctions scores Python: blocks by indentation; if/for/while/
// except/match and conditional expressions are structural, elif and else
// are +1; and/or runs are counted; comprehension clauses are not.
func pythonFunctions(src []byte, toks []token.Token) []Function {
	s := &scopes{src: src, toks: toks}
	depth := 0              // bracket depth
	var compFor []int       // bracket depths where a comprehension "for" was seen
	lineStart := true       // the next token starts a logical line
	var prevLine int32 = -1 // line of the previous token's end
	lastEnd := 0
	var lambdas []int           // bracket depths of the lambdas being read (each nests)
	endLambdas := func(d int) { // the lambdas of depth d and deeper end
		for len(lambdas) > 0 && lambdas[len(lambdas)-1] >= d {
			lambdas = lambdas[:len(lambdas)-1]
			s.nest--
		}
	}
	var conds []int           // bracket depths of the conditional expressions being read
	endConds := func(d int) { // their else branches end: what follows no longer nests in them
		for len(conds) > 0 && conds[len(conds)-1] >= d {
			conds = conds[:len(conds)-1]
			s.nest--
		}
	}
	for i, t := range toks {
		text := tokenView(src, t) // kept only while scoring
		if depth == 0 && t.Line > prevLine && !s.is(i-1, `\`) {
			lineStart = true
		}
		prevLine = t.End
		if lineStart {
			lineStart = false
			endConds(0)
			endLambdas(0)
			s.chain.reset()
			ind := column(src, t)
			for len(s.stack) > 0 && s.stack[len(s.stack)-1].indent >= ind {
				s.pop(lastEnd)
			}
			s.statement(i, text, ind)
		} else if t.Kind == token.Ident {
			switch text {
			case "if":
				if len(compFor) > 0 && compFor[len(compFor)-1] == depth {
					break // a comprehension's condition
				}
				// a conditional expression; one in another's else branch
				// (a if c else b if d else e) nests in it
				s.structural()
				conds = append(conds, depth)
				s.nest++
			case "for":
				endConds(depth)
				if depth > 0 {
					compFor = append(compFor, depth)
				}
			case "and", "or":
				s.inc(s.chain.op(text))
			case "lambda":
				lambdas = append(lambdas, depth)
				s.nest++
			default:
				s.recursion(i, text)
			}
		}
		switch text {
		case "(", "[", "{":
			depth++
			s.chain.push()
		case ")", "]", "}":
			for len(compFor) > 0 && compFor[len(compFor)-1] == depth {
				compFor = compFor[:len(compFor)-1]
			}
			endConds(depth)
			endLambdas(depth)
			depth = max(0, depth-1)
			s.chain.pop()
		case ",":
			endConds(depth)
			endLambdas(depth)
			s.chain.reset()
		}
		if t.Kind == token.String {
			// an f-string's {…} is an expression of its own, in brackets
			if t.Flags&token.InterpClose != 0 {
				endConds(depth)
				endLambdas(depth)
				depth = max(0, depth-1)
				s.chain.pop()
			}
			if t.Flags&token.InterpOpen != 0 {
				depth++
				s.chain.push()
			}
		}
		lastEnd = int(t.End)
	}
	return s.finish()
}

// softStatement reports whether the soft keyword at i (match, case)
// starts a statement: its logical line ends with a : and the next token
// does not make it a name (match = …, match.group(), case(x)).
func (s *scopes) softStatement(i int) bool {
	switch s.text(i + 1) {
	case "=", ".", ":", ",", ")", "]", "}", "+=", "-=", "":
		return false
	}
	depth := 0
	for j := i + 1; j < len(s.toks) && j < i+maxHeader; j++ {
		depth += bracketStep(s.text(j))
		if s.toks[j].Kind == token.String && s.toks[j].Flags&token.InterpOpen != 0 {
			depth++
		}
		if s.toks[j].Kind == token.String && s.toks[j].Flags&token.InterpClose != 0 {
			depth--
		}
		if depth <= 0 && (j+1 == len(s.toks) || s.toks[j+1].Line > s.toks[j].End && !s.is(j, `\`)) {
			return s.is(j, ":")
		}
	}
	return false
}

// statement handles the first token of a Python logical line.
func (s *scopes) statement(i int, kw string, ind int) {
	t := s.toks[i]
	switch kw {
	case "async":
		if s.is(i+1, "def") {
			s.statement(i+1, "def", ind)
		}
	case "def":
		name := s.text(i + 1)
		s.function(name, int(t.Line), pyParams(s, i+2), ind, "")
	case "class", "try", "finally", "with":
		s.push(block{indent: ind})
	case "match", "case":
		if !s.softStatement(i) {
			s.recursion(i, kw) // match = re.match(…): a name
			return
		}
		if kw == "case" {
			s.push(block{indent: ind})
			return
		}
		s.structural()
		s.push(block{indent: ind, nestInc: 1, ctl: true})
	case "if", "for", "while", "except":
		s.structural()
		s.push(block{indent: ind, nestInc: 1, ctl: true})
	case "elif", "else":
		s.inc(1)
		s.push(block{indent: ind, nestInc: 1, ctl: true})
	default:
		s.recursion(i, kw)
	}
}

// pyParams counts the parameters of the def whose ( is at i, leaving out
// self, cls and the bare * and / markers.
func pyParams(s *scopes, i int) int {
	if !s.is(i, "(") {
		return 0
	}
	depth, n := 0, 0
	start := true
	for j := i + 1; j < len(s.toks) && j < i+maxHeader; j++ {
		x := s.text(j)
		switch x {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			if depth == 0 {
				return n
			}
			depth--
		case ",":
			if depth == 0 {
				start = true
			}
			continue
		}
		if start && depth == 0 {
			start = false
			if x == "*" || x == "**" {
				if s.is(j+1, ",") || s.is(j+1, ")") {
					continue
				}
				j++
				x = s.text(j)
			}
			if x != "self" && x != "cls" && x != "/" {
				n++
			}
		}
	}
	return n
}

// atStatementStart reports whether token i begins a statement (Ruby and
// shell keywords only open blocks there).
func (s *scopes) atStatementStart(i int, seps ...string) bool {
	if i == 0 || s.toks[i-1].End < s.toks[i].Line {
		return true
	}
	if p := s.toks[i-1]; p.Kind == token.String && p.Flags&token.InterpOpen != 0 {
		return true // "#{…}", "$(…)": code starts
	}
	for _, sep := range seps {
		if s.is(i-1, sep) {
			return true
		}
	}
	return false
}

// rubyFunctions scores Ruby: def … end functions; if/unless/while/until/
// for/case/rescue are structural (modifier forms too), elsif and else +1;
// blocks (do … end, { |x| … }) raise the nesting level.
func rubyFunctions(src []byte, toks []token.Token) []Function {
	s := &scopes{src: src, toks: toks}
	loopLine := int32(-1) // a while/until/for header's line, whose do opens no block
	parens := 0           // open ( and [
	var terns []int       // the paren depths of the ternaries being read: their branches nest
	endTerns := func(d int) {
		for len(terns) > 0 && terns[len(terns)-1] >= d {
			terns = terns[:len(terns)-1]
			s.nest--
		}
	}
	for i, t := range toks {
		text := tokenView(src, t) // kept only while scoring
		s.endEndless(i)
		start := s.atStatementStart(i, ";", "=", "(", "then", "do", "||", "&&", "return")
		if t.Line > s.lastLine(i) && !s.is(i-1, "?") && !s.is(i-1, ":") && !s.is(i, "?") && !s.is(i, ":") {
			endTerns(0)
		}
		if t.Line > s.lastLine(i) {
			s.chain.reset()
		}
		switch text {
		case "(", "[":
			parens++
		case ")", "]":
			endTerns(parens)
			parens = max(0, parens-1)
		case ",", ";":
			endTerns(parens)
		}
		if t.Kind == token.String {
			if t.Flags&token.InterpClose != 0 {
				s.chain.pop()
			}
			if t.Flags&token.InterpOpen != 0 {
				s.chain.push()
			}
			continue
		}
		if t.Kind == token.Ident && s.rubyName(i) {
			s.recursion(i, text)
			continue
		}
		switch text {
		case "def":
			j := i + 1
			name := s.text(j)
			if s.is(j+1, ".") { // def self.name
				j += 2
				name = s.text(j)
			}
			params := 0
			body := j + 1 // the token after the parameters
			if s.is(j+1, "(") {
				var k int
				params, k = countCommaList(s, j+1)
				if k > 0 {
					body = k + 1
				}
			} else if j+1 < len(toks) && toks[j+1].Line == t.Line && !s.endlessEq(j, j+1) && !s.is(j+1, ";") {
				params = 1 // def f a, b
				for k := j + 1; k < len(toks) && toks[k].Line == t.Line && !s.is(k, ";"); k++ {
					if s.is(k, ",") {
						params++
					}
				}
			}
			if s.endlessEq(j, body) {
				// def f(x) = expr: an endless method, whose body is the
				// expression; it ends with the expression, not with "end"
				s.function(name, int(t.Line), params, 0, "")
				s.stack[len(s.stack)-1].until = s.endlessEnd(body + 1)
				s.open++
				break
			}
			s.function(name, int(t.Line), params, 0, "end")
		case "class", "module", "begin":
			if start {
				s.push(block{closer: "end"})
			}
		case "if", "unless", "while", "until":
			s.structural()
			if start {
				s.push(block{nestInc: 1, ctl: true, closer: "end"})
				if text == "while" || text == "until" {
					loopLine = t.Line
				}
			}
		case "for":
			s.structural()
			s.push(block{nestInc: 1, ctl: true, closer: "end"})
			loopLine = t.Line
		case "case":
			s.structural()
			s.push(block{nestInc: 1, ctl: true, closer: "end"})
		case "elsif", "else":
			s.inc(1)
		case "rescue":
			s.structural()
		case "do":
			if t.Line == loopLine {
				break
			}
			s.push(block{nestInc: 1, closer: "end"})
		case "{":
			inc := 0
			if s.is(i+1, "|") || s.is(i-1, "->") || s.is(i-1, "lambda") || s.is(i-1, "proc") || s.is(i-1, ")") && s.lambdaParams(i-1) {
				inc = 1 // a block or a lambda
			}
			s.push(block{nestInc: inc, closer: "}"})
		case "end", "}":
			if n := len(s.stack); n > 0 && s.stack[n-1].closer == text {
				s.pop(int(t.Line))
			}
		case "&&", "||", "and", "or":
			s.inc(s.chain.op(text))
		case "?":
			if t.Start > 0 && int(t.Start+1) < len(src) && src[t.Start-1] == ' ' && src[t.Start+1] == ' ' {
				s.structural()
				if s.cur != nil {
					terns = append(terns, parens)
					s.nest++
				}
			}
		case "(":
			s.chain.push()
		case ")":
			s.chain.pop()
		default:
			if t.Kind == token.Ident {
				s.recursion(i, text)
			}
		}
	}
	return s.finish()
}

// maxEndless bounds the tokens of an endless method's expression, so that
// one whose brackets never close costs no more than that.
const maxEndless = 2 * maxHeader

// endlessEq reports whether the token at k is the = of an endless method
// whose name is at j (def f(x) = …, def f = …), not a setter's name
// (def x=(v), where the = touches the name).
func (s *scopes) endlessEq(j, k int) bool {
	if !s.is(k, "=") || k >= len(s.toks) {
		return false
	}
	return k != j+1 || s.toks[j].Start+s.toks[j].Len < s.toks[k].Start
}

// endlessEnd finds the last token of the expression that starts at i, an
// endless method's body: it runs to the end of its line, over the lines
// that brackets, a block (do … end, if … end) or a trailing operator or
// comma keep open, and over lines that start with .method.
func (s *scopes) endlessEnd(i int) int {
	depth := 0
	for j := i; j < len(s.toks); j++ {
		if j-i >= maxEndless {
			return j // an expression that never closes: bounded cost
		}
		t := s.toks[j]
		x := s.src[t.Start : t.Start+t.Len]
		switch string(x) { // no copy
		case "(", "[", "{", "do", "begin", "case":
			depth++
		case "if", "unless", "while", "until":
			if j == i || s.atStatementStart(j, ";", "=", "(", "then", "do", "||", "&&", "return") {
				depth++
			}
		case ")", "]", "}", "end":
			depth--
		case ";":
			if depth <= 0 {
				return j - 1
			}
		}
		if depth < 0 {
			return j - 1 // the enclosing block's end
		}
		if depth > 0 || j+1 == len(s.toks) || s.toks[j+1].Line <= s.toks[j].End {
			continue
		}
		if t.Kind == token.Punct && !s.is(j, ")") && !s.is(j, "]") && !s.is(j, "}") || s.is(j+1, ".") || s.is(j+1, "&.") {
			continue // a + … / a, … / \ / a\n .b: the expression goes on
		}
		return j
	}
	return len(s.toks) - 1
}

// endEndless closes the endless methods whose expression ended before
// token i, with what is still open in them.
func (s *scopes) endEndless(i int) {
	if s.open == 0 {
		return
	}
	for k := len(s.stack) - 1; k >= 0; k-- {
		if u := s.stack[k].until; u > 0 && i > u {
			line := int(s.toks[u].End)
			for len(s.stack) > k {
				s.pop(line)
			}
			return
		}
	}
}

// rubyName reports whether the word at i is a name, not a keyword: a
// method after . &. or ::, a symbol (:if), a hash key or keyword
// argument (if: 1), a method's name after def (def end, def self.class).
func (s *scopes) rubyName(i int) bool {
	t := s.toks[i]
	switch {
	case s.is(i-1, ".") || s.is(i-1, "::"):
		return true
	case s.is(i-1, ":") && s.toks[i-1].Start+1 == t.Start && (i < 2 || s.toks[i-2].Start+s.toks[i-2].Len < s.toks[i-1].Start || !s.is(i-2, ":")):
		return true // :if
	case s.is(i+1, ":") && s.toks[i+1].Start == t.Start+t.Len && !s.is(i+2, ":"):
		return true // if: 1
	case s.is(i-1, "def"):
		return true
	}
	return false
}

// lambdaParams reports whether the ) at j closes the parameters of a Ruby
// stabby lambda, ->(x).
func (s *scopes) lambdaParams(j int) bool {
	k := matchParen(s.src, s.toks, j, -1)
	return k > 0 && s.is(k-1, "->")
}

func (s *scopes) lastLine(i int) int32 {
	if i == 0 {
		return 0
	}
	return s.toks[i-1].End
}

// countCommaList counts the items of the (…) list at i, and finds its ),
// or -1.
func countCommaList(s *scopes, i int) (int, int) {
	depth, n, any := 0, 0, false
	for j := i + 1; j < len(s.toks) && j < i+maxHeader; j++ {
		t := s.toks[j]
		switch string(s.src[t.Start : t.Start+t.Len]) { // no copy
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			if depth == 0 {
				if any {
					n++
				}
				return n, j
			}
			depth--
		case ",":
			if depth == 0 {
				n++
			}
		default:
			any = true
		}
	}
	return n, -1
}

// shellFunctions scores shell scripts: name() { … } and function name
// { … } are functions; if, for, while, until, case are structural, elif and
// else +1; runs of && and || count.
func shellFunctions(src []byte, toks []token.Token) []Function {
	s := &scopes{src: src, toks: toks, skipTo: -1}
	for i, t := range toks {
		text := t.Text(src)
		start := s.atStatementStart(i, ";", "&&", "||", "|", "then", "do", "else", "{", "(", "!")
		if t.Line > s.lastLine(i) {
			s.chain.reset()
		}
		if t.Kind == token.Ident && start {
			// name ( ) {   or   function name [( )] {
			if text == "function" && i+1 < len(toks) {
				j := i + 2
				if s.is(j, "(") && s.is(j+1, ")") {
					j += 2
				}
				if s.is(j, "{") {
					s.function(s.text(i+1), int(t.Line), 0, 0, "}")
					s.skipTo = j
					continue
				}
			}
			if s.is(i+1, "(") && s.is(i+2, ")") && s.is(i+3, "{") {
				s.function(text, int(t.Line), 0, 0, "}")
				s.skipTo = i + 3
				continue
			}
		}
		if i <= s.skipTo {
			continue
		}
		switch text {
		case "if", "for", "while", "until", "case", "select":
			if !start {
				break
			}
			s.structural()
			closer := map[string]string{"if": "fi", "case": "esac"}[text]
			if closer == "" {
				closer = "done"
			}
			s.push(block{nestInc: 1, ctl: true, closer: closer})
		case "elif", "else":
			if start {
				s.inc(1)
			}
		case "break", "continue":
			if n := i + 1; n < len(toks) && toks[n].Line == t.Line && toks[n].Kind == token.Number {
				s.inc(1) // break N leaves N loops, like a label
			}
		case "fi", "done", "esac":
			if n := len(s.stack); start && n > 0 && s.stack[n-1].closer == text {
				s.pop(int(t.Line))
			}
		case "{":
			s.push(block{closer: "}"})
		case "}":
			if n := len(s.stack); n > 0 && s.stack[n-1].closer == "}" {
				s.pop(int(t.Line))
			}
		case "&&", "||":
			s.inc(s.chain.op(text))
		case ";", "|":
			s.chain.reset()
		default:
			if t.Kind == token.Ident && start && s.cur != nil && text == s.cur.Name {
				s.cur.recursive = true
			}
		}
	}
	return s.finish()
}
