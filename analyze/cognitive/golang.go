package cognitive

import (
	"go/ast"
	"go/parser"
	"go/token"
)

// goFunctions scores every function declaration of a Go file with go/ast,
// following the definition as github.com/uudashr/gocognit applies it to
// Go (docs/analyze.md): +1 and the nesting level for if, switch, select,
// for and range; +1 for else and else if; +1 for break, continue and goto
// with a label; +1 for each run of the same operator in a chain of && and
// ||; +1 once for a function that takes part in a recursion cycle among
// the file's functions; function literals add a nesting level.
func goFunctions(src []byte) ([]Function, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, 0)
	if err != nil {
		return nil, err
	}
	var decls []*ast.FuncDecl
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok {
			decls = append(decls, fn)
		}
	}
	rec := goRecursion(decls)
	out := make([]Function, 0, len(decls))
	for _, fn := range decls {
		s := &goScore{}
		if fn.Recv != nil {
			s.visit(fn.Recv, 0)
		}
		s.visit(fn.Type, 0)
		if fn.Body != nil {
			s.visit(fn.Body, 0)
		}
		if rec[fn] {
			s.total++
		}
		params := 0
		for _, p := range fn.Type.Params.List {
			params += max(1, len(p.Names))
		}
		out = append(out, Function{
			Name:       goFuncName(fn),
			Line:       fset.Position(fn.Pos()).Line,
			EndLine:    fset.Position(fn.End()).Line,
			Params:     params,
			Complexity: s.total,
			Nesting:    s.maxNest,
		})
	}
	return out, nil
}

func goFuncName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	t := fn.Recv.List[0].Type
	star := ""
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = "*", s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	name := "?"
	if id, ok := t.(*ast.Ident); ok {
		name = id.Name
	}
	return "(" + star + name + ")." + fn.Name.Name
}

type goScore struct {
	total   int
	maxNest int                      // deepest control-flow nesting
	chained map[*ast.BinaryExpr]bool // operators already counted in a chain
}

func (s *goScore) structure(nest int) {
	s.total += nest + 1
}

// children visits n's direct children at nesting level nest.
func (s *goScore) children(n ast.Node, nest int) {
	ast.Inspect(n, func(c ast.Node) bool {
		if c == n {
			return true
		}
		if c != nil {
			s.visit(c, nest)
		}
		return false
	})
}

func (s *goScore) body(b *ast.BlockStmt, nest int, ctl int) {
	if b == nil {
		return
	}
	s.maxNest = max(s.maxNest, ctl)
	s.visit(b, nest)
}

// visit scores n at nesting level nest.
func (s *goScore) visit(n ast.Node, nest int) {
	switch n := n.(type) {
	case *ast.IfStmt:
		s.ifStmt(n, nest, false)
	case *ast.SwitchStmt:
		s.structure(nest)
		if n.Init != nil {
			s.visit(n.Init, nest)
		}
		if n.Tag != nil {
			s.visit(n.Tag, nest)
		}
		s.body(n.Body, nest+1, nest+1)
	case *ast.TypeSwitchStmt:
		s.structure(nest)
		if n.Init != nil {
			s.visit(n.Init, nest)
		}
		if n.Assign != nil {
			s.visit(n.Assign, nest)
		}
		s.body(n.Body, nest+1, nest+1)
	case *ast.SelectStmt:
		s.structure(nest)
		s.body(n.Body, nest+1, nest+1)
	case *ast.ForStmt:
		s.structure(nest)
		if n.Init != nil {
			s.visit(n.Init, nest)
		}
		if n.Cond != nil {
			s.visit(n.Cond, nest)
		}
		if n.Post != nil {
			s.visit(n.Post, nest)
		}
		s.body(n.Body, nest+1, nest+1)
	case *ast.RangeStmt:
		s.structure(nest)
		if n.Key != nil {
			s.visit(n.Key, nest)
		}
		if n.Value != nil {
			s.visit(n.Value, nest)
		}
		s.visit(n.X, nest)
		s.body(n.Body, nest+1, nest+1)
	case *ast.FuncLit:
		s.visit(n.Type, nest)
		s.visit(n.Body, nest+1)
	case *ast.BranchStmt:
		if n.Label != nil {
			s.total++
		}
	case *ast.BinaryExpr:
		if logical(n.Op) && !s.chained[n] {
			var last token.Token
			for _, op := range s.chain(n, nil) {
				if op != last {
					s.total++
					last = op
				}
			}
		}
		s.children(n, nest)
	default:
		s.children(n, nest)
	}
}

