package coverage

// Cobertura XML (coverage-04.dtd), as written by Cobertura, gcovr --xml,
// coverage.py `coverage xml`, coverlet, istanbul's cobertura reporter, …:
//
//	<coverage line-rate=… …>
//	  <sources><source>/abs/repo</source>…</sources>
//	  <packages><package name=…><classes>
//	    <class name=… filename="src/a.c" …>
//	      <methods><method …><lines><line number="3" hits="1"/>…</lines></method></methods>
//	      <lines><line number="3" hits="1" branch="true" condition-coverage="50% (1/2)"/>…</lines>
//	    </class>
//	  </classes></package></packages>
//	</coverage>
//
// The reader streams the document through xmlScanner (xmlscan.go), a small
// XML tokenizer that allocates nothing per element (the same reader over
// encoding/xml's Token, cobRefParse in the tests, was measured at a tenth of
// its speed, ~35 MB/s, below the 100 MB/s goal), with the Cobertura reader's
// own rules (xmlModeCobertura), keeping only the current file's hits.
//
// Hits: a <line> counts wherever it is inside a <class>; the lines under
// <methods> repeat the class's own lines, so a line's count is the maximum of
// its <line> elements, never their sum. A file can be split over several
// <class> elements (inner classes, one class per package a file is compiled
// into): consecutive classes with the same file are merged the same way, by
// maximum, and emitted once; the same file appearing again later is emitted
// again and the store adds the two.
//
// Paths: a class's filename (the last, if the attribute is given twice, as
// for a line's number and hits) is resolved against the <source> elements:
//   - an absolute filename (/… or C:/…) loses the longest absolute <source>
//     it is under, unless Options.StripPrefix is set (then StripPrefix
//     decides);
//   - a relative filename is joined to the first <source> when that source is
//     relative ("src", "."; gcovr 5 writes its --root relative to the
//     working directory); when it is absolute, the filename is taken as
//     relative to the repository root (coverage.py and istanbul write the
//     project root as <source> and filenames relative to it), unless
//     Options.StripPrefix is set and source/filename lies under it, in which
//     case source/filename is used and StripPrefix removed from it
//     (<source>/ci/repo/src/main/java</source> and StripPrefix /ci/repo give
//     src/main/java/<filename>).
//
// Branches: a <line branch="true" condition-coverage="50% (1/2)"> has 2
// branches, 1 of them covered (the counts in brackets; the percentage is not
// read). Like hits, a line given by several <line> elements keeps the larger
// figures. A branch="true" line without condition-coverage has no figures;
// a condition-coverage that does not end in "(<covered>/<branches>)" with
// covered at most branches is an error.
//
// MapPath then applies StripPrefix and AddPrefix. Malformed XML, a missing or
// non-integer number or hits, a number below 1, a negative hits value or a
// class without filename is a ParseError naming the report line and element.

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/plumbhq/plumb"
)

const cobMaxLine = maxLine

