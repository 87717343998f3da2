// Package dup finds duplicated code across a tree: token-based clone
// detection in the manner of PMD CPD and jscpd. Comments and white space
// are ignored; identifiers (not keywords) and literals are normalised, so
// a copy with renamed variables is still a copy. A clone is a run of at
// least MinTokens equal tokens that also spans at least MinLines lines in
// both places.
package dup

import (
	"cmp"
	"slices"
	"sort"
	"sync"

	"github.com/plumbhq/plumb/analyze/token"
	"github.com/plumbhq/plumb/internal/par"
)

// Token is a normalised token: a hash of its kind and (for keywords and
// operators) its text, and its first line.
type Token struct {
	Hash uint32
	Line int32
}

// Tokens are a file's normalised tokens, in order (their lines never
// decrease), with the last line of each token that ends on a later line
// than it starts (a block string, a template literal's text): those are
// few, so they are kept apart and a token takes 8 bytes, not 12.
type Tokens struct {
	List []Token
	Ends []End // in order of At
}

// End is the last line of the multi-line token List[At].
type End struct{ At, Line int32 }

// Len is the number of tokens.
func (ts Tokens) Len() int { return len(ts.List) }

// reach is the last line that the tokens from … to-1 reach (to > from):
// the last one's line, or further where a multi-line token among them
// ends later.
func (ts *Tokens) reach(from, to int) int32 {
	m := ts.List[to-1].Line
	e := ts.Ends
	if len(e) == 0 {
		return m
	}
	// from the first multi-line token at or after from
	lo, _ := slices.BinarySearchFunc(e, int32(from), func(x End, at int32) int { return cmp.Compare(x.At, at) })
	for i := lo; i < len(e) && int(e[i].At) < to; i++ {
		m = max(m, e[i].Line)
	}
	return m
}

// spans reports whether the tokens from … to-1 span at least n lines
// (from the first one's line to the last line any of them reaches).
func (ts *Tokens) spans(from, to, n int) bool {
	return ts.reach(from, to) >= ts.List[from].Line+int32(n)-1
}

// fnv32 is FNV-1a: deterministic, so clone hashes (and the issues'
// fingerprints made from them) are the same in every run.
func fnv32(b []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range b {
		h ^= uint32(c)
		h *= 16777619
	}
	return h
}

var (
	identHash = fnv32([]byte("\x00id"))
	litHash   = fnv32([]byte("\x00lit"))
	// byteHash is fnv32 of each one-byte text: most operators and
	// punctuation of C-like code ({ } ( ) ; , = * …)
	byteHash = func() (h [256]uint32) {
		for c := range h {
			h[c] = fnv32([]byte{byte(c)})
		}
		return h
	}()
)

// textHash is fnv32(text), from the table for one byte.
func textHash(text []byte) uint32 {
	if len(text) == 1 {
		return byteHash[text[0]]
	}
	return fnv32(text)
}

// Tokenize lexes src with the syntax of language and (with normalise)
// normalises identifiers and literals; nil when the language has no lexer
// here.
//
// A file's tokens are capped at MaxTokens (the clone index holds no more
// of one file): clones are sought in the first MaxTokens tokens of a
// larger file (a minified bundle forced in), so that memory stays bounded.
func Tokenize(language string, src []byte, normalise bool) Tokens {
	sx := token.Syntaxes[language]
	if sx == nil {
		return Tokens{}
	}
	toks := token.Borrow()
	defer func() { token.Return(toks) }()
	if len(src) < 4*MaxTokens {
		toks = token.LexAppend(toks, sx, src)
		if len(toks) > MaxTokens {
			toks = toks[:MaxTokens]
		}
		return Normalize(src, toks, normalise)
	}
	out := Tokens{List: make([]Token, 0, MaxTokens)}
	lx := token.NewLexer(sx, src)
	for !lx.Done() && len(out.List) < MaxTokens {
		toks = lx.Next(toks[:0], min(1<<16, MaxTokens-len(out.List)))
		part := Normalize(src, toks, normalise)
		for _, e := range part.Ends {
			out.Ends = append(out.Ends, End{e.At + int32(len(out.List)), e.Line})
		}
		out.List = append(out.List, part.List...)
	}
	return out
}

