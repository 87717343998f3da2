package coverage

// Go coverprofiles, as written by `go test -coverprofile` (and `go tool
// covdata textfmt`):
//
//	mode: set|count|atomic
//	<import path>/<file>.go:<startLine>.<startCol>,<endLine>.<endCol> <numStmts> <count>
//
// Blocks become line hits by this rule:
//
//   - Identical blocks (same file and range; a profile that concatenates
//     several test binaries' profiles, or -coverpkg, repeats them) are merged
//     first the way `go tool cover` merges them: in set mode a block ran if
//     it ran anywhere (max), in count and atomic modes the counts add.
//   - Every line from a block's start line to its end line is coverable, and
//     a line's count is the maximum over the blocks touching it: a line is
//     covered when any block on it ran. (A line shared by a block that ran and
//     one that did not, e.g. `if x {` where the condition ran and the body did
//     not, counts as covered; the body's own lines count as missed.)
//   - Blocks with no statements (an empty function body, `{}`) cover nothing.
//
// This is a line view of Go's statement coverage, so its percentage differs
// from `go tool cover -func`; but a file whose statements all ran has no
// missed line, and a file none of whose statements ran has no covered line.
//
// Paths: an import path loses Options.ModulePath + "/" when it has it; when
// ModulePath is empty, the module path is taken to be the longest common
// directory prefix of all the profile's import paths (so a profile of a single
// package cannot tell its directory: pass ModulePath to be sure). MapPath then
// applies StripPrefix and AddPrefix.
//
// Memory: the inferred module path needs every import path, and one file's
// blocks may be anywhere in the profile (one run per test binary), so the
// parser reads the whole profile into a compact block index (32 bytes per
// distinct block, file names interned) before emitting one File per source
// file, in path order. Coverprofiles are small next to the sources they
// describe (a 100 MB profile is ~1.5 M blocks, ~50 MB of index), so this is
// preferred to two passes, which would need an io.Seeker the upload body is
// not.

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

const (
	goCoverMaxLine = 1 << 22 // as maxLine
	goCoverBufSize = 1 << 16 // also the longest line accepted
)

func init() { parsers[GoCover] = parseGoCover }

// goCoverBlock is one block of a profile; file indexes goCoverProfile.files.
type goCoverBlock struct {
	file                                 int32
	startLine, startCol, endLine, endCol int32
	numStmt                              int32
	count                                int64
}

