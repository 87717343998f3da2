package coverage

// SimpleCov JSON, in the three shapes Ruby projects upload:
//
//   - .resultset.json, SimpleCov's own store (coverage/.resultset.json), one
//     entry per test command (parallel CI jobs, rspec + cucumber, …):
//     {"<command name>": {"coverage": {"/abs/lib/a.rb": {"lines": [null, 1, 0, …],
//     "branches": {…}}, …}, "timestamp": 1700000000}, …}
//     Before SimpleCov 0.18 a file's value was the lines array itself:
//     {"/abs/lib/a.rb": [null, 1, 0, …]}.
//   - coverage.json of simplecov_json_formatter (SimpleCov 0.18+'s JSON
//     formatter): {"meta": {…}, "coverage": {"/abs/lib/a.rb": {"lines": […]}},
//     "groups": {…}}.
//   - coverage.json of the simplecov-json gem: {"files": [{"filename":
//     "/abs/lib/a.rb", "coverage": {"lines": […]} or […], …}], "metrics": {…},
//     "timestamp": …, "command_name": …}.
//
// Hits: lines[i] is line i+1; null is not coverable (-1), as is "ignored"
// (simplecov_json_formatter's word for a line of a :nocov: block, which
// SimpleCov leaves out of its figures), a whole number is the line's hits. Each command's files are emitted as they are read, so a
// file covered by several commands comes several times and the store adds
// the counts line by line, as SimpleCov merges results. Method data are
// skipped; branch data give branch figures (simplecovBranches). SimpleCov's own summary also leaves out lines inside
// ":nocov:" blocks, which only the source shows; a report is read as it is,
// so such lines count here as the report gives them. SimpleCov ignores a
// command result older than its merge_timeout when it reads a resultset;
// Plumb has no clock to compare with and keeps every command.
//
// The reader streams (encoding/json tokens): only the current file's lines
// array is held. Paths are the absolute file names SimpleCov writes; users
// give the project root as Options.StripPrefix. MapPath applies StripPrefix
// and AddPrefix.
//
// Errors: malformed JSON, a top-level value that is not an object, a command
// entry without "coverage", a file whose value is neither a lines array nor
// an object with "lines", a line value other than null, "ignored" or a whole number, a
// simplecov-json file without "filename" or "coverage", and a file longer
// than maxLine lines are ParseErrors naming the report line and the JSON
// path of the value, e.g. $.rspec.coverage["/app/lib/a.rb"].lines[12].

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/internal/jsonstream"
)

// simplecovReserved are the top-level keys of the two coverage.json shapes
// that hold no file data; any other key of a .resultset.json is a command.
var simplecovReserved = map[string]bool{
	"meta": true, "groups": true, "metrics": true, "timestamp": true,
	"command_name": true, "errors": true, "total": true,
}

func parseSimpleCov(r io.Reader, opt Options, emit Emit) error {
	j := newSimplecovJSON(SimpleCov, r)
	t, err := j.token()
	if err != nil {
		return err
	}
	if t != json.Delim('{') {
		return j.fail(`expected a JSON object: a SimpleCov .resultset.json ({"<command>": {"coverage": {…}}}) or coverage.json ({"coverage": {…}} or {"files": […]}), got %s`, jsonstream.Describe(t))
	}
	err = j.members(func(key string) error {
		switch {
		case simplecovReserved[key]:
			return j.skip()
		case key == "files":
			t, err := j.token()
			if err != nil {
				return err
			}
			if t == json.Delim('[') {
				return simplecovFileList(j, opt, emit)
			}
			return simplecovCommand(j, t, opt, emit)
		case key == "coverage":
			// simplecov_json_formatter's file map, or a command named
			// "coverage": a command's entry has only "coverage" and
			// "timestamp".
			t, err := j.token()
			if err != nil {
				return err
			}
			if t != json.Delim('{') {
				return j.fail(`expected an object of files {"/path/file.rb": {"lines": […]}}, got %s`, jsonstream.Describe(t))
			}
			first, command, sawCoverage := true, false, false
			err = j.members(func(k string) error {
				if first {
					first = false
					command = k == "coverage" || k == "timestamp"
				}
				switch {
				case !command:
					return simplecovFile(j, k, opt, emit)
				case k == "coverage":
					sawCoverage = true
					return simplecovFileMap(j, opt, emit)
				}
				return j.skip()
			})
			if err == nil && command && !sawCoverage {
				return j.fail(`expected "coverage" in the command's entry {"coverage": {…}, "timestamp": …}`)
			}
			return err
		default:
			t, err := j.token()
			if err != nil {
				return err
			}
			return simplecovCommand(j, t, opt, emit)
		}
	})
	if err != nil {
		return err
	}
	return j.end()
}