// MaxTokens caps the tokens of one file kept for clone detection.
var MaxTokens = 1 << 20

// Normalize maps lexed tokens to their hashes: with normalise,
// identifiers other than keywords become one token and literals another;
// the text of a template literal keeps its own hash either way.
func Normalize(src []byte, toks []token.Token, normalise bool) Tokens {
	out := Tokens{List: make([]Token, len(toks))}
	for i, t := range toks {
		var h uint32
		text := src[t.Start : t.Start+t.Len]
		switch {
		case t.Flags&token.Template != 0:
			// a template literal's text is a value of its own (different
			// text, different token); its substitutions are code
			h = fnv32(text)
		case normalise && (t.Kind == token.Number || t.Kind == token.String):
			h = litHash
		case normalise && t.Kind == token.Ident && !isKeyword(text):
			h = identHash
		default:
			h = textHash(text)
		}
		out.List[i] = Token{Hash: h, Line: t.Line}
		if t.End > t.Line {
			out.Ends = append(out.Ends, End{int32(i), t.End})
		}
	}
	return out
}

// Doc is one file's tokens.
type Doc struct {
	Index  int // the caller's index of the file
	Group  int // clones are sought among docs of one group (a language), as jscpd and CPD do
	Path   string
	Tokens Tokens
	// Anchors, when set, are Anchors(Tokens.List, the MinTokens of Detect).
	Anchors []Anchor
}

// Options of clone detection.
type Options struct {
	MinTokens int // jscpd's default, 50
	MinLines  int // jscpd's default, 5
}

// Location is one side of a clone.
type Location struct {
	Path      string `json:"path"`
	StartLine int    `json:"startLine"`
	EndLine   int    `json:"endLine"`
}

// Clone is one duplicated block: a later copy (B) of an earlier one (A).
type Clone struct {
	A      Location `json:"a"`
	B      Location `json:"b"`
	Tokens int      `json:"tokens"`
	Hash   uint64   `json:"-"` // of the clone's normalised tokens
}

// Detect finds the clones among docs, and returns with them the number of
// duplicated lines of each doc (lines covered by a clone on either side;
// a line counts once however many clones cover it).
//
// Method: every window of w = MinTokens/2 tokens has a rolling hash; in
// each run of MinTokens-w+1 consecutive windows the one of smallest hash
// is an anchor (winnowing: Schleimer, Wilkerson and Aiken, 2003), so two
// copies of a run of at least MinTokens tokens share an anchor at the same
// place in both, however repetitive the run is. The anchors of all docs,
// in order, are chained by hash: each anchor links to the previous place
// with the same hash (the latest maxChain are tried). At an anchor, each
// earlier place of its chain is compared token by token and the match
// extended forwards and backwards; the longest match, if it has at least
// MinTokens tokens and MinLines lines, is a clone. Trying several places
// finds the right alignment in repetitive code (tables, runs of like
// statements), where the first place with the same hash may be a period
// away.
func Detect(docs []Doc, o Options) ([]Clone, []int) {
	return DetectGroups(docs, o, 1)
}

