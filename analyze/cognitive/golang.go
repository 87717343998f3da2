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
// ||; +1 once for a function that takes part in a recursion cycle; function
// literals add a nesting level. The recursion rule sees only this file here;
// GoPackageRecursion applies it across the files of a package.
func goFunctions(src []byte) ([]Function, *GoCalls, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, err
	}
	var decls []*ast.FuncDecl
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok {
			decls = append(decls, fn)
		}
	}
	calls := goCallGraph(f, decls)
	rec := packageCycles([]*GoCalls{calls})
	out := make([]Function, 0, len(decls))
	s := &goScore{} // reused: its visitors serve every function
	for i, fn := range decls {
		s.total, s.maxNest = 0, 0
		clear(s.chained)
		if fn.Recv != nil {
			s.visit(fn.Recv, 0)
		}
		s.visit(fn.Type, 0)
		if fn.Body != nil {
			s.visit(fn.Body, 0)
		}
		if rec[0][i] {
			s.total++
			calls.funcs[i].counted = true
		}
		params := 0
		for _, p := range fn.Type.Params.List {
			params += max(1, len(p.Names))
		}
		out = append(out, Function{
			Name:       goFuncName(fn),
			Line:       fset.PositionFor(fn.Pos(), false).Line, // the file's own lines, not those of //line directives
			EndLine:    fset.PositionFor(fn.End(), false).Line,
			Params:     params,
			Complexity: s.total,
			Nesting:    s.maxNest,
		})
	}
	return out, calls, nil
}

// AnalyzeGo measures the functions of a Go file like Analyze, and returns
// with them the file's calls, for GoPackageRecursion.
func AnalyzeGo(src []byte) ([]Function, *GoCalls, error) { return goFunctions(src) }

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
	total    int
	maxNest  int                      // deepest control-flow nesting
	chained  map[*ast.BinaryExpr]bool // operators already counted in a chain
	visitors []*childVisitor          // by depth, reused
	depth    int
}

func (s *goScore) structure(nest int) {
	s.total += nest + 1
}

// children visits n's direct children at nesting level nest.
func (s *goScore) children(n ast.Node, nest int) {
	if s.depth == len(s.visitors) {
		s.visitors = append(s.visitors, &childVisitor{s: s})
	}
	v := s.visitors[s.depth]
	v.parent, v.nest = n, nest
	s.depth++
	ast.Walk(v, n)
	s.depth--
}

// childVisitor hands the direct children of parent to goScore.visit; one
// per depth of the walk is reused for the whole file (ast.Inspect would
// allocate a closure per node).
type childVisitor struct {
	s      *goScore
	parent ast.Node
	nest   int
}

func (v *childVisitor) Visit(c ast.Node) ast.Visitor {
	if c == v.parent {
		return v
	}
	if c != nil {
		v.s.visit(c, v.nest)
	}
	return nil
}

func (s *goScore) body(b *ast.BlockStmt, nest int, ctl int) {
	if b == nil {
		return
	}
	s.maxNest = max(s.maxNest, ctl)
	s.visit(b, nest)
}

// nested scores a structure that nests (switch, type switch, select,
// loop) at level nest: +1 plus nest, its header's parts that are there at
// nest, its body one level deeper.
func (s *goScore) nested(nest int, body *ast.BlockStmt, header ...ast.Node) {
	s.structure(nest)
	for _, h := range header {
		if h != nil {
			s.visit(h, nest)
		}
	}
	s.body(body, nest+1, nest+1)
}

