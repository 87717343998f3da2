package coverage

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestParseGoCover(t *testing.T) {
	tests := []parseCase{{
		// Checked by hand: x.go lines 3-5 are one block that ran, 5-7 one
		// that did not (line 5 is shared: covered), 10 a block that did not.
		name: "blocks to lines, module path inferred",
		in: "mode: set\n" +
			"example.com/m/a/x.go:3.14,5.3 2 1\n" +
			"example.com/m/a/x.go:5.3,7.3 1 0\n" +
			"example.com/m/a/x.go:10.2,10.20 1 0\n" +
			"example.com/m/b/y.go:1.1,2.2 1 1\n",
		want: []File{
			{Path: "a/x.go", Hits: []int64{-1, -1, 1, 1, 1, 0, 0, -1, -1, 0}},
			{Path: "b/y.go", Hits: []int64{1, 1}},
		},
	}, {
		name: "count mode: duplicate blocks add, overlapping blocks take the max",
		in: "mode: count\n" +
			"m/p/x.go:1.1,2.5 1 2\n" +
			"m/q/z.go:1.1,1.5 1 0\n" +
			"m/p/x.go:2.5,3.2 1 7\n" +
			"m/p/x.go:1.1,2.5 1 3\n",
		want: []File{{Path: "p/x.go", Hits: []int64{5, 7, 7}}, {Path: "q/z.go", Hits: []int64{0}}},
	}, {
		name: "set mode: duplicate blocks ran if they ran anywhere; repeated mode lines",
		in: "mode: set\n" +
			"m/p/x.go:1.1,1.5 1 0\n" +
			"m/q/z.go:1.1,1.5 1 1\n" +
			"mode: set\n" +
			"m/p/x.go:1.1,1.5 1 1\n" +
			"m/p/x.go:1.1,1.5 1 0\n",
		want: []File{{Path: "p/x.go", Hits: []int64{1}}, {Path: "q/z.go", Hits: []int64{1}}},
	}, {
		name: "atomic mode sums and saturates",
		in:   "mode: atomic\nm/p/x.go:1.1,1.5 1 9223372036854775807\nm/p/x.go:1.1,1.5 1 9\nm/q/y.go:1.1,1.2 1 1\n",
		want: []File{{Path: "p/x.go", Hits: []int64{math.MaxInt64}}, {Path: "q/y.go", Hits: []int64{1}}},
	}, {
		name: "a block without statements covers no line",
		in:   "mode: set\nm/p/x.go:3.14,3.15 0 1\nm/p/x.go:5.1,5.9 1 0\nm/q/y.go:1.1,1.2 1 1\n",
		want: []File{{Path: "p/x.go", Hits: []int64{-1, -1, -1, -1, 0}}, {Path: "q/y.go", Hits: []int64{1}}},
	}, {
		name: "a file whose blocks all lack statements",
		in:   "mode: set\nm/p/x.go:3.14,3.15 0 1\nm/q/y.go:1.1,1.2 1 1\n",
		want: []File{{Path: "p/x.go"}, {Path: "q/y.go", Hits: []int64{1}}},
	}, {
		name: "ModulePath given; a path outside it is kept",
		in:   "mode: set\ngithub.com/o/r/cmd/main.go:1.1,1.2 1 1\ngithub.com/o/r/x.go:2.1,2.2 1 0\ngolang.org/x/y/z.go:1.1,1.2 1 1\n",
		opt:  Options{ModulePath: "github.com/o/r/"},
		want: []File{
			{Path: "cmd/main.go", Hits: []int64{1}},
			{Path: "golang.org/x/y/z.go", Hits: []int64{1}},
			{Path: "x.go", Hits: []int64{-1, 0}},
		},
	}, {
		name: "a module in a subdirectory of the repository: AddPrefix",
		in:   "mode: set\ngithub.com/o/r/tools/a/x.go:1.1,1.2 1 1\n",
		opt:  Options{ModulePath: "github.com/o/r/tools", AddPrefix: "tools"},
		want: []File{{Path: "tools/a/x.go", Hits: []int64{1}}},
	}, {
		// The documented limit of inference: one package's profile cannot
		// tell which directory the package is in.
		name: "single package: the inferred module is the package",
		in:   "mode: set\ngithub.com/o/r/metric/a.go:1.1,1.2 1 1\ngithub.com/o/r/metric/b.go:1.1,1.2 1 0\n",
		want: []File{{Path: "a.go", Hits: []int64{1}}, {Path: "b.go", Hits: []int64{0}}},
	}, {
		name: "paths with spaces and colons; CRLF",
		in:   "mode: set\r\nm/dir:x/a b.go:1.1,2.2 1 1\r\nm/c.go:1.1,1.2 1 0\r\n",
		want: []File{{Path: "c.go", Hits: []int64{0}}, {Path: "dir:x/a b.go", Hits: []int64{1, 1}}},
	}, {
		name: "no common directory",
		in:   "mode: set\na.go:1.1,1.2 1 1\nx/b.go:1.1,1.2 1 0\n",
		opt:  Options{StripPrefix: "x"},
		want: []File{{Path: "a.go", Hits: []int64{1}}, {Path: "b.go", Hits: []int64{0}}},
	}, {
		name: "a profile with no blocks",
		in:   "mode: set\n",
	}}
	runParseCases(t, GoCover, tests)
}