// DetectGroups is Detect on up to workers goroutines; the result is
// Detect's, in Detect's order. Clones are sought within a group only (a
// group is a language, as jscpd and CPD do).
//
// The chains are built first, over all anchors in order (one table per
// group, the groups side by side); an anchor's earlier places are then
// fixed, so the docs are searched independently, each by whichever worker
// takes it, and the clones of each doc are those a search of the docs one
// after another would find.
func DetectGroups(docs []Doc, o Options, workers int) ([]Clone, []int) {
	if o.MinTokens < 2 {
		o.MinTokens = 2
	}
	workers = max(workers, 1)
	d := &detector{docs: docs, o: o, w: o.MinTokens / 2, first: make([]int32, len(docs)+1)}
	d.probe, d.n = 4*o.MinTokens, o.MinTokens-d.w+1
	// the docs that can hold a clone take part (not a minified one-line
	// file), with their anchors
	d.anchors = make([][]Anchor, len(docs))
	par.For(len(docs), workers, func(di int) {
		ts := &docs[di].Tokens
		if ts.Len() < d.w || !ts.spans(0, ts.Len(), o.MinLines) {
			return
		}
		d.anchors[di] = docs[di].Anchors
		if d.anchors[di] == nil {
			d.anchors[di] = Anchors(ts.List, o.MinTokens)
		}
	})
	byGroup := map[int][]int{} // group → its docs, in order
	var order []int
	for di := range docs {
		d.first[di+1] = d.first[di] + int32(len(d.anchors[di]))
		g := docs[di].Group
		if _, ok := byGroup[g]; !ok {
			order = append(order, g)
		}
		byGroup[g] = append(byGroup[g], di)
	}
	d.occ = make([]place, d.first[len(docs)])
	// the largest groups first, so that a large one started last does not
	// run alone at the end
	size := make(map[int]int32, len(order))
	for g, idx := range byGroup {
		for _, di := range idx {
			size[g] += d.first[di+1] - d.first[di]
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return size[order[a]] > size[order[b]] })
	par.For(len(order), workers, func(k int) { d.chain(byGroup[order[k]], size[order[k]]) })
	found := make([][]found, len(docs))
	par.For(len(docs), workers, func(di int) { found[di] = d.search(di) })
	var clones []Clone
	covered := make([][][2]int32, len(docs)) // line ranges per doc
	for di, fs := range found {
		for _, f := range fs {
			clones = append(clones, f.Clone)
			covered[f.doc] = append(covered[f.doc], [2]int32{int32(f.A.StartLine), int32(f.A.EndLine)})
			covered[di] = append(covered[di], [2]int32{int32(f.B.StartLine), int32(f.B.EndLine)})
		}
	}
	lines := make([]int, len(docs))
	for i, rs := range covered {
		lines[i] = union(rs)
	}
	return clones, lines
}

// detector is one clone detection's state: the docs' anchors, numbered
// in order (doc di's are first[di] … first[di+1]-1), and each anchor's
// place in occ with the previous place of its hash.
type detector struct {
	docs        []Doc
	o           Options
	w, probe, n int
	anchors     [][]Anchor
	first       []int32
	occ         []place
}

// found is a clone with the doc of its earlier copy.
type found struct {
	Clone
	doc int32
}

// chain links the anchors of a group's docs, in order, each to the
// previous place of its hash.
func (d *detector) chain(idx []int, size int32) {
	table := newPlaceTable(int(size))
	for _, di := range idx {
		for i, an := range d.anchors[di] {
			g := d.first[di] + int32(i)
			d.occ[g] = place{doc: int32(di), at: an.At, prev: table.swap(an.Hash, g)}
		}
	}
}

