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
// The reader streams the document through cobScanner, a small XML tokenizer
// that allocates nothing per element (the same reader over encoding/xml's
// Token, cobRefParse in the tests, was measured at a tenth of its speed,
// ~35 MB/s, below the 100 MB/s goal), keeping only the current file's hits.
//
// Hits: a <line> counts wherever it is inside a <class>; the lines under
// <methods> repeat the class's own lines, so a line's count is the maximum of
// its <line> elements, never their sum. A file can be split over several
// <class> elements (inner classes, one class per package a file is compiled
// into): consecutive classes with the same file are merged the same way, by
// maximum, and emitted once; the same file appearing again later is emitted
// again and the store adds the two.
//
// Paths: a class's filename is resolved against the <source> elements:
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
// MapPath then applies StripPrefix and AddPrefix. Malformed XML, a missing or
// non-integer number or hits, a number below 1, a negative hits value or a
// class without filename is a ParseError naming the report line and element.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"
)

const cobMaxLine = lcovMaxLine

func init() { parsers[Cobertura] = parseCobertura }

func parseCobertura(r io.Reader, opt Options, emit Emit) error {
	sc, err := newCobScanner(r)
	if err != nil {
		return err
	}
	var (
		sources  []string
		srcText  []byte // text of the open <source>
		inSource bool
		inClass  bool
		curPath  string // file being collected
		cur      []int64
		have     bool // cur belongs to curPath
		scratch  []byte
	)
	flush := func() error {
		if !have {
			return nil
		}
		f := File{Path: curPath, Hits: cur}
		cur, have, curPath = nil, false, ""
		return emit(f)
	}
	for {
		kind, err := sc.next()
		if err != nil {
			return err
		}
		switch kind {
		case cobEOF:
			return flush()
		case cobStart:
			name := cobLocal(sc.name)
			inSource = false
			if len(sc.stackOff) == 1 && string(name) != "coverage" {
				return sc.fail("expected the root element <coverage> of a Cobertura report")
			}
			switch string(name) {
			case "source":
				inSource, srcText = true, srcText[:0]
			case "class":
				fn, ok := sc.attr("filename")
				if !ok {
					return sc.fail(`expected a filename="…" attribute`)
				}
				scratch, ok = cobDecode(scratch[:0], fn)
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
				n, c, msg := sc.lineAttrs()
				if msg != "" {
					return sc.fail("%s", msg)
				}
				if n > len(cur) {
					cur = lcovGrow(cur, n)
				}
				cur[n-1] = max(cur[n-1], c)
			}
		case cobEnd:
			inSource = false
			switch string(cobLocal(sc.name)) {
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
		case cobText:
			if !inSource {
				break
			}
			if len(srcText)+len(sc.text) > 1<<16 {
				return sc.fail("expected a <source> path shorter than 64 KiB")
			}
			if sc.cdata {
				srcText = append(srcText, sc.text...)
			} else {
				srcText, _ = cobDecode(srcText, sc.text)
			}
		}
	}
}

// lineAttrs reads a <line>'s number and hits from the scanner's attributes.
func (s *cobScanner) lineAttrs() (n int, hits int64, msg string) {
	var num, h []byte
	var haveNum, haveHits bool
	for i := range s.attrs {
		a := &s.attrs[i]
		v := a.value
		if a.esc || bytes.IndexByte(v, '\r') >= 0 {
			v, _ = cobDecode(nil, v)
		}
		switch string(cobLocal(a.name)) {
		case "number":
			num, haveNum = v, true
		case "hits":
			h, haveHits = v, true
		}
	}
	if !haveNum {
		return 0, 0, `expected a number="<line number>" attribute`
	}
	v, ok := goCoverUint(bytes.TrimSpace(num), cobMaxLine)
	if !ok || v < 1 {
		return 0, 0, fmt.Sprintf(`expected number="<line number>" with an integer from 1 to %d, got %q`, cobMaxLine, lcovQuote(num))
	}
	if !haveHits {
		return 0, 0, `expected a hits="<count>" attribute`
	}
	c, ok := goCoverUint(bytes.TrimSpace(h), math.MaxInt64)
	if !ok {
		return 0, 0, fmt.Sprintf(`expected hits="<count>" with an integer of at least 0, got %q`, lcovQuote(h))
	}
	return int(v), c, ""
}

// A cobScanner is a small streaming XML tokenizer, several times faster than
// encoding/xml because it allocates nothing per element: names, attributes
// and text are slices of its buffer, valid until the next call to next. It
// checks what makes a document well-formed for this purpose (names, quoted
// attributes without '<', entity and character references, matching end
// tags, one root element, markup outside the root limited to comments,
// processing instructions, a DOCTYPE and whitespace) but not every rule of
// XML 1.0 (e.g. the Char production in text). Every token — a tag, a text
// run, a comment — must fit in cobMaxToken bytes. The tests compare it with
// encoding/xml on the same documents (fuzzed).
type cobScanner struct {
	r        io.Reader
	buf      []byte
	pos, end int
	eof      bool
	rerr     error
	lines    int // newlines before buf[counted]
	counted  int
	tokStart int

	stack    []byte // open elements' names, end to end
	stackOff []int  // where each starts in stack
	rooted   bool   // the root element has started
	pending  bool   // a self-closing tag's end is due

	// The token: a start or end tag's name and (start) attributes, or text.
	name  []byte
	attrs []cobRawAttr
	text  []byte
	cdata bool
}

type cobRawAttr struct {
	name, value []byte // value as written (references not decoded)
	esc         bool   // value contains '&'
}

type cobKind int8

const (
	cobEOF cobKind = iota
	cobStart
	cobEnd
	cobText
)

const (
	cobBufSize  = 256 << 10
	cobMaxToken = 4 << 20
)

// errCobMore says a token runs past the buffered data.
var errCobMore = errors.New("more input needed")

func newCobScanner(r io.Reader) (*cobScanner, error) {
	s := &cobScanner{r: r, buf: make([]byte, cobBufSize)}
	// Read the first bytes: a BOM, the XML declaration and its encoding.
	for s.end < 512 && !s.eof {
		if err := s.more(); err != nil {
			return nil, err
		}
	}
	if bytes.HasPrefix(s.buf[:s.end], []byte("\xEF\xBB\xBF")) {
		s.pos, s.counted = 3, 3
	}
	head := s.buf[s.pos:s.end]
	if bytes.HasPrefix(head, []byte("<?xml")) {
		if e := bytes.Index(head, []byte("?>")); e > 0 {
			enc := cobDeclEncoding(head[:e])
			switch strings.ToLower(enc) {
			case "", "utf-8", "utf8", "us-ascii", "ascii":
			case "iso-8859-1", "latin1", "latin-1", "iso8859-1":
				rest := append([]byte(nil), head...)
				s.r = &cobLatin1{r: bufio.NewReader(io.MultiReader(bytes.NewReader(rest), r))}
				s.pos, s.end, s.counted, s.eof = 0, 0, 0, false
			default:
				return nil, &ParseError{Format: Cobertura, Line: 1, Msg: fmt.Sprintf("expected encoding UTF-8, US-ASCII or ISO-8859-1, got %q", enc)}
			}
		}
	}
	return s, nil
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

// more reads more input after the buffered data, first moving the data not
// yet consumed to the front of the buffer (or growing it up to cobMaxToken).
func (s *cobScanner) more() error {
	if s.eof {
		return io.ErrUnexpectedEOF
	}
	if s.pos > 0 {
		s.lines += bytes.Count(s.buf[s.counted:s.pos], []byte{'\n'})
		n := copy(s.buf, s.buf[s.pos:s.end])
		s.tokStart -= s.pos
		s.end, s.pos, s.counted = n, 0, 0
	}
	if s.end == len(s.buf) {
		if len(s.buf) >= cobMaxToken {
			return s.fail("expected markup and text runs shorter than %d MiB", cobMaxToken>>20)
		}
		grown := make([]byte, 2*len(s.buf))
		copy(grown, s.buf[:s.end])
		s.buf = grown
	}
	for {
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		if err == io.EOF {
			s.eof = true
			return nil
		}
		if err != nil {
			s.rerr = err
			return err
		}
		if n > 0 {
			return nil
		}
	}
}

// line is the report line of buf[p].
func (s *cobScanner) line(p int) int {
	if p < s.counted {
		p = s.counted
	}
	return 1 + s.lines + bytes.Count(s.buf[s.counted:p], []byte{'\n'})
}

// fail is a ParseError at the current token, naming the innermost element.
func (s *cobScanner) fail(msg string, args ...any) error {
	elem := ""
	if n := len(s.stackOff); n > 0 {
		elem = "<" + string(s.stack[s.stackOff[n-1]:]) + ">"
	}
	return &ParseError{Format: Cobertura, Line: s.line(s.tokStart), Element: elem, Msg: fmt.Sprintf(msg, args...)}
}

// attr is the value of a start tag's attribute, references not decoded.
func (s *cobScanner) attr(local string) ([]byte, bool) {
	for i := range s.attrs {
		if string(cobLocal(s.attrs[i].name)) == local {
			return s.attrs[i].value, true
		}
	}
	return nil, false
}

func (s *cobScanner) pop() {
	n := len(s.stackOff) - 1
	s.stack = s.stack[:s.stackOff[n]]
	s.stackOff = s.stackOff[:n]
}

// next reads the next token.
func (s *cobScanner) next() (cobKind, error) {
	if s.pending {
		s.pending = false
		s.pop()
		return cobEnd, nil
	}
	for {
		s.tokStart = s.pos
		kind, n, err := s.token(s.buf[s.pos:s.end])
		if err == errCobMore {
			if s.eof {
				if s.pos == s.end {
					return s.atEOF()
				}
				return 0, s.fail("expected more input: the report ends inside markup")
			}
			if err := s.more(); err != nil {
				return 0, err
			}
			continue
		}
		if err != nil {
			return 0, err
		}
		s.pos += n
		if kind < 0 { // skipped: comment, PI, DOCTYPE, whitespace outside the root
			continue
		}
		return kind, nil
	}
}

func (s *cobScanner) atEOF() (cobKind, error) {
	if n := len(s.stackOff); n > 0 {
		return 0, s.fail("expected </%s> before the end of the report", s.stack[s.stackOff[n-1]:])
	}
	if !s.rooted {
		return 0, s.fail("expected a root element")
	}
	return cobEOF, nil
}

// token reads one token at the start of b, returning its kind (-1 for one
// to skip) and length, or errCobMore when b ends inside it.
func (s *cobScanner) token(b []byte) (cobKind, int, error) {
	if len(b) == 0 {
		return 0, 0, errCobMore
	}
	depth := len(s.stackOff)
	if b[0] != '<' {
		i := bytes.IndexByte(b, '<')
		if i < 0 {
			if !s.eof {
				return 0, 0, errCobMore
			}
			i = len(b)
		}
		t := b[:i]
		if bytes.IndexByte(t, '&') >= 0 {
			if _, ok := cobDecode(nil, t); !ok {
				return 0, 0, s.fail("expected a character or entity reference (&amp; &lt; &gt; &quot; &apos; &#…;) after &")
			}
		}
		if depth == 0 {
			if len(bytes.TrimLeft(t, " \t\r\n")) > 0 {
				return 0, 0, s.fail("expected only markup outside the root element, got text %q", lcovQuote(t))
			}
			return -1, i, nil
		}
		s.text, s.cdata = t, false
		return cobText, i, nil
	}
	if len(b) < 2 {
		return 0, 0, errCobMore
	}
	switch b[1] {
	case '/':
		return s.endTag(b)
	case '?':
		e := bytes.Index(b[2:], []byte("?>"))
		if e < 0 {
			return 0, 0, errCobMore
		}
		if ne := cobNameEnd(b, 2); ne == 2 || ne == len(b) {
			return 0, 0, s.fail("expected a processing instruction target after <?")
		}
		return -1, e + 4, nil
	case '!':
		return s.bang(b, depth)
	}
	return s.startTag(b, depth)
}

func (s *cobScanner) bang(b []byte, depth int) (cobKind, int, error) {
	for _, p := range []string{"<!--", "<![CDATA[", "<!DOCTYPE"} {
		if len(b) < len(p) && strings.HasPrefix(p, string(b)) {
			return 0, 0, errCobMore
		}
	}
	switch {
	case bytes.HasPrefix(b, []byte("<!--")):
		e := bytes.Index(b[4:], []byte("-->"))
		if e < 0 {
			return 0, 0, errCobMore
		}
		if body := b[4 : 4+e]; bytes.Contains(body, []byte("--")) || len(body) > 0 && body[len(body)-1] == '-' {
			return 0, 0, s.fail(`expected no "--" inside a comment`)
		}
		return -1, e + 7, nil
	case bytes.HasPrefix(b, []byte("<![CDATA[")):
		e := bytes.Index(b[9:], []byte("]]>"))
		if e < 0 {
			return 0, 0, errCobMore
		}
		if depth == 0 {
			if len(bytes.TrimLeft(b[9:9+e], " \t\r\n")) > 0 {
				return 0, 0, s.fail("expected only markup outside the root element, got CDATA")
			}
			return -1, e + 12, nil
		}
		s.text, s.cdata = b[9:9+e], true
		return cobText, e + 12, nil
	case bytes.HasPrefix(b, []byte("<!DOCTYPE")):
		if s.rooted {
			return 0, 0, s.fail("expected <!DOCTYPE> only before the root element")
		}
		// Skip to the '>' that closes it: outside quotes and the [internal
		// subset].
		var quote byte
		depth := 0
		for i := 9; i < len(b); i++ {
			c := b[i]
			switch {
			case quote != 0:
				if c == quote {
					quote = 0
				}
			case c == '"' || c == '\'':
				quote = c
			case c == '[':
				depth++
			case c == ']':
				depth--
			case c == '>' && depth <= 0:
				return -1, i + 1, nil
			}
		}
		return 0, 0, errCobMore
	}
	return 0, 0, s.fail("expected <!--, <![CDATA[ or <!DOCTYPE after <!")
}

func (s *cobScanner) endTag(b []byte) (cobKind, int, error) {
	ne := cobNameEnd(b, 2)
	if ne == len(b) {
		return 0, 0, errCobMore
	}
	name := b[2:ne]
	i := cobSkipSpace(b, ne)
	if i == len(b) {
		return 0, 0, errCobMore
	}
	if len(name) == 0 || !cobNameStart(name[0]) || b[i] != '>' {
		return 0, 0, s.fail("expected </name>")
	}
	n := len(s.stackOff)
	if n == 0 {
		return 0, 0, s.fail("expected no end tag outside the root element, got </%s>", name)
	}
	if open := s.stack[s.stackOff[n-1]:]; !bytes.Equal(open, name) {
		return 0, 0, s.fail("expected </%s>, got </%s>", open, name)
	}
	s.name = name
	s.pop()
	return cobEnd, i + 1, nil
}

func (s *cobScanner) startTag(b []byte, depth int) (cobKind, int, error) {
	ne := cobNameEnd(b, 1)
	if ne == len(b) {
		return 0, 0, errCobMore
	}
	name := b[1:ne]
	if len(name) == 0 || !cobNameStart(name[0]) || bytes.Count(name, []byte{':'}) > 1 {
		return 0, 0, s.fail("expected an element name after <")
	}
	if depth == 0 && s.rooted {
		return 0, 0, s.fail("expected a single root element, got a second one <%s>", name)
	}
	s.attrs = s.attrs[:0]
	i := ne
	for {
		i = cobSkipSpace(b, i)
		if i == len(b) {
			return 0, 0, errCobMore
		}
		switch b[i] {
		case '>', '/':
			self := b[i] == '/'
			if self {
				if i+1 == len(b) {
					return 0, 0, errCobMore
				}
				if b[i+1] != '>' {
					return 0, 0, s.fail("expected /> or > to end <%s>", name)
				}
				i++
			}
			s.rooted = true
			s.stackOff = append(s.stackOff, len(s.stack))
			s.stack = append(s.stack, name...)
			s.name, s.pending = name, self
			return cobStart, i + 1, nil
		}
		an := cobNameEnd(b, i)
		if an == len(b) {
			return 0, 0, errCobMore
		}
		if an == i || !cobNameStart(b[i]) {
			return 0, 0, s.fail("expected an attribute name, /> or > in <%s>", name)
		}
		attr := cobRawAttr{name: b[i:an]}
		i = cobSkipSpace(b, an)
		if i == len(b) {
			return 0, 0, errCobMore
		}
		if b[i] != '=' {
			return 0, 0, s.fail("expected = after attribute %s in <%s>", attr.name, name)
		}
		i = cobSkipSpace(b, i+1)
		if i == len(b) {
			return 0, 0, errCobMore
		}
		q := b[i]
		if q != '"' && q != '\'' {
			return 0, 0, s.fail("expected a quoted value for attribute %s in <%s>", attr.name, name)
		}
		// One pass for the closing quote, '<' and '&': values are short.
		j := i + 1
		for ; j < len(b) && b[j] != q; j++ {
			switch b[j] {
			case '<':
				return 0, 0, s.fail("expected no unescaped < in attribute %s of <%s>", attr.name, name)
			case '&':
				attr.esc = true
			}
		}
		if j == len(b) {
			return 0, 0, errCobMore
		}
		attr.value = b[i+1 : j]
		if attr.esc {
			if _, ok := cobDecode(nil, attr.value); !ok {
				return 0, 0, s.fail("expected a character or entity reference after & in attribute %s of <%s>", attr.name, name)
			}
		}
		s.attrs = append(s.attrs, attr)
		i = j + 1
	}
}

func cobNameStart(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_' || c == ':' || c >= 0x80
}

// cobNameEnd is the index of the first byte from i that cannot be in a name.
func cobNameEnd(b []byte, i int) int {
	for ; i < len(b); i++ {
		c := b[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '_' || c == ':' || c == '.' || c == '-' || c >= 0x80) {
			return i
		}
	}
	return i
}

func cobSkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	return i
}

// cobLocal is a name without its namespace prefix (as encoding/xml splits
// it).
func cobLocal(name []byte) []byte {
	if i := bytes.IndexByte(name, ':'); i > 0 && i < len(name)-1 {
		return name[i+1:]
	}
	return name
}

// cobDecode appends raw with its references decoded and line ends
// normalised (\r\n and \r become \n), reporting false for a malformed
// reference.
func cobDecode(dst, raw []byte) ([]byte, bool) {
	for len(raw) > 0 {
		i := bytes.IndexAny(raw, "&\r")
		if i < 0 {
			return append(dst, raw...), true
		}
		dst = append(dst, raw[:i]...)
		if raw[i] == '\r' {
			dst = append(dst, '\n')
			raw = raw[i+1:]
			if len(raw) > 0 && raw[0] == '\n' {
				raw = raw[1:]
			}
			continue
		}
		raw = raw[i+1:]
		semi := bytes.IndexByte(raw, ';')
		if semi < 1 {
			return dst, false
		}
		ref := raw[:semi]
		raw = raw[semi+1:]
		if ref[0] == '#' {
			base, digits := 10, ref[1:]
			if len(digits) > 0 && digits[0] == 'x' {
				base, digits = 16, digits[1:]
			}
			v, err := strconv.ParseUint(string(digits), base, 32)
			if err != nil || len(digits) == 0 || !cobIsChar(rune(v)) {
				return dst, false
			}
			dst = utf8.AppendRune(dst, rune(v))
			continue
		}
		switch string(ref) {
		case "lt":
			dst = append(dst, '<')
		case "gt":
			dst = append(dst, '>')
		case "amp":
			dst = append(dst, '&')
		case "apos":
			dst = append(dst, '\'')
		case "quot":
			dst = append(dst, '"')
		default:
			return dst, false
		}
	}
	return dst, true
}

func cobIsChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
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
