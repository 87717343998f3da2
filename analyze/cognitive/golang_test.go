package cognitive

import (
	"fmt"
	"os"
	"testing"
)

// The Go scorer is compared with gocognit in package analyze
// (gocognit_test.go), through the whole analysis: the fixtures of
// testdata/go against a golden file, the standard library against
// gocognit itself.

func TestGoPackageRecursion(t *testing.T) {
	a := []byte("package p\n\nfunc Even(n int) bool {\n\tif n == 0 {\n\t\treturn true\n\t}\n\treturn Odd(n - 1)\n}\n")
	b := []byte("package p\n\nfunc Odd(n int) bool {\n\tif n == 0 {\n\t\treturn false\n\t}\n\treturn Even(n - 1)\n}\n\nfunc f() { f() }\n")
	fa, ca, err := AnalyzeGo(a)
	if err != nil {
		t.Fatal(err)
	}
	fb, cb, err := AnalyzeGo(b)
	if err != nil {
		t.Fatal(err)
	}
	if fa[0].Complexity != 1 || fb[0].Complexity != 1 || fb[1].Complexity != 1 {
		t.Fatalf("file by file: %+v %+v", fa, fb)
	}
	d := GoPackageRecursion([]*GoCalls{ca, cb})
	if fmt.Sprint(d) != "[[1] [1 0]]" {
		t.Errorf("changes as a package: %v", d)
	}
	if d := GoPackageRecursion([]*GoCalls{ca}); d != nil {
		t.Errorf("one file: %v", d)
	}
}

// FuzzGoScorer: any input either fails to parse or scores without
// panicking, with sane figures.
func FuzzGoScorer(f *testing.F) {
	for _, p := range []string{"testdata/go/constructs.go", "testdata/go/pkgrec/tree.go"} {
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		fns, calls, err := AnalyzeGo(src)
		if err != nil {
			return
		}
		if len(calls.funcs) != len(fns) {
			t.Fatalf("%d functions, %d call lists", len(fns), len(calls.funcs))
		}
		for _, fn := range fns {
			if fn.Complexity < 0 || fn.EndLine < fn.Line || fn.Params < 0 || fn.Nesting < 0 {
				t.Fatalf("%+v", fn)
			}
		}
		for _, d := range GoPackageRecursion([]*GoCalls{calls, calls}) {
			for i, n := range d {
				if fns[i].Complexity+n < 0 {
					t.Fatalf("%s: score %d%+d", fns[i].Name, fns[i].Complexity, n)
				}
			}
		}
	})
}