// search finds the clones whose later copy is in doc di.
func (d *detector) search(di int) []found {
	ts := &d.docs[di].Tokens
	toks := ts.List
	anchors := d.anchors[di]
	o, w, probe := d.o, d.w, d.probe
	var out []found
	low := 0 // tokens before low are part of a clone already found
	// bestAt finds the earlier place that matches the anchor at p over the
	// most tokens, comparing at most probe tokens forwards: the places
	// before anchor number g (of all docs) on the chain from head.
	bestAt := func(p int, head, g int32) match {
		best := match{}
		c := head
		for c >= g { // the doc's own anchors after g, not yet seen at g
			c = d.occ[c].prev
		}
		for k := 0; c >= 0 && k < maxChain; c, k = d.occ[c].prev, k+1 {
			ots := &d.docs[d.occ[c].doc].Tokens
			m := extend(toks, ots.List, p, int(d.occ[c].at), w, low, probe, int(d.occ[c].doc) == di)
			if m.b+m.k < o.MinTokens || m.b+m.k < best.b+best.k {
				continue
			}
			// too few lines on a side: not a clone, unless it goes on
			// beyond the probe
			if m.k < probe && (!ots.spans(m.a-m.b, m.a+m.k, o.MinLines) || !ts.spans(p-m.b, p+m.k, o.MinLines)) {
				continue
			}
			m.doc, m.p = d.occ[c].doc, p
			best = m
		}
		return best
	}
	for i, an := range anchors {
		p := int(an.At)
		if p < low { // anchors inside a clone found are only kept for later copies
			continue
		}
		g := d.first[di] + int32(i)
		best := bestAt(p, d.occ[g].prev, g)
		if best.b+best.k < o.MinTokens {
			continue
		}
		// In repetitive code the first anchor of a copy may pair with a
		// place a period away; the anchors shared at the same place by
		// both copies come within n tokens: keep the longest match.
		for j, q := range anchors[i+1:] {
			if int(q.At) >= p+d.n {
				break
			}
			if m := bestAt(int(q.At), d.occ[g+1+int32(j)].prev, g+1); m.b+m.k > best.b+best.k {
				best = m
			}
		}
		p = best.p
		od := best.doc
		ots := &d.docs[od].Tokens
		best = extend(toks, ots.List, p, best.a, w, low, len(toks), int(od) == di)
		a, b, k := best.a, best.b, best.k
		sa, ea := ots.List[a-b].Line, ots.reach(a-b, a+k)
		sb, eb := toks[p-b].Line, ts.reach(p-b, p+k)
		if int(ea-sa)+1 < o.MinLines || int(eb-sb)+1 < o.MinLines {
			continue
		}
		out = append(out, found{Clone{
			A:      Location{d.docs[od].Path, int(sa), int(ea)},
			B:      Location{d.docs[di].Path, int(sb), int(eb)},
			Tokens: b + k,
			Hash:   seqHash(toks[p-b : p+k]),
		}, od})
		low = p + k
	}
	return out
}

// maxChain bounds the earlier places of one hash compared with an anchor
// (they are compared over 4×MinTokens tokens forwards, then the best one
// is extended to its end).
const maxChain = 16

// placeTable maps an anchor's hash (with its group) to its latest place
// in occ: open addressing, kept at most half full, for the lookups and
// stores of every anchor.
type placeTable struct {
	keys  []uint64
	vals  []int32 // -1: empty
	mask  uint64
	count int
}

func newPlaceTable(n int) *placeTable {
	t := &placeTable{}
	t.alloc(n)
	return t
}

func (t *placeTable) alloc(n int) {
	size := 16
	for size < 2*n {
		size <<= 1
	}
	t.keys = make([]uint64, size)
	t.vals = make([]int32, size)
	for i := range t.vals {
		t.vals[i] = -1
	}
	t.mask = uint64(size - 1)
}

// slot is where key is, or the empty slot where it would go.
func (t *placeTable) slot(key uint64) uint64 {
	i := mix(key) & t.mask
	for t.vals[i] >= 0 && t.keys[i] != key {
		i = (i + 1) & t.mask
	}
	return i
}

func (t *placeTable) get(key uint64) (int32, bool) {
	i := t.slot(key)
	return t.vals[i], t.vals[i] >= 0
}

// swap stores v for key and returns what key had (-1: nothing).
func (t *placeTable) swap(key uint64, v int32) int32 {
	i := t.slot(key)
	old := t.vals[i]
	if old < 0 {
		if 2*(t.count+1) > len(t.vals) {
			t.grow()
			i = t.slot(key)
		}
		t.count++
	}
	t.keys[i], t.vals[i] = key, v
	return old
}