func (s *goScore) ifStmt(n *ast.IfStmt, nest int, isElse bool) {
	if isElse {
		s.total++
	} else {
		s.structure(nest)
	}
	if n.Init != nil {
		s.visit(n.Init, nest)
	}
	s.visit(n.Cond, nest)
	s.body(n.Body, nest+1, nest+1)
	switch e := n.Else.(type) {
	case *ast.BlockStmt:
		s.total++
		s.body(e, nest+1, nest+1)
	case *ast.IfStmt:
		s.ifStmt(e, nest, true)
	}
}

func logical(op token.Token) bool { return op == token.LAND || op == token.LOR }

// chain lists the logical operators of a chain of binary expressions
// (through parentheses) in source order, marking each as counted.
func (s *goScore) chain(e ast.Expr, ops []token.Token) []token.Token {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return s.chain(x.X, ops)
	case *ast.BinaryExpr:
		if s.chained == nil {
			s.chained = map[*ast.BinaryExpr]bool{}
		}
		s.chained[x] = true
		ops = s.chain(x.X, ops)
		if logical(x.Op) {
			ops = append(ops, x.Op)
		}
		return s.chain(x.Y, ops)
	}
	return ops
}

// goRecursion marks the functions on a call cycle among the file's
// declarations: a call by plain name reaches the file's function of that
// name unless a declaration in scope hides it; a method reaches
// itself through its receiver (r.M()). Names are resolved by go/parser's
// object resolution, as gocognit does.
func goRecursion(decls []*ast.FuncDecl) map[*ast.FuncDecl]bool {
	byName := map[string]*ast.FuncDecl{}
	for _, fn := range decls {
		if fn.Recv == nil && fn.Body != nil {
			byName[fn.Name.Name] = fn
		}
	}
	calls := map[*ast.FuncDecl][]*ast.FuncDecl{}
	for _, fn := range decls {
		if fn.Body == nil {
			continue
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if t := callTarget(call.Fun, fn, byName); t != nil {
				calls[fn] = append(calls[fn], t)
			}
			return true
		})
	}
	return onCycle(decls, calls)
}

func callTarget(e ast.Expr, fn *ast.FuncDecl, byName map[string]*ast.FuncDecl) *ast.FuncDecl {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return callTarget(x.X, fn, byName)
	case *ast.IndexExpr:
		return callTarget(x.X, fn, byName)
	case *ast.IndexListExpr:
		return callTarget(x.X, fn, byName)
	case *ast.Ident:
		if x.Obj != nil { // resolved by the parser in the file or a local scope
			if d, ok := x.Obj.Decl.(*ast.FuncDecl); ok && d.Body != nil {
				return d
			}
			return nil
		}
		return byName[x.Name]
	case *ast.SelectorExpr:
		if fn.Recv != nil && x.Sel.Name == fn.Name.Name {
			if id, ok := x.X.(*ast.Ident); ok {
				for _, f := range fn.Recv.List {
					for _, n := range f.Names {
						if n.Name == id.Name {
							return fn
						}
					}
				}
			}
		}
	}
	return nil
}

// onCycle marks the nodes on a cycle of the call graph (Tarjan's strongly
// connected components: a component of two or more, or a self-call).
func onCycle(nodes []*ast.FuncDecl, adj map[*ast.FuncDecl][]*ast.FuncDecl) map[*ast.FuncDecl]bool {
	index := map[*ast.FuncDecl]int{}
	low := map[*ast.FuncDecl]int{}
	on := map[*ast.FuncDecl]bool{}
	var stack []*ast.FuncDecl
	out := map[*ast.FuncDecl]bool{}
	n := 0
	var strong func(v *ast.FuncDecl)
	strong = func(v *ast.FuncDecl) {
		index[v], low[v] = n, n
		n++
		stack = append(stack, v)
		on[v] = true
		for _, w := range adj[v] {
			if _, seen := index[w]; !seen {
				strong(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var comp []*ast.FuncDecl
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			if len(comp) > 1 {
				for _, w := range comp {
					out[w] = true
				}
			} else {
				for _, w := range adj[v] {
					if w == v {
						out[v] = true
					}
				}
			}
		}
	}
	for _, v := range nodes {
		if _, seen := index[v]; !seen {
			strong(v)
		}
	}
	return out
}
