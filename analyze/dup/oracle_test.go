package dup

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// detectOneByOne is clone detection as it was first written: the docs
// read one after another, each anchor looked up in the table of the
// places before it and then added to it. DetectGroups builds every chain
// first and searches the docs in parallel; TestDetectMatchesOneByOne
// holds it to this reference.
func detectOneByOne(docs []Doc, o Options) ([]Clone, []int) {
	if o.MinTokens < 2 {
		o.MinTokens = 2
	}
	w := o.MinTokens / 2
	probe := 4 * o.MinTokens
	// the anchors of the docs that have them, to size the index at once
	nAnchors := 0
	for i := range docs {
		nAnchors += len(docs[i].Anchors)
	}
	table := newPlaceTable(nAnchors) // hash → latest place in occ
	occ := make([]place, 0, nAnchors)
	covered := make([][][2]int32, len(docs)) // line ranges per doc
	var clones []Clone
	n := o.MinTokens - w + 1
	for di := range docs {
		ts := &docs[di].Tokens
		toks := ts.List
		if len(toks) < w || !ts.spans(0, len(toks), o.MinLines) {
			continue // too short to hold a clone (a minified one-line file)
		}
		anchors := docs[di].Anchors
		if anchors == nil {
			anchors = Anchors(toks, o.MinTokens)
		}
		low := 0                                             // tokens before low are part of a clone already found
		group := uint64(docs[di].Group) * 0x9e3779b97f4a7c15 // clones are sought within one group
		// bestAt finds the earlier place that matches the anchor at p
		// over the most tokens, comparing at most probe tokens forwards.
		bestAt := func(p int, hash uint64) match {
			best := match{}
			head, seen := table.get(hash + group)
			for c, k := head, 0; seen && c >= 0 && k < maxChain; c, k = occ[c].prev, k+1 {
				ots := &docs[occ[c].doc].Tokens
				m := extend(toks, ots.List, p, int(occ[c].at), w, low, probe, int(occ[c].doc) == di)
				if m.b+m.k < o.MinTokens || m.b+m.k < best.b+best.k {
					continue
				}
				// too few lines on a side: not a clone, unless it goes on
				// beyond the probe
				if m.k < probe && (!ots.spans(m.a-m.b, m.a+m.k, o.MinLines) || !ts.spans(p-m.b, p+m.k, o.MinLines)) {
					continue
				}
				m.doc, m.p = occ[c].doc, p
				best = m
			}
			return best
		}
		for i, an := range anchors {
			p := int(an.At)
			best := match{}
			if p >= low { // anchors inside a clone found are only kept for later copies
				best = bestAt(p, an.Hash)
			}
			key := an.Hash + group
			prev := table.swap(key, int32(len(occ)))
			occ = append(occ, place{doc: int32(di), at: an.At, prev: prev})
			if best.b+best.k < o.MinTokens {
				continue
			}
			// In repetitive code the first anchor of a copy may pair with a
			// place a period away; the anchors shared at the same place by
			// both copies come within n tokens: keep the longest match.
			for _, q := range anchors[i+1:] {
				if int(q.At) >= p+n {
					break
				}
				if m := bestAt(int(q.At), q.Hash); m.b+m.k > best.b+best.k {
					best = m
				}
			}
			p = best.p
			od := best.doc
			ots := &docs[od].Tokens
			best = extend(toks, ots.List, p, best.a, w, low, len(toks), int(od) == di)
			a, b, k := best.a, best.b, best.k
			sa, ea := ots.List[a-b].Line, ots.reach(a-b, a+k)
			sb, eb := toks[p-b].Line, ts.reach(p-b, p+k)
			if int(ea-sa)+1 < o.MinLines || int(eb-sb)+1 < o.MinLines {
				continue
			}
			clones = append(clones, Clone{
				A:      Location{docs[od].Path, int(sa), int(ea)},
				B:      Location{docs[di].Path, int(sb), int(eb)},
				Tokens: b + k,
				Hash:   seqHash(toks[p-b : p+k]),
			})
			covered[od] = append(covered[od], [2]int32{sa, ea})
			covered[di] = append(covered[di], [2]int32{sb, eb})
			low = p + k
		}
	}
	lines := make([]int, len(docs))
	for i, rs := range covered {
		lines[i] = union(rs)
	}
	return clones, lines
}

// TestDetectMatchesOneByOne: the chains built first and the docs searched
// in parallel find the clones, in the order and with the duplicated lines,
// of the docs read one after another; on repetitive documents (anchors
// close together, many places per hash, copies inside one doc), in several
// groups, normalised or not, with 1, 2 and 3 workers.
func TestDetectMatchesOneByOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	stmts := []string{"a = b + c;\n", "if (x) { y(); }\n", "f(a, b, c);\n", "let q = [1, 2, 3];\n", "return a;\n", "while (i < n) i++;\n"}
	total := 0
	for round := range 60 {
		var docs []Doc
		for i := range 2 + rng.IntN(8) {
			var sb strings.Builder
			for range rng.IntN(120) {
				if rng.IntN(10) == 0 {
					sb.WriteString(jsFunc("f", "x")) // the same block again
				}
				sb.WriteString(stmts[rng.IntN(1+round%len(stmts))])
			}
			docs = append(docs, Doc{Index: i, Path: fmt.Sprint(i, ".js"), Group: rng.IntN(1 + round%3), Tokens: Tokenize("JavaScript", []byte(sb.String()), rng.IntN(2) == 0)})
		}
		o := Options{MinTokens: 10 + rng.IntN(50), MinLines: 1 + rng.IntN(5)}
		want, wantLines := detectOneByOne(docs, o)
		total += len(want)
		for _, workers := range []int{1, 2, 3} {
			got, lines := DetectGroups(docs, o, workers)
			if fmt.Sprint(got) != fmt.Sprint(want) || fmt.Sprint(lines) != fmt.Sprint(wantLines) {
				t.Fatalf("round %d, %d workers, %+v:\ngot  %d clones %v %v\nwant %d clones %v %v", round, workers, o, len(got), got, lines, len(want), want, wantLines)
			}
		}
	}
	if total < 500 {
		t.Errorf("only %d clones in all rounds: the documents are not repetitive enough to compare", total)
	}
}