func (t *placeTable) grow() {
	keys, vals := t.keys, t.vals
	t.alloc(len(vals))
	for i, v := range vals {
		if v >= 0 {
			j := t.slot(keys[i])
			t.keys[j], t.vals[j] = keys[i], v
		}
	}
}

// place is an anchor in the table: its doc, its token, and the previous
// place of the same hash (-1: none).
type place struct{ doc, at, prev int32 }

// match is a run of equal tokens found from an anchor at p and an earlier
// place a: b tokens before them, k from them on.
type match struct {
	doc        int32
	p, a, b, k int
}

// extend compares the window at p of toks with the one at a of other and
// extends an equal pair backwards, down to low, then forwards, by at most
// cap tokens from p; k is 0 when the windows differ. Copies in one file must not overlap: the backward
// extension goes first, so that in a file repeating itself the copies
// start where the repetition does.
func extend(toks, other []Token, p, a, w, low, cap int, sameDoc bool) match {
	if sameDoc && p-a < w || !equal(toks[p:p+w], other[a:a+w]) {
		return match{}
	}
	back := min(p-low, a) // how far back the copies may start
	if sameDoc {
		back = min(back, p-a-w)
	}
	b := 0
	for b < back && toks[p-b-1].Hash == other[a-b-1].Hash {
		b++
	}
	limit := min(len(toks)-p, cap)
	if sameDoc {
		limit = min(limit, p-a-b) // the earlier copy ends where the later starts
	}
	k := w
	for k < limit && a+k < len(other) && toks[p+k].Hash == other[a+k].Hash {
		k++
	}
	return match{a: a, b: b, k: k}
}

// Anchor is a place where clone detection compares (see Detect): a token
// and the hash of the window that starts there.
type Anchor struct {
	At   int32
	Hash uint64
}

// Anchors computes a document's anchors for Detect with this minTokens.
// Detect computes them for a Doc without; a caller that tokenizes files in
// parallel can compute them there, beside the rest of each file's work.
func Anchors(toks []Token, minTokens int) []Anchor {
	minTokens = max(minTokens, 2)
	w := minTokens / 2
	if len(toks) < w {
		return nil
	}
	// the window hashes and the anchors' places are scratch, reused
	sc, _ := scratchPool.Get().(*scratch)
	if sc == nil {
		sc = &scratch{}
	}
	defer scratchPool.Put(sc)
	if cap(sc.hashes) < len(toks)-w+1 {
		sc.hashes = make([]uint64, 0, len(toks)-w+1)
	}
	sc.hashes = windowHashes(toks, w, sc.hashes[:0])
	sc.at = winnow(sc.hashes, minTokens-w+1, sc.at[:0])
	out := make([]Anchor, len(sc.at))
	for i, p := range sc.at {
		out[i] = Anchor{p, sc.hashes[p]}
	}
	if cap(sc.hashes) > 1<<20 { // a very large file's go to the collector
		sc.hashes, sc.at = nil, nil
	}
	return out
}

// scratch is Anchors' working memory.
type scratch struct {
	hashes []uint64
	at     []int32
}

var scratchPool sync.Pool

// windowHashes returns the rolling hash of every window of w tokens
// (len(toks)-w+1 of them), appended to out.
func windowHashes(toks []Token, w int, out []uint64) []uint64 {
	const mul = 0x100000001b3
	var pw uint64 = 1 // mul^w
	for range w {
		pw *= mul
	}
	var h uint64
	for i := 0; i < w; i++ {
		h = h*mul + uint64(toks[i].Hash)
	}
	out = append(out, mix(h))
	for p := 1; p+w <= len(toks); p++ {
		h = h*mul + uint64(toks[p+w-1].Hash) - pw*uint64(toks[p-1].Hash)
		out = append(out, mix(h))
	}
	return out
}

