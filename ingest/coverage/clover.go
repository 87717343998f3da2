package coverage

// Clover XML, as written by OpenClover, PHPUnit --coverage-clover, and
// istanbul's clover reporter (nyc, c8, jest, vitest --reporter=clover):
//
//	<coverage generated=… clover=…>
//	  <project timestamp=… name=…>
//	    <metrics statements=… coveredstatements=… …/>
//	    <package name=…>                             (optional)
//	      <file name="cart.js" path="/abs/src/lib/cart.js">
//	        <metrics …/>
//	        <class …><metrics …/></class>           (PHPUnit, OpenClover)
//	        <line num="21" type="method" count="3" …/>
//	        <line num="22" type="stmt" count="3"/>
//	        <line num="23" type="cond" count="3" truecount="1" falsecount="1"/>
//	      </file>
//	    </package>
//	  </project>
//	  <testproject …>…</testproject>                 (OpenClover: test sources)
//	</coverage>
//
// The reader streams the document token by token (encoding/xml), keeping only
// the current file's hits.
//
// Hits: a line is coverable when it has a "stmt" or a "cond" entry; its hits
// are the entry's count. A "cond" entry without count (OpenClover writes
// only truecount and falsecount, how often the condition was true and false)
// counts truecount + falsecount, the times the condition ran. "method"
// entries mark where a function is declared and are not lines: Clover's
// summary counts statements (<metrics statements= coveredstatements=>), and
// PHPUnit's and istanbul's line summaries count the stmt/cond lines only, so
// Plumb's covered and missed lines equal the report's own project metrics
// and, for istanbul's reporter, nyc's "Lines" summary. Several entries for
// one line (OpenClover writes one per statement) keep the largest count, as
// istanbul does for the statements of a line: the line ran as often as its
// most-run statement. Files under <testproject> (coverage of the test code
// itself, outside Clover's project summary) are skipped.
//
// Paths: the <file>'s path attribute (absolute in istanbul's and OpenClover's
// reports), else its name (PHPUnit's full path; istanbul's name is only the
// base name). MapPath then applies StripPrefix and AddPrefix.
//
// Errors: malformed XML, a root element other than <coverage>, a <file>
// outside <project>, a <file> without path and name, a <line> outside a
// <file>, a missing or non-integer num or one outside 1…lcovMaxLine, a type
// other than stmt, cond and method, and a missing or negative count are
// ParseErrors naming the report line, the element and its column.

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
)

func init() { parsers[Clover] = parseClover }

