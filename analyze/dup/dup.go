// Package dup finds duplicated code across a tree: token-based clone
// detection in the manner of PMD CPD and jscpd. Comments and white space
// are ignored; identifiers (not keywords) and literals are normalised, so
// a copy with renamed variables is still a copy. A clone is a run of at
// least MinTokens equal tokens that also spans at least MinLines lines in
// both places.
package dup

import (
	"sort"

	"github.com/plumbhq/plumb/analyze/token"
)

// Token is a normalised token: a hash of its kind and (for keywords and
// operators) its text, and its lines.
type Token struct {
	Hash      uint32
	Line, End int32
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
)

// Tokenize lexes src with the syntax of language and (with normalise)
// normalises identifiers and literals; nil when the language has no lexer
// here.
func Tokenize(language string, src []byte, normalise bool) []Token {
	sx := token.Syntaxes[language]
	if sx == nil {
		return nil
	}
	return Normalize(src, token.Lex(sx, src), normalise)
}

// Normalize maps lexed tokens to their hashes: with normalise,
// identifiers other than keywords become one token and literals another.
func Normalize(src []byte, toks []token.Token, normalise bool) []Token {
	out := make([]Token, 0, len(toks))
	for _, t := range toks {
		var h uint32
		text := src[t.Start : t.Start+t.Len]
		switch {
		case normalise && (t.Kind == token.Number || t.Kind == token.String):
			h = litHash
		case normalise && t.Kind == token.Ident && !keywords[string(text)]:
			h = identHash
		default:
			h = fnv32(text)
		}
		out = append(out, Token{Hash: h, Line: t.Line, End: t.End})
	}
	return out
}

// Doc is one file's tokens.
type Doc struct {
	Index  int // the caller's index of the file
	Group  int // clones are sought among docs of one group (a language), as jscpd and CPD do
	Path   string
	Tokens []Token
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

type pos struct{ doc, at int32 }

// Detect finds the clones among docs, and returns with them the number of
// duplicated lines of each doc (lines covered by a clone on either side;
// a line counts once however many clones cover it).
//
// Method: every window of MinTokens/2 tokens whose hash falls on an
// anchor (one in four, chosen by the content, so that both copies of a
// block have the same anchors) is kept in a table with its first place.
// A later window with the same hash is compared token by token and the
// match extended forwards and backwards; a match of at least MinTokens
// tokens and MinLines lines is a clone. A run of n ≥ MinTokens equal
// tokens holds n−MinTokens/2+1 windows, so it is missed only when none is
// an anchor: (3/4)^26 ≈ 0.06% for the shortest clones at the default size.
func Detect(docs []Doc, o Options) ([]Clone, []int) {
	if o.MinTokens < 2 {
		o.MinTokens = 2
	}
	w := o.MinTokens / 2
	const mul = 0x100000001b3
	var pw uint64 = 1 // mul^w
	for range w {
		pw *= mul
	}
	table := map[uint64]pos{}
	covered := make([][][2]int32, len(docs)) // line ranges per doc
	var clones []Clone
	for di := range docs {
		toks := docs[di].Tokens
		if len(toks) < w {
			continue
		}
		var h uint64
		for i := 0; i < w; i++ {
			h = h*mul + uint64(toks[i].Hash)
		}
		low := 0 // tokens before low are part of a clone already found
		for p := 0; p+w <= len(toks); p++ {
			if p > 0 {
				h = h*mul + uint64(toks[p+w-1].Hash) - pw*uint64(toks[p-1].Hash)
			}
			if (h>>7)&3 != 0 || p < low {
				continue
			}
			key := h + uint64(docs[di].Group)*0x9e3779b97f4a7c15
			q, seen := table[key]
			if !seen {
				table[key] = pos{int32(di), int32(p)}
				continue
			}
			other := docs[q.doc].Tokens
			a := int(q.at)
			if !equal(toks[p:p+w], other[a:a+w]) {
				continue
			}
			// extend forwards, and backwards down to low
			k := w
			limit := len(toks) - p
			if int(q.doc) == di {
				limit = min(limit, p-a) // copies in one file must not overlap
			}
			for k < limit && a+k < len(other) && toks[p+k].Hash == other[a+k].Hash {
				k++
			}
			b := 0
			for p-b-1 >= low && a-b-1 >= 0 && toks[p-b-1].Hash == other[a-b-1].Hash && (int(q.doc) != di || a+k <= p-b-1) {
				b++
			}
			if b+k < o.MinTokens {
				continue
			}
			sa, ea := other[a-b].Line, maxEnd(other[a-b:a+k])
			sb, eb := toks[p-b].Line, maxEnd(toks[p-b:p+k])
			if int(ea-sa)+1 < o.MinLines || int(eb-sb)+1 < o.MinLines {
				continue
			}
			clones = append(clones, Clone{
				A:      Location{docs[q.doc].Path, int(sa), int(ea)},
				B:      Location{docs[di].Path, int(sb), int(eb)},
				Tokens: b + k,
				Hash:   seqHash(toks[p-b : p+k]),
			})
			covered[q.doc] = append(covered[q.doc], [2]int32{sa, ea})
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

func equal(a, b []Token) bool {
	for i := range a {
		if a[i].Hash != b[i].Hash {
			return false
		}
	}
	return true
}

func maxEnd(ts []Token) int32 {
	var m int32
	for _, t := range ts {
		m = max(m, t.End)
	}
	return m
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
var keywords = map[string]bool{}

func init() {
	for _, k := range []string{
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
	} {
		keywords[k] = true
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
