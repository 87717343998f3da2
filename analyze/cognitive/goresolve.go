package cognitive

import (
	"go/ast"
	"go/token"
)

// The recursion rule needs to know, for each call by plain name, what the
// name denotes: gocognit reads go/parser's object resolution (ident.Obj).
// Resolving every identifier of a file costs about a quarter of parsing it
// (an object and a map per scope), and the rule looks at the names of
// calls only, so the file is parsed with parser.SkipObjectResolution and
// callResolver below reproduces go/parser's resolver (go/parser/resolver.go)
// for those names alone: the same scopes opened and closed in the same
// places, the same declarations in the same order, a name looked up where
// the resolver looks it up. TestGoCallsMatchParserResolution holds it
// equal to the parser's resolution on the Go tree the tests run on.

// callKind is what a call's name resolves to.
type callKind int

const (
	callOther  callKind = iota // a local name, or a package-level one that is no function with a body
	callLocal                  // a function declared (with a body) in this file
	callByName                 // not resolved in the file: the package's function of that name, if any
)

// callResolver walks a file as go/parser's resolver does, keeping only
// the names in scope, and hands each call it meets inside a function body
// to onCall.
type callResolver struct {
	pkg    map[string]*ast.FuncDecl // the first package-level declaration of each name: nil for a non-function
	names  []localName              // the local names in scope, innermost last
	scopes []int                    // len(names) when each open scope began
	inBody bool
	onCall func(call *ast.CallExpr, kind callKind, local *ast.FuncDecl, name string)
}

type localName struct {
	name string
	// a receiver's type parameter: go/parser writes it to the scope but
	// never sets it as the object of the names that refer to it, so a
	// call by that name is left unresolved
	recvTypeParam bool
}

func newCallResolver(f *ast.File) *callResolver {
	r := &callResolver{pkg: map[string]*ast.FuncDecl{}}
	first := func(name string, d *ast.FuncDecl) {
		if name == "_" {
			return
		}
		if _, ok := r.pkg[name]; !ok {
			r.pkg[name] = d
		}
	}
	// go/parser inserts package-level names in declaration order (a
	// function's after its body) and an insertion never replaces: the
	// first declaration of a name is the one every lookup finds
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					if d.Tok == token.CONST || d.Tok == token.VAR {
						for _, n := range s.Names {
							first(n.Name, nil)
						}
					}
				case *ast.TypeSpec:
					if d.Tok == token.TYPE {
						first(s.Name.Name, nil)
					}
				}
			}
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name != "init" {
				first(d.Name.Name, d)
			}
		}
	}
	return r
}

func (r *callResolver) open() { r.scopes = append(r.scopes, len(r.names)) }

func (r *callResolver) close() {
	r.names = r.names[:r.scopes[len(r.scopes)-1]]
	r.scopes = r.scopes[:len(r.scopes)-1]
}

func (r *callResolver) declare(ids ...*ast.Ident) {
	for _, id := range ids {
		if id.Name != "_" {
			r.names = append(r.names, localName{name: id.Name})
		}
	}
}

// resolve says what a call by the name denotes where the walk is.
func (r *callResolver) resolve(name string) (callKind, *ast.FuncDecl) {
	if name == "_" {
		return callByName, nil
	}
	for i := len(r.names) - 1; i >= 0; i-- {
		if r.names[i].name == name {
			if r.names[i].recvTypeParam {
				return callByName, nil
			}
			return callOther, nil
		}
	}
	d, ok := r.pkg[name]
	switch {
	case !ok:
		return callByName, nil
	case d != nil && d.Body != nil:
		return callLocal, d
	}
	return callOther, nil
}

// funcDecl walks one function declaration as the resolver does, its
// body's calls going to onCall.
func (r *callResolver) funcDecl(n *ast.FuncDecl) {
	r.open()
	r.recv(n.Recv)
	if n.Type.TypeParams != nil {
		r.typeParams(n.Type.TypeParams)
	}
	r.walkTypes(n.Type.Params)
	r.walkTypes(n.Type.Results)
	r.declareFields(n.Recv)
	r.declareFields(n.Type.Params)
	r.declareFields(n.Type.Results)
	if n.Body != nil {
		r.inBody = true
		r.stmts(n.Body.List)
		r.inBody = false
	}
	r.close()
}

