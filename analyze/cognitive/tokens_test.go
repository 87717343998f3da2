package cognitive

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb/analyze/lang"
	"github.com/plumbhq/plumb/analyze/token"
)

// expectRE reads the hand scores written in the fixtures:
// "cognitive: NAME SCORE" (and optionally "params N nesting N").
var expectRE = regexp.MustCompile(`cognitive: (\S+) (\d+)(?: params (\d+))?(?: nesting (\d+))?`)

// TestTokenFixtures checks the token-based scorer against one hand-scored
// fixture per language (testdata/tokens), each using every construct of
// the definition the language has: if, else if, else, the conditional
// operator; switch (match, when, case); for, foreach, while, do-while
// (repeat, until, loop); catch (except, rescue); goto, break and continue
// to a label or by a number; runs of like logical operators; recursion;
// nesting in lambdas, closures and nested functions; and what is left
// out (null-coalescing, optional chaining, finally, plain break and
// continue, comprehension conditions, match guards, markup in JSX).
func TestTokenFixtures(t *testing.T) {
	files, _ := filepath.Glob("testdata/tokens/*")
	seen := checkFixtures(t, files, 5)
	for _, n := range []string{"Python", "JavaScript", "JSX", "TypeScript", "Java", "Kotlin", "C", "C++", "C#", "Ruby", "PHP", "Rust", "Swift", "Scala", "Bourne Shell"} {
		if !seen[n] {
			t.Errorf("no fixture for %s", n)
		}
	}
	// cloc counts .tsx as TypeScript: TSX has a fixture of its own
	if _, err := os.Stat("testdata/tokens/fixture.tsx"); err != nil {
		t.Error("no fixture for TSX")
	}
}

// TestClassFixtures checks the fixtures of testdata/classes, one file per
// class of construct and language (CLASS.EXT), each hand-scored from the
// definition's text with a comment naming the rule: keywords used as
// names (names.*), conditionals inside string interpolation (interp.*),
// nested conditional expressions (ternary.*), type-level syntax
// (types.*), functions with an expression body (exprbody.*), where a run
// of logical operators ends (runs.*), and the choices where the references
// differ (choices.*).
func TestClassFixtures(t *testing.T) {
	files, _ := filepath.Glob("testdata/classes/*")
	checkFixtures(t, files, 1)
	classes := map[string]map[string]bool{}
	for _, p := range files {
		base := filepath.Base(p)
		c := strings.ToLower(strings.SplitN(base, ".", 2)[0])
		if classes[c] == nil {
			classes[c] = map[string]bool{}
		}
		classes[c][lang.Detect(base, nil).Name] = true
	}
	want := map[string][]string{
		"names":    {"JavaScript", "JSX", "TypeScript", "Java", "Kotlin", "C", "C++", "C#", "Ruby", "PHP", "Rust", "Swift", "Scala", "Python", "Bourne Shell"},
		"interp":   {"JavaScript", "TypeScript", "Python", "Kotlin", "Swift", "Ruby", "C#", "Scala", "Bourne Shell", "PHP"},
		"ternary":  {"JavaScript", "TypeScript", "Java", "C", "C++", "C#", "PHP", "Swift", "Python", "Ruby"},
		"types":    {"TypeScript", "Java", "C#", "Swift", "PHP", "C++", "Rust", "Kotlin", "Scala", "Python"},
		"exprbody": {"Kotlin", "Scala", "Ruby"},
		"runs":     {"JavaScript", "TypeScript", "Java", "C", "PHP"},
	}
	for c, langs := range want {
		for _, l := range langs {
			if !classes[c][l] {
				t.Errorf("no %s fixture in %s", c, l)
			}
		}
	}
}