// mix scrambles a rolling hash so that its order (which winnowing uses)
// depends on every token of the window.
func mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}

// winnow selects the anchors among the window hashes: in every run of n
// consecutive hashes, the position of the smallest (the rightmost when
// several are equal), each position once, in increasing order; appended
// to out. The smallest is kept as the run slides and looked for again
// only when it leaves the run (about once every n hashes of random order).
func winnow(hashes []uint64, n int, out []int32) []int32 {
	if n < 1 {
		n = 1
	}
	m := -1 // the position of the smallest in the current run
	last := -1
	for i, h := range hashes {
		switch {
		case m >= 0 && h <= hashes[m]:
			m = i
		case m < 0 || m <= i-n:
			m = max(i-n+1, 0)
			for j := m + 1; j <= i; j++ {
				if hashes[j] <= hashes[m] {
					m = j
				}
			}
		}
		if (i >= n-1 || i == len(hashes)-1) && m != last {
			out = append(out, int32(m))
			last = m
		}
	}
	return out
}

func equal(a, b []Token) bool {
	for i := range a {
		if a[i].Hash != b[i].Hash {
			return false
		}
	}
	return true
}

// union counts the lines covered by inclusive ranges.
func union(rs [][2]int32) int {
	if len(rs) == 0 {
		return 0
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i][0] < rs[j][0] })
	n := 0
	cs, ce := rs[0][0], rs[0][1]
	for _, r := range rs[1:] {
		if r[0] > ce+1 {
			n += int(ce-cs) + 1
			cs, ce = r[0], r[1]
		} else if r[1] > ce {
			ce = r[1]
		}
	}
	return n + int(ce-cs) + 1
}

// keywords of the lexed languages stay themselves when identifiers are
// normalised.
var keywords token.WordSet

// keywordStart marks the first bytes of the keywords and keywordLen their
// lengths: most identifiers are not keywords, and most are told so
// without a look in the set.
var (
	keywordStart [256]bool
	keywordLen   [16]bool
)

func isKeyword(text []byte) bool {
	return len(text) < len(keywordLen) && keywordLen[len(text)] && keywordStart[text[0]] && keywords.HasBytes(text)
}

func init() {
	words := []string{
		"if", "else", "elif", "elsif", "for", "foreach", "while", "do", "switch", "case", "default", "break",
		"continue", "return", "goto", "func", "function", "fn", "fun", "def", "class", "struct", "interface",
		"enum", "trait", "impl", "type", "var", "let", "const", "val", "new", "delete", "try", "catch",
		"except", "finally", "throw", "throws", "raise", "import", "from", "package", "namespace", "using",
		"public", "private", "protected", "static", "final", "abstract", "override", "virtual", "void",
		"int", "long", "char", "bool", "boolean", "float", "double", "string", "byte", "true", "false",
		"null", "nil", "None", "True", "False", "this", "self", "super", "match", "when", "unless", "until",
		"then", "fi", "done", "esac", "in", "is", "as", "and", "or", "not", "with", "yield", "async", "await",
		"go", "defer", "select", "chan", "map", "range", "fallthrough", "lambda", "pass", "end", "begin",
		"module", "require", "extends", "implements", "instanceof", "typeof", "sizeof", "mut", "ref", "loop",
		"where", "guard", "echo", "local", "export", "readonly", "unsafe", "extern", "mod", "pub", "use",
	}
	keywords = token.NewWordSet(words...)
	for _, k := range words {
		keywordStart[k[0]] = true
		keywordLen[len(k)] = true
	}
}

// seqHash is FNV-1a over a token sequence's hashes.
func seqHash(ts []Token) uint64 {
	h := uint64(14695981039346656037)
	for _, t := range ts {
		for s := 0; s < 32; s += 8 {
			h ^= uint64(byte(t.Hash >> s))
			h *= 1099511628211
		}
	}
	return h
}