func parseCobertura(r io.Reader, opt Options, emit Emit) error {
	var (
		sources  []string
		srcText  []byte // text of the open <source>
		inSource bool
		inClass  bool
		curPath  string // file being collected
		cur      = lineMap{combine: maxHits}
		have     bool // cur belongs to curPath
		scratch  []byte
	)
	flush := func() error {
		if !have {
			return nil
		}
		f := cur.file(curPath)
		have, curPath = false, ""
		return emit(f)
	}
	start := func(sc *xmlScanner, name []byte, _ int) error {
		inSource = false
		switch string(name) {
		case "source":
			inSource, srcText = true, srcText[:0]
		case "class":
			a := sc.attr("filename", true)
			if a == nil {
				return sc.fail(`expected a filename="…" attribute`)
			}
			fn := a.value
			var ok bool
			scratch, ok = xmlDecode(scratch[:0], fn)
			if !ok || !utf8.Valid(scratch) || len(bytes.TrimSpace(scratch)) == 0 {
				return sc.fail("expected a filename=\"…\" attribute naming a file in UTF-8, got %q", fn)
			}
			p, ok := MapPath(cobResolve(string(bytes.TrimSpace(scratch)), sources, opt), opt)
			if !ok {
				return sc.fail("expected a filename inside the repository, got %q", scratch)
			}
			if p != curPath || !have {
				if err := flush(); err != nil {
					return err
				}
				curPath, have = p, true
			}
			inClass = true
		case "line":
			if !inClass {
				break
			}
			n, c, br, msg := cobLineAttrs(sc)
			if msg != "" {
				return sc.fail("%s", msg)
			}
			cur.add(n, c)
			cur.branch(n, br.Total, br.Covered)
		}
		return nil
	}
	end := func(sc *xmlScanner, name []byte, _ int) error {
		inSource = false
		switch string(name) {
		case "source":
			s := bytes.TrimSpace(srcText)
			if !utf8.Valid(s) {
				return sc.fail("expected a <source> path in UTF-8")
			}
			if len(s) > 0 {
				sources = append(sources, string(s))
			}
		case "class":
			inClass = false
		}
		return nil
	}
	text := func(sc *xmlScanner) error {
		if !inSource {
			return nil
		}
		if len(srcText)+len(sc.text) > 1<<16 {
			return sc.fail("expected a <source> path shorter than 64 KiB")
		}
		if sc.literal {
			srcText = append(srcText, sc.text...)
		} else {
			srcText, _ = xmlDecode(srcText, sc.text)
		}
		return nil
	}
	return readXMLReport(r, &xmlReport{format: Cobertura, mode: xmlModeCobertura, root: "coverage", title: "Cobertura report",
		start: start, end: end, text: text, eof: flush})
}

// cobLineAttrs reads a <line>'s number, hits and branch figures from the
// scanner's attributes.
func cobLineAttrs(s *xmlScanner) (n int, hits int64, br plumb.LineBranches, msg string) {
	var num, h, isBranch, cond []byte
	var haveNum, haveHits, haveCond bool
	for i := range s.attrs {
		a := &s.attrs[i]
		v := a.value
		if a.decode {
			v, _ = xmlDecode(nil, v)
		}
		switch string(xmlLocal(a.name)) {
		case "number":
			num, haveNum = v, true
		case "hits":
			h, haveHits = v, true
		case "branch":
			isBranch = v
		case "condition-coverage":
			cond, haveCond = v, true
		}
	}
	if !haveNum {
		return 0, 0, br, `expected a number="<line number>" attribute`
	}
	v, ok := goCoverUint(bytes.TrimSpace(num), cobMaxLine)
	if !ok || v < 1 {
		return 0, 0, br, fmt.Sprintf(`expected number="<line number>" with an integer from 1 to %d, got %q`, cobMaxLine, lcovQuote(num))
	}
	if !haveHits {
		return 0, 0, br, `expected a hits="<count>" attribute`
	}
	c, ok := goCoverUint(bytes.TrimSpace(h), math.MaxInt64)
	if !ok {
		return 0, 0, br, fmt.Sprintf(`expected hits="<count>" with an integer of at least 0, got %q`, lcovQuote(h))
	}
	if haveCond && string(bytes.TrimSpace(isBranch)) == "true" {
		covered, total, ok := cobCondition(cond)
		if !ok {
			return 0, 0, br, fmt.Sprintf(`expected condition-coverage="<percent>%% (<covered>/<branches>)" with 0 <= covered <= branches, got %q`, lcovQuote(cond))
		}
		br = plumb.LineBranches{Line: int(v), Total: total, Covered: covered}
	}
	return int(v), c, br, ""
}

// cobCondition reads the "(covered/total)" of a condition-coverage value
// such as "50% (1/2)"; the percentage before it is not read.
func cobCondition(v []byte) (covered, total int, ok bool) {
	open, slash, end := bytes.IndexByte(v, '('), bytes.IndexByte(v, '/'), bytes.IndexByte(v, ')')
	if open < 0 || slash < open || end < slash {
		return 0, 0, false
	}
	c, ok1 := goCoverUint(bytes.TrimSpace(v[open+1:slash]), math.MaxInt32)
	t, ok2 := goCoverUint(bytes.TrimSpace(v[slash+1:end]), math.MaxInt32)
	if !ok1 || !ok2 || c > t || len(bytes.TrimSpace(v[end+1:])) > 0 {
		return 0, 0, false
	}
	return int(c), int(t), true
}

