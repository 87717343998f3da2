package coverage

// The XML tokenizer of the Cobertura, JaCoCo and Clover readers.

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// An xmlScanner is a small streaming XML tokenizer, several times faster
// than encoding/xml's Decoder.Token because it allocates nothing per
// element: names, attributes and text are slices of its buffer, valid until
// the next call to next. Every token — a tag, a text run, a comment — must
// fit in xmlMaxToken bytes, so that a report of any size is read in bounded
// memory.
//
// The reader chooses which rules it checks (xmlMode):
//
//   - xmlModeCobertura, the Cobertura reader's own: what makes a document
//     well-formed for this purpose (names, quoted attributes without '<',
//     entity and character references, matching end tags, one root element,
//     markup outside the root limited to comments, processing instructions,
//     a DOCTYPE and whitespace) but not every rule of XML 1.0 (e.g. the Char
//     production in text); ISO-8859-1 is read (see cobEncoding). Errors say
//     what was expected and name the innermost open element. The tests
//     compare it with encoding/xml on the same documents (fuzzed).
//   - xmlModeStdlib, for the JaCoCo and Clover readers, which were first
//     written over encoding/xml: exactly what encoding/xml's Decoder.Token
//     accepts (Strict, no CharsetReader: UTF-8 only; but for the token size
//     limit), with its error messages and positions. The scanner reads the
//     tokens that are plainly well-formed itself (ASCII names, valid
//     references, text of XML characters); any other token — the XML
//     declaration, a DOCTYPE, a name outside ASCII, anything malformed — is
//     read by encoding/xml (see stdToken), so that it is accepted, read and
//     rejected exactly as when encoding/xml read the whole report. Such
//     tokens are rare, and so is the cost. FuzzXMLStdlib compares the two.
type xmlScanner struct {
	r        io.Reader
	format   Format
	mode     xmlMode
	buf      []byte
	pos, end int
	eof      bool
	lines    int // newlines before buf[counted]
	counted  int
	lineHead int // index in buf (may be negative) where the line of buf[counted] starts
	tokStart int

	stack    []byte // open elements' names, end to end
	stackOff []int  // where each starts in stack
	rooted   bool   // the root element has started
	pending  bool   // a self-closing tag's end is due

	// The token: a start or end tag's name and (start) attributes, or text.
	name    []byte
	attrs   []xmlAttr
	text    []byte
	literal bool // text is to be taken as it is (CDATA, or decoded already); else decode it with xmlDecode

	scratch []byte // for validating references, and tokens read by encoding/xml
}

// xmlMode selects the rules an xmlScanner checks (see xmlScanner).
type xmlMode int8

const (
	xmlModeCobertura xmlMode = iota
	xmlModeStdlib
)

// An xmlAttr is an attribute of a start tag.
type xmlAttr struct {
	name, value []byte
	// decode says that value is as written, with references or carriage
	// returns: its value is xmlDecode(value).
	decode bool
}

type xmlKind int8

const (
	xmlEOF xmlKind = iota
	xmlStart
	xmlEnd
	xmlText
)

const (
	xmlBufSize  = 256 << 10
	xmlMaxToken = 4 << 20
)

// errXMLMore says a token runs past the buffered data.
var errXMLMore = errors.New("more input needed")