// simplecovCommand reads a .resultset.json command entry whose first token
// t has been read.
func simplecovCommand(j *simplecovJSON, t json.Token, opt Options, emit Emit) error {
	if t != json.Delim('{') {
		return j.fail(`expected a command's entry {"coverage": {…}, "timestamp": …}, got %s`, jsonstream.Describe(t))
	}
	saw := false
	err := j.members(func(k string) error {
		if k != "coverage" {
			return j.skip()
		}
		saw = true
		return simplecovFileMap(j, opt, emit)
	})
	if err == nil && !saw {
		return j.fail(`expected "coverage" in the command's entry {"coverage": {…}, "timestamp": …}`)
	}
	return err
}

// simplecovFileMap reads {"/path/file.rb": {"lines": […]} or […], …}.
func simplecovFileMap(j *simplecovJSON, opt Options, emit Emit) error {
	t, err := j.token()
	if err != nil {
		return err
	}
	if t != json.Delim('{') {
		return j.fail(`expected an object of files {"/path/file.rb": {"lines": […]}}, got %s`, jsonstream.Describe(t))
	}
	return j.members(func(name string) error {
		return simplecovFile(j, name, opt, emit)
	})
}

// simplecovFile reads one file's {"lines": […], …} or […] and emits it.
func simplecovFile(j *simplecovJSON, name string, opt Options, emit Emit) error {
	p, ok := MapPath(name, opt)
	if !ok {
		return j.fail("expected a file inside the repository, got %q", name)
	}
	hits, branches, err := simplecovCoverage(j)
	if err != nil {
		return err
	}
	return emit(File{Path: p, Hits: hits, Branches: branches})
}

// simplecovCoverage reads a file's coverage value: a lines array, or an
// object with "lines" (and maybe "branches").
func simplecovCoverage(j *simplecovJSON) ([]int64, []plumb.LineBranches, error) {
	t, err := j.token()
	if err != nil {
		return nil, nil, err
	}
	switch t {
	case json.Delim('['):
		hits, err := simplecovLines(j)
		return hits, nil, err
	case json.Delim('{'):
		var hits []int64
		var branches []plumb.LineBranches
		saw := false
		err := j.members(func(k string) error {
			if k == "branches" {
				var err error
				branches, err = simplecovBranches(j)
				return err
			}
			if k != "lines" {
				return j.skip()
			}
			t, err := j.token()
			if err != nil {
				return err
			}
			if t != json.Delim('[') {
				return j.fail("expected an array of line hits [null, 1, 0, …], got %s", jsonstream.Describe(t))
			}
			saw = true
			hits, err = simplecovLines(j)
			return err
		})
		if err == nil && !saw {
			err = j.fail(`expected "lines" in the file's coverage {"lines": [null, 1, 0, …]}`)
		}
		return hits, branches, err
	}
	return nil, nil, j.fail(`expected the file's coverage {"lines": [null, 1, 0, …]} or [null, 1, 0, …], got %s`, jsonstream.Describe(t))
}