// cobEncoding reads the encoding of the XML declaration at the start of the
// buffer: UTF-8 and US-ASCII are read as they are, ISO-8859-1 is turned into
// UTF-8, any other is an error.
func (s *xmlScanner) cobEncoding() error {
	head := s.buf[s.pos:s.end]
	if !bytes.HasPrefix(head, []byte("<?xml")) {
		return nil
	}
	e := bytes.Index(head, []byte("?>"))
	if e <= 0 {
		return nil
	}
	enc := cobDeclEncoding(head[:e])
	switch strings.ToLower(enc) {
	case "", "utf-8", "utf8", "us-ascii", "ascii":
	case "iso-8859-1", "latin1", "latin-1", "iso8859-1":
		rest := append([]byte(nil), head...)
		s.r = &cobLatin1{r: bufio.NewReader(io.MultiReader(bytes.NewReader(rest), s.r))}
		s.pos, s.end, s.counted, s.lineHead, s.eof = 0, 0, 0, 0, false
	default:
		return &ParseError{Format: Cobertura, Line: 1, Msg: fmt.Sprintf("expected encoding UTF-8, US-ASCII or ISO-8859-1, got %q", enc)}
	}
	return nil
}

// cobDeclEncoding finds encoding="…" in an XML declaration.
func cobDeclEncoding(decl []byte) string {
	i := bytes.Index(decl, []byte("encoding"))
	if i < 0 {
		return ""
	}
	rest := bytes.TrimLeft(decl[i+len("encoding"):], " \t\r\n")
	if len(rest) == 0 || rest[0] != '=' {
		return ""
	}
	rest = bytes.TrimLeft(rest[1:], " \t\r\n")
	if len(rest) == 0 || rest[0] != '"' && rest[0] != '\'' {
		return ""
	}
	if j := bytes.IndexByte(rest[1:], rest[0]); j >= 0 {
		return string(rest[1 : 1+j])
	}
	return ""
}

// cobIsAbs reports whether a slash-separated path is absolute on Unix or
// Windows.
func cobIsAbs(p string) bool {
	return strings.HasPrefix(p, "/") ||
		len(p) >= 3 && p[1] == ':' && p[2] == '/' && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z')
}

// cobResolve applies the <source> rules (see the file comment).
func cobResolve(filename string, sources []string, opt Options) string {
	f := strings.ReplaceAll(filename, "\\", "/")
	strip := strings.Trim(strings.ReplaceAll(opt.StripPrefix, "\\", "/"), "/")
	if cobIsAbs(f) {
		if strip != "" {
			return f
		}
		best := ""
		for _, s := range sources {
			s = strings.TrimRight(strings.ReplaceAll(s, "\\", "/"), "/")
			if cobIsAbs(s) && len(s) > len(best) && strings.HasPrefix(f, s+"/") {
				best = s
			}
		}
		if best != "" {
			return f[len(best)+1:]
		}
		return f
	}
	if len(sources) == 0 {
		return f
	}
	s := strings.TrimRight(strings.ReplaceAll(sources[0], "\\", "/"), "/")
	if !cobIsAbs(s) {
		return path.Join(s, f)
	}
	if strip != "" {
		joined := s + "/" + f
		if q := strings.TrimPrefix(joined, "/"); strings.HasPrefix(q, strip+"/") {
			return joined
		}
	}
	return f
}

// cobLatin1 turns ISO-8859-1 into UTF-8.
type cobLatin1 struct {
	r   *bufio.Reader
	out bytes.Buffer
}

func (l *cobLatin1) Read(p []byte) (int, error) {
	for l.out.Len() < len(p) {
		c, err := l.r.ReadByte()
		if err != nil {
			if l.out.Len() > 0 {
				break
			}
			return 0, err
		}
		l.out.WriteRune(rune(c))
	}
	return l.out.Read(p)
}