// newXMLScanner starts reading r, a report of format f.
func newXMLScanner(r io.Reader, f Format, mode xmlMode) (*xmlScanner, error) {
	s := &xmlScanner{r: r, format: f, mode: mode, buf: make([]byte, xmlBufSize)}
	// Read the first bytes: a BOM, the XML declaration and its encoding.
	for s.end < 512 && !s.eof {
		if err := s.more(); err != nil {
			return nil, err
		}
	}
	if bytes.HasPrefix(s.buf[:s.end], []byte("\xEF\xBB\xBF")) {
		s.pos, s.counted, s.lineHead = 3, 3, 3
	}
	if mode == xmlModeCobertura {
		if err := s.cobEncoding(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// more reads more input after the buffered data, first moving the data not
// yet consumed to the front of the buffer (or growing it up to xmlMaxToken).
func (s *xmlScanner) more() error {
	if s.eof {
		return io.ErrUnexpectedEOF
	}
	if s.pos > 0 {
		done := s.buf[s.counted:s.pos]
		if n := bytes.Count(done, []byte{'\n'}); n > 0 {
			s.lines += n
			s.lineHead = s.counted + bytes.LastIndexByte(done, '\n') + 1
		}
		n := copy(s.buf, s.buf[s.pos:s.end])
		s.tokStart -= s.pos
		s.lineHead -= s.pos
		s.end, s.pos, s.counted = n, 0, 0
	}
	if s.end == len(s.buf) {
		if len(s.buf) >= xmlMaxToken {
			return s.fail("expected markup and text runs shorter than %d MiB", xmlMaxToken>>20)
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
			return err
		}
		if n > 0 {
			return nil
		}
	}
}

// line is the report line of buf[p].
func (s *xmlScanner) line(p int) int {
	if p < s.counted {
		p = s.counted
	}
	return 1 + s.lines + bytes.Count(s.buf[s.counted:p], []byte{'\n'})
}

// col is the 1-based column of buf[p], in bytes (as encoding/xml counts).
func (s *xmlScanner) col(p int) int {
	if p < s.counted {
		p = s.counted
	}
	if i := bytes.LastIndexByte(s.buf[s.counted:p], '\n'); i >= 0 {
		return p - (s.counted + i + 1) + 1
	}
	return p - s.lineHead + 1
}

// tokPos is the line and column where the current token starts.
func (s *xmlScanner) tokPos() (line, col int) {
	return s.line(s.tokStart), s.col(s.tokStart)
}

// fail is a ParseError at the current token: in xmlModeCobertura naming the
// innermost element, in xmlModeStdlib the column.
func (s *xmlScanner) fail(msg string, args ...any) error {
	if s.mode == xmlModeStdlib {
		line, col := s.tokPos()
		return &ParseError{Format: s.format, Line: line, Element: fmt.Sprintf("column %d", col), Msg: fmt.Sprintf(msg, args...)}
	}
	elem := ""
	if n := len(s.stackOff); n > 0 {
		elem = "<" + string(s.stack[s.stackOff[n-1]:]) + ">"
	}
	return &ParseError{Format: s.format, Line: s.line(s.tokStart), Element: elem, Msg: fmt.Sprintf(msg, args...)}
}

// stdFail is encoding/xml's syntax error msg at buf[p], worded as the
// JaCoCo and Clover readers always have.
func (s *xmlScanner) stdFail(p int, msg string) error {
	return &ParseError{Format: s.format, Line: s.line(p), Element: fmt.Sprintf("column %d", s.col(p)), Msg: "expected well-formed XML: " + msg}
}

// attr finds a start tag's attribute by its local name, nil if there is
// none. encoding/xml accepts a name given twice; last says which one counts:
// the JaCoCo and Clover readers read the first (as they always have), the
// Cobertura reader the last (as it reads number and hits, and as its
// encoding/xml reference in the tests does).
func (s *xmlScanner) attr(local string, last bool) *xmlAttr {
	var found *xmlAttr
	for i := range s.attrs {
		if a := &s.attrs[i]; string(xmlLocal(a.name)) == local {
			if !last {
				return a
			}
			found = a
		}
	}
	return found
}

// attrString is the decoded value of a start tag's first attribute with the
// local name.
func (s *xmlScanner) attrString(local string) (string, bool) {
	if a := s.attr(local, false); a != nil {
		return string(a.decoded()), true
	}
	return "", false
}

// decoded is the attribute's value with references decoded and line ends
// normalised; it allocates only when there is something to decode.
func (a *xmlAttr) decoded() []byte {
	if !a.decode {
		return a.value
	}
	v, _ := xmlDecode(nil, a.value)
	return v
}

func (s *xmlScanner) push(name []byte) {
	s.rooted = true
	s.stackOff = append(s.stackOff, len(s.stack))
	s.stack = append(s.stack, name...)
}

func (s *xmlScanner) pop() {
	n := len(s.stackOff) - 1
	s.stack = s.stack[:s.stackOff[n]]
	s.stackOff = s.stackOff[:n]
}

// next reads the next token.
func (s *xmlScanner) next() (xmlKind, error) {
	if s.pending {
		s.pending = false
		s.pop()
		return xmlEnd, nil
	}
	for {
		s.tokStart = s.pos
		b := s.buf[s.pos:s.end]
		kind, n, err := s.token(b)
		if err == errXMLMore {
			if !s.eof {
				if err := s.more(); err != nil {
					return 0, err
				}
				continue
			}
			switch {
			case s.pos == s.end:
				return s.atEOF()
			case s.mode == xmlModeStdlib:
				kind, n, err = s.stdToken(b)
			default:
				return 0, s.fail("expected more input: the report ends inside markup")
			}
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

func (s *xmlScanner) atEOF() (xmlKind, error) {
	n := len(s.stackOff)
	if s.mode == xmlModeStdlib {
		if n > 0 {
			return 0, s.stdFail(s.end, "unexpected EOF")
		}
		return xmlEOF, nil
	}
	if n > 0 {
		return 0, s.fail("expected </%s> before the end of the report", s.stack[s.stackOff[n-1]:])
	}
	if !s.rooted {
		return 0, s.fail("expected a root element")
	}
	return xmlEOF, nil
}

// token reads one token at the start of b, returning its kind (-1 for one
// to skip) and length, or errXMLMore when b ends inside it.
func (s *xmlScanner) token(b []byte) (xmlKind, int, error) {
	if len(b) == 0 {
		return 0, 0, errXMLMore
	}
	depth := len(s.stackOff)
	if b[0] != '<' {
		return s.textToken(b, depth)
	}
	if len(b) < 2 {
		return 0, 0, errXMLMore
	}
	switch b[1] {
	case '/':
		return s.endTag(b)
	case '?':
		return s.procInst(b)
	case '!':
		return s.bang(b, depth)
	}
	return s.startTag(b, depth)
}

func (s *xmlScanner) textToken(b []byte, depth int) (xmlKind, int, error) {
	i := bytes.IndexByte(b, '<')
	if i < 0 {
		if !s.eof {
			return 0, 0, errXMLMore
		}
		i = len(b)
	}
	t := b[:i]
	if s.mode == xmlModeStdlib {
		if !s.stdText(t) {
			return s.stdToken(b)
		}
	} else if bytes.IndexByte(t, '&') >= 0 {
		if !s.refsValid(t) {
			return 0, 0, s.fail("expected a character or entity reference (&amp; &lt; &gt; &quot; &apos; &#…;) after &")
		}
	}
	if depth == 0 {
		if s.mode == xmlModeCobertura && len(bytes.TrimLeft(t, " \t\r\n")) > 0 {
			return 0, 0, s.fail("expected only markup outside the root element, got text %q", lcovQuote(t))
		}
		return -1, i, nil
	}
	s.text, s.literal = t, false
	return xmlText, i, nil
}

func (s *xmlScanner) procInst(b []byte) (xmlKind, int, error) {
	e := bytes.Index(b[2:], []byte("?>"))
	if e < 0 {
		return 0, 0, errXMLMore
	}
	ne := xmlNameEnd(b, 2)
	if s.mode == xmlModeStdlib {
		// The XML declaration's version and encoding are encoding/xml's
		// to check.
		if target := b[2:ne]; !xmlPlainName(target) || string(target) == "xml" {
			return s.stdToken(b)
		}
	} else if ne == 2 || ne == len(b) {
		return 0, 0, s.fail("expected a processing instruction target after <?")
	}
	return -1, e + 4, nil
}

func (s *xmlScanner) bang(b []byte, depth int) (xmlKind, int, error) {
	if s.mode == xmlModeStdlib && !bytes.HasPrefix(b, []byte("<!--")) && !bytes.HasPrefix(b, []byte("<![CDATA[")) {
		// A DOCTYPE or other directive (anywhere, as encoding/xml
		// allows), or a malformed or unfinished <!: encoding/xml's.
		return s.stdToken(b)
	}
	for _, p := range []string{"<!--", "<![CDATA[", "<!DOCTYPE"} {
		if len(b) < len(p) && strings.HasPrefix(p, string(b)) {
			return 0, 0, errXMLMore
		}
	}
	switch {
	case bytes.HasPrefix(b, []byte("<!--")):
		e := bytes.Index(b[4:], []byte("-->"))
		if e < 0 {
			return 0, 0, errXMLMore
		}
		if body := b[4 : 4+e]; bytes.Contains(body, []byte("--")) || len(body) > 0 && body[len(body)-1] == '-' {
			if s.mode == xmlModeStdlib {
				return s.stdToken(b)
			}
			return 0, 0, s.fail(`expected no "--" inside a comment`)
		}
		return -1, e + 7, nil
	case bytes.HasPrefix(b, []byte("<![CDATA[")):
		e := bytes.Index(b[9:], []byte("]]>"))
		if e < 0 {
			return 0, 0, errXMLMore
		}
		t := b[9 : 9+e]
		if s.mode == xmlModeStdlib && !xmlChars(t) {
			return s.stdToken(b)
		}
		if depth == 0 {
			if s.mode == xmlModeCobertura && len(bytes.TrimLeft(t, " \t\r\n")) > 0 {
				return 0, 0, s.fail("expected only markup outside the root element, got CDATA")
			}
			return -1, e + 12, nil
		}
		s.text, s.literal = t, true
		return xmlText, e + 12, nil
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
		return 0, 0, errXMLMore
	}
	return 0, 0, s.fail("expected <!--, <![CDATA[ or <!DOCTYPE after <!")
}

func (s *xmlScanner) endTag(b []byte) (xmlKind, int, error) {
	ne := xmlNameEnd(b, 2)
	if ne == len(b) {
		return 0, 0, errXMLMore
	}
	name := b[2:ne]
	i := xmlSkipSpace(b, ne)
	if i == len(b) {
		return 0, 0, errXMLMore
	}
	if s.mode == xmlModeStdlib {
		if !xmlPlainName(name) || b[i] != '>' {
			return s.stdToken(b)
		}
		if err := s.stdEnd(name, s.pos+i+1); err != nil {
			return 0, 0, err
		}
		return xmlEnd, i + 1, nil
	}
	if len(name) == 0 || !xmlNameStart(name[0]) || b[i] != '>' {
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
	return xmlEnd, i + 1, nil
}

// stdEnd closes the innermost element with the end tag </name>, which ends
// before buf[p], as encoding/xml's Token does: the names as written (prefix
// and local name) must be the same.
func (s *xmlScanner) stdEnd(name []byte, p int) error {
	space, local := xmlSplitName(name)
	n := len(s.stackOff)
	if n == 0 {
		return s.stdFail(p, "unexpected end element </"+string(local)+">")
	}
	if open := s.stack[s.stackOff[n-1]:]; !bytes.Equal(open, name) {
		oSpace, oLocal := xmlSplitName(open)
		if !bytes.Equal(oLocal, local) {
			return s.stdFail(p, "element <"+string(oLocal)+"> closed by </"+string(local)+">")
		}
		ns := string(space)
		if ns == "" {
			ns = `""`
		}
		return s.stdFail(p, "element <"+string(oLocal)+"> in space "+string(oSpace)+" closed by </"+string(local)+"> in space "+ns)
	}
	s.name = name
	s.pop()
	return nil
}

func (s *xmlScanner) startTag(b []byte, depth int) (xmlKind, int, error) {
	std := s.mode == xmlModeStdlib
	ne := xmlNameEnd(b, 1)
	if ne == len(b) {
		return 0, 0, errXMLMore
	}
	name := b[1:ne]
	if std {
		if !xmlPlainName(name) {
			return s.stdToken(b)
		}
	} else {
		if len(name) == 0 || !xmlNameStart(name[0]) || bytes.Count(name, []byte{':'}) > 1 {
			return 0, 0, s.fail("expected an element name after <")
		}
		if depth == 0 && s.rooted {
			return 0, 0, s.fail("expected a single root element, got a second one <%s>", name)
		}
	}
	s.attrs = s.attrs[:0]
	i := ne
	for {
		i = xmlSkipSpace(b, i)
		if i == len(b) {
			return 0, 0, errXMLMore
		}
		switch b[i] {
		case '>', '/':
			self := b[i] == '/'
			if self {
				if i+1 == len(b) {
					return 0, 0, errXMLMore
				}
				if b[i+1] != '>' {
					if std {
						return s.stdToken(b)
					}
					return 0, 0, s.fail("expected /> or > to end <%s>", name)
				}
				i++
			}
			s.push(name)
			s.name, s.pending = name, self
			return xmlStart, i + 1, nil
		}
		an := xmlNameEnd(b, i)
		if an == len(b) {
			return 0, 0, errXMLMore
		}
		attr := xmlAttr{name: b[i:an]}
		if std {
			if !xmlPlainName(attr.name) {
				return s.stdToken(b)
			}
		} else if an == i || !xmlNameStart(b[i]) {
			return 0, 0, s.fail("expected an attribute name, /> or > in <%s>", name)
		}
		i = xmlSkipSpace(b, an)
		if i == len(b) {
			return 0, 0, errXMLMore
		}
		if b[i] != '=' {
			if std {
				return s.stdToken(b)
			}
			return 0, 0, s.fail("expected = after attribute %s in <%s>", attr.name, name)
		}
		i = xmlSkipSpace(b, i+1)
		if i == len(b) {
			return 0, 0, errXMLMore
		}
		q := b[i]
		if q != '"' && q != '\'' {
			if std {
				return s.stdToken(b)
			}
			return 0, 0, s.fail("expected a quoted value for attribute %s in <%s>", attr.name, name)
		}
		// One pass for the closing quote and the bytes that need a
		// second look: values are short.
		var seen uint8
		j := i + 1
		for ; j < len(b); j++ {
			c := b[j]
			k := xmlByteClass[c]
			if k == 0 {
				continue
			}
			if c == q {
				break
			}
			if c == '<' {
				if std {
					return s.stdToken(b)
				}
				return 0, 0, s.fail("expected no unescaped < in attribute %s of <%s>", attr.name, name)
			}
			seen |= k
		}
		if j == len(b) {
			return 0, 0, errXMLMore
		}
		attr.value = b[i+1 : j]
		attr.decode = seen&(xmlByteAmp|xmlByteCR) != 0
		if seen&xmlByteAmp != 0 && !s.refsValid(attr.value) {
			if std {
				return s.stdToken(b)
			}
			return 0, 0, s.fail("expected a character or entity reference after & in attribute %s of <%s>", attr.name, name)
		}
		if std && seen&(xmlByteCtl|xmlByteHigh) != 0 && !xmlChars(attr.value) {
			return s.stdToken(b)
		}
		s.attrs = append(s.attrs, attr)
		i = j + 1
	}
}

// stdText reports whether encoding/xml reads the text t (not CDATA) without
// an error: its references are valid, it holds no "]]>", and it is UTF-8 of
// XML characters.
func (s *xmlScanner) stdText(t []byte) bool {
	var seen uint8
	for _, c := range t {
		seen |= xmlByteClass[c]
	}
	switch {
	case seen&^xmlByteQuote == 0:
		return true
	case seen&xmlByteBracket != 0 && bytes.Contains(t, []byte("]]>")):
		return false
	case seen&xmlByteAmp != 0 && !s.refsValid(t):
		return false
	case seen&(xmlByteCtl|xmlByteHigh) != 0:
		return xmlChars(t)
	}
	return true
}

// refsValid reports whether every & in raw starts a reference xmlDecode
// reads.
func (s *xmlScanner) refsValid(raw []byte) bool {
	var ok bool
	s.scratch, ok = xmlDecode(s.scratch[:0], raw)
	return ok
}

// stdToken reads the token at the start of b with encoding/xml (see
// xmlScanner), as Decoder.Token does in the middle of a document: the token,
// or encoding/xml's error where encoding/xml stops. It returns errXMLMore
// when encoding/xml reads to the end of b before the report's end.
func (s *xmlScanner) stdToken(b []byte) (xmlKind, int, error) {
	d := xml.NewDecoder(bytes.NewReader(b))
	tok, err := d.RawToken()
	n := int(d.InputOffset())
	if n >= len(b) && !s.eof {
		return 0, 0, errXMLMore
	}
	if err != nil {
		return 0, 0, s.stdError(d, err)
	}
	switch t := tok.(type) {
	case xml.StartElement:
		// The names as written and the decoded values go to scratch,
		// end to end (the values need no more decoding); ends[k] is
		// where the k-th of them ends.
		s.scratch = append(s.scratch[:0], xmlJoinName(t.Name)...)
		ends := []int{len(s.scratch)}
		for _, a := range t.Attr {
			s.scratch = append(s.scratch, xmlJoinName(a.Name)...)
			ends = append(ends, len(s.scratch))
			s.scratch = append(s.scratch, a.Value...)
			ends = append(ends, len(s.scratch))
		}
		part := func(k int) []byte { return s.scratch[ends[k-1]:ends[k]:ends[k]] }
		s.name = s.scratch[:ends[0]:ends[0]]
		s.attrs = s.attrs[:0]
		for k := 1; k < len(ends); k += 2 {
			s.attrs = append(s.attrs, xmlAttr{name: part(k), value: part(k + 1)})
		}
		s.push(s.name)
		s.pending = n >= 2 && b[n-2] == '/' // "/>": no '/' ends a value
		return xmlStart, n, nil
	case xml.EndElement:
		name := []byte(xmlJoinName(t.Name))
		if err := s.stdEnd(name, s.pos+n); err != nil {
			return 0, 0, err
		}
		return xmlEnd, n, nil
	case xml.CharData:
		if len(s.stackOff) == 0 {
			return -1, n, nil
		}
		s.scratch = append(s.scratch[:0], t...)
		s.text, s.literal = s.scratch, true
		return xmlText, n, nil
	}
	return -1, n, nil // comment, processing instruction, directive
}

// stdError words an error of the decoder reading the token at tokStart as
// the JaCoCo and Clover readers always have: "expected well-formed XML" and
// encoding/xml's message, at the line and column where it stopped.
func (s *xmlScanner) stdError(d *xml.Decoder, err error) error {
	relLine, relCol := d.InputPos()
	tokLine, tokCol := s.tokPos()
	line, col := tokLine+relLine-1, relCol
	if relLine == 1 && relCol > 0 {
		// (encoding/xml gives column 0 after putting back a newline it
		// read; that is column 0 in the whole report too.)
		col = tokCol + relCol - 1
	}
	pe := &ParseError{Format: s.format, Line: line, Element: fmt.Sprintf("column %d", col)}
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		pe.Msg = "expected well-formed XML: " + se.Msg
		if se.Line != relLine {
			pe.Line, pe.Element = tokLine+se.Line-1, ""
		}
	} else {
		pe.Msg = "expected well-formed UTF-8 XML: " + strings.TrimPrefix(err.Error(), "xml: ")
	}
	return pe
}

// xmlJoinName is a name as written, prefix:local.
func xmlJoinName(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// xmlSplitName splits a name as encoding/xml does: prefix:local when both
// are non-empty, else all local.
func xmlSplitName(name []byte) (space, local []byte) {
	if i := bytes.IndexByte(name, ':'); i > 0 && i < len(name)-1 {
		return name[:i], name[i+1:]
	}
	return nil, name
}

// Byte classes of xmlByteClass: the bytes of a value or text that need a
// second look.
const (
	xmlByteQuote   = 1 << iota // " or '
	xmlByteLT                  // <
	xmlByteAmp                 // &
	xmlByteCR                  // \r
	xmlByteCtl                 // a control character other than \t, \n, \r: not an XML character
	xmlByteHigh                // a byte of a multi-byte UTF-8 sequence
	xmlByteBracket             // ]
)

var xmlByteClass = func() (t [256]uint8) {
	for c := range 0x20 {
		t[c] = xmlByteCtl
	}
	for c := 0x80; c < 0x100; c++ {
		t[c] = xmlByteHigh
	}
	t['\t'], t['\n'] = 0, 0
	t['\r'] = xmlByteCR
	t['"'], t['\''] = xmlByteQuote, xmlByteQuote
	t['<'] = xmlByteLT
	t['&'] = xmlByteAmp
	t[']'] = xmlByteBracket
	return t
}()

// xmlChars reports whether b is UTF-8 of XML characters (the Char
// production), as encoding/xml checks text and values.
func xmlChars(b []byte) bool {
	for len(b) > 0 {
		c := b[0]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
				return false
			}
			b = b[1:]
			continue
		}
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 || !xmlIsChar(r) {
			return false
		}
		b = b[n:]
	}
	return true
}

// xmlPlainName reports whether name is a name the scanner reads itself in
// xmlModeStdlib: ASCII, a letter, '_' or ':' first, at most one ':'.
// encoding/xml accepts these; other names are left to it.
func xmlPlainName(name []byte) bool {
	if len(name) == 0 || name[0] >= utf8.RuneSelf || !xmlNameStart(name[0]) {
		return false
	}
	colons := 0
	for _, c := range name {
		if c >= utf8.RuneSelf {
			return false
		}
		if c == ':' {
			colons++
		}
	}
	return colons <= 1
}

func xmlNameStart(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_' || c == ':' || c >= 0x80
}

// xmlNameEnd is the index of the first byte from i that cannot be in a name.
func xmlNameEnd(b []byte, i int) int {
	for ; i < len(b); i++ {
		c := b[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '_' || c == ':' || c == '.' || c == '-' || c >= 0x80) {
			return i
		}
	}
	return i
}

func xmlSkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	return i
}

// xmlLocal is a name without its namespace prefix (as encoding/xml splits
// it).
func xmlLocal(name []byte) []byte {
	for i, c := range name { // names are short: no IndexByte
		if c == ':' {
			if i > 0 && i < len(name)-1 {
				return name[i+1:]
			}
			return name
		}
	}
	return name
}

// xmlDecode appends raw with its references decoded and line ends
// normalised (\r\n and \r become \n), reporting false for a malformed
// reference or one to a character XML does not allow.
func xmlDecode(dst, raw []byte) ([]byte, bool) {
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
			if err != nil || len(digits) == 0 || !xmlIsChar(rune(v)) {
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

// xmlIsChar reports whether r is an XML character (the Char production).
func xmlIsChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}