func TestParseGoCoverErrors(t *testing.T) {
	tests := []errorCase{
		{"empty", "", 1, "expected the first line to be mode: set, count or atomic, got an empty profile"},
		{"no mode line", "m/a.go:1.1,1.2 1 1\n", 1, "expected the first line to be mode: set, count or atomic"},
		{"bad mode", "mode: often\n", 1, "expected mode: set, count or atomic"},
		{"modes differ", "mode: set\nm/a.go:1.1,1.2 1 1\nmode: count\n", 3, "expected mode: set as on the profile's first line"},
		{"no count", "mode: set\nm/a.go:1.1,1.2 1\n", 2, "expected <file>:<startLine>.<startCol>,<endLine>.<endCol> <numStmts> <count>"},
		{"negative count", "mode: set\nm/a.go:1.1,1.2 1 -1\n", 2, "integer count of at least 0"},
		{"float count", "mode: count\n\nm/a.go:1.1,1.2 1 1.5\n", 3, "integer count of at least 0"},
		{"bad statements", "mode: set\nm/a.go:1.1,1.2 x 1\n", 2, "integer statement count"},
		{"no colon", "mode: set\nm/a.go 1 1\n", 2, "expected <file>:"},
		{"no range", "mode: set\nm/a.go:1.1 1 1\n", 2, "expected <file>:"},
		{"bad position", "mode: set\nm/a.go:1.x,2.2 1 1\n", 2, "integer positions"},
		{"line 0", "mode: set\nm/a.go:0.1,2.2 1 1\n", 2, "1 ≤ startLine ≤ endLine"},
		{"end before start", "mode: set\nm/a.go:5.1,2.2 1 1\n", 2, "1 ≤ startLine ≤ endLine"},
		{"line too large", "mode: set\nm/a.go:1.1,99999999.2 1 1\n", 2, "integer positions (lines 1 to 4194304)"},
		{"no file", "mode: set\n:1.1,2.2 1 1\n", 2, "expected <file>:"},
		{"too long", "mode: set\n" + strings.Repeat("a", goCoverBufSize+1) + "\n", 2, "expected a line shorter than"},
	}
	runErrorCases(t, GoCover, Options{}, tests)
}

// TestGoCoverLinesOverlapping checks the sweep painting (blocks of any
// length and overlap, anywhere up to the highest line) against the plain
// per-line maximum.
func TestGoCoverLinesOverlapping(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 400; round++ {
		n := 1 + rng.IntN(3000)
		if round%40 == 39 {
			n = 1 + rng.IntN(goCoverMaxLine)
		}
		var blocks []goCoverBlock
		for range 1 + rng.IntN(60) {
			a, b := int32(1+rng.IntN(n)), int32(1+rng.IntN(n))
			blocks = append(blocks, goCoverBlock{startLine: min(a, b), endLine: max(a, b), numStmt: 1, count: int64(rng.IntN(4))})
		}
		want := []int64{}
		for _, b := range blocks {
			for int(b.endLine) > len(want) {
				want = append(want, -1)
			}
			for l := b.startLine; l <= b.endLine; l++ {
				want[l-1] = max(want[l-1], b.count)
			}
		}
		// The parser paints a file's blocks in start order.
		slices.SortFunc(blocks, func(a, b goCoverBlock) int {
			return cmp.Or(cmp.Compare(a.startLine, b.startLine), cmp.Compare(a.endLine, b.endLine))
		})
		var p goCoverPainter
		p.reset()
		for _, b := range blocks {
			p.paint(b)
		}
		f := p.file("a.go")
		if got := dense(f).Hits; !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: got %d lines, want %d (%v)", round, len(got), len(want), blocks)
		}
		if painted := countPainted(want); f.Sparse() != (painted*2 < len(want)) {
			t.Errorf("round %d: %d of %d lines painted, sparse %v", round, painted, len(want), f.Sparse())
		}
	}
}

