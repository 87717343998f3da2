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
// The reader streams the document through xmlScanner (xmlscan.go) with
// encoding/xml's rules (xmlModeStdlib), keeping only the current file's
// hits.
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
// Branches: a "cond" entry's truecount and falsecount mean two things. The
// istanbul reporter writes them beside a count, as the number of the line's
// branches that ran and that did not (a line of 4 branches, 3 run:
// truecount="3" falsecount="1"), so the line has truecount + falsecount
// branches, truecount covered, and their sum over the report is its
// <metrics conditionals= coveredconditionals=>. OpenClover writes them
// without a count, as the times the condition was true and false: the line
// has 2 branches, each covered when its count is above 0. Entries without
// truecount and falsecount give no figures; a line given twice keeps the
// larger figures. A truecount or falsecount that is not a whole number is
// an error.
//
// Paths: the <file>'s path attribute (absolute in istanbul's and OpenClover's
// reports), else its name (PHPUnit's full path; istanbul's name is only the
// base name). MapPath then applies StripPrefix and AddPrefix.
//
// Errors: malformed XML, a root element other than <coverage>, a <file>
// outside <project>, a <file> without path and name, a <line> outside a
// <file>, a missing or non-integer num or one outside 1…maxLine, a type
// other than stmt, cond and method, and a missing or negative count are
// ParseErrors naming the report line, the element and its column. Malformed
// XML is reported with encoding/xml's message; a tag, text run or comment
// longer than 4 MiB is an error too.

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/plumbhq/plumb"
)

func parseClover(r io.Reader, opt Options, emit Emit) error {
	var (
		project   int  // depth of the open <project> or <testproject>, 0 if none
		testCode  bool // the open project is a <testproject>
		fileDepth int  // depth of the open <file>, 0 if none
		skipFile  bool // the open file is test code
		reported  string
		mapped    string
		hits      = lineMap{combine: maxHits}
	)
	start := func(sc *xmlScanner, name []byte, depth int) error {
		switch string(name) {
		case "project", "testproject":
			if project == 0 {
				project, testCode = depth, string(name) == "testproject"
			}
		case "file":
			if project == 0 {
				return sc.failElem(name, "expected <file> inside <project>")
			}
			if fileDepth != 0 {
				return sc.failElem(name, "expected </file> before another <file>")
			}
			p, _ := sc.attrString("path")
			if strings.TrimSpace(p) == "" {
				p, _ = sc.attrString("name")
			}
			reported = strings.TrimSpace(p)
			if reported == "" {
				return sc.failElem(name, `expected a path="<file path>" or name="<file path>" attribute`)
			}
			fileDepth, skipFile = depth, testCode
			hits = lineMap{combine: maxHits, hint: hits.hint}
			if skipFile {
				break
			}
			m, ok := MapPath(reported, opt)
			if !ok {
				return sc.failElem(name, "expected a file inside the repository, got %q", reported)
			}
			mapped = m
		case "line":
			if fileDepth == 0 {
				return sc.failElem(name, "expected <line> inside a <file>")
			}
			if skipFile {
				break
			}
			num, h, br, msg := cloverLine(sc.attrs)
			if msg != "" {
				return sc.failElem(name, "%s in %s", msg, reported)
			}
			if h < 0 { // a method entry
				break
			}
			hits.add(num, h)
			hits.branch(num, br.Total, br.Covered)
		}
		return nil
	}
	end := func(_ *xmlScanner, _ []byte, depth int) error {
		switch depth {
		case fileDepth:
			fileDepth = 0
			if !skipFile {
				return emit(hits.file(mapped))
			}
		case project:
			project = 0
		}
		return nil
	}
	return readXMLReport(r, &xmlReport{format: Clover, mode: xmlModeStdlib, root: "coverage", title: "Clover XML report", start: start, end: end})
}

// cloverLine reads a <line>'s num, hits and branch figures: hits -1 for a
// method entry, which is not a line (see the file comment).
func cloverLine(attrs []xmlAttr) (num int, hits int64, br plumb.LineBranches, msg string) {
	var numText, typ, count, trueCount, falseCount []byte
	var haveNum, haveType, haveCount, haveTrue, haveFalse bool
	for i := range attrs {
		a := &attrs[i]
		switch string(xmlLocal(a.name)) {
		case "num":
			numText, haveNum = a.decoded(), true
		case "type":
			typ, haveType = bytes.TrimSpace(a.decoded()), true
		case "count":
			count, haveCount = a.decoded(), true
		case "truecount":
			trueCount, haveTrue = a.decoded(), true
		case "falsecount":
			falseCount, haveFalse = a.decoded(), true
		}
	}
	if !haveNum {
		return 0, 0, br, `expected a num="<line number>" attribute`
	}
	n, ok := goCoverUint(bytes.TrimSpace(numText), maxLine)
	if !ok || n < 1 {
		return 0, 0, br, fmt.Sprintf(`expected num="<line number>" with an integer from 1 to %d, got %q`, maxLine, numText)
	}
	whole := func(attr string, v []byte) (int64, string) {
		c, ok := goCoverUint(bytes.TrimSpace(v), math.MaxInt64)
		if !ok {
			return 0, fmt.Sprintf(`expected %s="<count>" with a whole number, got %q`, attr, v)
		}
		return c, ""
	}
	var t, f int64
	cond := string(typ) == "cond" && haveTrue && haveFalse
	if cond {
		if t, msg = whole("truecount", trueCount); msg != "" {
			return 0, 0, br, msg
		}
		if f, msg = whole("falsecount", falseCount); msg != "" {
			return 0, 0, br, msg
		}
	}
	switch {
	case !haveType:
		return 0, 0, br, `expected a type="stmt|cond|method" attribute`
	case string(typ) == "method":
		return int(n), -1, br, ""
	case string(typ) != "stmt" && string(typ) != "cond":
		return 0, 0, br, fmt.Sprintf(`expected type="stmt", "cond" or "method", got %q`, typ)
	case haveCount:
		c, msg := whole("count", count)
		if cond { // istanbul: covered and uncovered branches
			br = plumb.LineBranches{Line: int(n), Total: int(min(t+f, plumb.MaxBranches)), Covered: int(min(t, plumb.MaxBranches))}
		}
		return int(n), c, br, msg
	case cond: // OpenClover: the times the condition was true and false
		br = plumb.LineBranches{Line: int(n), Total: 2, Covered: min(int(t), 1) + min(int(f), 1)}
		if t > 1<<62 || f > 1<<62 {
			return int(n), 1<<63 - 1, br, ""
		}
		return int(n), t + f, br, ""
	case string(typ) == "cond":
		return 0, 0, br, `expected count="<count>", or truecount="<count>" and falsecount="<count>"`
	default:
		return 0, 0, br, `expected a count="<count>" attribute`
	}
}