// simplecovBranches reads a .resultset.json file's "branches", Ruby's
// Coverage branch data: {"[:if, 0, 12, 4, 20, 29]": {"[:then, 1, 13, 6,
// 13, 18]": 4, "[:else, 2, 15, 6, 15, 18]": 0}, …}. Each condition sits on
// its key's third element (its first line); its arms are its members, each
// covered when its count is above 0. The simplecov_json_formatter's
// "branches" array lists arms on their own lines without their condition's
// line, so it gives no figures (skipped).
func simplecovBranches(j *simplecovJSON) ([]plumb.LineBranches, error) {
	t, err := j.token()
	if err != nil {
		return nil, err
	}
	if t == json.Delim('[') {
		return nil, jsonstream.SkipRest(j.token)
	}
	if t != json.Delim('{') {
		return nil, j.fail(`expected the branches {"[:if, 0, <line>, …]": {"[:then, …]": <count>, …}, …}, got %s`, jsonstream.Describe(t))
	}
	m := lineMap{combine: maxHits, sumBranches: true}
	err = j.members(func(cond string) error {
		line, ok := simplecovBranchLine(cond)
		if !ok {
			return j.fail(`expected a condition key "[:<type>, <id>, <line>, <column>, <line>, <column>]" with a line from 1 to %d, got %q`, maxLine, cond)
		}
		t, err := j.token()
		if err != nil {
			return err
		}
		if t != json.Delim('{') {
			return j.fail(`expected the condition's arms {"[:then, …]": <count>, …}, got %s`, jsonstream.Describe(t))
		}
		total, covered := 0, 0
		err = j.members(func(string) error {
			c, err := j.wholeCount()
			if err != nil {
				return err
			}
			total++
			if c > 0 {
				covered++
			}
			return nil
		})
		m.branch(line, min(total, plumb.MaxBranches), min(covered, plumb.MaxBranches))
		return err
	})
	if err != nil {
		return nil, err
	}
	return m.branches.take(true), nil
}

// simplecovBranchLine reads the line of a condition key "[:if, 0, 12, …]".
func simplecovBranchLine(key string) (int, bool) {
	parts := strings.Split(strings.TrimSuffix(strings.TrimPrefix(key, "["), "]"), ",")
	if len(parts) < 3 || !strings.HasPrefix(key, "[") || !strings.HasSuffix(key, "]") {
		return 0, false
	}
	n, ok := goCoverUint([]byte(strings.TrimSpace(parts[2])), maxLine)
	return int(n), ok && n >= 1
}

// simplecovLines reads the rest of a lines array whose '[' has been read.
func simplecovLines(j *simplecovJSON) ([]int64, error) {
	hits := []int64{}
	for i := 0; ; i++ {
		t, err := j.token()
		if err != nil {
			return nil, err
		}
		if t == json.Delim(']') {
			return hits, nil
		}
		if i >= maxLine {
			return nil, j.fail("expected at most %d lines", maxLine)
		}
		// simplecov_json_formatter writes "ignored" for the lines of a
		// :nocov: block, which SimpleCov leaves out of its figures.
		n, ok := int64(-1), t == nil || t == "ignored"
		if v, isNum := t.(json.Number); isNum {
			n, ok = simplecovWhole(v)
		}
		if !ok {
			j.pushIndex(i)
			return nil, j.fail("expected null, \"ignored\" or a whole number of hits for line %d, got %s", i+1, jsonstream.Describe(t))
		}
		hits = append(hits, n)
	}
}

