package dup

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/plumbhq/plumb/analyze/token"
)

func jsFunc(name, v string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "function %s(a, b) {\n", name)
	for i := range 8 {
		fmt.Fprintf(&b, "  const %s%d = a + b * %d;\n", v, i, i)
	}
	b.WriteString("  return a;\n}\n")
	return b.String()
}

func TestDetect(t *testing.T) {
	a := "// header\n" + jsFunc("f", "x")
	b := "let z = 1;\n\n" + jsFunc("g", "y") // renamed: a clone only once normalised
	c := jsFunc("f", "x")                    // an exact copy of a's function
	for _, tc := range []struct {
		normalise bool
		groupC    int
		clones    int
		lines     []int
	}{
		{true, 0, 2, []int{11, 11, 11}},
		{false, 0, 1, []int{11, 0, 11}},
		{false, 1, 0, []int{0, 0, 0}}, // c in another language
	} {
		docs := []Doc{
			{Index: 0, Path: "a.js", Tokens: Tokenize("JavaScript", []byte(a), tc.normalise)},
			{Index: 1, Path: "b.js", Tokens: Tokenize("JavaScript", []byte(b), tc.normalise)},
			{Index: 2, Path: "c.js", Group: tc.groupC, Tokens: Tokenize("JavaScript", []byte(c), tc.normalise)},
		}
		clones, lines := Detect(docs, Options{MinTokens: 50, MinLines: 5})
		if len(clones) != tc.clones || fmt.Sprint(lines) != fmt.Sprint(tc.lines) {
			t.Errorf("normalise %v group %d: %d clones %+v, lines %v; want %d, %v", tc.normalise, tc.groupC, len(clones), clones, lines, tc.clones, tc.lines)
		}
	}
	// the earlier copy is not the first file
	docs := []Doc{
		{Index: 0, Path: "x.js", Tokens: Tokenize("JavaScript", []byte("let unrelated = 1;\n"), true)},
		{Index: 1, Path: "a.js", Tokens: Tokenize("JavaScript", []byte(a), true)},
		{Index: 2, Path: "c.js", Tokens: Tokenize("JavaScript", []byte(c), true)},
	}
	clones, lines := Detect(docs, Options{MinTokens: 50, MinLines: 5})
	if len(clones) != 1 || clones[0].A.Path != "a.js" || clones[0].B.Path != "c.js" || fmt.Sprint(lines) != "[0 11 11]" {
		t.Errorf("clones %+v, lines %v", clones, lines)
	}
	// too short: 50 tokens needed
	docs = []Doc{{Path: "a", Tokens: Tokenize("JavaScript", []byte("f(a, b);\ng(c);\n"), true)}, {Path: "b", Tokens: Tokenize("JavaScript", []byte("f(a, b);\ng(c);\n"), true)}}
	if clones, _ := Detect(docs, Options{MinTokens: 50, MinLines: 1}); len(clones) != 0 {
		t.Errorf("short runs are clones: %+v", clones)
	}
}

func TestRepeatsInOneFile(t *testing.T) {
	src := jsFunc("f", "x") + jsFunc("f", "x") + jsFunc("f", "x")
	clones, lines := Detect([]Doc{{Path: "a.js", Tokens: Tokenize("JavaScript", []byte(src), true)}}, Options{MinTokens: 50, MinLines: 5})
	if len(clones) == 0 || lines[0] != 33 {
		t.Errorf("clones %+v lines %v", clones, lines)
	}
	for _, c := range clones {
		if c.A.EndLine >= c.B.StartLine && c.A.Path == c.B.Path {
			t.Errorf("overlapping copies %+v", c)
		}
	}
}

// FuzzDetect: clone detection over documents cut from any input never
// panics, finds what the docs read one by one find (with one worker or
// three), reports clones inside their documents, and never counts more
// duplicated lines than a document spans.
func FuzzDetect(f *testing.F) {
	f.Add([]byte(jsFunc("f", "x")+jsFunc("g", "y")), uint8(3), uint8(10))
	f.Add([]byte(strings.Repeat("a = b + c;\n", 40)), uint8(2), uint8(4))
	f.Add([]byte(strings.Repeat("x = `a ${b ? `c${d}` : e.catch} f`;\n", 30)), uint8(2), uint8(8)) // templates, keyword-named members
	f.Fuzz(func(t *testing.T, src []byte, parts, minTokens uint8) {
		n := int(parts%5) + 1
		var docs []Doc
		for i := range n {
			chunk := src[i*len(src)/n : (i+1)*len(src)/n]
			docs = append(docs, Doc{Index: i, Path: fmt.Sprint(i), Group: i % 2, Tokens: Tokenize("JavaScript", chunk, i%3 != 0)})
		}
		clones, lines := Detect(docs, Options{MinTokens: int(minTokens), MinLines: 1})
		if want, wantLines := detectOneByOne(docs, Options{MinTokens: int(minTokens), MinLines: 1}); fmt.Sprint(clones, lines) != fmt.Sprint(want, wantLines) {
			t.Fatalf("Detect: %v %v; the docs one by one: %v %v", clones, lines, want, wantLines)
		}
		if par, parLines := DetectGroups(docs, Options{MinTokens: int(minTokens), MinLines: 1}, 3); fmt.Sprint(par, parLines) != fmt.Sprint(clones, lines) {
			t.Fatalf("3 workers: %v %v; one: %v %v", par, parLines, clones, lines)
		}
		for _, c := range clones {
			if c.A.StartLine > c.A.EndLine || c.B.StartLine > c.B.EndLine || c.Tokens < int(max(minTokens, 2)) {
				t.Fatalf("clone %+v", c)
			}
		}
		for i, d := range docs {
			span := 0
			if d.Tokens.Len() > 0 {
				span = int(d.Tokens.reach(0, d.Tokens.Len()))
			}
			if lines[i] < 0 || lines[i] > span {
				t.Fatalf("doc %d: %d duplicated lines of %d", i, lines[i], span)
			}
		}
	})
}