func countPainted(hits []int64) int {
	n := 0
	for _, h := range hits {
		if h >= 0 {
			n++
		}
	}
	return n
}

// TestParseGoCoverHostile: a profile of long overlapping blocks is read in
// time linear in its size and the lines it names.
func TestParseGoCoverHostile(t *testing.T) {
	var b strings.Builder
	b.WriteString("mode: count\n")
	for i := range 20000 {
		fmt.Fprintf(&b, "m/a.go:%d.1,%d.1 1 %d\n", 1+i, 4000000+i, i%5)
	}
	files, err := parseFiles(GoCover, b.String(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if h := files[0].Hits; len(h) != 4019999 || h[0] != 0 || h[5] != 4 || h[len(h)-1] != 4 {
		t.Fatalf("got %d lines, %v…%v", len(h), h[:6], h[len(h)-1])
	}
}

func TestParseGoCoverPathOutsideRepository(t *testing.T) {
	_, err := parseFiles(GoCover, "mode: set\nm/x/a.go:1.1,1.2 1 1\n", Options{ModulePath: "m", StripPrefix: "x/a.go"})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Element != "m/x/a.go" || !strings.Contains(pe.Msg, "inside the repository") {
		t.Fatalf("err = %v, want a ParseError naming m/x/a.go", err)
	}
}

// goCoverTestFunc is one line of `go tool cover -func`.
type goCoverTestFunc struct {
	file    string // import path
	line    int
	name    string
	percent float64
}

func goCoverTestFuncs(t *testing.T, path string) []goCoverTestFunc {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^(\S+\.go):(\d+):\s+(\S+)\s+([0-9.]+)%$`)
	var funcs []goCoverTestFunc
	for _, m := range re.FindAllStringSubmatch(string(data), -1) {
		line, _ := strconv.Atoi(m[2])
		pct, _ := strconv.ParseFloat(m[4], 64)
		funcs = append(funcs, goCoverTestFunc{m[1], line, m[3], pct})
	}
	if len(funcs) == 0 {
		t.Fatalf("%s: no functions", path)
	}
	return funcs
}

// goCoverTestAgainstFunc checks Plumb's lines against `go tool cover -func`:
// the coverable lines from a function's first line up to the next
// function's belong to it (profiles have blocks only inside functions), so
// a function at 100.0% has no missed line there and one at 0.0% no covered
// line.
func goCoverTestAgainstFunc(t *testing.T, files []File, funcs []goCoverTestFunc, module string) {
	t.Helper()
	hits := map[string][]int64{}
	for _, f := range files {
		if _, dup := hits[f.Path]; dup {
			t.Fatalf("%s emitted twice", f.Path)
		}
		hits[f.Path] = f.Hits
	}
	checked := 0
	for i, fn := range funcs {
		p := strings.TrimPrefix(fn.file, module+"/")
		h, ok := hits[p]
		if !ok {
			t.Fatalf("%s: no file %s in %v", fn.name, p, reflect.ValueOf(hits).MapKeys())
		}
		end := len(h)
		if i+1 < len(funcs) && funcs[i+1].file == fn.file {
			end = funcs[i+1].line - 1
		}
		var covered, missed int
		for l := fn.line; l <= end && l <= len(h); l++ {
			switch {
			case h[l-1] > 0:
				covered++
			case h[l-1] == 0:
				missed++
			}
		}
		switch fn.percent {
		case 100:
			if missed != 0 || covered == 0 {
				t.Errorf("%s %s:%d at 100%%: %d covered, %d missed lines", fn.name, p, fn.line, covered, missed)
			}
			checked++
		case 0:
			if covered != 0 {
				t.Errorf("%s %s:%d at 0%%: %d covered lines", fn.name, p, fn.line, covered)
			}
			checked++
		default:
			if missed == 0 {
				t.Errorf("%s %s:%d at %.1f%%: no missed line", fn.name, p, fn.line, fn.percent)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no function at 0% or 100%")
	}
}

// TestGoCoverRealTool: profiles written by `go test -coverprofile` for the
// throwaway module in testdata/go/mod and for Plumb's metric package
// (testdata/go/make.sh), checked against `go tool cover -func` and, for
// count.out, line by line against a hand computation.
func TestGoCoverRealTool(t *testing.T) {
	read := func(name string, opt Options) []File {
		t.Helper()
		return readFixture(t, GoCover, "testdata/go/"+name, opt)
	}
	const fixture = "example.com/plumbfixture"

	// count.out, by hand from the blocks and geom.go's source: lines 5-9
	// (Abs), 13-20 (Clamp; line 17 ends a block that ran and starts the one
	// that did not), 24-32 (Sum; the closure ran 3 times), 39-44 (Unused);
	// closing braces of functions are in no block; Noop (36) has none.
	count := read("count.out", Options{})
	wantGeom := []int64{
		-1, -1, -1, -1, 2, 2, 1, 1, 1, -1, -1, -1, // 1-12
		2, 2, 1, 1, 1, 0, 0, 1, -1, -1, -1, // 13-23
		1, 1, 3, 3, 3, 3, 3, 3, 1, -1, -1, -1, -1, -1, -1, // 24-38
		0, 0, 0, 0, 0, 0, // 39-44
	}
	wantText := []int64{-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1, 1, 1, -1, -1, -1, 1, 1, 1, -1, -1, 0, 0, 0, 0, 0}
	if want := []File{{Path: "geom/geom.go", Hits: wantGeom}, {Path: "text/text.go", Hits: wantText}}; !reflect.DeepEqual(count, want) {
		t.Fatalf("count.out:\ngot  %v\nwant %v", count, want)
	}
	goCoverTestAgainstFunc(t, count, goCoverTestFuncs(t, "testdata/go/count.func.txt"), fixture)
	if c, m, _ := lineCounts(count); c != 26 || m != 13 {
		t.Fatalf("count.out: %d covered, %d missed lines, want 26, 13", c, m)
	}

	// coverpkg.out repeats every block once per test binary; merged, the
	// same lines are covered as in count.out.
	coverpkg := read("coverpkg.out", Options{ModulePath: fixture})
	goCoverTestAgainstFunc(t, coverpkg, goCoverTestFuncs(t, "testdata/go/coverpkg.func.txt"), fixture)
	for i := range coverpkg {
		for l, h := range coverpkg[i].Hits {
			if (h > 0) != (count[i].Hits[l] > 0) || (h < 0) != (count[i].Hits[l] < 0) {
				t.Fatalf("%s:%d: coverpkg.out %d, count.out %d", coverpkg[i].Path, l+1, h, count[i].Hits[l])
			}
		}
	}

	// Plumb's own metric package: one package, so the module path must be
	// given to get repository paths.
	metric := read("metric.out", Options{ModulePath: "github.com/plumbhq/plumb"})
	goCoverTestAgainstFunc(t, metric, goCoverTestFuncs(t, "testdata/go/metric.func.txt"), "github.com/plumbhq/plumb")
	for _, f := range metric {
		if !strings.HasPrefix(f.Path, "metric/") {
			t.Fatalf("path %s, want metric/…", f.Path)
		}
	}
	inferred := read("metric.out", Options{})
	if inferred[0].Path != strings.TrimPrefix(metric[0].Path, "metric/") {
		t.Fatalf("inferred path %s, want %s without metric/", inferred[0].Path, metric[0].Path)
	}
}

func FuzzGoCover(f *testing.F) {
	for _, name := range []string{"count.out", "coverpkg.out"} {
		if data, err := os.ReadFile("testdata/go/" + name); err == nil {
			f.Add(string(data), "")
		}
	}
	f.Add("mode: set\nm/a.go:1.1,3.2 1 1\nm/a.go:3.2,4.1 0 0\nm/b/c.go:2.1,2.9 2 5\n", "m")
	f.Add("mode: count\r\na.go:1.1,1.1 1 1\nmode: count\n/abs/b.go:4194304.1,4194304.2 1 0\n", "")
	f.Fuzz(func(t *testing.T, input, module string) {
		if lcovTestBigNumber.MatchString(input) {
			t.Skip("line numbers above 99999 allocate up to 32 MiB per file and slow the fuzzer ten-fold; the unit tests cover the limits")
		}
		var files []File
		seen := map[string]bool{}
		err := Parse(strings.NewReader(input), GoCover, Options{ModulePath: module}, func(file File) error {
			file = dense(file)
			if seen[file.Path] {
				t.Fatalf("%s emitted twice", file.Path)
			}
			seen[file.Path] = true
			files = append(files, file)
			return nil
		})
		checkFiles(t, files)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || (pe.Line < 1 && pe.Element == "") || pe.Msg == "" {
				t.Fatalf("err %v: want a *ParseError with a line or element and a message", err)
			}
		}
	})
}