func (r *callResolver) recv(recv *ast.FieldList) {
	if recv == nil || len(recv.List) == 0 {
		return
	}
	typ := recv.List[0].Type
	if p, ok := typ.(*ast.StarExpr); ok {
		typ = p.X
	}
	var params []ast.Expr
	switch t := typ.(type) {
	case *ast.IndexExpr:
		params, typ = []ast.Expr{t.Index}, t.X
	case *ast.IndexListExpr:
		params, typ = t.Indices, t.X
	}
	resolve := []ast.Expr{typ}
	for _, e := range params {
		if id, ok := e.(*ast.Ident); ok {
			if id.Name != "_" {
				r.names = append(r.names, localName{name: id.Name, recvTypeParam: true})
			}
		} else {
			resolve = append(resolve, e)
		}
	}
	for _, e := range resolve {
		if e != nil {
			r.walk(e)
		}
	}
	for _, f := range recv.List[1:] {
		if f.Type != nil {
			r.walk(f.Type)
		}
	}
}

func (r *callResolver) walkTypes(list *ast.FieldList) {
	if list == nil {
		return
	}
	for _, f := range list.List {
		if f.Type != nil {
			r.walk(f.Type)
		}
	}
}

func (r *callResolver) declareFields(list *ast.FieldList) {
	if list == nil {
		return
	}
	for _, f := range list.List {
		r.declare(f.Names...)
	}
}

// typeParams declares type parameters before their constraints.
func (r *callResolver) typeParams(list *ast.FieldList) {
	r.declareFields(list)
	r.walkTypes(list)
}

func (r *callResolver) walk(n ast.Node) { ast.Walk(r, n) }

func (r *callResolver) exprs(list []ast.Expr) {
	for _, e := range list {
		ast.Walk(r, e)
	}
}

func (r *callResolver) stmts(list []ast.Stmt) {
	for _, s := range list {
		ast.Walk(r, s)
	}
}