// TestTemplateLiterals: tests that differ only in their template
// literals' text (inline snapshots) are no clones, normalised or not; the
// code inside ${…} is compared as code.
func TestTemplateLiterals(t *testing.T) {
	test := func(name, snap, sub string) string {
		var b strings.Builder
		fmt.Fprintf(&b, "it(%q, () => {\n", name)
		for i := range 6 {
			fmt.Fprintf(&b, "  expect(render(%d)).toMatchInlineSnapshot(`\n    <div>%s %d ${%s}</div>\n  `);\n", i, snap, i, sub)
		}
		b.WriteString("});\n")
		return b.String()
	}
	for _, tc := range []struct {
		a, b   string
		clones int
	}{
		{test("a", "hello", "x"), test("b", "goodbye", "x"), 0}, // different text
		{test("a", "hello", "x"), test("b", "hello", "y"), 1},   // same text, renamed code: a clone once normalised
	} {
		docs := []Doc{
			{Index: 0, Path: "a.test.ts", Tokens: Tokenize("TypeScript", []byte(tc.a), true)},
			{Index: 1, Path: "b.test.ts", Tokens: Tokenize("TypeScript", []byte(tc.b), true)},
		}
		clones, _ := Detect(docs, Options{MinTokens: 50, MinLines: 5})
		if len(clones) != tc.clones {
			t.Errorf("%d clones, want %d: %+v", len(clones), tc.clones, clones)
		}
	}
}

// TestTokenCap: a file's tokens for clone detection stop at MaxTokens,
// whether lexed at once or as a stream; a one-line file (too few lines
// for any clone) is left out of the search.
func TestTokenCap(t *testing.T) {
	defer func(n int) { MaxTokens = n }(MaxTokens)
	MaxTokens = 500
	small := []byte(strings.Repeat("a = b + c;\n", 40)) // 240 tokens: at once
	big := []byte(strings.Repeat("a = b + c;\n", 400))  // streamed: len > 4*MaxTokens
	if n := Tokenize("JavaScript", small, true).Len(); n != 240 {
		t.Errorf("small: %d tokens", n)
	}
	if n := Tokenize("JavaScript", big, true).Len(); n != MaxTokens {
		t.Errorf("big: %d tokens, want the cap %d", n, MaxTokens)
	}
	line := []byte(strings.Repeat(jsFunc("f", "x")[:60], 50)) // one line, repeated
	line = bytes.ReplaceAll(line, []byte("\n"), nil)
	docs := []Doc{{Path: "a.min.js", Tokens: Tokenize("JavaScript", line, true)}, {Index: 1, Path: "b.min.js", Tokens: Tokenize("JavaScript", line, true)}}
	if clones, _ := Detect(docs, Options{MinTokens: 50, MinLines: 5}); len(clones) != 0 {
		t.Errorf("one-line files: %d clones", len(clones))
	}
}

// TestDetectGroups: searching the groups at the same time finds what
// Detect finds, in the same order.
func TestDetectGroups(t *testing.T) {
	var docs []Doc
	for i := range 12 {
		src := "// header\n" + jsFunc("f", "x") + strings.Repeat("let q = 1;\n", i) + jsFunc("g", "y") + jsFunc("h", "x")
		if i%3 == 2 {
			src += jsFunc("k", "z") + jsFunc("m", "x") // the last group is the largest
		}
		docs = append(docs, Doc{Index: i, Path: fmt.Sprintf("%d.js", i), Group: i % 3, Tokens: Tokenize("JavaScript", []byte(src), i%2 == 0)})
	}
	c1, l1 := Detect(docs, Options{MinTokens: 50, MinLines: 5})
	// two workers for three groups, the largest seen last (started first)
	for _, workers := range []int{4, 2} {
		c2, l2 := DetectGroups(docs, Options{MinTokens: 50, MinLines: 5}, workers)
		if len(c1) < 10 || fmt.Sprint(c1) != fmt.Sprint(c2) || fmt.Sprint(l1) != fmt.Sprint(l2) {
			t.Errorf("%d workers: Detect: %d clones %v; DetectGroups: %d clones %v", workers, len(c1), l1, len(c2), l2)
		}
	}
}