func parseGoCover(r io.Reader, opt Options, emit Emit) error {
	br := bufio.NewReaderSize(r, goCoverBufSize)
	var (
		lineNo int
		mode   string
		files  []string
		fileID = map[string]int32{}
		blocks []goCoverBlock
	)
	fail := func(msg string, args ...any) error {
		return &ParseError{Format: GoCover, Line: lineNo, Msg: fmt.Sprintf(msg, args...)}
	}
	for {
		line, err := br.ReadSlice('\n')
		if len(line) == 0 && err != nil {
			if err == io.EOF {
				break
			}
			return err
		}
		lineNo++
		if err == bufio.ErrBufferFull {
			return fail("expected a line shorter than %d bytes", goCoverBufSize)
		}
		if err != nil && err != io.EOF {
			return err
		}
		line = bytes.TrimSpace(line)
		switch {
		case len(line) == 0:
		case bytes.HasPrefix(line, []byte("mode:")):
			m := string(bytes.TrimSpace(line[len("mode:"):]))
			if m != "set" && m != "count" && m != "atomic" {
				return fail("expected mode: set, count or atomic, got %q", lcovQuote(line))
			}
			if mode != "" && m != mode {
				return fail("expected mode: %s as on the profile's first line (profiles of different modes cannot be merged), got mode: %s", mode, m)
			}
			mode = m
		case mode == "":
			return fail("expected the first line to be mode: set, count or atomic, got %q", lcovQuote(line))
		default:
			name, b, msg := goCoverParseBlock(line)
			if msg != "" {
				return fail("%s, got %q", msg, lcovQuote(line))
			}
			id, ok := fileID[string(name)]
			if !ok {
				if len(files) == math.MaxInt32 {
					return fail("expected fewer files")
				}
				id = int32(len(files))
				files = append(files, string(name))
				fileID[files[id]] = id
			}
			b.file = id
			blocks = append(blocks, b)
		}
		if err == io.EOF {
			break
		}
	}
	if mode == "" {
		lineNo = 1
		return fail("expected the first line to be mode: set, count or atomic, got an empty profile")
	}

	// Map every import path to its repository path.
	module := strings.Trim(opt.ModulePath, "/")
	if module == "" {
		module = goCoverCommonDir(files)
	}
	paths := make([]string, len(files))
	for i, f := range files {
		p := f
		if module != "" && strings.HasPrefix(p, module+"/") {
			p = p[len(module)+1:]
		}
		mapped, ok := MapPath(p, opt)
		if !ok {
			return &ParseError{Format: GoCover, Element: f, Msg: "expected a file path inside the repository"}
		}
		paths[i] = mapped
	}

	// Sort by repository path (two import paths may map to one path), then
	// by range, so that identical blocks are adjacent and a file's blocks
	// are contiguous.
	slices.SortFunc(blocks, func(a, b goCoverBlock) int {
		if a.file != b.file {
			if c := strings.Compare(paths[a.file], paths[b.file]); c != 0 {
				return c
			}
		}
		switch {
		case a.startLine != b.startLine:
			return int(a.startLine - b.startLine)
		case a.startCol != b.startCol:
			return int(a.startCol - b.startCol)
		case a.endLine != b.endLine:
			return int(a.endLine - b.endLine)
		default:
			return int(a.endCol - b.endCol)
		}
	})
	sum := mode != "set"
	var fileBlocks []goCoverBlock
	for i := 0; i < len(blocks); {
		p := paths[blocks[i].file]
		fileBlocks = fileBlocks[:0]
		for ; i < len(blocks) && paths[blocks[i].file] == p; i++ {
			b := blocks[i]
			// Merge identical blocks.
			for i+1 < len(blocks) && paths[blocks[i+1].file] == p && goCoverSameRange(b, blocks[i+1]) {
				i++
				n := blocks[i]
				b.numStmt = max(b.numStmt, n.numStmt)
				switch {
				case !sum:
					b.count = max(b.count, n.count)
				case n.count > math.MaxInt64-b.count:
					b.count = math.MaxInt64
				default:
					b.count += n.count
				}
			}
			if b.numStmt > 0 {
				fileBlocks = append(fileBlocks, b)
			}
		}
		if err := emit(File{Path: p, Hits: goCoverLines(fileBlocks)}); err != nil {
			return err
		}
	}
	return nil
}

func goCoverSameRange(a, b goCoverBlock) bool {
	return a.startLine == b.startLine && a.startCol == b.startCol && a.endLine == b.endLine && a.endCol == b.endCol
}