// visit scores n at nesting level nest.
func (s *goScore) visit(n ast.Node, nest int) {
	switch n := n.(type) {
	case *ast.IfStmt:
		s.ifStmt(n, nest, false)
	case *ast.SwitchStmt:
		s.nested(nest, n.Body, n.Init, n.Tag)
	case *ast.TypeSwitchStmt:
		s.nested(nest, n.Body, n.Init, n.Assign)
	case *ast.SelectStmt:
		s.nested(nest, n.Body)
	case *ast.ForStmt:
		s.nested(nest, n.Body, n.Init, n.Cond, n.Post)
	case *ast.RangeStmt:
		s.nested(nest, n.Body, n.Key, n.Value, n.X)
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

// GoCalls is what the recursion rule needs of one Go file: its package
// name and, for each function declaration (in the order of Analyze's
// result), the calls it makes to functions of its package.
type GoCalls struct {
	Package string
	funcs   []goFunc
}

type goFunc struct {
	name    string // for calls by name from other files: a function with a body, no receiver
	body    bool
	local   []int    // callees declared in this file (resolved by go/parser, or a method's own receiver)
	byName  []string // names called that this file does not declare
	counted bool     // AnalyzeGo counted the recursion increment (the file alone)
}

// goCallGraph lists the calls of each declaration: a call by plain name
// resolved (as go/parser's object resolution would, callResolver) to a
// declaration of this file, or left for the package's other files when
// unresolved, and a method's call of itself through its receiver (r.M()),
// as gocognit resolves calls without type information.
func goCallGraph(f *ast.File, decls []*ast.FuncDecl) *GoCalls {
	index := make(map[*ast.FuncDecl]int, len(decls))
	for i, fn := range decls {
		index[fn] = i
	}
	g := &GoCalls{Package: f.Name.Name, funcs: make([]goFunc, len(decls))}
	r := newCallResolver(f)
	var gf *goFunc
	var fn *ast.FuncDecl
	r.onCall = func(call *ast.CallExpr, kind callKind, d *ast.FuncDecl, name string) {
		switch kind {
		case callLocal:
			gf.local = append(gf.local, index[d])
		case callByName:
			gf.byName = append(gf.byName, name)
		default:
			if selfCall(call.Fun, fn) {
				gf.local = append(gf.local, index[fn])
			}
		}
	}
	for i, d := range decls {
		gf, fn = &g.funcs[i], d
		gf.body = fn.Body != nil
		if fn.Recv == nil {
			gf.name = fn.Name.Name
		}
		if fn.Body != nil {
			r.funcDecl(fn)
		}
	}
	return g
}

// selfCall says whether a call is a method's call of itself through its
// receiver (r.M(), through parentheses and type arguments).
func selfCall(e ast.Expr, fn *ast.FuncDecl) bool {
	x, ok := callee(e).(*ast.SelectorExpr)
	if !ok || fn.Recv == nil || x.Sel.Name != fn.Name.Name {
		return false
	}
	id, ok := x.X.(*ast.Ident)
	if !ok {
		return false
	}
	for _, f := range fn.Recv.List {
		for _, n := range f.Names {
			if n.Name == id.Name {
				return true
			}
		}
	}
	return false
}

// packageCycles marks, for each file of one package (in file-name order),
// the functions on a cycle of the package's call graph: a strongly
// connected component of two or more functions, or a function that calls
// itself. A call by a name no file-local declaration resolves reaches the
// package's function of that name (of the last file declaring it, as
// gocognit's table of names keeps the last).
func packageCycles(files []*GoCalls) [][]bool {
	type node struct{ file, fn int }
	byName := map[string]node{}
	var nodes []node
	for fi, f := range files {
		for i, fn := range f.funcs {
			if !fn.body {
				continue
			}
			nodes = append(nodes, node{fi, i})
			if fn.name != "" {
				byName[fn.name] = node{fi, i}
			}
		}
	}
	id := map[node]int{}
	for k, n := range nodes {
		id[n] = k
	}
	adj := make([][]int, len(nodes))
	for k, n := range nodes {
		fn := files[n.file].funcs[n.fn]
		for _, j := range fn.local {
			if t, ok := id[node{n.file, j}]; ok {
				adj[k] = append(adj[k], t)
			}
		}
		for _, name := range fn.byName {
			if t, ok := byName[name]; ok {
				adj[k] = append(adj[k], id[t])
			}
		}
	}
	out := make([][]bool, len(files))
	for fi, f := range files {
		out[fi] = make([]bool, len(f.funcs))
	}
	for k, on := range onCycle(adj) {
		if on {
			out[nodes[k].file][nodes[k].fn] = true
		}
	}
	return out
}

// GoPackageRecursion applies the recursion rule across the files of one
// package (same directory, same package clause), given in file-name order
// as AnalyzeGo returned them: a function on a call cycle through other
// files gains its increment, and one whose increment came from a call its
// own file resolved, but the package resolves elsewhere, loses it. It
// returns the change of each function's score (+1, -1 or 0) for each file,
// or nil when nothing changes; it changes nothing itself.
func GoPackageRecursion(calls []*GoCalls) [][]int {
	if len(calls) < 2 {
		return nil
	}
	rec := packageCycles(calls)
	var delta [][]int
	for fi, f := range calls {
		for i, fn := range f.funcs {
			if rec[fi][i] == fn.counted {
				continue
			}
			if delta == nil {
				delta = make([][]int, len(calls))
			}
			if delta[fi] == nil {
				delta[fi] = make([]int, len(f.funcs))
			}
			delta[fi][i] = 1
			if fn.counted {
				delta[fi][i] = -1
			}
		}
	}
	return delta
}

// onCycle marks the nodes on a cycle of a graph (Tarjan's strongly
// connected components, iteratively so that deep call chains cannot
// exhaust the stack): members of a component of two or more, and nodes
// with an edge to themselves.
func onCycle(adj [][]int) []bool {
	n := len(adj)
	index := make([]int, n)
	low := make([]int, n)
	on := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	out := make([]bool, n)
	var stack []int
	next := 0
	type frame struct{ v, edge int }
	for root := range n {
		if index[root] >= 0 {
			continue
		}
		work := []frame{{root, 0}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		on[root] = true
		for len(work) > 0 {
			top := &work[len(work)-1]
			v := top.v
			if top.edge < len(adj[v]) {
				w := adj[v][top.edge]
				top.edge++
				if w == v {
					out[v] = true
				}
				if index[w] < 0 {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					on[w] = true
					work = append(work, frame{w, 0})
				} else if on[w] {
					low[v] = min(low[v], index[w])
				}
				continue
			}
			if low[v] == index[v] {
				size := 0
				for k := len(stack) - 1; ; k-- {
					size++
					if stack[k] == v {
						break
					}
				}
				comp := stack[len(stack)-size:]
				stack = stack[:len(stack)-size]
				for _, w := range comp {
					on[w] = false
					if size > 1 {
						out[w] = true
					}
				}
			}
			work = work[:len(work)-1]
			if len(work) > 0 {
				p := work[len(work)-1].v
				low[p] = min(low[p], low[v])
			}
		}
	}
	return out
}