// winnowByWindow is winnow by its definition: in every run of n hashes
// (or the whole list when it is shorter), the position of the smallest,
// the rightmost of equal ones, each position once.
func winnowByWindow(hashes []uint64, n int) []int32 {
	var out []int32
	if len(hashes) == 0 {
		return nil
	}
	last := -1
	for end := min(n, len(hashes)); end <= len(hashes); end++ {
		m := max(end-n, 0)
		for i := m; i < end; i++ {
			if hashes[i] <= hashes[m] {
				m = i
			}
		}
		if m != last {
			out = append(out, int32(m))
			last = m
		}
		if end == len(hashes) {
			break
		}
	}
	return out
}

func TestWinnow(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for k := range 2000 {
		hashes := make([]uint64, rng.IntN(120))
		for i := range hashes {
			hashes[i] = rng.Uint64N(uint64(1 + k%9)) // small ranges: many ties
		}
		n := 1 + rng.IntN(40)
		got, want := winnow(hashes, n, nil), winnowByWindow(hashes, n)
		if !slices.Equal(got, want) {
			t.Fatalf("winnow(%v, %d) = %v, want %v", hashes, n, got, want)
		}
	}
}

// TestReach: the last line a run of tokens reaches, and whether it spans
// n lines, as the lexed tokens' own ends give them (block strings and
// template literals over several lines among one-line tokens), for every
// run; and a file streamed in parts has the tokens, multi-line ends
// included, of the file lexed at once.
func TestReach(t *testing.T) {
	src := []byte("a = `x\ny\nz`;\nb = 1;\n\nc = `p ${q} r\n`; d(`\n\n`, e);\nf = \"g\";\n/* no\ntoken */ h;\n")
	lexed := token.Lex(token.Syntaxes["JavaScript"], src)
	ts := Normalize(src, lexed, true)
	if len(ts.Ends) < 3 || ts.Len() != len(lexed) {
		t.Fatalf("%d tokens, %d multi-line: the source is meant to hold several", ts.Len(), len(ts.Ends))
	}
	for from := range lexed {
		for to := from + 1; to <= len(lexed); to++ {
			want := int32(0)
			for _, l := range lexed[from:to] {
				want = max(want, l.End)
			}
			if got := ts.reach(from, to); got != want {
				t.Fatalf("reach(%d, %d) = %d, want %d", from, to, got, want)
			}
			for n := 1; n <= 8; n++ {
				if got, want := ts.spans(from, to, n), want >= lexed[from].Line+int32(n)-1; got != want {
					t.Fatalf("spans(%d, %d, %d) = %v, want %v", from, to, n, got, want)
				}
			}
		}
	}
	defer func(n int) { MaxTokens = n }(MaxTokens)
	MaxTokens = 1000
	big := bytes.Repeat(src, 200) // streamed: longer than 4×MaxTokens
	all := Normalize(big, token.Lex(token.Syntaxes["JavaScript"], big)[:MaxTokens], true)
	if got := Tokenize("JavaScript", big, true); fmt.Sprint(got) != fmt.Sprint(all) {
		t.Errorf("streamed: %d tokens, ends %v; at once: %d, ends %v", got.Len(), got.Ends, all.Len(), all.Ends)
	}
}

// BenchmarkNormalizeAnchors: the per-file work of clone detection (the
// tokens' hashes and the anchors) on a C-like source.
func BenchmarkNormalizeAnchors(b *testing.B) {
	var sb strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&sb, "static int field_%d(struct state *s, int n) { if (n > %d) return s->count + n; return 0; }\n", i, i)
	}
	src := []byte(sb.String())
	toks := token.Lex(token.Syntaxes["C"], src)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		Anchors(Normalize(src, toks, true).List, 50)
	}
}

// TestPlaceTable: the table answers as a map does, through its growth,
// with keys that collide in their low bits.
func TestPlaceTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	tab, m := newPlaceTable(0), map[uint64]int32{}
	for i := range 20000 {
		key := rng.Uint64N(5000) << 40
		if rng.IntN(3) == 0 {
			got, ok := tab.get(key)
			want, wok := m[key]
			if ok != wok || ok && got != want || !ok && got != -1 {
				t.Fatalf("get(%x) = %d, %v; want %d, %v", key, got, ok, want, wok)
			}
			continue
		}
		want, ok := m[key]
		if !ok {
			want = -1
		}
		if got := tab.swap(key, int32(i)); got != want {
			t.Fatalf("swap(%x) = %d, want %d", key, got, want)
		}
		m[key] = int32(i)
	}
	if tab.count != len(m) {
		t.Errorf("%d keys, want %d", tab.count, len(m))
	}
}