// goCoverParseBlock reads "<file>:<sl>.<sc>,<el>.<ec> <numStmts> <count>".
func goCoverParseBlock(line []byte) (name []byte, b goCoverBlock, msg string) {
	const want = "expected <file>:<startLine>.<startCol>,<endLine>.<endCol> <numStmts> <count>"
	sp := bytes.LastIndexByte(line, ' ')
	if sp < 0 {
		return nil, b, want
	}
	count, ok := goCoverUint(line[sp+1:], math.MaxInt64)
	if !ok {
		return nil, b, want + " with an integer count of at least 0"
	}
	rest := bytes.TrimRight(line[:sp], " ")
	sp = bytes.LastIndexByte(rest, ' ')
	if sp < 0 {
		return nil, b, want
	}
	numStmt, ok := goCoverUint(rest[sp+1:], math.MaxInt32)
	if !ok {
		return nil, b, want + " with an integer statement count"
	}
	rest = bytes.TrimRight(rest[:sp], " ")
	colon := bytes.LastIndexByte(rest, ':')
	if colon < 1 {
		return nil, b, want
	}
	name, rng := rest[:colon], rest[colon+1:]
	var pos [4]int64
	for k := range pos {
		sep := byte('.')
		if k == 1 {
			sep = ','
		}
		end := len(rng)
		if k < 3 {
			end = bytes.IndexByte(rng, sep)
			if end < 0 {
				return nil, b, want
			}
		}
		v, ok := goCoverUint(rng[:end], goCoverMaxLine)
		if !ok {
			return nil, b, fmt.Sprintf("%s with integer positions (lines 1 to %d)", want, goCoverMaxLine)
		}
		pos[k] = v
		if k < 3 {
			rng = rng[end+1:]
		}
	}
	if pos[0] < 1 || pos[2] < pos[0] {
		return nil, b, want + " with 1 ≤ startLine ≤ endLine"
	}
	b = goCoverBlock{
		startLine: int32(pos[0]), startCol: int32(pos[1]),
		endLine: int32(pos[2]), endCol: int32(pos[3]),
		numStmt: int32(numStmt), count: count,
	}
	return name, b, ""
}

// goCoverUint parses a decimal integer in [0, limit].
func goCoverUint(b []byte, limit int64) (int64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := int64(c - '0')
		if n > (limit-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	return n, true
}

// goCoverCommonDir is the longest directory prefix (whole path elements)
// shared by every name.
func goCoverCommonDir(names []string) string {
	if len(names) == 0 {
		return ""
	}
	prefix := names[0]
	if i := strings.LastIndexByte(prefix, '/'); i >= 0 {
		prefix = prefix[:i]
	} else {
		return ""
	}
	for _, n := range names[1:] {
		for prefix != "" && !strings.HasPrefix(n, prefix+"/") {
			i := strings.LastIndexByte(prefix, '/')
			if i < 0 {
				prefix = ""
			} else {
				prefix = prefix[:i]
			}
		}
		if prefix == "" {
			return ""
		}
	}
	return prefix
}

// goCoverLines turns one file's blocks into line hits: each line gets the
// maximum count of the blocks spanning it, -1 when none does.
func goCoverLines(blocks []goCoverBlock) []int64 {
	if len(blocks) == 0 {
		return nil
	}
	n, span := 0, 0
	for _, b := range blocks {
		n = max(n, int(b.endLine))
		span += int(b.endLine-b.startLine) + 1
	}
	hits := make([]int64, n)
	for i := range hits {
		hits[i] = -1
	}
	if span <= 4*n+1024 {
		// Blocks of real profiles barely overlap: paint them one by one.
		for _, b := range blocks {
			for l := b.startLine; l <= b.endLine; l++ {
				hits[l-1] = max(hits[l-1], b.count)
			}
		}
		return hits
	}
	// Many long overlapping blocks (a crafted profile): paint from the
	// highest count down, each line once, skipping painted runs with a
	// union-find over "next unpainted line", so the work is
	// O(lines + blocks log blocks) rather than O(lines × blocks).
	slices.SortFunc(blocks, func(a, b goCoverBlock) int {
		switch {
		case a.count > b.count:
			return -1
		case a.count < b.count:
			return 1
		}
		return 0
	})
	next := make([]int32, n+2)
	for i := range next {
		next[i] = int32(i)
	}
	find := func(l int32) int32 {
		root := l
		for next[root] != root {
			root = next[root]
		}
		for next[l] != root {
			next[l], l = root, next[l]
		}
		return root
	}
	for _, b := range blocks {
		for l := find(b.startLine); l <= b.endLine; l = find(l + 1) {
			hits[l-1] = b.count
			next[l] = l + 1
		}
	}
	return hits
}
