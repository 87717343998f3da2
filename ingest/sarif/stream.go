package sarif

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/plumbhq/plumb/internal/jsonstream"
)

// This file holds the JSON plumbing: a reader that knows the line and column
// of recent byte offsets, a token-streaming walk over the SARIF log, and the
// translation of encoding/json errors into ParseErrors that name the JSON path
// and the line.

// lineReader passes bytes through to the JSON decoder and keeps the bytes not
// yet released, so that the line and column of any offset the decoder has not
// moved past (and of the value it just decoded) can be computed. Memory is the
// decoder's own buffer again, not the document.
type lineReader struct {
	r     io.Reader
	bom   int   // bytes of a UTF-8 byte order mark skipped at the start
	total int64 // bytes handed to the decoder

	tail      []byte // bytes [tailStart, total)
	tailStart int64
	// Line bookkeeping at tailStart: its 1-based line and the offset its
	// line starts at (-1: before the document, so columns count from 1).
	baseLine      int
	baseLineStart int64
	// A forward-moving cursor, so that positions asked in increasing order
	// (one per result) cost O(document) in total.
	curOff       int64
	curLine      int
	curLineStart int64
}

const maxRead = 64 << 10

func newLineReader(r io.Reader) *lineReader {
	l := &lineReader{baseLine: 1, curLine: 1}
	// A UTF-8 byte order mark (written by some Windows tools) is not JSON:
	// skip it. Offsets count from after it (errAt adds it back).
	br := bufio.NewReader(r)
	if b, _ := br.Peek(3); bytes.Equal(b, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
		l.bom = 3
	}
	l.r = br
	return l
}

func (l *lineReader) Read(p []byte) (int, error) {
	if len(p) > maxRead {
		p = p[:maxRead]
	}
	n, err := l.r.Read(p)
	l.tail = append(l.tail, p[:n]...)
	l.total += int64(n)
	return n, err
}

// release forgets the bytes before off (the decoder will not look back).
func (l *lineReader) release(off int64) {
	if off-l.tailStart < 256<<10 || off > l.total {
		return // amortise: drop in large steps
	}
	line, lineStart := l.scan(l.tailStart, l.baseLine, l.baseLineStart, off)
	if l.curOff < off {
		l.curOff, l.curLine, l.curLineStart = off, line, lineStart
	}
	n := copy(l.tail, l.tail[off-l.tailStart:])
	l.tail = l.tail[:n]
	l.tailStart, l.baseLine, l.baseLineStart = off, line, lineStart
}

// scan counts lines from a known position (from, line, lineStart) to off.
func (l *lineReader) scan(from int64, line int, lineStart, off int64) (int, int64) {
	b := l.tail[from-l.tailStart : off-l.tailStart]
	for {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return line, lineStart
		}
		line++
		lineStart = off - int64(len(b)) + int64(i) + 1
		b = b[i+1:]
	}
}

// skip returns the offset of the first byte at or after off that is not in
// set (or off when the bytes are no longer kept).
func (l *lineReader) skip(off int64, set string) int64 {
	for off >= l.tailStart && off < l.total && strings.IndexByte(set, l.tail[off-l.tailStart]) >= 0 {
		off++
	}
	return off
}

// pos returns the 1-based line and byte column of offset off, or 0, 0 when
// the bytes around it are no longer kept.
func (l *lineReader) pos(off int64) (line, col int) {
	if off < l.tailStart || off > l.total {
		return 0, 0
	}
	var lineStart int64
	if off >= l.curOff {
		l.curLine, l.curLineStart = l.scan(l.curOff, l.curLine, l.curLineStart, off)
		l.curOff = off
		line, lineStart = l.curLine, l.curLineStart
	} else {
		line, lineStart = l.scan(l.tailStart, l.baseLine, l.baseLineStart, off)
	}
	return line, int(off-lineStart) + 1
}