// simplecovFileList reads simplecov-json's "files" array whose '[' has been
// read: [{"filename": …, "coverage": …}, …].
func simplecovFileList(j *simplecovJSON, opt Options, emit Emit) error {
	return j.elements(func(t json.Token) error {
		if t != json.Delim('{') {
			return j.fail(`expected a file {"filename": …, "coverage": …}, got %s`, jsonstream.Describe(t))
		}
		var (
			name     string
			haveName bool
			hits     []int64
			branches []plumb.LineBranches
			haveHits bool
		)
		err := j.members(func(k string) error {
			switch k {
			case "filename":
				s, err := j.pathString()
				if err != nil {
					return err
				}
				name, haveName = s, true
			case "coverage":
				h, b, err := simplecovCoverage(j)
				if err != nil {
					return err
				}
				hits, branches, haveHits = h, b, true
			default:
				return j.skip()
			}
			return nil
		})
		if err != nil {
			return err
		}
		if !haveName {
			return j.fail(`expected "filename" in the file`)
		}
		if !haveHits {
			return j.fail(`expected "coverage" in the file`)
		}
		p, ok := MapPath(name, opt)
		if !ok {
			j.pushKey("filename")
			return j.fail("expected a file inside the repository, got %q", name)
		}
		return emit(File{Path: p, Hits: hits, Branches: branches})
	})
}

// wholeCount reads a whole number of hits.
func (j *simplecovJSON) wholeCount() (int64, error) {
	t, err := j.token()
	if err != nil {
		return 0, err
	}
	num, ok := t.(json.Number)
	c, whole := simplecovWhole(num)
	if !ok || !whole {
		return 0, j.fail("expected a whole number of hits, got %s", jsonstream.Describe(t))
	}
	return c, nil
}

// simplecovWhole parses a JSON number that must be a whole number of hits.
func simplecovWhole(n json.Number) (int64, bool) {
	v, err := strconv.ParseUint(string(n), 10, 63)
	return int64(v), err == nil
}

// simplecovJSON is a token reader over a JSON report that knows the report
// line and the JSON path of what it reads, for error messages; also used by
// the Istanbul reader.
type simplecovJSON struct {
	format Format
	dec    *json.Decoder
	src    *simplecovLineReader
	path   []simplecovStep // where the reader is, rendered only for errors
}

// pathString reads a file's path, which must be a string.
func (j *simplecovJSON) pathString() (string, error) {
	t, err := j.token()
	if err != nil {
		return "", err
	}
	s, ok := t.(string)
	if !ok {
		return "", j.fail("expected the file's path as a string, got %s", jsonstream.Describe(t))
	}
	return s, nil
}

// simplecovStep is one step of a JSON path: an object key, or an array
// index when key is "" and index >= 0.
type simplecovStep struct {
	key   string
	index int
}

func newSimplecovJSON(f Format, r io.Reader) *simplecovJSON {
	src := &simplecovLineReader{r: skipBOM(r)}
	dec := json.NewDecoder(src)
	dec.UseNumber()
	return &simplecovJSON{format: f, dec: dec, src: src}
}

func (j *simplecovJSON) pushKey(k string) { j.path = append(j.path, simplecovStep{key: k, index: -1}) }
func (j *simplecovJSON) pushIndex(i int)  { j.path = append(j.path, simplecovStep{index: i}) }
func (j *simplecovJSON) setIndex(i int)   { j.path[len(j.path)-1].index = i }
func (j *simplecovJSON) pop()             { j.path = j.path[:len(j.path)-1] }

// at renders the current path: $, then .key for identifiers, ["key"] for
// other keys and [i] for indexes.
func (j *simplecovJSON) at() string {
	var b strings.Builder
	b.WriteString("$")
	for _, s := range j.path {
		switch {
		case s.index >= 0:
			fmt.Fprintf(&b, "[%d]", s.index)
		case simplecovIdent(s.key):
			b.WriteString(".")
			b.WriteString(s.key)
		default:
			q, _ := json.Marshal(s.key)
			b.WriteString("[")
			b.Write(q)
			b.WriteString("]")
		}
	}
	return b.String()
}