// Visit follows go/parser's resolver node by node.
func (r *callResolver) Visit(node ast.Node) ast.Visitor {
	switch n := node.(type) {
	case *ast.CallExpr:
		if r.inBody {
			r.call(n)
		}
		return r
	case *ast.FuncLit:
		r.open()
		r.funcType(n.Type)
		if n.Body != nil {
			r.stmts(n.Body.List)
		}
		r.close()
	case *ast.SelectorExpr:
		r.walk(n.X)
	case *ast.StructType:
		r.open()
		r.walkTypes(n.Fields)
		r.declareFields(n.Fields)
		r.close()
	case *ast.FuncType:
		r.open()
		r.funcType(n)
		r.close()
	case *ast.CompositeLit:
		if n.Type != nil {
			r.walk(n.Type)
		}
		for _, e := range n.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				if _, ok := kv.Key.(*ast.Ident); !ok {
					r.walk(kv.Key)
				}
				r.walk(kv.Value)
			} else {
				r.walk(e)
			}
		}
	case *ast.InterfaceType:
		r.open()
		r.walkTypes(n.Methods)
		r.declareFields(n.Methods)
		r.close()
	case *ast.LabeledStmt:
		r.walk(n.Stmt)
	case *ast.AssignStmt:
		r.exprs(n.Rhs)
		if n.Tok == token.DEFINE {
			r.shortVarDecl(n.Lhs)
		} else {
			r.exprs(n.Lhs)
		}
	case *ast.BranchStmt:
	case *ast.BlockStmt:
		r.open()
		r.stmts(n.List)
		r.close()
	case *ast.IfStmt:
		r.open()
		if n.Init != nil {
			r.walk(n.Init)
		}
		r.walk(n.Cond)
		r.walk(n.Body)
		if n.Else != nil {
			r.walk(n.Else)
		}
		r.close()
	case *ast.CaseClause:
		r.exprs(n.List)
		r.open()
		r.stmts(n.Body)
		r.close()
	case *ast.SwitchStmt:
		r.open()
		if n.Init != nil {
			r.walk(n.Init)
		}
		if n.Tag != nil {
			if n.Init != nil { // the resolver's extra scope, kept to the end
				r.open()
				defer r.close()
			}
			r.walk(n.Tag)
		}
		if n.Body != nil {
			r.stmts(n.Body.List)
		}
		defer r.close()
	case *ast.TypeSwitchStmt:
		if n.Init != nil {
			r.open()
			defer r.close()
			r.walk(n.Init)
		}
		r.open()
		defer r.close()
		r.walk(n.Assign)
		if n.Body != nil {
			r.stmts(n.Body.List)
		}
	case *ast.CommClause:
		r.open()
		if n.Comm != nil {
			r.walk(n.Comm)
		}
		r.stmts(n.Body)
		r.close()
	case *ast.SelectStmt:
		if n.Body != nil {
			r.stmts(n.Body.List)
		}
	case *ast.ForStmt:
		r.open()
		if n.Init != nil {
			r.walk(n.Init)
		}
		if n.Cond != nil {
			r.walk(n.Cond)
		}
		if n.Post != nil {
			r.walk(n.Post)
		}
		r.walk(n.Body)
		r.close()
	case *ast.RangeStmt:
		r.open()
		r.walk(n.X)
		var lhs []ast.Expr
		if n.Key != nil {
			lhs = append(lhs, n.Key)
		}
		if n.Value != nil {
			lhs = append(lhs, n.Value)
		}
		if n.Tok == token.DEFINE {
			for _, e := range lhs {
				if _, ok := ast.Unparen(e).(*ast.Ident); !ok && e != nil {
					r.walk(e)
				}
			}
			r.shortVarDecl(lhs)
		} else {
			r.exprs(lhs)
		}
		r.walk(n.Body)
		r.close()
	case *ast.GenDecl:
		r.genDecl(n)
	case *ast.FuncDecl: // not reached: funcDecl walks declarations
	default:
		return r
	}
	return nil
}

func (r *callResolver) funcType(t *ast.FuncType) {
	r.walkTypes(t.Params)
	r.walkTypes(t.Results)
	r.declareFields(t.Params)
	r.declareFields(t.Results)
}

func (r *callResolver) shortVarDecl(lhs []ast.Expr) {
	for _, e := range lhs {
		if id, ok := e.(*ast.Ident); ok {
			r.declare(id)
		}
	}
}

func (r *callResolver) genDecl(n *ast.GenDecl) {
	switch n.Tok {
	case token.CONST, token.VAR:
		for _, s := range n.Specs {
			s := s.(*ast.ValueSpec)
			r.exprs(s.Values)
			if s.Type != nil {
				r.walk(s.Type)
			}
			r.declare(s.Names...)
		}
	case token.TYPE:
		opened := 0 // the resolver closes a generic type's scope at the end of the whole declaration
		for _, s := range n.Specs {
			s := s.(*ast.TypeSpec)
			r.declare(s.Name)
			if s.TypeParams != nil {
				r.open()
				opened++
				r.typeParams(s.TypeParams)
			}
			r.walk(s.Type)
		}
		for range opened {
			r.close()
		}
	}
}

// callee is a call's function through parentheses and type arguments,
// as gocognit reads it.
func callee(e ast.Expr) ast.Expr {
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		default:
			return e
		}
	}
}

// call resolves a call by plain name.
func (r *callResolver) call(c *ast.CallExpr) {
	if id, ok := callee(c.Fun).(*ast.Ident); ok {
		kind, d := r.resolve(id.Name)
		r.onCall(c, kind, d, id.Name)
		return
	}
	r.onCall(c, callOther, nil, "")
}