// ParseError is a malformed SARIF report. It names the JSON element (Path,
// such as "runs[0].results[12].message"), where it is (Line and Column, 1-based,
// the column counting bytes; 0 when unknown; Offset, the 0-based byte offset)
// and what was expected (Msg).
type ParseError struct {
	Path   string
	Line   int
	Column int
	Offset int64
	Msg    string
}

func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString("SARIF report")
	if e.Path != "" {
		b.WriteString(" at ")
		b.WriteString(e.Path)
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, " (line %d, column %d, byte %d)", e.Line, e.Column, e.Offset)
	} else if e.Offset > 0 {
		fmt.Fprintf(&b, " (byte %d)", e.Offset)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// stream walks the SARIF log with a token decoder.
type stream struct {
	lr  *lineReader
	dec *json.Decoder
	// lastStart is the offset where the last token read by token starts.
	lastStart int64
}

const (
	space      = " \t\r\n"
	separators = space + ",:"
)

func newStream(r io.Reader) *stream {
	lr := newLineReader(r)
	return &stream{lr: lr, dec: json.NewDecoder(lr)}
}

// errAt builds a ParseError at byte offset off.
func (s *stream) errAt(path string, off int64, format string, args ...any) *ParseError {
	line, col := s.lr.pos(off)
	return &ParseError{Path: path, Line: line, Column: col, Offset: off + int64(s.lr.bom), Msg: fmt.Sprintf(format, args...)}
}

// jsonErr turns an error of the decoder into a ParseError.
func (s *stream) jsonErr(path string, err error) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		bufStart := s.dec.InputOffset()
		off := bufStart
		if se.Offset != bufStart {
			// An error inside a value the decoder was reading: its offset
			// counts only the bytes the decoder scanned in values, so find
			// the place again by scanning the unread bytes, which start
			// at that value.
			buf, _ := io.ReadAll(s.dec.Buffered())
			var raw json.RawMessage
			var se2 *json.SyntaxError
			if e2 := json.Unmarshal(buf, &raw); errors.As(e2, &se2) && se2.Offset > 0 {
				off = bufStart + se2.Offset - 1
			}
		}
		return s.errAt(path, off, "invalid JSON: %s", se.Error())
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return s.errAt(path, s.lr.total, "unexpected end of input: the JSON document is cut short")
	}
	return err // a read error of the underlying reader
}

// token reads the next token; the end of input is an error (the caller is
// always inside the document).
func (s *stream) token(path string) (json.Token, error) {
	before := s.dec.InputOffset()
	t, err := s.dec.Token()
	if err != nil {
		return nil, s.jsonErr(path, err)
	}
	s.lastStart = s.lr.skip(before, separators)
	return t, nil
}

// open reads the start of an object or array (want '{' or '['). A null is
// reported as ok=false when nullOK, otherwise it is an error like any other
// kind of value.
func (s *stream) open(path string, want json.Delim, what string, nullOK bool) (ok bool, err error) {
	t, err := s.token(path)
	if err != nil {
		return false, err
	}
	if d, isDelim := t.(json.Delim); isDelim && d == want {
		return true, nil
	}
	if t == nil && nullOK {
		return false, nil
	}
	return false, s.errAt(path, s.lastStart, "expected %s, found %s", what, jsonstream.Kind(t))
}

// key reads an object key, or reports false at the end of the object.
func (s *stream) key(path string) (string, bool, error) {
	if !s.dec.More() {
		if _, err := s.token(path); err != nil { // the closing '}'
			return "", false, err
		}
		return "", false, nil
	}
	t, err := s.token(path)
	if err != nil {
		return "", false, err
	}
	k, _ := t.(string)
	return k, true, nil
}

// skip reads and drops one value, token by token (no buffering).
func (s *stream) skip(path string) error {
	return jsonstream.Skip(func() (json.Token, error) { return s.token(path) })
}