func parseClover(r io.Reader, opt Options, emit Emit) error {
	src := &jacocoSource{r: jacocoSkipBOM(r)}
	dec := xml.NewDecoder(src)
	var (
		depth     int
		rooted    bool
		project   int  // depth of the open <project> or <testproject>, 0 if none
		testCode  bool // the open project is a <testproject>
		fileDepth int  // depth of the open <file>, 0 if none
		skipFile  bool // the open file is test code
		reported  string
		mapped    string
		hits      []int64
		line, col int
	)
	fail := func(elem, msg string, args ...any) error {
		return &ParseError{Format: Clover, Line: line, Element: fmt.Sprintf("<%s> at column %d", elem, col), Msg: fmt.Sprintf(msg, args...)}
	}
	for {
		line, col = dec.InputPos()
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return jacocoXMLError(Clover, dec, src, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name := t.Name.Local
			depth++
			if depth == 1 {
				if rooted {
					return fail(name, "expected nothing after the </coverage> that ends the report")
				}
				if name != "coverage" {
					return fail(name, "expected the root element <coverage> of a Clover XML report")
				}
				rooted = true
				continue
			}
			switch name {
			case "project", "testproject":
				if project == 0 {
					project, testCode = depth, name == "testproject"
				}
			case "file":
				if project == 0 {
					return fail(name, "expected <file> inside <project>")
				}
				if fileDepth != 0 {
					return fail(name, "expected </file> before another <file>")
				}
				p, _ := jacocoAttr(t.Attr, "path")
				if strings.TrimSpace(p) == "" {
					p, _ = jacocoAttr(t.Attr, "name")
				}
				reported = strings.TrimSpace(p)
				if reported == "" {
					return fail(name, `expected a path="<file path>" or name="<file path>" attribute`)
				}
				fileDepth, skipFile, hits = depth, testCode, nil
				if skipFile {
					break
				}
				m, ok := MapPath(reported, opt)
				if !ok {
					return fail(name, "expected a file inside the repository, got %q", reported)
				}
				mapped = m
			case "line":
				if fileDepth == 0 {
					return fail(name, "expected <line> inside a <file>")
				}
				if skipFile {
					break
				}
				num, h, msg := cloverLine(t.Attr)
				if msg != "" {
					return fail(name, "%s in %s", msg, reported)
				}
				if h < 0 { // a method entry
					break
				}
				if num > len(hits) {
					hits = lcovGrow(hits, num)
				}
				hits[num-1] = max(hits[num-1], h)
			}
		case xml.EndElement:
			switch {
			case depth == fileDepth:
				fileDepth = 0
				if !skipFile {
					f := File{Path: mapped, Hits: hits}
					if f.Hits == nil {
						f.Hits = []int64{}
					}
					hits = nil
					if err := emit(f); err != nil {
						return err
					}
				}
			case depth == project:
				project = 0
			}
			depth--
		}
	}
	if !rooted {
		return &ParseError{Format: Clover, Line: line, Msg: "expected the root element <coverage> of a Clover XML report"}
	}
	return nil
}

// cloverLine reads a <line>'s num and hits: -1 for a method entry, which is
// not a line (see the file comment).
func cloverLine(attrs []xml.Attr) (num int, hits int64, msg string) {
	var numText, typ, count, trueCount, falseCount string
	var haveNum, haveType, haveCount, haveTrue, haveFalse bool
	for _, a := range attrs {
		switch a.Name.Local {
		case "num":
			numText, haveNum = a.Value, true
		case "type":
			typ, haveType = strings.TrimSpace(a.Value), true
		case "count":
			count, haveCount = a.Value, true
		case "truecount":
			trueCount, haveTrue = a.Value, true
		case "falsecount":
			falseCount, haveFalse = a.Value, true
		}
	}
	if !haveNum {
		return 0, 0, `expected a num="<line number>" attribute`
	}
	n, err := strconv.ParseUint(strings.TrimSpace(numText), 10, 63)
	if err != nil || n < 1 || n > lcovMaxLine {
		return 0, 0, fmt.Sprintf(`expected num="<line number>" with an integer from 1 to %d, got %q`, lcovMaxLine, numText)
	}
	whole := func(attr, v string) (int64, string) {
		c, err := strconv.ParseUint(strings.TrimSpace(v), 10, 63)
		if err != nil {
			return 0, fmt.Sprintf(`expected %s="<count>" with a whole number, got %q`, attr, v)
		}
		return int64(c), ""
	}
	switch {
	case !haveType:
		return 0, 0, `expected a type="stmt|cond|method" attribute`
	case typ == "method":
		return int(n), -1, ""
	case typ != "stmt" && typ != "cond":
		return 0, 0, fmt.Sprintf(`expected type="stmt", "cond" or "method", got %q`, typ)
	case haveCount:
		c, msg := whole("count", count)
		return int(n), c, msg
	case typ == "cond" && haveTrue && haveFalse:
		t, msg := whole("truecount", trueCount)
		if msg != "" {
			return 0, 0, msg
		}
		f, msg := whole("falsecount", falseCount)
		if msg != "" {
			return 0, 0, msg
		}
		if t > 1<<62 || f > 1<<62 {
			return int(n), 1<<63 - 1, ""
		}
		return int(n), t + f, ""
	case typ == "cond":
		return 0, 0, `expected count="<count>", or truecount="<count>" and falsecount="<count>"`
	default:
		return 0, 0, `expected a count="<count>" attribute`
	}
}