// checkFixtures scores each file and compares every function with the
// hand scores written in it ("cognitive: NAME SCORE"); it returns the
// languages seen.
func checkFixtures(t *testing.T, files []string, minScored int) map[string]bool {
	t.Helper()
	seen := map[string]bool{}
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		l := lang.Detect(filepath.Base(p), src)
		if l == nil {
			t.Errorf("%s: no language", p)
			continue
		}
		seen[l.Name] = true
		fns, err := Analyze(l.Name, src)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]Function{}
		for _, f := range fns {
			got[f.Name] = f
		}
		exps := expectRE.FindAllStringSubmatch(string(src), -1)
		if len(exps) < minScored {
			t.Errorf("%s: only %d scored functions", p, len(exps))
		}
		if len(fns) != len(exps) {
			t.Errorf("%s: %d functions found, %d scored: %+v", p, len(fns), len(exps), fns)
		}
		for _, e := range exps {
			f, ok := got[e[1]]
			want, _ := strconv.Atoi(e[2])
			if !ok {
				t.Errorf("%s: function %s not found", p, e[1])
				continue
			}
			if f.Complexity != want {
				t.Errorf("%s: %s scores %d, hand score %d", p, e[1], f.Complexity, want)
			}
			if e[3] != "" {
				if n, _ := strconv.Atoi(e[3]); n != f.Params {
					t.Errorf("%s: %s has %d parameters, want %d", p, e[1], f.Params, n)
				}
			}
			if e[4] != "" {
				if n, _ := strconv.Atoi(e[4]); n != f.Nesting {
					t.Errorf("%s: %s nests %d, want %d", p, e[1], f.Nesting, n)
				}
			}
		}
	}
	return seen
}

// FuzzTokenScorers: no input makes a lexer or scorer panic, and every
// function found has sane figures.
func FuzzTokenScorers(f *testing.F) {
	files, _ := filepath.Glob("testdata/tokens/*")
	more, _ := filepath.Glob("testdata/classes/*")
	for _, p := range append(files, more...) {
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for name := range token.Syntaxes {
			if name == "Go" {
				continue // go/parser is not ours to fuzz
			}
			done := make(chan bool)
			var fns []Function
			go func() { fns, _ = Analyze(name, src); close(done) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				os.WriteFile("/tmp/hang-"+strings.ReplaceAll(name, " ", "_"), src, 0o644)
				panic("hang " + name)
			}
			for _, fn := range fns {
				if fn.Complexity < 0 || fn.EndLine < fn.Line && fn.EndLine != 0 || fn.Params < 0 {
					t.Fatalf("%s: %+v", name, fn)
				}
			}
		}
	})
}

// TestSonarJSMode checks the scorer's sonarjs mode against the scores
// eslint-plugin-sonarjs 4.2.2 reported for these functions (threshold 0,
// eslint 10.15.0): a function's own score without its nested functions'
// (each is reported apart), no || runs, no recursion, and one nesting
// level left open after a function that is a branch of a conditional
// expression.
func TestSonarJSMode(t *testing.T) {
	src := `function outer(a) {
  if (a) { return 1; }
  return xs.map(function (x) {
    if (x) { return 2; }
    return 3;
  });
}
function rec(n) {
  if (n && n.x) { return rec(n - 1); }
  return a || b || c;
}
function th(e, scheduler) {
  const f = isFunction(e) ? e : () => e;
  return new Observable(scheduler ? (s) => scheduler.schedule(s) : init);
}
function tw(a, b) {
  const x = a ? function () { return 1; } : 2;
  const y = b ? async (v) => v : 2;
  if (a) {}
}
`
	want := map[string]int{"outer": 1, "rec": 2, "th": 3, "tw": 6}
	SonarJS = true
	fns, _ := Analyze("JavaScript", []byte(src))
	SonarJS = false
	if len(fns) != len(want) {
		t.Fatalf("%d functions, want %d: %+v", len(fns), len(want), fns)
	}
	for _, f := range fns {
		if f.Complexity != want[f.Name] {
			t.Errorf("%s: %d in sonarjs mode, sonarjs %d", f.Name, f.Complexity, want[f.Name])
		}
	}
	// a JSX container of one run is markup; in {a || b && <C/>} sonarjs
	// counts the && run only
	jsx := "function Panel({a, b}) {\n  return (<div>{a && <A/>}{a || b && <C/>}</div>);\n}\n"
	SonarJS = true
	fns, _ = Analyze("JSX", []byte(jsx))
	SonarJS = false
	if len(fns) != 1 || fns[0].Complexity != 1 {
		t.Errorf("JSX in sonarjs mode: %+v, sonarjs 1", fns)
	}
	// the same functions by the definition: nested functions count with
	// their nesting, || runs and recursion count, no nesting left open
	fns, _ = Analyze("JavaScript", []byte(src))
	own := map[string]int{"outer": 3, "rec": 4, "th": 2, "tw": 3}
	for _, f := range fns {
		if f.Complexity != own[f.Name] {
			t.Errorf("%s: %d, hand score %d", f.Name, f.Complexity, own[f.Name])
		}
	}
}