// bytes returns the kept bytes [from, to), or nil when they are gone. The
// slice is valid until the next release.
func (l *lineReader) bytes(from, to int64) []byte {
	if from < l.tailStart || to > l.total || from > to {
		return nil
	}
	return l.tail[from-l.tailStart : to-l.tailStart]
}

// decode reads one value into v and returns its bytes (valid until the next
// release) and start offset. Type errors name the exact element.
func (s *stream) decode(path string, v any) ([]byte, int64, error) {
	before := s.dec.InputOffset()
	err := s.dec.Decode(v)
	var te *json.UnmarshalTypeError
	if err != nil && !errors.As(err, &te) {
		return nil, 0, s.jsonErr(path, err)
	}
	// The decoder consumed the separator before the value; the value's
	// data (which type errors count from) starts after it.
	data := s.lr.skip(before, space)
	if b := s.lr.bytes(data, data+1); len(b) == 1 && (b[0] == ',' || b[0] == ':') {
		data++
	}
	start := s.lr.skip(data, space)
	raw := s.lr.bytes(start, s.dec.InputOffset())
	if te != nil {
		rel, at := pathAt(raw, te.Offset-(start-data))
		return nil, 0, s.errAt(joinPath(path, rel), start+at, "expected %s, found %s", jsonKind(te.Type), te.Value)
	}
	return raw, start, nil
}

// elementErr is a validation error about the element at relative path rel
// inside a raw value that started at start.
func (s *stream) elementErr(path string, raw []byte, start int64, rel, format string, args ...any) *ParseError {
	return s.errAt(joinPath(path, rel), start+offsetOf(raw, rel), format, args...)
}

func joinPath(path, rel string) string {
	switch {
	case rel == "":
		return path
	case strings.HasPrefix(rel, "["):
		return path + rel
	}
	return path + "." + rel
}

// jsonKind names the JSON a Go type is decoded from.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "a boolean"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return t.String()
}

// walk visits every value of raw in order with its path relative to raw
// ("a.b[2].c"), the offset of its first token and the offset just after it.
// It stops when visit returns true.
func walk(raw []byte, visit func(path string, start, after int64) bool) {
	type frame struct {
		array     bool
		index     int
		key       string
		expectKey bool
	}
	var stack []*frame
	render := func() string {
		var b strings.Builder
		for _, f := range stack {
			if f.array {
				b.WriteString("[" + strconv.Itoa(f.index) + "]")
			} else {
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(f.key)
			}
		}
		return b.String()
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	for {
		start := dec.InputOffset()
		for start < int64(len(raw)) && strings.IndexByte(" \t\r\n,:", raw[start]) >= 0 {
			start++
		}
		t, err := dec.Token()
		if err != nil {
			return
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && !top.array && top.expectKey {
			if k, ok := t.(string); ok {
				top.key, top.expectKey = k, false
				continue
			}
		}
		if d, ok := t.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			if len(stack) > 0 && !stack[len(stack)-1].array {
				stack[len(stack)-1].expectKey = true
			}
			continue
		}
		if top != nil && top.array {
			top.index++
		}
		p := render()
		if d, ok := t.(json.Delim); ok {
			stack = append(stack, &frame{array: d == '[', index: -1, expectKey: d == '{'})
		} else if top != nil && !top.array {
			top.expectKey = true
		}
		if visit(p, start, dec.InputOffset()) {
			return
		}
	}
}

// pathAt returns the path of the value at offset off of raw (the first value
// whose first token ends at or after off) and that token's start offset.
func pathAt(raw []byte, off int64) (string, int64) {
	var path string
	var at int64
	walk(raw, func(p string, start, after int64) bool {
		path, at = p, start
		return after >= off
	})
	return path, at
}

// offsetOf returns the offset of the value at path rel of raw, 0 when absent.
func offsetOf(raw []byte, rel string) int64 {
	var at int64
	walk(raw, func(p string, start, _ int64) bool {
		if p == rel {
			at = start
			return true
		}
		return false
	})
	return at
}
