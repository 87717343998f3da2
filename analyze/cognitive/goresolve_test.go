package cognitive

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// parserCallGraph is the call graph as go/parser's object resolution
// gives it (ident.Obj), the way goCallGraph built it before callResolver:
// the reference callResolver must equal.
func parserCallGraph(t *testing.T, src []byte) (*GoCalls, bool) {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, 0)
	if err != nil {
		return nil, false
	}
	var decls []*ast.FuncDecl
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok {
			decls = append(decls, fn)
		}
	}
	index := map[*ast.FuncDecl]int{}
	for i, fn := range decls {
		index[fn] = i
	}
	g := &GoCalls{Package: f.Name.Name, funcs: make([]goFunc, len(decls))}
	for i, fn := range decls {
		gf := &g.funcs[i]
		gf.body = fn.Body != nil
		if fn.Recv == nil {
			gf.name = fn.Name.Name
		}
		if fn.Body == nil {
			continue
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if x, ok := callee(call.Fun).(*ast.Ident); ok {
				if x.Obj == nil {
					gf.byName = append(gf.byName, x.Name)
				} else if d, ok := x.Obj.Decl.(*ast.FuncDecl); ok && d.Body != nil {
					gf.local = append(gf.local, index[d])
				}
			}
			if selfCall(call.Fun, fn) {
				gf.local = append(gf.local, i)
			}
			return true
		})
	}
	return g, true
}

func sortedCalls(g *GoCalls) *GoCalls {
	for i := range g.funcs {
		slices.Sort(g.funcs[i].local)
		slices.Sort(g.funcs[i].byName)
	}
	return g
}

func checkCallGraph(t *testing.T, name string, src []byte) bool {
	t.Helper()
	want, ok := parserCallGraph(t, src)
	if !ok {
		return false
	}
	_, got, err := goFunctions(src)
	if err != nil {
		t.Errorf("%s: parses with object resolution, not without: %v", name, err)
		return true
	}
	for i := range got.funcs {
		got.funcs[i].counted = false
	}
	if g, w := sortedCalls(got), sortedCalls(want); !reflect.DeepEqual(g, w) {
		for i := range g.funcs {
			if !reflect.DeepEqual(g.funcs[i], w.funcs[i]) {
				t.Errorf("%s: function %d: calls %+v, go/parser's resolution gives %+v", name, i, g.funcs[i], w.funcs[i])
				break
			}
		}
	}
	return true
}

// Scoping cases of go/parser's resolver, each a way a call by name can
// resolve differently: shadowing by every kind of local declaration, the
// end of each scope, the right-hand side before a :=, receiver type
// parameters (never set as objects), the first of duplicate package
// names, init and blank names, a generic local type's scope that the
// resolver closes only at the end of its declaration.
var resolveCases = []string{
	`package p
func f() { f(); g() }
func g() { f := 1; _ = f; f() }
func h(f int) { f() }
func i() { if f := 1; true { f() }; f() }
func j() { for f := range 3 { f() }; f() }
func k() { switch f := 1; f { case 1: f() }; f() }
func l() { switch f := x.(type) { case int: f() }; f() }
func m() { f := f(); f() }
func n() { var f = f(); f() }
func o() { type f int; f(1) }
func q() { func() { f := 1; f() }(); f() }
func r() { select { case f := <-c: f() }; f() }
func s() { { f := 1; _ = f }; f() }
func t() { var _ = f; _(); u() }
func init() { init(); f() }
`,
	`package p
type T[P any] struct{}
func (T[P]) M() { P(); M(); f() }
func (t T[P]) N() { t.N(); (t).N(); t.M() }
func f() { type ( A[X any] int; B int ); B(1); A[int](1); f() }
var g = 1
func g() { g() }
func h() { h() }
var h = 2
func F[T any]() { T(); F[int]() }
func k() { x := struct{ k int }{k: k()}; _ = x; var y interface{ k() }; _ = y; k() }
func l() { for i := 0; i < 3; i++ { l := i; _ = l }; l() }
func m() { var f func(m int) = nil; _ = f; m() }
`,
}

func TestGoCallsMatchParserResolution(t *testing.T) {
	for i, c := range resolveCases {
		if !checkCallGraph(t, "case "+string(rune('0'+i)), []byte(c)) {
			t.Errorf("case %d does not parse", i)
		}
	}
	// the Go tree of the toolchain running the tests: every file that parses
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	root := filepath.Join(strings.TrimSpace(string(out)), "src")
	n := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		if testing.Short() && n >= 1500 {
			return filepath.SkipAll
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if checkCallGraph(t, p, src) {
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 1000 {
		t.Errorf("only %d Go files compared under %s", n, root)
	}
	t.Logf("%d files of %s compared", n, root)
}