// simplecovIdent reports whether k can be written .k in a path.
func simplecovIdent(k string) bool {
	for i, c := range k {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return k != ""
}

// token reads the next token.
func (j *simplecovJSON) token() (json.Token, error) {
	t, err := j.dec.Token()
	if err != nil {
		return nil, j.classify(err)
	}
	return t, nil
}

// classify turns a decoder error into a ParseError, leaving the underlying
// reader's own errors as they are.
func (j *simplecovJSON) classify(err error) error {
	if j.src.err != nil && errors.Is(err, j.src.err) {
		return err
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &ParseError{Format: j.format, Line: j.src.lineAt(se.Offset), Element: j.at(), Msg: "expected well-formed JSON: " + se.Error()}
	}
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return &ParseError{Format: j.format, Line: j.src.lineAt(j.src.off), Element: j.at(), Msg: "expected more JSON: the report ends early"}
	}
	return &ParseError{Format: j.format, Line: j.src.lineAt(j.dec.InputOffset()), Element: j.at(), Msg: "expected well-formed JSON: " + err.Error()}
}

// fail is a ParseError at the value just read.
func (j *simplecovJSON) fail(msg string, args ...any) error {
	return &ParseError{Format: j.format, Line: j.src.lineAt(j.dec.InputOffset()), Element: j.at(), Msg: fmt.Sprintf(msg, args...)}
}

// members reads the members of an object whose '{' has been read, calling
// f with each key (pushed on the path) when the decoder is at the key's
// value; f must read the value whole.
func (j *simplecovJSON) members(f func(key string) error) error {
	for {
		t, err := j.token()
		if err != nil {
			return err
		}
		if t == json.Delim('}') {
			return nil
		}
		k, ok := t.(string)
		if !ok { // encoding/json reports this as a syntax error first
			return j.fail("expected an object key, got %s", jsonstream.Describe(t))
		}
		j.pushKey(k)
		if err := f(k); err != nil {
			return err
		}
		j.pop()
	}
}

// elements reads an array whose '[' has been read: f is given each
// element's first token, with the element's index on the path, up to the
// closing ']'.
func (j *simplecovJSON) elements(f func(t json.Token) error) error {
	j.pushIndex(0)
	defer j.pop()
	for i := 0; ; i++ {
		j.setIndex(i)
		t, err := j.token()
		if err != nil {
			return err
		}
		if t == json.Delim(']') {
			return nil
		}
		if err := f(t); err != nil {
			return err
		}
	}
}

// skip reads one value whole.
func (j *simplecovJSON) skip() error { return jsonstream.Skip(j.token) }

// end checks that nothing follows the top-level value.
func (j *simplecovJSON) end() error {
	t, err := j.dec.Token()
	if err == io.EOF {
		return nil
	}
	if err != nil {
		return j.classify(err)
	}
	return j.fail("expected the end of the report after the top-level object, got %s", jsonstream.Describe(t))
}

// simplecovLineReader counts the lines of what it reads and keeps the last
// few KiB, so that a decoder offset (which is never far behind what was read:
// reads are at most simplecovChunk bytes) can be turned into a line number.
type simplecovLineReader struct {
	r     io.Reader
	err   error  // the underlying reader's error other than EOF
	off   int64  // bytes read so far
	lines int    // newlines in them
	tail  []byte // the last bytes read, ending at off
}

const simplecovChunk = 4 << 10

func (l *simplecovLineReader) Read(p []byte) (int, error) {
	if len(p) > simplecovChunk {
		p = p[:simplecovChunk]
	}
	n, err := l.r.Read(p)
	if err != nil && err != io.EOF {
		l.err = err
	}
	l.off += int64(n)
	l.lines += bytes.Count(p[:n], []byte{'\n'})
	if len(l.tail)+n > 4*simplecovChunk {
		keep := l.tail[len(l.tail)-simplecovChunk:]
		l.tail = append(l.tail[:0], keep...)
	}
	l.tail = append(l.tail, p[:n]...)
	return n, err
}

// lineAt is the 1-based line of byte offset o, or 0 when o is out of the
// kept tail.
func (l *simplecovLineReader) lineAt(o int64) int {
	start := l.off - int64(len(l.tail))
	if o < start || o > l.off {
		return 0
	}
	return l.lines + 1 - bytes.Count(l.tail[o-start:], []byte{'\n'})
}
